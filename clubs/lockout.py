"""Sign-in lockouts: django-axes's database handler with two limits instead of one.

django-axes counts failed sign-ins by the combinations of ``AXES_LOCKOUT_PARAMETERS`` and
compares the highest count with one ``AXES_FAILURE_LIMIT``. The product wants two limits:

* **per account and address** (``AXES_FAILURE_LIMIT``, 10): someone guessing one person's
  password; other addresses are not locked, so nobody can lock a director out from elsewhere;
* **per address** (``LOGIN_ADDRESS_FAILURE_LIMIT``, 50 by default): someone trying many names from
  one address (270 wrong passwords over 30 names all went through). Higher, because a club room
  shares one public address and its people mistype too.

The per-address limit applies **only to the accounts that failed from that address**. A club
room shares one public address: counted against every name, 50 wrong passwords there (a
spray, or the room's own typos) locked every member out, right passwords too. So past the
address's limit, a name with a failure of its own from the address is refused (the sprayed
names, right password or not, until the cool-off), and any other name gets in with its right
password while its first wrong one locks it there too: a spray past the limit gets one guess a
name instead of ``AXES_FAILURE_LIMIT``, and never locks out a member who did not fail.

:class:`LockoutHandler` counts each combination against its own limit, scaled to the one limit
axes compares with. A right password clears that account's failures from that address only:
signing in to one's own account does not wipe the address's count of failures on other names.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.db.models import QuerySet, Sum
from django.http import HttpRequest

# AXES_LOCKOUT_PARAMETERS, in this order (config/settings).
ACCOUNT_AND_ADDRESS = ["username", "ip_address"]
ADDRESS = ["ip_address"]


def _limits(request: HttpRequest, credentials: dict[str, object] | None) -> list[int]:
    """Each lockout combination's own limit, in the order of ``AXES_LOCKOUT_PARAMETERS``."""
    account = get_failure_limit(request, credentials)
    return [account if list(p) == ACCOUNT_AND_ADDRESS else settings.LOGIN_ADDRESS_FAILURE_LIMIT
            for p in settings.AXES_LOCKOUT_PARAMETERS]


class LockoutHandler(AxesDatabaseHandler):
    """``AXES_HANDLER``: django-axes's database handler, each combination with its own limit."""

    def get_failures(self, request: HttpRequest, credentials: dict[str, object] | None = None) -> int:
        """The failures as axes compares them with ``AXES_FAILURE_LIMIT``: each combination's
        count scaled by that limit over its own, the highest."""
        account = get_failure_limit(request, credentials)
        counts = [(attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0, limit, parameters)
                  for attempts, limit, parameters in zip(
                      self.get_user_attempts(request, credentials), _limits(request, credentials),
                      settings.AXES_LOCKOUT_PARAMETERS, strict=True)]
        own = max((failures for failures, _, parameters in counts
                   if list(parameters) == ACCOUNT_AND_ADDRESS), default=0)
        scaled = 0
        for failures, limit, parameters in counts:
            if list(parameters) == ADDRESS and not own:
                continue  # the address's count never refuses a name that did not fail there
            scaled = max(scaled, failures * account // limit)
        return scaled

    def reset_user_attempts(self, request: HttpRequest,
                            credentials: dict[str, object] | None = None) -> int:
        """A right password clears that account's failures from that address only."""
        count = 0
        for attempts, parameters in zip(self.filter_user_attempts(request, credentials),
                                        settings.AXES_LOCKOUT_PARAMETERS, strict=True):
            if list(parameters) == ACCOUNT_AND_ADDRESS:
                deleted: QuerySet[AccessAttempt] = attempts
                count += deleted.delete()[0]
        return count

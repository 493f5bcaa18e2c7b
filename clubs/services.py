"""Writes on clubs, memberships, invitations and players. Keyword-only, one transaction each.

Who may change which role is decided in :mod:`clubs.permissions` (``check_grant_role``) and asked
here, by every path: directors manage members and scorers, owners everyone; a club always keeps
an owner. Role changes lock the club row, so two owners demoting each other at once cannot leave
the club without one.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from common.errors import DomainError
from common.rulesets import check_ruleset
from common.types import Actor, actor_user

from .models import (
    CORRECTION_WINDOW_MAX,
    AccountSettings,
    Club,
    ClubPlayer,
    Invitation,
    Membership,
    Player,
    validate_time_zone,
)
from .permissions import RANK, check_club_role, check_grant_role

if TYPE_CHECKING:
    pass


@transaction.atomic
def club_create(
    *,
    name: str,
    owner: Actor,
    slug: str = "",
    time_zone: str = "UTC",
    ruleset_preset: str = "pagat_double_deck",
    ruleset_overrides: Mapping[str, object] | None = None,
    is_public: bool = True,
) -> Club:
    name = name.strip()
    if not name:
        raise DomainError(gettext("Give the club a name."), field="name")
    slug = slugify(slug or name)[:60]
    if not slug:
        raise DomainError(gettext("The club needs a web address made of letters or digits."), field="slug")
    if Club.objects.filter(slug=slug).exists():
        raise DomainError(gettext("The address %(slug)s is taken; pick another.") % {"slug": repr(slug)}, field="slug")
    try:
        validate_time_zone(time_zone)
    except Exception:
        raise DomainError(gettext("%(time_zone)s is not a known time zone.") % {"time_zone": repr(time_zone)}, field="time_zone") from None
    check_ruleset(preset=ruleset_preset, overrides=ruleset_overrides)
    user = actor_user(owner)
    if user is None:
        raise PermissionDenied(gettext("Sign in to create a club."))
    club = Club.objects.create(
        name=name, slug=slug, time_zone=time_zone, ruleset_preset=ruleset_preset,
        ruleset_overrides=ruleset_overrides or {}, is_public=is_public,
    )
    Membership.objects.create(club=club, user=user, role=Membership.Role.OWNER)
    return club


class _Unset:
    """Marks an argument left out (``None`` means "no window")."""


UNSET = _Unset()


def _window(value: object) -> int | None:
    if value is None or value == "":
        return None
    try:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError
        minutes = int(str(value).strip())
    except ValueError:
        raise DomainError(gettext("The correction window is a whole number of minutes (blank: no lock)."), field="correction_window_minutes") from None
    if not 0 <= minutes <= CORRECTION_WINDOW_MAX:
        raise DomainError(gettext("The correction window is from 0 to %(correction_window_max)s minutes (blank: no lock).") % {"correction_window_max": format(CORRECTION_WINDOW_MAX, ',')}, field="correction_window_minutes",
                          code="max_value" if minutes > 0 else "min_value")
    return minutes


@transaction.atomic
def club_corrections_set(*, club: Club, show_director_names: object = UNSET,
                         correction_window_minutes: object = UNSET, actor: Actor | None = None) -> Club:
    """The club's rules for corrections (owners only, with an ``actor``): whether the public
    Corrections list of its events names the director (``show_director_names``), and the
    correction window, minutes after an event finishes after which its results lock and only
    an owner reopens it (``correction_window_minutes``; None: no lock). Left out: unchanged."""
    if actor is not None:
        check_club_role(user=actor, club=club, role=Membership.Role.OWNER)
    locked = Club.objects.select_for_update().get(pk=club.pk)
    fields = []
    if show_director_names is not UNSET:
        if not isinstance(show_director_names, bool):
            raise DomainError(gettext("Say true or false."), field="show_director_names")
        locked.show_director_names = show_director_names
        fields.append("show_director_names")
    if correction_window_minutes is not UNSET:
        locked.correction_window_minutes = _window(correction_window_minutes)
        fields.append("correction_window_minutes")
    if fields:
        locked.save(update_fields=fields)
    return locked


@transaction.atomic
def club_watchers_set(*, club: Club, show_watchers: object, actor: Actor | None = None) -> Club:
    """Whether the public pages of the club's running events say how many people are watching
    them now (owners only, with an ``actor``; ``standings.watchers``)."""
    if actor is not None:
        check_club_role(user=actor, club=club, role=Membership.Role.OWNER)
    if not isinstance(show_watchers, bool):
        raise DomainError(_("Say true or false."), field="show_watchers")
    locked = Club.objects.select_for_update().get(pk=club.pk)
    if locked.show_watchers != show_watchers:
        locked.show_watchers = show_watchers
        locked.save(update_fields=["show_watchers"])
    return locked


def _language(value: object, *, field: str, blank: bool) -> str:
    known = [code for code, _ in settings.LANGUAGES]
    if not isinstance(value, str) or value not in known + ([""] if blank else []):
        raise DomainError(
            _("Choose one of the languages: %(languages)s.") % {"languages": ", ".join(known)},
            field=field, code="invalid_choice")
    return value


@transaction.atomic
def club_language_set(*, club: Club, language: object, actor: Actor | None = None) -> Club:
    """The club's language (owners only, with an ``actor``): its pages, walls and mails are
    written in it for readers who chose no language of their own; "" leaves each reader's."""
    if actor is not None:
        check_club_role(user=actor, club=club, role=Membership.Role.OWNER)
    locked = Club.objects.select_for_update().get(pk=club.pk)
    locked.language = _language(language, field="language", blank=True)
    locked.save(update_fields=["language"])
    return locked


@transaction.atomic
def account_language_set(*, user: Actor, language: object) -> AccountSettings:
    """The account's own language: it beats the club's and the browser's, on every device
    it signs in on. "" forgets the choice."""
    settings_row, _created = AccountSettings.objects.select_for_update().get_or_create(user=user)
    settings_row.language = _language(language, field="language", blank=True)
    settings_row.save(update_fields=["language"])
    return settings_row


# One answer for every user name that cannot be given a role, whether or not an account of
# that name exists: the club's owner learns nothing about other people's accounts from it.
MEMBER_REFUSED = ("No user with that name can be added. Check the spelling; the person needs an "
                  "active account of their own first.")


def _lock_club(club: Club) -> None:
    """Serialise role changes in one club (see the module's docstring)."""
    Club.objects.select_for_update().filter(pk=club.pk).values_list("pk").first()


@transaction.atomic
def membership_set(*, club: Club, username: str, role: str,
                   actor: Actor | None = None) -> Membership:
    """Give a user a role in the club (or change it). The last owner cannot be demoted.

    With an ``actor`` (every page and API call), the actor must be allowed to give the new role
    and to take away the old one (``PermissionDenied`` otherwise): directors move people between
    member and scorer; owners give and take any role. Without one (management commands) the
    change is made as asked.

    Only active accounts can be given a role; any other name (no such account, or a
    deactivated one) gets the same refusal, :data:`MEMBER_REFUSED`, which does not repeat it.
    """
    if role not in Membership.Role.values:
        raise DomainError(
            gettext("Role must be one of %(values)s.") % {"values": ', '.join(Membership.Role.values)}, field="role"
        )
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise DomainError(MEMBER_REFUSED, field="username")
    _lock_club(club)
    membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
    if actor is not None:
        check_grant_role(user=actor, club=club, role=role,
                         current=membership.role if membership else None)
    if membership is not None and membership.role == Membership.Role.OWNER and role != "owner":
        _keep_an_owner(club, excluding=membership)
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=role)
    else:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, club: Club, username: str, actor: Actor | None = None) -> str:
    """Take someone out of the club (their role goes; their games and player stay). Directors
    remove members and scorers, owners anyone but the last owner. Returns the user name."""
    _lock_club(club)
    membership = (Membership.objects.select_for_update(of=("self",)).select_related("user")
                  .filter(club=club, user__username=username.strip()).first())
    if membership is None:
        raise DomainError(gettext("%(value)s is not a member of %(name)s.") % {"value": username.strip() or 'That user', "name": club.name},
                          field="username")
    if actor is not None:
        check_grant_role(user=actor, club=club, role="", current=membership.role)
    if membership.role == Membership.Role.OWNER:
        _keep_an_owner(club, excluding=membership)
    name = membership.user.get_username()
    membership.delete()
    return name


def _keep_an_owner(club: Club, *, excluding: Membership) -> None:
    others = Membership.objects.filter(club=club, role=Membership.Role.OWNER).exclude(pk=excluding.pk)
    if not others.exists():
        raise DomainError(gettext("A club needs at least one owner."), field="role")


# --- invitations ------------------------------------------------------------------------------
# Why a link no longer works, in the words the invitation page and the API give.
INVITATION_REFUSALS = {
    "revoked": "This invitation was withdrawn by the club. Ask whoever sent it for a new link.",
    "expired": "This invitation has expired. Ask whoever sent it for a new link.",
    "used_up": "This invitation has been used as many times as it allows. Ask whoever sent it "
               "for a new link.",
}
INVITATION_UNKNOWN = "No such invitation. Check that the whole link was copied."


@transaction.atomic
def invitation_create(
    *,
    club: Club,
    role: str,
    actor: Actor,
    days: int = Invitation.DEFAULT_DAYS,
    max_uses: int | None = None,
    note: str = "",
) -> Invitation:
    """A new invitation link to ``club`` for ``role``, valid ``days`` days and ``max_uses``
    times (None: any number). Directors invite members and scorers; only owners invite
    directors, and a director invitation always works once (``max_uses`` 1)."""
    if role not in Invitation.Role.values:
        raise DomainError(gettext("Role must be one of %(values)s.") % {"values": ', '.join(Invitation.Role.values)},
                          field="role")
    check_grant_role(user=actor, club=club, role=role)
    if not 1 <= days <= Invitation.MAX_DAYS:
        raise DomainError(gettext("A link lasts from 1 to %(max_days)s days.") % {"max_days": Invitation.MAX_DAYS}, field="days")
    if max_uses is not None and not 1 <= max_uses <= Invitation.MAX_USES:
        raise DomainError(gettext("Uses must be from 1 to %(max_uses)s (or empty for no limit).") % {"max_uses": format(Invitation.MAX_USES, ',')}, field="max_uses")
    if role == Invitation.Role.DIRECTOR:
        if max_uses not in (None, 1):
            raise DomainError(gettext("A director invitation is for one person: it works once."),
                              field="max_uses")
        max_uses = 1
    note = " ".join(note.split())
    if len(note) > 80:
        raise DomainError(gettext("A note is at most 80 characters."), field="note")
    return Invitation.objects.create(
        club=club, role=role, note=note, created_by=actor_user(actor), max_uses=max_uses,
        expires_at=timezone.now() + datetime.timedelta(days=days),
    )


@transaction.atomic
def invitation_revoke(*, invitation: Invitation, actor: Actor) -> Invitation:
    """Withdraw an invitation: its link stops working at once. Whoever may make an invitation
    for its role may revoke it; revoking twice changes nothing."""
    check_grant_role(user=actor, club=invitation.club, role=invitation.role)
    locked = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if locked.revoked_at is None:
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])
    return locked


@transaction.atomic
def invitation_accept(*, token: str, user: Actor) -> tuple[Membership, bool]:
    """Give ``user`` the invitation's role in its club. Returns the membership and whether it
    changed: accepting never lowers a role, and when the user already has the role or a higher
    one nothing changes and no use is counted.

    Refused with a :class:`DomainError` on ``token`` whose code says why: ``not_found``,
    ``revoked``, ``expired`` or ``used_up``. The invitation row is locked, so two people
    accepting a single-use link at once cannot both get it.
    """
    invitation = (Invitation.objects.select_for_update(of=("self",)).select_related("club")
                  .filter(token=str(token)).first())
    if invitation is None:
        raise DomainError(INVITATION_UNKNOWN, field="token", code="not_found")
    reason = invitation.refusal()
    if reason is not None:
        raise DomainError(INVITATION_REFUSALS[reason], field="token", code=reason)
    if user is None or not user.is_authenticated or not user.is_active:
        raise DomainError(gettext("Sign in to accept the invitation."), field="token", code="sign_in")
    club = invitation.club
    _lock_club(club)
    membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
    wanted = Membership.Role(invitation.role)
    if membership is not None and RANK[Membership.Role(membership.role)] >= RANK[wanted]:
        return membership, False
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=wanted)
    else:
        membership.role = wanted
        membership.save(update_fields=["role"])
    invitation.uses += 1
    invitation.save(update_fields=["uses"])
    return membership, True


@transaction.atomic
def player_create(*, club: Club, name: str, email: str = "") -> Player:
    """Add a new player to the club's roster (directors do this on the spot at check-in)."""
    name = " ".join(name.split())
    if not name:
        raise DomainError(gettext("Enter the player's name."), field="name")
    if len(name) > 120:
        raise DomainError(gettext("Names are at most 120 characters."), field="name")
    if ClubPlayer.objects.filter(club=club, player__name__iexact=name).exists():
        raise DomainError(
            gettext("%(name)s is already on the roster. Pick them from the list, or add a distinguishing initial.") % {"name": name},
            field="name",
        )
    player = Player.objects.create(name=name, email=email.strip())
    ClubPlayer.objects.create(club=club, player=player)
    return player


@transaction.atomic
def player_merge(*, club: Club, keep: Player, duplicate: Player) -> Player:
    """Fold a duplicate player into ``keep``: every row that points at the duplicate (event
    entries, rosters) moves over, and so does its login.

    The rows are found through the player's reverse relations, so this module needs to know
    nothing of the apps that point at players. Where a row cannot move because ``keep`` already
    has one like it (both played in the same event), the two are different people and the merge
    is refused, with nothing changed.
    """
    if keep.pk == duplicate.pk:
        raise DomainError(gettext("Pick two different players to merge."), field="duplicate")
    for field, player in (("keep", keep), ("duplicate", duplicate)):
        if not ClubPlayer.objects.filter(club=club, player=player).exists():
            raise DomainError(gettext("%(name)s is not on this club's roster.") % {"name": player.name}, field=field)
    for link in ClubPlayer.objects.filter(player=duplicate):
        ClubPlayer.objects.get_or_create(club_id=link.club_id, player=keep)
    ClubPlayer.objects.filter(player=duplicate).delete()
    for relation in Player._meta.related_objects:
        model = relation.related_model
        if not relation.one_to_many or model is ClubPlayer or isinstance(model, str):
            continue
        rows = model._default_manager.filter(**{relation.field.name: duplicate})
        try:
            with transaction.atomic():
                rows.update(**{relation.field.name: keep})
        except IntegrityError:
            raise DomainError(
                gettext("%(name)s and %(name2)s both appear in the same %(verbose_name)s (the same event); they are two people, not a duplicate.") % {"name": keep.name, "name2": duplicate.name, "verbose_name": model._meta.verbose_name},
                field="duplicate",
            ) from None
    if duplicate.user_id and not keep.user_id:
        keep.user_id = duplicate.user_id
        duplicate.user = None
        duplicate.save(update_fields=["user"])
        keep.save(update_fields=["user"])
    if not keep.email and duplicate.email:
        keep.email = duplicate.email
        keep.save(update_fields=["email"])
    duplicate.delete()
    return keep

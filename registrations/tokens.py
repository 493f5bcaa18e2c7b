"""The personal link of a registration: a signed token (the registration's id and its stored
secret, signed with the site's secret key), so nobody can confirm, withdraw or check in someone
else's registration by changing a number in an address."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from .models import Registration

SALT = "registrations.personal-link"


def registration_token(registration: Registration) -> str:
    return signing.dumps([registration.pk, registration.key], salt=SALT)


def registration_by_token(token: str) -> Registration | None:
    """The registration a token names, or None for a token that is forged, cut or stale."""
    try:
        value = signing.loads(str(token), salt=SALT)
    except signing.BadSignature:
        return None
    if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], int)):
        return None
    found = (Registration.objects.select_related("event__club", "player", "partner_player")
             .filter(pk=value[0]).first())
    if found is None or not constant_time_compare(found.key, str(value[1])):
        return None
    return found


def personal_path(registration: Registration) -> str:
    return reverse("registration-mine", args=[registration_token(registration)])

"""Reads of registrations shared by the pages and the API: the settings as a registrant sees
them (places left), the director's list in its groups, a registration's place on the waitlist
and whether it is checked in (read from the event's entries, never stored twice)."""

from __future__ import annotations

import datetime
from typing import NotRequired, TypedDict

from allauth.account.models import EmailAddress
from django.db.models import Q

from clubs.models import Player
from common.types import Actor
from tournaments.models import Arrival, Entry, Event

from .models import HOLDING, Registration, RegistrationSettings


def registration_settings(event: Event) -> RegistrationSettings:
    """The event's registration settings; closed defaults (not stored) when never set."""
    found = RegistrationSettings.objects.filter(event_id=event.pk).first()
    return found or RegistrationSettings(event=event)


def places_left(settings: RegistrationSettings) -> int | None:
    if settings.capacity is None:
        return None
    held = Registration.objects.filter(event_id=settings.event_id, status__in=HOLDING).count()
    return max(settings.capacity - held, 0)


def registration_refusal(settings: RegistrationSettings, *, now: datetime.datetime) -> str:
    """Why the event's registration form takes nobody now ("" when it does)."""
    event = settings.event
    if event.is_over:
        return "This event is over."
    if not settings.is_open:
        return "Registration for this event is closed."
    if settings.deadline is not None and now > settings.deadline:
        return "The registration deadline has passed."
    return ""


def waitlist_position(registration: Registration) -> int | None:
    """1 for the first waitlisted registration, ...; None when not waitlisted."""
    if registration.status != Registration.Status.WAITLISTED:
        return None
    ahead = Registration.objects.filter(
        event_id=registration.event_id, status=Registration.Status.WAITLISTED).filter(
        Q(confirmed_at__lt=registration.confirmed_at)
        | Q(confirmed_at=registration.confirmed_at, id__lt=registration.pk)).count()
    return ahead + 1


def _players(registration: Registration) -> list[int]:
    ids = [registration.player_id]
    if registration.is_pair:
        ids.append(registration.partner_player_id)
    return [pk for pk in ids if pk]


def registration_checked_in(registration: Registration) -> bool:
    """Whether the registration's player (both players of a pair) has an active entry."""
    ids = _players(registration)
    if not ids or len(ids) < (2 if registration.is_pair else 1):
        return False
    return Entry.objects.filter(event_id=registration.event_id, player_id__in=ids,
                                status=Entry.Status.ACTIVE).count() == len(ids)


class RegistrationRow(TypedDict):
    """A registration on the director's list."""

    registration: Registration
    checked_in: bool
    at_door: bool
    position: NotRequired[int]  # on the waitlist


class RegistrationList(TypedDict):
    """The director's list (:func:`registration_list`)."""

    groups: dict[str, list[RegistrationRow]]  # by status
    rows: list[Registration]
    ready_count: int
    held: int


def registration_list(*, event: Event) -> RegistrationList:
    """The director's list: every registration of the event in its group, each with its place
    on the waitlist, whether it is checked in and whether it said "I'm here" (awaiting the
    director)."""
    rows = list(Registration.objects.filter(event_id=event.pk)
                .select_related("player", "partner_player", "decided_by")
                .order_by("confirmed_at", "id"))
    ids = {pk for r in rows for pk in _players(r)}
    active = set(Entry.objects.filter(event_id=event.pk, player_id__in=ids,
                                      status=Entry.Status.ACTIVE)
                 .values_list("player_id", flat=True))
    arriving = set(Arrival.objects.filter(event_id=event.pk, player_id__in=ids,
                                          status=Arrival.Status.WAITING)
                   .values_list("player_id", flat=True))
    groups: dict[str, list[RegistrationRow]] = {s.value: [] for s in Registration.Status}
    for registration in rows:
        players = _players(registration)
        needed = 2 if registration.is_pair else 1
        groups[registration.status].append({
            "registration": registration,
            "checked_in": len(players) == needed and all(p in active for p in players),
            "at_door": registration.arrived_at is not None
            or any(p in arriving for p in players),
        })
    for number, row in enumerate(groups[Registration.Status.WAITLISTED], start=1):
        row["position"] = number
    ready = [r for r in groups[Registration.Status.REGISTERED] if not r["checked_in"]]
    return {"groups": groups, "rows": rows, "ready_count": len(ready),
            "held": len(groups["registered"]) + len(groups["pending"])}


def registrations_of_user(*, event: Event, user: Actor) -> list[Registration]:
    """The signed-in user's registrations for the event (as registrant, by account or player,
    or as a partner whose player is theirs), newest first."""
    if user is None or not user.is_authenticated:
        return []
    return list(Registration.objects.filter(event_id=event.pk).filter(
        Q(user=user) | Q(player__user=user) | Q(partner_player__user=user))
        .select_related("event__club").order_by("-created_at", "-id"))


def registration_is_theirs(registration: Registration, user: Actor) -> bool:
    if user is None or not user.is_authenticated:
        return False
    return bool(registration.user_id == user.pk
                or (registration.player is not None and registration.player.user_id == user.pk)
                or (registration.partner_player is not None
                    and registration.partner_player.user_id == user.pk))


def account_address_confirmed(user: Actor) -> bool:
    """Whether the account's address is confirmed: allauth's record of it says so, or the
    account has no record at all (made by an administrator: nothing to confirm)."""
    email = str(getattr(user, "email", "") or "")
    if not email:
        return False
    records = EmailAddress.objects.filter(user=user)
    if not records.exists():
        return True
    return records.filter(email__iexact=email, verified=True).exists()


def account_player(*, user: Actor, event: Event) -> tuple[Player | None, bool]:
    """The player a signed-in account registers for the event as, and whether registering
    links it to the account: the account's own player (``False``), else the player of the
    event's club's roster with the account's confirmed address and no account of their own
    (``True``: one player per account), else ``(None, False)``."""
    if user is None or not user.is_authenticated:
        return None, False
    own = Player.objects.filter(user=user).first()
    if own is not None:
        return own, False
    if not account_address_confirmed(user):
        return None, False
    found = (Player.objects.filter(club_links__club_id=event.club_id, email__iexact=user.email,
                                   user__isnull=True, erased_at__isnull=True)
             .order_by("id").first())
    return found, found is not None

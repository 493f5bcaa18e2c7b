"""Writes of registrations: the director's settings, registering, confirming an address,
approving, refusing, withdrawing, fees marked paid, turning registrations into check-ins, and
the self check-in by a registration's personal link.

Every public function is a service: keyword-only arguments, one transaction. Each one that may
move a place (a registration counted, withdrawn or refused, the capacity changed, check-ins)
first locks the event's :class:`RegistrationSettings` row, so places are counted by one
transaction at a time: two withdrawals at once each move up one waitlisted registration and the
event never holds more than its capacity. Locks are taken in one order (settings, then
registrations, then the event's row inside the tournaments services).

Mails leave once the transaction commits (``registrations.mails``); ``site`` is the address the
personal link starts with (the request's, ``common.http.public_url``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings as site_settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext

from clubs.models import ClubPlayer, Player
from clubs.services import player_create
from common.errors import DomainError
from common.labels import lower_in_english
from common.types import Actor, actor_user
from tournaments import services as events
from tournaments.models import Arrival, Entry, Event, Pair

from .mails import registration_mail
from .models import HOLDING, LIVE, Registration, RegistrationSettings
from .selectors import account_player, registration_checked_in, waitlist_position

if TYPE_CHECKING:
    from django.contrib.auth.models import User

CAPACITY_MAX = 10_000
FEE_MAX = Decimal("100000")
NAME_MAX = 120


def _settings_lock(event: Event) -> RegistrationSettings:
    """The event's registration settings row (made when missing), locked until the end of the
    transaction: the one lock that serialises every change of places."""
    RegistrationSettings.objects.bulk_create([RegistrationSettings(event_id=event.pk)],
                                             ignore_conflicts=True)
    return (RegistrationSettings.objects.select_for_update(of=("self",))
            .select_related("event__club").get(event_id=event.pk))


def _locked(registration: Registration) -> Registration:
    return (Registration.objects.select_for_update(of=("self",))
            .select_related("event__club", "player", "partner_player")
            .get(pk=registration.pk))


# --- the director's settings -----------------------------------------------------------------
@transaction.atomic
def registration_settings_set(
    *, event: Event, is_open: bool, capacity: int | None = None,
    deadline: datetime.datetime | None = None, fee: Decimal | int | str = 0,
    approval_required: bool = False, actor: Actor | None = None, site: str = "",
) -> RegistrationSettings:
    """Open or close the event's registration and set its capacity (places: players, or pairs
    in a pair event; None: no limit), deadline, entry fee and whether the director approves
    each registration. A larger capacity moves the waitlist up at once; a capacity below the
    places already held is refused."""
    if capacity is not None and not 1 <= capacity <= CAPACITY_MAX:
        raise DomainError(gettext("The capacity is a whole number from 1 to %(capacity_max)s, or empty for no limit.") % {"capacity_max": CAPACITY_MAX}, field="capacity")
    try:
        amount = Decimal(str(fee if fee not in (None, "") else 0))
    except ArithmeticError:
        raise DomainError(gettext("The entry fee is an amount such as 50 or 12.50."), field="fee") from None
    if not amount.is_finite() or amount < 0 or amount >= FEE_MAX or amount != round(amount, 2):
        raise DomainError(gettext("The entry fee is an amount from 0 to %(value)s, with at most two decimals.") % {"value": FEE_MAX - 1}, field="fee")
    if deadline is not None and timezone.is_naive(deadline):
        raise DomainError(gettext("Give the deadline with its time zone."), field="deadline")
    locked = _settings_lock(event)
    held = Registration.objects.filter(event_id=event.pk, status__in=HOLDING).count()
    if capacity is not None and capacity < held:
        raise DomainError(gettext("%(held)s places are held already: the capacity cannot be below that (withdraw or refuse registrations first).") % {"held": held}, field="capacity",
                          code="below_held")
    locked.is_open = is_open
    locked.capacity = capacity
    locked.deadline = deadline
    locked.fee = amount
    locked.approval_required = approval_required
    locked.save()
    events.event_log(locked.event, actor, "registration_settings", is_open=is_open,
                     capacity=capacity, deadline=deadline.isoformat() if deadline else None,
                     fee=str(amount), approval_required=approval_required)
    _move_up(locked, site=site)
    return locked


# --- registering -------------------------------------------------------------------------------
def _clean_name(value: str, field: str) -> str:
    name = " ".join(str(value or "").split())
    if not name:
        raise DomainError(gettext("Enter the name."), field=field, code="required")
    if len(name) > NAME_MAX:
        raise DomainError(gettext("A name is at most %(name_max)s characters.") % {"name_max": NAME_MAX}, field=field)
    return name


def _clean_email(value: str, field: str) -> str:
    email = str(value or "").strip()
    if not email:
        raise DomainError(gettext("Enter the e-mail address."), field=field, code="required")
    try:
        validate_email(email)
    except ValidationError:
        raise DomainError(gettext("“%(email)s” is not an e-mail address.") % {"email": email[:80]}, field=field,
                          code="invalid") from None
    return email


def _address_taken(event: Event, email: str) -> bool:
    return Registration.objects.filter(event_id=event.pk, status__in=LIVE).filter(
        Q(email__iexact=email) | Q(partner_email__iexact=email)).exists()


@transaction.atomic
def registration_create(
    *, event: Event, name: str = "", email: str = "", partner_name: str = "",
    partner_email: str = "", user: Actor | None = None, site: str = "",
) -> Registration:
    """Register for the event, alone or, when its format takes pairs, with a partner.

    Signed in (``user``): the account's player and address; the registration counts at once.
    Otherwise a name and an address, which the registrant confirms by the link mailed to it
    (:func:`registration_confirm`) before the registration counts. Refused when registration is
    closed, past its deadline or the event is over, and for an address already registered."""
    locked = _settings_lock(event)
    event = locked.event
    if event.is_over:
        raise DomainError(gettext("This event is over."), field="event", code="over")
    if not locked.is_open:
        raise DomainError(gettext("Registration for this event is closed."), field="event", code="closed")
    now = timezone.now()
    if locked.deadline is not None and now > locked.deadline:
        when = timezone.localtime(locked.deadline).strftime("%Y-%m-%d %H:%M")
        raise DomainError(gettext("The registration deadline (%(when)s) has passed.") % {"when": when}, field="deadline",
                          code="deadline_passed")
    user = actor_user(user)
    player = _account_player(user, event)
    if player is not None:
        name = player.name
    elif user is not None and not str(name or "").strip():
        name = user.get_full_name()  # an account without a player: the name it gave, if any
    name = _clean_name(name, "name")
    account_email = str(getattr(user, "email", "") or "") if user is not None else ""
    # a signed-in account's address was confirmed when the account was made
    email = _clean_email(account_email or email, "email")
    pairs = event.spec.pairs
    if pairs:
        partner_name = _clean_name(partner_name, "partner_name")
        partner_email = _clean_email(partner_email, "partner_email")
        if partner_email.lower() == email.lower():
            raise DomainError(gettext("Your partner needs an address of their own."),
                              field="partner_email", code="same_address")
    elif str(partner_name or "").strip() or str(partner_email or "").strip():
        raise DomainError(gettext("This event takes players one by one: leave the partner out."),
                          field="partner_name", code="players_only")
    if _address_taken(event, email) or (
            player is not None and Registration.objects.filter(
                event_id=event.pk, status__in=LIVE, player=player).exists()):
        raise DomainError(gettext("%(email)s is already registered for this event.") % {"email": email}, field="email",
                          code="already_registered")
    if pairs and _address_taken(event, partner_email):
        raise DomainError(gettext("%(partner_email)s is already registered for this event.") % {"partner_email": partner_email},
                          field="partner_email", code="already_registered")
    language = translation.get_language() or ""
    registration = Registration.objects.create(
        event=event, name=name, email=email, user=user, player=player,
        partner_name=partner_name if pairs else "", partner_email=partner_email if pairs else "",
        language=language if language in dict(site_settings.LANGUAGES) else "",
    )
    registration.event = event
    if account_email:
        registration.confirmed_at = now
        _place(locked, registration, site=site)
    else:
        registration_mail(registration, "confirm", site=site)
    return registration


@transaction.atomic
def registration_confirm(*, registration: Registration, site: str = "") -> Registration:
    """The registrant opened the link mailed to them and confirmed: the registration counts
    (a place, awaiting approval, or the waitlist). Confirming again changes nothing."""
    locked_settings = _settings_lock(registration.event)
    locked = _locked(registration)
    if locked.status != Registration.Status.UNCONFIRMED:
        return locked
    if locked.event.is_over:
        raise DomainError(gettext("This event is over."), field="event", code="over")
    locked.confirmed_at = timezone.now()
    _place(locked_settings, locked, site=site)
    return locked


# --- places ---------------------------------------------------------------------------------
def _held(settings: RegistrationSettings) -> int:
    return Registration.objects.filter(event_id=settings.event_id, status__in=HOLDING).count()


def _room(settings: RegistrationSettings) -> bool:
    return settings.capacity is None or _held(settings) < settings.capacity


def _give_place(settings: RegistrationSettings, registration: Registration) -> None:
    if settings.approval_required:
        registration.status = Registration.Status.PENDING
    else:
        registration.status = Registration.Status.REGISTERED
        _resolve_players(registration)


def _place(settings: RegistrationSettings, registration: Registration, *, site: str) -> None:
    """A registration that now counts: a place (registered, or awaiting approval) while there is
    room, else the end of the waitlist. The waitlist moves up first, so nobody overtakes it."""
    _move_up(settings, site=site)
    if _room(settings):
        _give_place(settings, registration)
        registration.save()
        registration_mail(registration, registration.status, site=site)
        return
    registration.status = Registration.Status.WAITLISTED
    registration.save()
    registration_mail(registration, "waitlisted", site=site,
                      position=waitlist_position(registration))


def _move_up(settings: RegistrationSettings, *, site: str) -> list[Registration]:
    """While there is room, the first waitlisted registration (in the order they counted) takes
    a place and is mailed. Called with the settings row locked."""
    moved = []
    while _room(settings):
        first = (Registration.objects.select_for_update(of=("self",))
                 .select_related("event__club", "player", "partner_player")
                 .filter(event_id=settings.event_id, status=Registration.Status.WAITLISTED)
                 .order_by("confirmed_at", "id").first())
        if first is None:
            break
        _give_place(settings, first)
        first.save()
        registration_mail(first, "moved_up", site=site)
        moved.append(first)
    return moved


# --- players on the club's roster ----------------------------------------------------------
def _on_roster(event: Event, player: Player) -> Player:
    ClubPlayer.objects.get_or_create(club_id=event.club_id, player=player)
    return player


def _account_player(user: User | None, event: Event) -> Player | None:
    """The signed-in account's player (``selectors.account_player``): its own, else the player
    of the event's club's roster with the account's confirmed address and no account, linked
    to the account now (one player per account: another player with the address, in this club
    or another, stays as it is for a director to merge). None when neither exists."""
    if user is None:
        return None
    player, link = account_player(user=user, event=event)
    if player is None or not link:
        return player
    linked = Player.objects.filter(pk=player.pk, user__isnull=True).update(user=user)
    if not linked:  # another request linked it to an account meanwhile
        return Player.objects.filter(user=user).first()
    player.user = user
    events.event_log(event, user, "player_linked", player=player.pk, name=player.name)
    return player


def _player_for(registration: Registration, name: str, email: str, user: User | None, *,
                confirmed: bool) -> Player:
    """The player a registered name and address stand for: the account's player (linked to
    the roster player with the account's address, :func:`_account_player`); the player with
    that address on the event's club's roster; for a ``confirmed`` address (the registrant's,
    confirmed by its link or the account) the player with that address in another club, added
    to this club's roster; a player of the roster with that name and no address, not yet taken
    by another registration; else a new player on the roster (a name already taken there gets
    a number: the director can merge them).

    A partner's address is never confirmed (the registrant typed it), so it is looked up on
    the event's club's roster only: naming someone's address must not bring their player, or
    anything of theirs, from another club into this one."""
    event = registration.event
    if user is not None:
        own = _account_player(user, event)
        if own is not None:
            return _on_roster(event, own)
    roster = Player.objects.filter(club_links__club_id=event.club_id, erased_at__isnull=True)
    # a signed-in registrant is never given a player of another account; an erased player is
    # never matched again
    live = Player.objects.filter(email__iexact=email, erased_at__isnull=True)
    by_address = (live.filter(user__isnull=True) if user is not None else live).order_by("id")
    same = email and by_address.filter(club_links__club_id=event.club_id).first()
    if not same and email and confirmed:
        same = by_address.first()
    if same:
        return _on_roster(event, same)
    taken = Registration.objects.filter(event_id=event.pk, status__in=LIVE).exclude(
        pk=registration.pk)
    used = {pk for pair in taken.values_list("player_id", "partner_player_id") for pk in pair
            if pk}
    namesake = roster.filter(name__iexact=name, email="").exclude(pk__in=used).first()
    if namesake is not None:
        return namesake
    candidate, number = name, 2
    while roster.filter(name__iexact=candidate).exists():
        candidate, number = f"{name} {number}"[:NAME_MAX], number + 1
    player = player_create(club=event.club, name=candidate, email=email)
    if user is not None and not Player.objects.filter(user=user).exists():
        player.user = user
        player.save(update_fields=["user"])
    return player


def _resolve_players(registration: Registration) -> None:
    """Find (or add to the club's roster) the players of a registration given its place, so the
    event's self check-in page finds their names and check-in can make their entries. The
    registrant's address is confirmed by now (a registration counts only then); the
    partner's is not."""
    changed = []
    if registration.player is None:
        registration.player = _player_for(registration, registration.name, registration.email,
                                          registration.user, confirmed=True)
        changed.append("player")
    else:
        _on_roster(registration.event, registration.player)
    if registration.is_pair and registration.partner_player is None:
        registration.partner_player = _player_for(registration, registration.partner_name,
                                                  registration.partner_email, None,
                                                  confirmed=False)
        changed.append("partner_player")
    if changed and registration.pk:
        Registration.objects.filter(pk=registration.pk).update(
            **{f: getattr(registration, f) for f in changed})


# --- the director's decisions, the player's withdrawal ------------------------------------
@transaction.atomic
def registration_approve(*, registration: Registration, actor: Actor | None = None,
                         site: str = "") -> Registration:
    """The director approves a registration awaiting approval (it holds its place already).
    Approving again changes nothing."""
    _settings_lock(registration.event)
    locked = _locked(registration)
    if locked.status == Registration.Status.REGISTERED:
        return locked
    if locked.status != Registration.Status.PENDING:
        raise DomainError(gettext("%(label)s is %(value)s: only a registration awaiting approval can be approved.") % {"label": locked.label, "value": lower_in_english(locked.get_status_display())}, field="status",
                          code="not_pending")
    locked.status = Registration.Status.REGISTERED
    locked.decided_at = timezone.now()
    locked.decided_by = actor_user(actor)
    _resolve_players(locked)
    locked.save()
    events.event_log(locked.event, actor, "registration_approved", registration=locked.pk,
                     name=locked.label)
    registration_mail(locked, "approved", site=site)
    return locked


def _end(registration: Registration, status: str, actor: Actor | None, *, site: str,
         by_player: bool = False) -> Registration:
    locked_settings = _settings_lock(registration.event)
    locked = _locked(registration)
    if not locked.is_live:
        raise DomainError(gettext("%(label)s is %(value)s already.") % {"label": locked.label, "value": lower_in_english(locked.get_status_display())},
                          field="status", code="not_live")
    if registration_checked_in(locked):
        raise DomainError(gettext("%(label)s is checked in already: withdraw the entry from the event's check-in instead.") % {"label": locked.label}, field="status", code="checked_in")
    held = locked.holds_place
    locked.status = status
    locked.decided_at = timezone.now()
    locked.decided_by = actor_user(actor)
    locked.save()
    events.event_log(locked.event, None if by_player else actor, f"registration_{status}",
                     registration=locked.pk, name=locked.label,
                     by="player" if by_player else "director")
    if locked.confirmed_at is not None:
        # an address never confirmed is not mailed again (it may not be the registrant's)
        registration_mail(locked, status, site=site)
    if held:
        _move_up(locked_settings, site=site)
    return locked


@transaction.atomic
def registration_refuse(*, registration: Registration, actor: Actor | None = None,
                        site: str = "") -> Registration:
    """The director refuses a registration (whatever its place); a place it held goes to the
    first waitlisted."""
    return _end(registration, Registration.Status.REFUSED, actor, site=site)


@transaction.atomic
def registration_withdraw(*, registration: Registration, actor: Actor | None = None,
                          by_player: bool = False, site: str = "") -> Registration:
    """The player (by their link or account: ``by_player``) or the director withdraws a
    registration; a place it held goes to the first waitlisted, in the same transaction."""
    return _end(registration, Registration.Status.WITHDRAWN, actor, site=site,
                by_player=by_player)


@transaction.atomic
def registration_mark_paid(*, registration: Registration, paid: bool,
                           actor: Actor | None = None) -> Registration:
    """Record the entry fee as paid, or not (no payment is processed here)."""
    locked = _locked(registration)
    if locked.paid != paid:
        locked.paid = paid
        locked.paid_at = timezone.now() if paid else None
        locked.save(update_fields=["paid", "paid_at"])
        events.event_log(locked.event, actor, "registration_paid" if paid else
                         "registration_unpaid", registration=locked.pk, name=locked.label)
    return locked


# --- the day: check-ins ----------------------------------------------------------------------
def _check_in(registration: Registration, actor: Actor | None) -> Entry | Pair:
    _resolve_players(registration)
    event = registration.event
    assert registration.player is not None
    if registration.is_pair:
        assert registration.partner_player is not None
        pair = events.pair_register(event=event, players=[registration.player,
                                                          registration.partner_player],
                                    name=registration.label, actor=actor)
        Registration.objects.filter(pk=registration.pk).update(arrived_at=None)
        return pair
    waiting = Arrival.objects.filter(event=event, player=registration.player,
                                     status=Arrival.Status.WAITING).first()
    if waiting is not None:
        events.arrival_decide(arrival=waiting, approve=True, actor=actor)
        return Entry.objects.get(event=event, player=registration.player)
    return events.entry_check_in(event=event, player=registration.player, actor=actor)


@transaction.atomic
def registrations_check_in(*, event: Event, registrations: Iterable[Registration] | None = None,
                           actor: Actor | None = None) -> list[Registration]:
    """Turn registrations into check-ins on the day: the given ones (each must be registered
    and not checked in yet), or every registered one not checked in yet (``None``). Each makes
    the event's entry, or in a pair event its pair and both entries, through the tournaments
    services; all or none. Returns the registrations checked in now."""
    locked_settings = _settings_lock(event)
    event = locked_settings.event
    if registrations is None:
        chosen = [r for r in Registration.objects.select_for_update(of=("self",))
                  .select_related("event__club", "player", "partner_player")
                  .filter(event_id=event.pk, status=Registration.Status.REGISTERED)
                  .order_by("confirmed_at", "id") if not registration_checked_in(r)]
    else:
        chosen = []
        for registration in registrations:
            if registration.event_id != event.pk:
                raise DomainError(gettext("That registration is for another event."),
                                  field=f"registrations.{registration.pk}", code="other_event")
            locked = _locked(registration)
            if locked.status != Registration.Status.REGISTERED:
                raise DomainError(gettext("%(label)s is %(value)s: only registered entrants are checked in.") % {"label": locked.label, "value": lower_in_english(locked.get_status_display())},
                                  field=f"registrations.{locked.pk}", code="not_registered")
            if registration_checked_in(locked):
                raise DomainError(gettext("%(label)s is checked in already.") % {"label": locked.label},
                                  field=f"registrations.{locked.pk}", code="already_here")
            chosen.append(locked)
    for registration in chosen:
        registration.event = event
        try:
            _check_in(registration, actor)
        except DomainError as exc:
            raise DomainError(gettext("%(label)s: %(message)s") % {"label": registration.label, "message": exc.message},
                              field=f"registrations.{registration.pk}", code=exc.code) from None
    return chosen


def registration_here_refusal(event: Event) -> DomainError | None:
    """Why "I'm here" by a registration's link takes nobody now, or None: the event's self
    check-in rules (off, over, play started), which a registered pair passes too (its partner
    is known, unlike a pair at the door)."""
    refusal = events.self_check_in_refusal(event)
    if refusal is not None and refusal.code != "pairs_only":
        return refusal
    if event.rounds.exists():
        return DomainError(gettext("Play has started: please check in at the desk."), field="event",
                           code="started")
    return None


@transaction.atomic
def registration_here(*, registration: Registration) -> str:
    """"I'm here", by a registration's personal link (or the registered player's account):
    the registered entrant is checked in, or queued for the director's approval, as the event's
    self check-in says (``Event.self_check_in``; closed once play has started). A player's
    arrival is the event's own (``tournaments.services.self_check_in``); a pair's waits on its
    registration (``arrived_at``) for the director's check-in. Answers ``here`` or
    ``waiting``."""
    _settings_lock(registration.event)
    locked = _locked(registration)
    event = locked.event
    if locked.status != Registration.Status.REGISTERED:
        raise DomainError(gettext("Your registration is %(value)s: please see the desk.") % {"value": lower_in_english(locked.get_status_display())}, field="registration", code="not_registered")
    if registration_checked_in(locked):
        return "here"
    refusal = registration_here_refusal(event)
    if refusal is not None:
        raise refusal
    _resolve_players(locked)
    if not locked.is_pair:
        assert locked.player is not None
        try:
            arrival = events.self_check_in(event=event, player=locked.player)
        except DomainError as exc:
            if exc.code == "already_here":
                return "here"
            raise
        return "waiting" if arrival.status == Arrival.Status.WAITING else "here"
    if event.self_check_in == Event.SelfCheckIn.OPEN:
        _check_in(locked, None)
        return "here"
    if locked.arrived_at is None:
        locked.arrived_at = timezone.now()
        locked.save(update_fields=["arrived_at"])
        events.event_log(event, None, "arrived", registration=locked.pk, name=locked.label)
    return "waiting"


def registration_send_link(*, event: Event, email: str, site: str = "") -> bool:
    """Mail the personal link again to an address with a live registration for the event
    (someone at the door without their mail). Says nothing of other addresses: the answer to the
    asker is the same either way; returns whether a mail was sent."""
    email = str(email or "").strip()
    found = Registration.objects.select_related("event__club").filter(
        event_id=event.pk, status__in=LIVE).filter(
        Q(email__iexact=email) | Q(partner_email__iexact=email)).first() if email else None
    if found is None:
        return False
    with transaction.atomic():
        registration_mail(found, "confirm" if found.status == Registration.Status.UNCONFIRMED
                          else "link", site=site)
    return True

"""Erasing an account at its owner's request, and the club's record of a director's export.

**The rule of erasure.** The account goes: the user, its e-mail addresses, API token, club
roles, sessions and the sign-in history django-axes keeps for its user name (and, where
installed, anything else that cascades from the user, such as social accounts). The player
rows stay, because the clubs' results are made of them, but they no longer say who played:
the name becomes :data:`ERASED_NAME` ("Withdrawn player"), the e-mail address is cleared and
the link to the account is cut. Nothing that ranks changes: entries, seats, hands, penalties,
ratings and placements keep their numbers; only the name in them differs, in every stored copy:
by id (a pair's name keeps the partner's, the stored places, the standings, the log lines that
name the person by id, their penalties, appeals and registrations), and as whole words in every
free text and JSON document kept for their events and clubs, whatever app keeps it (unless
someone else there bears the name). The copies other clubs keep (an import's player with their
address, or with their name in the copy of one of their events) are erased with them, and an
imported event's record of their user name reads null. One
:class:`~privacy.models.PrivacyLog` row per club that knew the player records the erasure,
naming nobody.

A club's last owner cannot erase their account (a club always keeps an owner): they hand the
club on first. Nor can a person entered in an event that is not over: they erase once it has
finished (or once its director has withdrawn them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models, transaction
from django.db.models import Q
from django.db.models.functions import Cast
from django.utils import timezone
from django.utils.translation import gettext

from archive.models import EventImport
from clubs.models import Club, ClubPlayer, Membership, Player
from common.errors import DomainError
from common.types import Actor, JSONValue, actor_user
from conduct.models import Appeal, Penalty
from following.models import Follower
from registrations.models import Registration
from standings.models import StandingsSnapshot
from standings.services import placements_store, standings_rebuild, standings_version_bump
from tournaments.models import Arrival, Entry, Event, EventLog, Pair

from .models import PrivacyLog
from .selectors import account_addresses, player_export, user_sessions
from .walk import SECRET_FIELDS, path_to

if TYPE_CHECKING:
    from django.contrib.auth.models import User

ERASED_NAME = "Withdrawn player"
ERASED_ADDRESS = "(erased address)"  # an address quoted inside a text
# Keys of an event log line that name a person, beside the keys of the ids they name.
LOG_NAMES = {"name": ("player", "entry", "pair", "registration"), "a_name": ("a",),
             "b_name": ("b",)}
# Models the text pass leaves alone: the person rows (handled by id: another player's name may
# contain the erased one's words), the account's own rows (deleted with it).
NOT_SCRUBBED = {"clubs.Player", "account.EmailAddress", "sessions.Session", "axes.AccessAttempt",
                "axes.AccessFailureLog", "axes.AccessLog"}


@dataclass
class Erased:
    username: str
    player_id: int | None
    clubs: list[int]
    events: list[int]


@dataclass
class Person:
    """Everything that says who the erased person was: their player rows (the account's, and
    the copies an archive or roster import made elsewhere), the names and addresses they bore,
    their user name, and the rows that are theirs by id."""

    players: list[Player]
    names: set[str]
    addresses: set[str]
    username: str
    ids: dict[str, set[int]] = field(default_factory=dict)
    events: set[int] = field(default_factory=set)
    clubs: set[int] = field(default_factory=set)


def _words(names: Iterable[str]) -> re.Pattern[str] | None:
    """The names as whole words, any case ("Al" is not found in "Always")."""
    listed = sorted({n for n in names if n and n != ERASED_NAME}, key=len, reverse=True)
    if not listed:
        return None
    return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(n) for n in listed) + r")(?!\w)",
                      re.IGNORECASE)


def _swap_text(text: str, person: Person) -> str:
    """``text`` with the person's names replaced by the erased name and their addresses by
    :data:`ERASED_ADDRESS`; the rest of the text kept."""
    if not text:
        return text
    pattern = _words(person.names)
    if pattern is not None:
        text = pattern.sub(ERASED_NAME, text)
    for address in person.addresses:
        text = re.sub(re.escape(address), ERASED_ADDRESS, text, flags=re.IGNORECASE)
    return text


def _deep(value: Any, swap: Callable[[str], str]) -> Any:
    """A JSON value with ``swap`` applied to every text in it."""
    if isinstance(value, str):
        return swap(value)
    if isinstance(value, list):
        return [_deep(v, swap) for v in value]
    if isinstance(value, dict):
        return {k: _deep(v, swap) for k, v in value.items()}
    return value


def _any_address(lookup: str, addresses: Iterable[str]) -> Q:
    query = Q(pk__in=[])
    for address in addresses:
        query |= Q(**{f"{lookup}__iexact": address})
    return query


def _person(user: User, player: Player | None) -> Person:
    """Find every row that says who the person was (:class:`Person`)."""
    addresses = set(account_addresses(user, player))
    players = [player] if player is not None else []
    # Copies of the person another club keeps: a player with the same address (a roster or an
    # archive import copies it) that no other account claims; and, where the address was not
    # given, the player of the same name in the copy of one of their events an archive import
    # made (the same event: name, date and time of creation).
    if addresses:
        players += list(Player.objects.filter(_any_address("email", addresses), user__isnull=True,
                                              erased_at__isnull=True)
                        .exclude(pk__in=[p.pk for p in players]))
    names = {p.name for p in players}
    for event in Event.objects.filter(entries__player__in=players).distinct():
        twins = Event.objects.filter(name=event.name, date=event.date,
                                     created_at=event.created_at).exclude(pk=event.pk)
        players += list(Player.objects.filter(entries__event__in=twins, name__in=names,
                                              user__isnull=True, erased_at__isnull=True)
                        .exclude(pk__in=[p.pk for p in players]).distinct())
    person = Person(players=players, names={p.name for p in players} - {ERASED_NAME, ""},
                    addresses=addresses, username=user.get_username())
    entries = list(Entry.objects.filter(player__in=players).values_list("pk", "event_id",
                                                                        "pair_id"))
    own = Q(user=user) | Q(player__in=players) | _any_address("email", addresses)
    partner = Q(partner_player__in=players) | _any_address("partner_email", addresses)
    registrations = {"own": set(Registration.objects.filter(own).values_list("pk", flat=True)),
                     "partner": set(Registration.objects.filter(partner)
                                    .values_list("pk", flat=True))}
    person.ids = {"player": {p.pk for p in players}, "entry": {e for e, _, _ in entries},
                  "pair": {p for _, _, p in entries if p},
                  "registration": registrations["own"] | registrations["partner"],
                  "own_registration": registrations["own"],
                  "partner_registration": registrations["partner"]}
    person.events = ({event for _, event, _ in entries}
                     | set(Arrival.objects.filter(player__in=players)
                           .values_list("event_id", flat=True))
                     | set(Registration.objects.filter(pk__in=person.ids["registration"])
                           .values_list("event_id", flat=True))
                     | set(Follower.objects.filter(_any_address("email", addresses))
                           .values_list("event_id", flat=True)))
    person.clubs = (set(ClubPlayer.objects.filter(player__in=players)
                        .values_list("club_id", flat=True))
                    | set(Event.objects.filter(pk__in=person.events)
                          .values_list("club_id", flat=True)))
    return person


def _namesakes(person: Person) -> tuple[set[int], set[int]]:
    """The events and clubs where someone else bears one of the person's names: there a text
    is left as it is (it may speak of them), and only what names the person by id changes."""
    if not person.names:
        return set(), set()
    same = Q(pk__in=[])
    for name in person.names:
        same |= Q(name__iexact=name)
    others = Player.objects.filter(same).exclude(pk__in=person.ids["player"])
    events = set(Entry.objects.filter(event_id__in=person.events, player__in=others)
                 .values_list("event_id", flat=True))
    registered = Q(pk__in=[])
    for name in person.names:
        registered |= Q(name__iexact=name) | Q(partner_name__iexact=name)
    events |= set(Registration.objects.filter(registered, event_id__in=person.events)
                  .exclude(pk__in=person.ids["registration"]).values_list("event_id", flat=True))
    clubs = set(ClubPlayer.objects.filter(club_id__in=person.clubs, player__in=others)
                .values_list("club_id", flat=True))
    return events, clubs


def _log_details(details: dict[str, Any], person: Person) -> dict[str, Any]:
    """An event log line's details with the person's name replaced where the line names them
    by id (``player``, ``entry``, ``pair``, ``registration``, a swap's ``a``/``b``, the
    alternates' lists): what changes even where someone else bears the same name."""
    changed = dict(details)
    kinds = {"player": "player", "pair": "pair", "registration": "registration"}
    for name_key, id_keys in LOG_NAMES.items():
        if not isinstance(changed.get(name_key), str):
            continue
        for id_key in id_keys:
            if changed.get(id_key) in person.ids[kinds.get(id_key, "entry")]:
                changed[name_key] = _swap_text(changed[name_key], person)
    if changed.get("player") in person.ids["player"]:
        # who tapped "I'm here" for them (events.checkin): their phone and address go too
        changed.pop("phone", None)
        changed.pop("address", None)
    entries, names = changed.get("entries"), changed.get("names")
    if isinstance(entries, list) and isinstance(names, list) and len(entries) == len(names):
        changed["names"] = [ERASED_NAME if e in person.ids["entry"] else n
                            for e, n in zip(entries, names, strict=True)]
    return changed


def _text_fields(model: type[models.Model]) -> tuple[list[str], list[str]]:
    """A model's free texts (not a choice, an address or a secret) and its JSON fields."""
    texts, documents = [], []
    for f in model._meta.concrete_fields:
        if f.name in SECRET_FIELDS or getattr(f, "choices", None):
            continue
        if isinstance(f, models.JSONField):
            documents.append(f.name)
        elif isinstance(f, models.CharField | models.TextField) and not isinstance(
                f, models.EmailField):
            texts.append(f.name)
    return texts, documents


def _scrub_texts(person: Person, events: set[int], clubs: set[int]) -> None:
    """Replace the person's names and addresses inside every free text and JSON document of
    every installed model kept for ``events`` (found by its keys to an event) or, for a model
    kept by a club and not by an event, for ``clubs``: whatever app the text lives in (a
    penalty's reason, an adjusted result's, a director call's words, a season's name, an
    import's report)."""
    needles = sorted(person.names | person.addresses)
    if not needles:
        return
    for model in apps.get_models():
        label = model._meta.label
        if model._meta.proxy or label in NOT_SCRUBBED or model is get_user_model():
            continue
        texts, documents = _text_fields(model)
        if not texts and not documents:
            continue
        path = path_to(model, Event)
        if path is not None:
            scope = Q(**{f"{path}__in": events})
        else:
            path = path_to(model, Club)
            if path is None:
                continue
            scope = Q(**{f"{path}__in": clubs})
        rows = model._default_manager.filter(scope)
        found = Q(pk__in=[])
        for name in documents:
            rows = rows.annotate(**{f"_privacy_{name}": Cast(name, models.TextField())})
        for needle in needles:
            for name in texts:
                found |= Q(**{f"{name}__icontains": needle})
            for name in documents:
                found |= Q(**{f"_privacy_{name}__icontains": needle})
        for obj in rows.filter(found):
            changes = {}
            for name in texts:
                value = getattr(obj, name)
                if isinstance(value, str) and _swap_text(value, person) != value:
                    changes[name] = _swap_text(value, person)
            for name in documents:
                value = getattr(obj, name)
                swapped = _deep(value, lambda t: _swap_text(t, person))
                if swapped != value:
                    changes[name] = swapped
            if changes:
                model._default_manager.filter(pk=obj.pk).update(**changes)


def _forget_username(username: str) -> None:
    """The user name kept by an imported event for the account that did something there (the
    archive names people by user name): gone, as a deleted account's is from an event played
    here (the archive of the copy then reads null, as the original's does)."""
    quoted = f'"{username}"'
    for imported in (EventImport.objects.annotate(_text=Cast("usernames", models.TextField()))
                     .filter(_text__contains=quoted)):
        kept = dict(imported.usernames or {})
        if kept.get("event") == username:
            kept["event"] = None
        for section, names in list(kept.items()):  # log, revisions, penalties', appeals'
            if isinstance(names, dict):
                kept[section] = {k: v for k, v in names.items() if v != username}
        EventImport.objects.filter(pk=imported.pk).update(usernames=kept)


def _anonymise(person: Person) -> list[int]:
    """Replace the person's name everywhere it was stored; returns the events touched."""
    ids = person.ids
    namesake_events, namesake_clubs = _namesakes(person)
    Player.objects.filter(pk__in=ids["player"]).update(name=ERASED_NAME, email="", user=None,
                                                       erased_at=timezone.now())
    # The texts of the person's events and clubs (all of them, where nobody else bears a name
    # of theirs), then what names them by id (everywhere).
    _scrub_texts(person, person.events - namesake_events, person.clubs - namesake_clubs)
    for pair in Pair.objects.filter(pk__in=ids["pair"]).exclude(name=""):
        Pair.objects.filter(pk=pair.pk).update(name=_swap_text(pair.name, person))
    for log in EventLog.objects.filter(event_id__in=person.events):
        details = _log_details(log.details or {}, person)
        if details != log.details:
            EventLog.objects.filter(pk=log.pk).update(details=details)
    for penalty in Penalty.objects.filter(Q(entry_id__in=ids["entry"]) | Q(pair_id__in=ids["pair"])):
        Penalty.objects.filter(pk=penalty.pk).update(
            reason=_swap_text(penalty.reason, person),
            withdrawn_reason=_swap_text(penalty.withdrawn_reason, person))
    for appeal in Appeal.objects.filter(Q(entry_id__in=ids["entry"])
                                        | Q(penalty__entry_id__in=ids["entry"])
                                        | Q(penalty__pair_id__in=ids["pair"])):
        Appeal.objects.filter(pk=appeal.pk).update(contested=_swap_text(appeal.contested, person),
                                                   note=_swap_text(appeal.note, person))
    _forget_contacts(person)
    for snapshot in StandingsSnapshot.objects.filter(event_id__in=person.events):
        # The rows are rebuilt from the renamed entries (numbers unchanged, the name new); the
        # stored places keep their order and prizes, with the person's name replaced (a
        # pair's partner keeps theirs); the version moves, so no page serves a cached copy.
        standings_rebuild(event_id=snapshot.event_id)
        snapshot.refresh_from_db(fields=["placements"])
        placements = [_placing(p, person) for p in snapshot.placements or []]
        if placements != (snapshot.placements or []):
            placements_store(event_id=snapshot.event_id, placements=placements)
        else:
            standings_version_bump(event_id=snapshot.event_id)
    _forget_username(person.username)
    return sorted(person.events)


def _placing(placing: dict[str, Any], person: Person) -> dict[str, Any]:
    if "pair_id" in placing:
        if placing.get("pair_id") not in person.ids["pair"]:
            return placing
        return _deep(placing, lambda t: _swap_text(t, person))
    if placing.get("entry_id") in person.ids["entry"]:
        return {**placing, "name": ERASED_NAME}
    return placing


def _check_confirmation(user: User, confirm: object) -> None:
    if not isinstance(confirm, str) or not confirm.strip():
        raise DomainError(gettext("Type your user name to confirm the erasure."), field="confirm",
                          code="required")
    if confirm.strip() != user.get_username():
        raise DomainError(gettext("That is not your user name: nothing was erased."), field="confirm",
                          code="mismatch")


def _check_owners(user: User) -> None:
    for membership in Membership.objects.filter(user=user, role=Membership.Role.OWNER):
        others = Membership.objects.filter(club_id=membership.club_id,
                                           role=Membership.Role.OWNER).exclude(user=user)
        if not others.exists():
            club = Club.objects.get(pk=membership.club_id)
            raise DomainError(
                gettext("You are the only owner of %(name)s: make someone else an owner first.") % {"name": club.name},
                field="account", code="last_owner")


def _forget_contacts(person: Person) -> None:
    """The ways to reach the person that other apps keep: the phones following their seat (other
    people's, about them) and their own phones following anyone (their address) go; their
    registrations (their own, made with or without an account, or as someone's partner) keep
    their place and history with the name replaced and the address cleared, as the player row
    is."""
    Follower.objects.filter(Q(entry_id__in=person.ids["entry"])
                            | _any_address("email", person.addresses)).delete()
    Registration.objects.filter(pk__in=person.ids["own_registration"]).update(
        name=ERASED_NAME, email="")
    Registration.objects.filter(pk__in=person.ids["partner_registration"]).update(
        partner_name=ERASED_NAME, partner_email="")


def _check_no_event_on(person: Person) -> None:
    """Nobody is erased while entered in an event that is not over: the director still seats,
    scores and ranks them there, and the person would vanish from a room they may be sitting in.
    They erase once it has finished (or once its director has withdrawn them)."""
    entries = (Entry.objects.filter(player_id__in=person.ids["player"], status=Entry.Status.ACTIVE)
               .exclude(event__status__in=Event.OVER)
               .select_related("event__club").order_by("event__date", "event_id"))
    on = [entry.event for entry in entries]
    if on:
        listed = ", ".join(f"{e.name} ({e.club.name}, {e.date:%-d %B %Y})" for e in on)
        raise DomainError(
            gettext("You are entered in an event that is not over yet: %(listed)s. Erase your account once it has finished, or ask its director to withdraw you first; nothing was erased.") % {"listed": listed}, field="account", code="event_not_over")


@transaction.atomic
def account_erase(*, user: User, confirm: object) -> Erased:
    """Erase ``user``'s account at their request (``confirm``: their user name, typed again);
    anonymise their player rows so that every result stays as it was (module docstring).
    Refused for a club's last owner, and while the person is entered in an event that is not
    over (``account``)."""
    _check_confirmation(user, confirm)
    _check_owners(user)
    username = user.get_username()
    player = Player.objects.select_for_update().filter(user=user).first()
    person = _person(user, player)
    _check_no_event_on(person)
    events = _anonymise(person)
    known = dict(ClubPlayer.objects.filter(player_id__in=person.ids["player"])
                 .values_list("club_id", "player_id"))
    first = person.players[0].pk if person.players else None
    PrivacyLog.objects.bulk_create(
        PrivacyLog(club_id=club_id, player_id=known.get(club_id, first),
                   action=PrivacyLog.Action.ERASURE)
        for club_id in sorted(person.clubs))
    for session in user_sessions(user):
        session.delete()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=username).delete()
    user.delete()  # e-mail addresses, token, roles and anything else keyed to it by CASCADE
    return Erased(username=username, player_id=player.pk if player else None,
                  clubs=sorted(person.clubs), events=events)


@transaction.atomic
def club_player_export(*, club: Club, player: Player, actor: Actor) -> dict[str, JSONValue]:
    """A director's export of what ``club`` holds about ``player`` (who asked in person),
    recorded in the club's privacy log. The caller has checked the director's role."""
    PrivacyLog.objects.create(club=club, player=player, actor=actor_user(actor),
                              action=PrivacyLog.Action.EXPORT)
    return player_export(player=player, club=club)

"""Reads shared by pages and the API. Each selector owns its select_related/prefetch_related."""

from __future__ import annotations

import datetime
import difflib
import re
import unicodedata
from typing import Any, TypedDict

from django.db.models import Exists, F, Model, OuterRef, Prefetch
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Player
from clubs.permissions import check_club_role, check_view_event
from common.errors import DomainError
from common.rulesets import event_ruleset, table_seats
from common.types import Actor

from .models import Arrival, Bye, Entry, Event, EventLog, Pair, Round, Seat, Table


def event_finished_at(event: Event) -> datetime.datetime | None:
    """When a finished event last finished (its log's last status change to finished), or
    None (not finished, or finished without a log row: an old import)."""
    if event.status != Event.Status.FINISHED:
        return None
    return (EventLog.objects.filter(event_id=event.pk, action="status",
                                    details__status=Event.Status.FINISHED)
            .order_by("-created_at", "-id").values_list("created_at", flat=True).first())


def results_locked_at(event: Event) -> datetime.datetime | None:
    """When a finished event's results locked, if they have: the club's correction window
    (``Club.correction_window_minutes`` after the finish) is over. A locked event is reopened
    by the club's owner only (``draw.services.event_status_set``). None: no window, not
    finished, or still inside the window."""
    minutes = event.club.correction_window_minutes
    if minutes is None:
        return None
    finished = event_finished_at(event)
    if finished is None:
        return None
    locked = finished + datetime.timedelta(minutes=minutes)
    return locked if timezone.now() >= locked else None


def results_locked_refusal(event: Event, locked: datetime.datetime, *,
                           field: str = "event") -> DomainError:
    """The refusal of a change once the results are locked (code ``locked``)."""
    minutes = event.club.correction_window_minutes
    when = timezone.localtime(locked).strftime("%Y-%m-%d %H:%M")
    return DomainError(
        gettext("This event's results are locked since %(when)s (the club corrects results up to %(minutes)s minutes after an event finishes); only the club's owner can reopen it.") % {"when": when, "minutes": minutes},
        field=field, code="locked")


def results_final(event: Event) -> DomainError | None:
    """THE rule that a finished event's results are final: its hands, games, seats, entries and
    settings change only after a director reopens it, with a reason (its placements, prizes and
    ratings would otherwise disagree with its hands). Every writer asks; returns the refusal.
    Past the club's correction window the refusal says the results are locked (code
    ``locked``: only the owner reopens)."""
    if event.status == Event.Status.FINISHED:
        locked = results_locked_at(event)
        if locked is not None:
            return results_locked_refusal(event, locked)
        return DomainError(gettext("This event is finished and its results are final; reopen it, saying why, to change them."), field="event", code="event_final")
    if event.status == Event.Status.CANCELLED:
        return DomainError(gettext("This event was cancelled; its results can no longer change."),
                           field="event", code="event_final")
    return None


def results_final_check(event: Event) -> None:
    """Raise :func:`results_final`'s refusal, if any."""
    refusal = results_final(event)
    if refusal is not None:
        raise refusal


def event_get(*, pk: int, user: Actor, role: str | None = None) -> Event:
    """The event if the user may see it (404 otherwise) and, with ``role``, act on it (403)."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    check_view_event(user=user, event=event)
    if role is not None:
        check_club_role(user=user, club=event.club, role=role)
    return event


class RoundTable(TypedDict):
    """A table of a round (:func:`round_tables`): its game (None before one exists) and its
    seats in table order (None for an empty one)."""

    table: Table
    game: Model | None  # scoring's ``Game``
    seats: list[Seat | None]


class EntryLine(TypedDict):
    name: str
    status: str


class EventOverview(TypedDict):
    rounds: list[Round]
    current_round: Round | None
    entries: list[EntryLine]
    active_count: int
    next_round_number: int


class PairPlayer(TypedDict):
    entry_id: int
    player_id: int
    name: str


class PairPayload(TypedDict):
    """A pair as the pages and the API show it (:func:`pair_payload`)."""

    id: int
    name: str
    seed: int | None
    status: str
    players: list[PairPlayer]


class Choice(TypedDict):
    """A player a pasted name may mean, and whether they are checked in already."""

    player: Player
    here: bool


class Matched(TypedDict):
    typed: str
    player: Player
    here: bool


class Ambiguous(TypedDict):
    typed: str
    choices: list[Choice]
    more: int


class Unknown(TypedDict):
    typed: str
    close: list[Choice]


class CheckinMatch(TypedDict):
    """A pasted list against the roster (:func:`checkin_match`)."""

    matched: list[Matched]
    ambiguous: list[Ambiguous]
    unknown: list[Unknown]
    too_many: list[str]
    count: int
    to_check_in: int


class Arrivals(TypedDict):
    waiting: list[Arrival]
    recent: list[Arrival]


class FoundPlayer(TypedDict):
    """A player the self check-in's search found, with its state (here, waiting, free)."""

    player: Player
    state: str


def round_tables(*, round_: Round) -> list[RoundTable]:
    """Tables of a round with their players by seat and their game, in table order."""
    tables = (
        Table.objects.filter(round=round_)
        .select_related("game")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entry__player"))
        )
        .order_by("number")
    )
    out: list[RoundTable] = []
    ruleset = event_ruleset(round_.event)
    for table in tables:
        by_position = {seat.position: seat for seat in table.seats.all()}
        out.append({
            "table": table,
            "game": getattr(table, "game", None),
            "seats": [by_position.get(p) for p in table_seats(ruleset, by_position)],
        })
    return out


def round_byes(*, round_: Round) -> list[Bye]:
    return list(Bye.objects.filter(round=round_).select_related("entry__player"))


def event_overview(*, event: Event) -> EventOverview:
    rounds = list(event.rounds.order_by("number"))
    current = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
    # the players' names and statuses as plain rows (``name``, ``status``), by name
    entries: list[EntryLine] = [{"name": name, "status": status} for name, status in
               event.entries.order_by("player__name").values_list("player__name", "status")]
    return {
        "rounds": rounds,
        "current_round": current,
        "entries": entries,
        "active_count": sum(1 for e in entries if e["status"] == Entry.Status.ACTIVE),
        "next_round_number": (rounds[-1].number + 1) if rounds else 1,
    }


def checkin_roster(*, event: Event) -> list[dict[str, Any]]:
    """The club's roster, each player with their entry in the event (``player``, ``entry``:
    None when not checked in); the check-in page adds its own columns to the rows."""
    entries = {e.player_id: e for e in event.entries.all()}
    roster = Player.objects.filter(club_links__club=event.club,
                                   erased_at__isnull=True).order_by("name")
    return [{"player": p, "entry": entries.get(p.pk)} for p in roster]


def event_entrants(event: Event) -> int:
    """What a format plans its rounds for: every pair registered (a pair event's schedule and
    bracket are fixed at the start, withdrawn pairs included), else the players playing."""
    if event.is_pairs:
        return event.pairs.count()
    return event.entries.filter(status=Entry.Status.ACTIVE).count()


def pairs_in_seed_order(event: Event) -> list[tuple[int, tuple[int, ...], bool]]:
    """(pair id, its entries, still playing) for every pair of the event, best seed first: the
    director's seeds, then the unseeded pairs in registration order."""
    members: dict[int, list[tuple[int, bool]]] = {}
    for pair_id, entry_id, status in Entry.objects.filter(
            event=event, pair__isnull=False).order_by("pk").values_list("pair_id", "pk", "status"):
        members.setdefault(pair_id, []).append((entry_id, status == Entry.Status.ACTIVE))
    order = event.pairs.order_by(F("seed").asc(nulls_last=True), "pk").values_list("pk", flat=True)
    return [(pk, tuple(e for e, _ in members.get(pk, [])),
             all(active for _, active in members.get(pk, [])) and bool(members.get(pk)))
            for pk in order]


def pair_payload(pair: Pair) -> PairPayload:
    """A pair as the pages and the API show it: id, name, seed, status and its two players
    (prefetch ``members__player`` when listing many)."""
    members = sorted(pair.members.all(), key=lambda e: e.pk)
    left = any(m.status == Entry.Status.LEFT for m in members)
    return {"id": pair.pk, "name": str(pair), "seed": pair.seed,
            "status": Entry.Status.LEFT if left else Entry.Status.ACTIVE,
            "players": [{"entry_id": m.pk, "player_id": m.player_id, "name": m.player.name}
                        for m in members]}


# --- check-in for a big room ------------------------------------------------------------------
PASTE_MAX_NAMES = 400
CHOICES_SHOWN = 8
# How alike (difflib's ratio of the folded names) a roster name must be to be offered for a
# pasted name that matched nobody: 0.8 lets one or two letters differ in a full name.
CLOSE_NAME_RATIO = 0.8


def fold_name(text: str) -> str:
    """A name as the matching compares it: no accents, any case, letters and digits only,
    single spaces ("Zoë  O'Neil" -> "zoe o neil")."""
    plain = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", plain).split())


def pasted_names(text: str) -> list[str]:
    """The names of a pasted list: one a line, or separated by commas, semicolons or tabs; a
    leading number ("12. Ann Smith", "3) Bob") dropped; blanks and repeats dropped."""
    names: list[str] = []
    seen: set[str] = set()
    for part in re.split(r"[\n\r,;\t]+", text):
        name = re.sub(r"^\s*\d+\s*[.):-]?\s*", "", part).strip()
        key = fold_name(name)
        if key and key not in seen:
            seen.add(key)
            names.append(" ".join(name.split()))
    return names


def checkin_match(*, event: Event, text: str) -> CheckinMatch:
    """Match a pasted list of names against the club's roster, for the check-in page's preview:

    * ``matched``: one player for the name (its exact name, else the one player whose name
      holds every word typed, each as the start of a word: "ann sm" is Ann Smith), with
      ``here`` when already checked in;
    * ``ambiguous``: several players could be meant (two Ann Smiths, or just "Smith"), with the
      choices (at most ``CHOICES_SHOWN``);
    * ``unknown``: no player of the roster has that name, each with the ``close`` players whose
      name is spelt nearly the same ("Margret Olsen" for Margaret Olsen: a typo is offered as
      the player it probably is, beside adding a new one);
    * ``too_many``: the names beyond ``PASTE_MAX_NAMES``, not looked at.
    """
    names = pasted_names(text)
    too_many = names[PASTE_MAX_NAMES:]
    roster = [(p, fold_name(p.name)) for p in
              Player.objects.filter(club_links__club=event.club, erased_at__isnull=True)
              .order_by("name", "pk")]
    here = set(event.entries.filter(status=Entry.Status.ACTIVE).values_list("player_id",
                                                                             flat=True))
    matched: list[Matched] = []
    ambiguous: list[Ambiguous] = []
    unknown: list[Unknown] = []
    by_folded: dict[str, list[Player]] = {}
    for p, folded in roster:
        by_folded.setdefault(folded, []).append(p)
    for name in names[:PASTE_MAX_NAMES]:
        key = fold_name(name)
        found = [p for p, folded in roster if folded == key]
        if not found:
            words = key.split()
            found = [p for p, folded in roster
                     if all(any(part.startswith(w) for part in folded.split()) for w in words)]
        if len(found) == 1:
            matched.append({"typed": name, "player": found[0], "here": found[0].pk in here})
        elif found:
            ambiguous.append({"typed": name, "choices": [
                {"player": p, "here": p.pk in here} for p in found[:CHOICES_SHOWN]],
                "more": max(0, len(found) - CHOICES_SHOWN)})
        else:
            close = [p for folded in difflib.get_close_matches(
                key, by_folded, n=CHOICES_SHOWN, cutoff=CLOSE_NAME_RATIO) for p in by_folded[folded]]
            unknown.append({"typed": name, "close": [
                {"player": p, "here": p.pk in here} for p in close[:CHOICES_SHOWN]]})
    return {"matched": matched, "ambiguous": ambiguous, "unknown": unknown,
            "too_many": too_many, "count": len(names),
            "to_check_in": sum(1 for m in matched if not m["here"])}


def alternate_reasons(event: Event) -> dict[int, str]:
    """entry id -> why the entry is an alternate, in words, from the event's log: left without
    a full table when a round was seated, or marked by the director (an alternate missing here
    was checked in as one)."""
    reasons: dict[int, str] = {}
    for action, details in EventLog.objects.filter(
            event=event, action__in=["alternates_named", "alternate_marked"],
    ).order_by("created_at", "pk").values_list("action", "details"):
        if action == "alternates_named":
            for entry_id in details.get("entries", []):
                reasons[int(entry_id)] = ("no full table of four was left for them when play "
                                          "was seated: they wait for a free seat")
        else:
            reasons[int(details.get("entry", 0))] = "marked as an alternate by the director"
    return reasons


def checkin_arrivals(*, event: Event, limit: int = 50) -> Arrivals:
    """The self check-in's arrivals for the director's check-in page: those waiting for
    approval (oldest first) and the latest decided ones."""
    arrivals = Arrival.objects.filter(event=event).select_related("player")
    return {
        "waiting": list(arrivals.filter(status=Arrival.Status.WAITING).order_by("created_at",
                                                                                 "pk")),
        "recent": list(arrivals.exclude(status=Arrival.Status.WAITING)
                       .order_by("-created_at", "-pk")[:limit]),
    }


def self_checkin_find(*, event: Event, name: str, limit: int = 8) -> list[FoundPlayer]:
    """The self check-in page's search: the club's players whose name holds every word typed
    (each as the start of a word, any case and accents) and a public page may name (below), at
    most ``limit``, each with its state: ``here`` (checked in), ``waiting`` (for the director's approval) or ``free``."""
    words = fold_name(name).split()
    if not words:
        return []
    # Anyone at the door may search, so only names a public page may show: a player of this
    # event, one who played a public event of a public club, or one on the roster who never
    # played (as the club's page names its roster). A player seen only in private events (a
    # private club's, or hidden ones) is not named here: see the desk.
    played = Entry.objects.filter(player=OuterRef("pk"))
    nameable = (Exists(played.filter(event=event))
                | Exists(played.filter(event__is_public=True, event__club__is_public=True))
                | ~Exists(played))
    found = [Player(pk=pk, name=full) for pk, full in
             Player.objects.filter(club_links__club=event.club, erased_at__isnull=True)
             .filter(nameable).order_by("name", "pk").values_list("pk", "name")
             if all(any(part.startswith(w) for part in fold_name(full).split()) for w in words)]
    found = found[:limit]
    ids = [p.pk for p in found]
    here = set(event.entries.filter(status=Entry.Status.ACTIVE, player_id__in=ids)
               .values_list("player_id", flat=True))
    waiting = set(Arrival.objects.filter(event=event, status=Arrival.Status.WAITING,
                                         player_id__in=ids).values_list("player_id", flat=True))
    return [{"player": p, "state": "here" if p.pk in here else "waiting" if p.pk in waiting
             else "free"} for p in found]

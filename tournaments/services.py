"""Writes on events: creation, status, check-in, rounds and seating.

Every function here is a service: keyword-only arguments, one transaction, a row lock on the
event where concurrent directors could collide, and an :class:`EventLog` row for the audit.
Seating is decided by the pure ``tournaments.rotation`` module; this file only reads the history
from rows, calls it, and writes the resulting rows.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import Any

from django.db import transaction
from django.db.models import F, Max
from django.utils import timezone

from clubs.models import Club, Player
from config.errors import DomainError
from rules_engine import RulesError
from tournaments.rotation import RotationError, RoundPlan, next_round

from .models import Bye, Entry, Event, EventLog, Round, Seat, Table
from .rulesets import check_ruleset

POSITIONS = ("N", "E", "S", "W")

# Allowed status changes of an event; anything else is refused.
EVENT_TRANSITIONS: dict[str, set[str]] = {
    Event.Status.DRAFT: {Event.Status.RUNNING, Event.Status.CANCELLED},
    Event.Status.RUNNING: {Event.Status.FINISHED, Event.Status.CANCELLED},
    Event.Status.FINISHED: {Event.Status.RUNNING},  # reopened by a director to fix a result
    Event.Status.CANCELLED: set(),
}
ROUND_TRANSITIONS: dict[str, set[str]] = {
    Round.Status.SEATED: {Round.Status.PLAYING},
    Round.Status.PLAYING: {Round.Status.CLOSED},
    Round.Status.CLOSED: set(),
}


def _log(event: Event, actor: Any, action: str, **details: Any) -> None:
    EventLog.objects.create(
        event=event, actor=actor if getattr(actor, "is_authenticated", False) else None,
        action=action, details=details,
    )


def _locked_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


# --- events -----------------------------------------------------------------------------------
@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: datetime.date,
    actor: Any = None,
    kind: str = Event.Kind.CLUB_NIGHT,
    partnership: str = Event.Partnership.ROTATING,
    ruleset_preset: str | None = None,
    ruleset_overrides: dict[str, Any] | None = None,
    rounds_planned: int = 4,
    deals_per_round: int | None = 8,
    bye_scoring: str = Event.ByeScoring.AVERAGE_WINNING,
    bye_points: int = 0,
    tie_breaks: list[str] | None = None,
    is_public: bool = True,
    seed: int = 0,
) -> Event:
    name, preset, overrides, breaks = _check_settings(
        club=club, name=name, kind=kind, partnership=partnership, ruleset_preset=ruleset_preset,
        ruleset_overrides=ruleset_overrides, rounds_planned=rounds_planned,
        deals_per_round=deals_per_round, bye_scoring=bye_scoring, tie_breaks=tie_breaks,
    )
    event = Event.objects.create(
        club=club, name=name, date=date, kind=kind, partnership=partnership,
        ruleset_preset=preset, ruleset_overrides=overrides, rounds_planned=rounds_planned,
        deals_per_round=deals_per_round, bye_scoring=bye_scoring, bye_points=bye_points,
        tie_breaks=breaks, is_public=is_public, seed=seed, created_by=_user(actor),
    )
    _log(event, actor, "event_created", name=name)
    return event


def _check_settings(
    *, club: Club, name: str, kind: str, partnership: str, ruleset_preset: str | None,
    ruleset_overrides: dict[str, Any] | None, rounds_planned: int, deals_per_round: int | None,
    bye_scoring: str, tie_breaks: list[str] | None,
) -> tuple[str, str, dict[str, Any], list[str]]:
    """Validate an event's settings; returns the cleaned name, ruleset and tie-breaks."""
    from scoring.standings_rules import validate_tie_breaks  # noqa: PLC0415 (app boundary)

    name = name.strip()
    if not name:
        raise DomainError("Give the event a name.", field="name")
    if rounds_planned < 1 or rounds_planned > 60:
        raise DomainError("Rounds must be between 1 and 60.", field="rounds_planned")
    if deals_per_round is not None and not 1 <= deals_per_round <= 60:
        raise DomainError("Deals per round must be between 1 and 60.", field="deals_per_round")
    if bye_scoring not in Event.ByeScoring.values:
        raise DomainError(
            f"A bye scores one of: {', '.join(Event.ByeScoring.values)}.", field="bye_scoring"
        )
    preset = ruleset_preset or club.ruleset_preset
    overrides = club.ruleset_overrides if ruleset_overrides is None else ruleset_overrides
    ruleset = check_ruleset(preset=preset, overrides=overrides)
    if ruleset.players != 4 and kind == Event.Kind.CLUB_NIGHT:
        raise DomainError(
            "Club nights seat four players per table; pick a four-handed ruleset.",
            field="ruleset_preset",
        )
    breaks = validate_tie_breaks(tie_breaks, kind=kind, partnership=partnership)
    return name, preset, overrides, breaks


@transaction.atomic
def event_update(
    *,
    event: Event,
    actor: Any = None,
    name: str,
    date: datetime.date,
    ruleset_preset: str,
    ruleset_overrides: dict[str, Any] | None = None,
    rounds_planned: int,
    deals_per_round: int | None,
    bye_scoring: str,
    bye_points: int = 0,
    tie_breaks: list[str] | None = None,
    is_public: bool = True,
) -> Event:
    """Change an event's settings. The rules cannot change once hands are entered (they were
    checked under the old ones); a new deal count re-derives every game from its hands."""
    from scoring.models import Hand  # noqa: PLC0415 (app boundary)
    from scoring.services import event_recompute  # noqa: PLC0415

    locked = _locked_event(event)
    name, preset, overrides, breaks = _check_settings(
        club=locked.club, name=name, kind=locked.kind, partnership=locked.partnership,
        ruleset_preset=ruleset_preset, ruleset_overrides=ruleset_overrides,
        rounds_planned=rounds_planned, deals_per_round=deals_per_round,
        bye_scoring=bye_scoring, tie_breaks=tie_breaks,
    )
    has_hands = Hand.objects.filter(game__table__round__event=locked).exists()
    if has_hands and (preset, overrides) != (locked.ruleset_preset, locked.ruleset_overrides):
        raise DomainError(
            "Hands have been entered under the current rules; they cannot change now.",
            field="ruleset_preset",
        )
    changed = {
        field: value for field, value in {
            "name": name, "date": date, "ruleset_preset": preset, "ruleset_overrides": overrides,
            "rounds_planned": rounds_planned, "deals_per_round": deals_per_round,
            "bye_scoring": bye_scoring, "bye_points": bye_points, "tie_breaks": breaks,
            "is_public": is_public,
        }.items() if getattr(locked, field) != value
    }
    if not changed:
        return locked
    for field, value in changed.items():
        setattr(locked, field, value)
    locked.save(update_fields=list(changed))
    if has_hands and "deals_per_round" in changed:
        try:
            event_recompute(event=locked)
        except RulesError as exc:
            raise DomainError(
                f"Some games already have more hands than that ({exc.errors[0].message}).",
                field="deals_per_round",
            ) from None
    _log(locked, actor, "settings", changed=sorted(changed))
    _standings_changed(locked)
    return locked


def _user(actor: Any) -> Any:
    return actor if getattr(actor, "is_authenticated", False) else None


@transaction.atomic
def event_set_status(*, event: Event, status: str, actor: Any = None) -> Event:
    locked = _locked_event(event)
    if status not in EVENT_TRANSITIONS.get(locked.status, set()):
        raise DomainError(
            f"An event that is {locked.get_status_display().lower()} cannot become "
            f"{Event.Status(status).label.lower() if status in Event.Status.values else status}.",
            field="status",
        )
    if status == Event.Status.FINISHED and locked.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise DomainError("Close the current round before finishing the event.", field="status")
    previous = locked.status
    locked.status = status
    locked.save(update_fields=["status"])
    _log(locked, actor, "status", previous=previous, status=status)
    event.status = status
    return locked


# --- entries ----------------------------------------------------------------------------------
def _next_round_number(event: Event) -> int:
    return (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def entry_check_in(
    *, event: Event, player: Player, actor: Any = None, fixed_table: int | None = None
) -> Entry:
    """Check a player in. Between rounds this is a late arrival: they play from the next round."""
    locked = _locked_event(event)
    if locked.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise DomainError("This event is over; nobody can check in.", field="player")
    if not player.club_links.filter(club_id=locked.club_id).exists():
        raise DomainError(f"{player.name} is not on this club's roster.", field="player")
    existing = Entry.objects.filter(event=locked, player=player).first()
    if existing is not None:
        if existing.status == Entry.Status.ACTIVE:
            raise DomainError(f"{player.name} is already checked in.", field="player")
        # Someone who left comes back: they play again from the next round.
        existing.status = Entry.Status.ACTIVE
        existing.left_after_round = None
        existing.joined_round = _next_round_number(locked)
        existing.fixed_table = fixed_table
        existing.save(update_fields=["status", "left_after_round", "joined_round", "fixed_table"])
        _log(locked, actor, "returned", player=player.pk, name=player.name)
        return existing
    entry = Entry.objects.create(
        event=locked, player=player, joined_round=_next_round_number(locked),
        fixed_table=fixed_table,
    )
    _log(locked, actor, "checked_in", player=player.pk, name=player.name)
    return entry


@transaction.atomic
def entry_leave(*, entry: Entry, actor: Any = None) -> Entry:
    """An early leaver: seated in no further round; results so far stay."""
    locked = _locked_event(entry.event)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if entry.status == Entry.Status.LEFT:
        raise DomainError(f"{entry.player.name} has already left.", field="entry")
    entry.status = Entry.Status.LEFT
    entry.left_after_round = _next_round_number(locked) - 1
    entry.save(update_fields=["status", "left_after_round"])
    _log(locked, actor, "left", entry=entry.pk, name=entry.player.name)
    return entry


# --- rounds and seating -----------------------------------------------------------------------
def event_history(event: Event) -> list[RoundPlan]:
    """Past rounds as the rotation module sees them: tables of entry ids in N, E, S, W order."""
    seats = (
        Seat.objects.filter(table__round__event=event)
        .order_by("table__round__number", "table__number")
        .values_list("table__round__number", "table__number", "position", "entry_id")
    )
    tables: dict[int, dict[int, dict[str, int]]] = {}
    for round_number, table_number, position, entry_id in seats:
        tables.setdefault(round_number, {}).setdefault(table_number, {})[position] = entry_id
    byes: dict[int, list[int]] = {}
    for round_number, entry_id in Bye.objects.filter(round__event=event).values_list(
        "round__number", "entry_id"
    ):
        byes.setdefault(round_number, []).append(entry_id)
    # A late arrival has already sat out the rounds it missed: counting them as byes keeps it
    # from being the first to sit out again right after it arrives.
    for entry_id, joined in Entry.objects.filter(event=event, joined_round__gt=1).values_list(
        "pk", "joined_round"
    ):
        for number in range(1, joined):
            if number in tables and entry_id not in byes.get(number, []):
                byes.setdefault(number, []).append(entry_id)
    history = []
    for number in sorted(set(tables) | set(byes)):
        history.append(
            RoundPlan(
                tables=tuple(
                    tuple(t[p] for p in POSITIONS)  # type: ignore[misc]
                    for _, t in sorted(tables.get(number, {}).items())
                ),
                byes=tuple(sorted(byes.get(number, []))),
            )
        )
    return history


@transaction.atomic
def round_create(
    *, event: Event, actor: Any = None, number: int | None = None, reseat: bool = False
) -> Round:
    """Seat the next round. Idempotent: asking for a round that exists returns it unchanged,
    unless ``reseat`` is set and no hand has been entered in it yet."""
    locked = _locked_event(event)
    if locked.status not in (Event.Status.DRAFT, Event.Status.RUNNING):
        raise DomainError("This event is over; no more rounds.", field="event")
    if number is not None and not reseat:
        existing = locked.rounds.filter(number=number).first()
        if existing is not None:
            return existing
    latest = locked.rounds.order_by("-number").first()
    if reseat:
        if latest is None or latest.status == Round.Status.CLOSED:
            raise DomainError("There is no open round to reseat.", field="round")
        from scoring.models import Hand  # noqa: PLC0415 (app boundary)

        if Hand.objects.filter(game__table__round=latest).exists():
            raise DomainError(
                "Hands have been entered in this round; it cannot be reseated.", field="round"
            )
        _log(locked, actor, "reseat", round=latest.number)
        latest.delete()
        latest = locked.rounds.order_by("-number").first()
    elif latest is not None and latest.status != Round.Status.CLOSED:
        raise DomainError(
            f"Round {latest.number} is still open; close it before seating the next one.",
            field="round",
        )
    new_number = (latest.number if latest else 0) + 1
    if number is not None and number != new_number:
        raise DomainError(f"The next round is round {new_number}.", field="number")
    entries = list(
        locked.entries.filter(status=Entry.Status.ACTIVE).values_list("pk", "fixed_table")
    )
    if len(entries) < 4:
        raise DomainError(
            f"A round needs at least 4 checked-in players; {len(entries)} are here.",
            field="entries",
        )
    fixed = {pk: table for pk, table in entries if table}
    try:
        plan = next_round(
            [pk for pk, _ in entries], event_history(locked),
            seed=locked.seed * 1000 + new_number, fixed_tables=fixed or None,
        )
    except RotationError as exc:
        raise DomainError(exc.message, field=exc.field) from None
    round_ = _write_round(locked, new_number, plan)
    if locked.status == Event.Status.DRAFT:
        locked.status = Event.Status.RUNNING
        locked.save(update_fields=["status"])
    _log(locked, actor, "round_seated", round=new_number, tables=len(plan.tables),
         byes=len(plan.byes))
    _standings_changed(locked)
    return round_


def _standings_changed(event: Event) -> None:
    """Seats and byes feed the standings too: mark them behind and queue an update."""
    from scoring.standings import standings_request_update  # noqa: PLC0415 (app boundary)

    Event.objects.filter(pk=event.pk).update(hands_version=F("hands_version") + 1)
    standings_request_update(event_id=event.pk)


def _write_round(event: Event, number: int, plan: RoundPlan) -> Round:
    from scoring.models import Game  # noqa: PLC0415 (app boundary)

    round_ = Round.objects.create(event=event, number=number)
    seats: list[Seat] = []
    for table_number, players in enumerate(plan.tables, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        Game.objects.create(table=table)
        seats.extend(
            Seat(table=table, round=round_, position=position, entry_id=entry_id)
            for position, entry_id in zip(POSITIONS, players, strict=True)
        )
    Seat.objects.bulk_create(seats)
    Bye.objects.bulk_create(Bye(round=round_, entry_id=entry_id) for entry_id in plan.byes)
    return round_


@transaction.atomic
def round_set_status(*, round_: Round, status: str, actor: Any = None) -> Round:
    locked_event = _locked_event(round_.event)
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if status not in ROUND_TRANSITIONS.get(locked.status, set()):
        raise DomainError(
            f"Round {locked.number} is {locked.get_status_display().lower()}; "
            f"it cannot become {status}.",
            field="status",
        )
    now = timezone.now()
    locked.status = status
    if status == Round.Status.PLAYING:
        locked.started_at = now
    if status == Round.Status.CLOSED:
        locked.closed_at = now
    locked.save(update_fields=["status", "started_at", "closed_at"])
    unfinished = 0
    if status == Round.Status.CLOSED:
        from scoring.models import Game  # noqa: PLC0415 (app boundary)

        unfinished = Game.objects.filter(table__round=locked, status=Game.Status.PLAYING).count()
    _log(locked_event, actor, f"round_{status}", round=locked.number, unfinished=unfinished)
    if status == Round.Status.CLOSED:
        _standings_changed(locked_event)
    round_.status = locked.status
    return locked


@transaction.atomic
def seat_swap(*, round_: Round, entry_a: Entry, entry_b: Entry, actor: Any = None) -> None:
    """Swap two players' places (seats or a seat and a bye) before play starts."""
    _locked_event(round_.event)
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if locked.status != Round.Status.SEATED:
        raise DomainError("Seats can be swapped only before the round starts.", field="round")
    if entry_a.pk == entry_b.pk:
        raise DomainError("Pick two different players to swap.", field="entry_b")
    places = {}
    for field, entry in (("entry_a", entry_a), ("entry_b", entry_b)):
        seat = Seat.objects.filter(round=locked, entry=entry).first()
        bye = Bye.objects.filter(round=locked, entry=entry).first()
        if seat is None and bye is None:
            raise DomainError(f"{entry.player.name} is not in round {locked.number}.", field=field)
        places[field] = (seat, bye)
    (seat_a, bye_a), (seat_b, bye_b) = places["entry_a"], places["entry_b"]
    if seat_a and seat_b:
        # Two-step through a placeholder would break the unique (round, entry) constraint;
        # delete and recreate both seats inside the transaction instead.
        pos_a, table_a, pos_b, table_b = seat_a.position, seat_a.table_id, seat_b.position, seat_b.table_id
        Seat.objects.filter(pk__in=[seat_a.pk, seat_b.pk]).delete()
        Seat.objects.bulk_create([
            Seat(table_id=table_a, round=locked, position=pos_a, entry=entry_b),
            Seat(table_id=table_b, round=locked, position=pos_b, entry=entry_a),
        ])
    elif seat_a or seat_b:
        seat, bye = (seat_a, bye_b) if seat_a else (seat_b, bye_a)
        assert seat is not None and bye is not None
        sitting, resting = seat.entry_id, bye.entry_id
        seat.entry_id = resting
        bye.entry_id = sitting
        bye.save(update_fields=["entry"])
        seat.save(update_fields=["entry"])
    else:
        raise DomainError("Both players are sitting out; nothing to swap.", field="entry_b")
    _log(locked.event, actor, "seat_swap", round=locked.number, a=entry_a.pk, b=entry_b.pk,
         a_name=entry_a.player.name, b_name=entry_b.player.name)
    _standings_changed(locked.event)


def entries_create_many(*, event: Event, players: Iterable[Player], actor: Any = None) -> list[Entry]:
    """Check in several players at once (used by the check-in page and the demo data)."""
    return [entry_check_in(event=event, player=p, actor=actor) for p in players]



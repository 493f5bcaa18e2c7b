"""An event's creation, its entries and pairs, and the checks of its settings (the services
and their shared steps: the event's log, its row lock, ``hands_version_bump``); the package's
docstring says what every service here holds to."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping
from typing import Any, NotRequired, TypedDict

from django.db import connection, transaction
from django.db.models import Count, Max
from django.utils.translation import gettext

import formats
from clubs.models import Club, Player
from clubs.services import player_create
from common.errors import DomainError, refused
from common.rulesets import check_ruleset, ruleset_for, table_teams
from common.tasks import standings_request_update
from common.types import Actor, actor_user
from ranking import RankingError, validate_tie_breaks
from ranking.pairs import validate_pair_tie_breaks
from ranking.prizes import check_prizes
from rules_engine import Ruleset

from ..models import (
    BYE_POINTS_LIMIT,
    Entry,
    Event,
    EventLog,
    Pair,
    Round,
    Seat,
    new_draw_seed,
)
from ..selectors import results_final_check
from ..signals import hands_version_moved


def event_log(event: Event, actor: Actor | None, action: str, **details: object) -> None:
    """Record a director action on the event (the audit trail shown on the event page)."""
    EventLog.objects.create(
        event=event, actor=actor_user(actor),
        action=action, details=details,
    )


def event_lock(event: Event) -> Event:
    """The event's row, locked for the rest of the transaction (serialises director actions)."""
    return Event.objects.select_for_update().get(pk=event.pk)


def hands_version_bump(*, event_id: int, at_least: int = 0) -> int:
    """THE one writer of ``Event.hands_version``: mark the event's standings behind its hands
    (``hands_version`` + 1, or ``at_least`` when that is more) and return the new value; 0 when
    the event is gone. Every write of hands (a hand entered, corrected or deleted, an archive's
    hands imported) and of what else feeds the standings (seats, byes, settings, time called)
    calls it, so the snapshot is *behind* until the standings task catches up.

    One ``UPDATE ... RETURNING``. Every table of the event writes this one row, and its lock is
    held until the transaction commits: hand writers make it their transaction's LAST write, so
    a table waiting for it waits for a commit, not for another table's work. The new value goes
    out as ``tournaments.signals.hands_version_moved`` (the standings' cached status listens)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {connection.ops.quote_name(Event._meta.db_table)} "  # noqa: S608
            "SET hands_version = CASE WHEN hands_version + 1 > %s THEN hands_version + 1 "
            "ELSE %s END WHERE id = %s RETURNING hands_version",
            [at_least, at_least, event_id],
        )
        row = cursor.fetchone()
    if row is None:
        return 0
    version = int(row[0])
    hands_version_moved.send(sender=Event, event_id=event_id, hands_version=version)
    return version


def event_results_changed(event: Event) -> None:
    """Seats, byes and settings feed the standings too: mark them behind and queue an update."""
    hands_version_bump(event_id=event.pk)
    standings_request_update(event_id=event.pk)


# --- events -----------------------------------------------------------------------------------
class _Unset:
    """Marks an argument left out (``None`` means something for the deal count)."""


UNSET = _Unset()


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: datetime.date | None = None,
    actor: Actor | None = None,
    format: str = formats.DEFAULT,
    format_settings: Mapping[str, object] | None = None,
    partnership: str = Event.Partnership.ROTATING,
    ruleset_preset: str | None = None,
    ruleset_overrides: dict[str, object] | None = None,
    rounds_planned: int | None = None,
    deals_per_round: int | None | _Unset = UNSET,
    bye_scoring: str = Event.ByeScoring.AVERAGE_WINNING,
    bye_points: int = 0,
    tie_breaks: list[str] | None = None,
    is_public: bool = True,
    seed: int | None = None,
    prizes: Mapping[str, object] | None = None,
) -> Event:
    """A new event. Rounds and deals left out take the format's defaults (``formats``: a club
    night plays 4 rounds of 8 deals, a progressive day 6 qualifying games of 4 deals). A format
    with a ``rounds_setting`` (a progressive day's ``qualifying_games``) may give the planned
    rounds in its settings instead.

    The draw seed is drawn at random (``new_draw_seed``, 128 bits) unless ``seed`` fixes it: the
    demo and the benchmarks replay the same draws; no page or API lets a director choose it."""
    spec = _spec(format)
    if date is None:
        date = club.today()  # the club's date, not the server's (UTC) one
    if spec.pairs:
        partnership = Event.Partnership.FIXED  # the pair plays together all event
    format_settings = dict(format_settings or {})
    if spec.rounds_setting and spec.rounds_setting in format_settings:
        rounds_planned = _rounds_setting(spec, format_settings.pop(spec.rounds_setting),
                                         rounds_planned)
    if rounds_planned is None:
        rounds_planned = spec.default_rounds
    if isinstance(deals_per_round, _Unset):
        deals_per_round = spec.default_deals
    checked_prizes = check_prizes_field(prizes)
    name, preset, overrides, breaks = _check_settings(
        club=club, name=name, format=format, partnership=partnership, ruleset_preset=ruleset_preset,
        ruleset_overrides=ruleset_overrides, rounds_planned=rounds_planned,
        deals_per_round=deals_per_round, bye_scoring=bye_scoring, bye_points=bye_points,
        tie_breaks=tie_breaks,
    )
    settings = check_format_settings(format=format, settings=format_settings,
                                     ruleset=ruleset_for(preset=preset, overrides=overrides))
    event = Event.objects.create(
        club=club, name=name, date=date, format=format, format_settings=settings,
        partnership=partnership,
        ruleset_preset=preset, ruleset_overrides=overrides, rounds_planned=rounds_planned,
        deals_per_round=deals_per_round, bye_scoring=bye_scoring, bye_points=bye_points,
        tie_breaks=breaks, is_public=is_public,
        seed=new_draw_seed() if seed is None else str(seed), created_by=actor_user(actor),
        prizes=checked_prizes,
    )
    event_log(event, actor, "event_created", name=name)
    return event


def _spec(format: str) -> formats.Format:
    with refused():
        return formats.get(format)


def _rounds_setting(spec: formats.Format, value: object, rounds_planned: int | None) -> int:
    """The planned rounds given as the format's ``rounds_setting`` (1 to 40)."""
    field = f"format_settings.{spec.rounds_setting}"
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 40:
        raise DomainError(gettext("%(rounds_label)s are a whole number from 1 to 40.") % {"rounds_label": spec.rounds_label}, field=field)
    if rounds_planned is not None and rounds_planned != value:
        raise DomainError(
            gettext("rounds_planned and %(field)s say different things; give one of them.") % {"field": field}, field=field)
    return value


def check_prizes_field(prizes: Mapping[str, object] | None) -> dict[str, Any]:
    try:
        return check_prizes(prizes)
    except RankingError as exc:
        raise DomainError.of(exc) from None


def check_format_settings(*, format: str, settings: Mapping[str, object] | None,
                          ruleset: Ruleset | None = None) -> dict[str, object]:
    """The format's settings with its defaults, or a refusal naming the field; with the event's
    ``ruleset``, the settings for the shape of its tables (a progressive day at tables of three
    cuts to three semi-final tables)."""
    spec = _spec(format)
    with refused():
        if ruleset is None:
            return spec.check_settings(settings)
        return spec.settings_for(settings, table_sizes=tuple(ruleset.table_sizes),
                                 individual=ruleset.individual, teams=table_teams(ruleset))


def _check_settings(
    *, club: Club, name: str, format: str, partnership: str, ruleset_preset: str | None,
    ruleset_overrides: dict[str, object] | None, rounds_planned: int, deals_per_round: int | None,
    bye_scoring: str, tie_breaks: list[str] | None, bye_points: int = 0,
) -> tuple[str, str, dict[str, object], list[str]]:
    """Validate an event's settings; returns the cleaned name, ruleset and tie-breaks."""
    name = name.strip()
    if not name:
        raise DomainError(gettext("Give the event a name."), field="name")
    if rounds_planned < 1 or rounds_planned > 60:
        raise DomainError(gettext("Rounds must be between 1 and 60."), field="rounds_planned")
    if deals_per_round is not None and not 1 <= deals_per_round <= 60:
        raise DomainError(gettext("Deals per round must be between 1 and 60."), field="deals_per_round")
    if bye_scoring not in Event.ByeScoring.values:
        raise DomainError(
            gettext("A bye scores one of: %(values)s.") % {"values": ', '.join(Event.ByeScoring.values)}, field="bye_scoring"
        )
    if not -BYE_POINTS_LIMIT <= bye_points <= BYE_POINTS_LIMIT:
        raise DomainError(
            gettext("Fixed bye points must be between %(value)s and %(bye_points_limit)s.") % {"value": f"{-BYE_POINTS_LIMIT:,}", "bye_points_limit": f"{BYE_POINTS_LIMIT:,}"},
            field="bye_points",
        )
    preset = ruleset_preset or club.ruleset_preset
    if ruleset_overrides is not None:
        overrides = ruleset_overrides
    elif preset == club.ruleset_preset:
        overrides = club.ruleset_overrides  # the club's variant of its own preset
    else:
        overrides = {}  # a club's overrides belong to its preset, not to another one
    ruleset = check_ruleset(preset=preset, overrides=overrides)
    check_table_shape(ruleset=ruleset, format=format)
    try:
        if _spec(format).pairs:
            breaks = validate_pair_tie_breaks(tie_breaks)
        else:
            breaks = validate_tie_breaks(tie_breaks, partnership=partnership)
    except RankingError as exc:
        raise DomainError.of(exc) from None
    return name, preset, overrides, breaks


def check_table_shape(*, ruleset: Ruleset, format: str) -> None:
    """Refuse a ruleset whose tables the format cannot seat: every format seats partnerships of
    two at tables of four; individual play (each player their own side, at tables of three, or
    of four with the dealer sitting out) only a format that seats tables of three."""
    spec = _spec(format)
    try:
        spec.settings_for({}, table_sizes=tuple(ruleset.table_sizes),
                          individual=ruleset.individual, teams=table_teams(ruleset))
    except formats.FormatError as exc:
        if exc.code != "table_shape":
            return  # the settings are checked on their own (check_format_settings)
        raise DomainError(gettext("%(message)s (%(title)s is played at tables of %(values)s.)") % {"message": exc.message, "title": ruleset.title, "values": ' or '.join(map(str, ruleset.table_sizes))},
                          field="ruleset_preset", code="table_shape") from None


class EventSettings(TypedDict):
    """An event's settings as a director changes them (:func:`check_event_settings_change`,
    ``scoring.services.event_settings_update``)."""

    name: str
    date: datetime.date
    ruleset_preset: str
    ruleset_overrides: NotRequired[dict[str, object] | None]
    rounds_planned: int
    deals_per_round: int | None
    bye_scoring: str
    bye_points: NotRequired[int]
    tie_breaks: NotRequired[list[str] | None]
    is_public: NotRequired[bool]
    format_settings: NotRequired[Mapping[str, object] | None]
    prizes: NotRequired[Mapping[str, object] | None]


def check_event_settings_change(
    *,
    event: Event,
    hands_entered: bool,
    name: str,
    date: datetime.date,
    ruleset_preset: str,
    ruleset_overrides: dict[str, object] | None = None,
    rounds_planned: int,
    deals_per_round: int | None,
    bye_scoring: str,
    bye_points: int = 0,
    tie_breaks: list[str] | None = None,
    is_public: bool = True,
    format_settings: Mapping[str, object] | None = None,
    prizes: Mapping[str, object] | None = None,
) -> dict[str, object]:
    """The settings a change would give ``event`` (locked by the caller), checked: the fields
    that differ, with their cleaned values, or a refusal naming the field. Writes nothing: the
    one service that changes settings is ``scoring.services.event_settings_update``.

    ``hands_entered`` says whether any hand exists (the caller, one layer up, knows hands): the
    rules cannot change then, since the hands were checked under the old ones. Settings that
    change results are refused on a finished event (reopen it first, with a reason).
    """
    locked = event
    name, preset, overrides, breaks = _check_settings(
        club=locked.club, name=name, format=locked.format, partnership=locked.partnership,
        ruleset_preset=ruleset_preset, ruleset_overrides=ruleset_overrides,
        rounds_planned=rounds_planned, deals_per_round=deals_per_round,
        bye_scoring=bye_scoring, bye_points=bye_points, tie_breaks=tie_breaks,
    )
    if hands_entered and (preset, overrides) != (locked.ruleset_preset, locked.ruleset_overrides):
        raise DomainError(
            gettext("Hands have been entered under the current rules; they cannot change now."),
            field="ruleset_preset",
        )
    given_settings = dict(locked.format_settings if format_settings is None else format_settings)
    spec = locked.spec
    if spec.rounds_setting and spec.rounds_setting in given_settings:
        rounds_planned = _rounds_setting(spec, given_settings.pop(spec.rounds_setting), None)
    settings = check_format_settings(format=locked.format, settings=given_settings,
                                     ruleset=ruleset_for(preset=preset, overrides=overrides))
    changed = {
        field: value for field, value in {
            "name": name, "date": date, "ruleset_preset": preset, "ruleset_overrides": overrides,
            "rounds_planned": rounds_planned, "deals_per_round": deals_per_round,
            "bye_scoring": bye_scoring, "bye_points": bye_points, "tie_breaks": breaks,
            "is_public": is_public, "format_settings": settings,
            "prizes": locked.prizes if prizes is None else check_prizes_field(prizes),
        }.items() if getattr(locked, field) != value
    }
    if {"format_settings", "rounds_planned"} & set(changed):
        _check_plan_change(locked, settings, rounds_planned)
    if locked.status == Event.Status.FINISHED:
        refused = sorted(set(changed) & RESULT_SETTINGS)
        if refused:
            raise DomainError(
                gettext("This event is finished: its results are final. Reopen it (with a reason) before changing settings that change results."),
                field=refused[0],
            )
    return changed


# Settings that change what a game or the standings say (refused on a finished event).
RESULT_SETTINGS = frozenset({
    "ruleset_preset", "ruleset_overrides", "deals_per_round", "bye_scoring", "bye_points",
    "tie_breaks", "format_settings", "rounds_planned", "prizes",
})


def _check_plan_change(event: Event, settings: Mapping[str, object], rounds_planned: int
                       ) -> None:
    """The format refuses a change of its stages, bracket or schedule once play has reached
    them (``formats.Format.check_plan_change``), told how far play has gone."""
    seated = dict(event.rounds.order_by().values("stage").annotate(n=Count("pk")).values_list(
        "stage", "n"))
    here = event.pairs.count() if event.is_pairs else event.entries.filter(
        status=Entry.Status.ACTIVE, alternate=False).count()
    with refused():
        event.spec.check_plan_change(formats.PlanChange(
            stored=dict(event.format_settings or {}), settings=settings,
            rounds_planned=rounds_planned, seated=seated, here=here))
        # a movement seats as many rounds as tables: every pair registered (withdrawn ones
        # keep their places in it)
        entrants = event.pairs.count() if event.is_pairs else here
        event.spec.check_rounds(rounds_planned, settings, entrants)


@transaction.atomic
def event_hold_advance(*, event: Event, held: bool, actor: Actor | None = None) -> Event:
    """Hold (or release) the automatic advance: while held, confirming a round's last game does
    not seat the next one; the director seats it by hand."""
    locked = event_lock(event)
    if locked.advance_held != held:
        locked.advance_held = held
        locked.save(update_fields=["advance_held"])
        event_log(locked, actor, "advance_held" if held else "advance_released")
    event.advance_held = held
    return locked


# --- entries ----------------------------------------------------------------------------------
def check_not_erased(player: Player, *, field: str) -> None:
    """An erased player (their account erased at their request: the row stays for the clubs'
    results as "Withdrawn player") is never entered in an event again, on any path."""
    if player.erased_at is not None:
        raise DomainError(gettext("Player #%(pk)s erased their data: they cannot be entered in an event (add them to the roster again if they come back).") % {"pk": player.pk},
                          field=field, code="erased")


def _next_round_number(event: Event) -> int:
    return (event.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


@transaction.atomic
def entry_check_in(
    *, event: Event, player: Player, actor: Actor | None = None, fixed_table: int | None = None,
    alternate: bool = False,
) -> Entry:
    """Check a player in. Between rounds this is a late arrival: they play from the next round.
    In a progressive event an ``alternate`` waits to take the seat of a player who withdraws."""
    locked = event_lock(event)
    if locked.is_over:
        raise DomainError(gettext("This event is over; nobody can check in."), field="player")
    if locked.is_pairs:
        raise DomainError(gettext("This event takes pairs: register two players together ({\"player_ids\": [a, b]})."), field="player_ids", code="pairs_only")
    if alternate and not locked.spec.alternates:
        raise DomainError(gettext("Alternates wait for a seat in a progressive event; at a club night everyone plays (sitting out in turn)."), field="alternate")
    if not player.club_links.filter(club_id=locked.club_id).exists():
        raise DomainError(gettext("%(name)s is not on this club's roster.") % {"name": player.name}, field="player")
    check_not_erased(player, field="player")
    existing = Entry.objects.filter(event=locked, player=player).first()
    if existing is not None:
        if existing.status == Entry.Status.ACTIVE:
            raise DomainError(gettext("%(name)s is already checked in.") % {"name": player.name}, field="player")
        # Someone who left comes back: they play again from the next round.
        existing.status = Entry.Status.ACTIVE
        existing.left_after_round = None
        existing.joined_round = _next_round_number(locked)
        existing.fixed_table = fixed_table
        existing.alternate = alternate or existing.alternate
        existing.save(update_fields=["status", "left_after_round", "joined_round", "fixed_table",
                                     "alternate"])
        event_log(locked, actor, "returned", player=player.pk, name=player.name)
        return existing
    entry = Entry.objects.create(
        event=locked, player=player, joined_round=_next_round_number(locked),
        fixed_table=fixed_table, alternate=alternate,
    )
    event_log(locked, actor, "checked_in", player=player.pk, name=player.name,
              alternate=alternate)
    return entry


@transaction.atomic
def pair_register(
    *, event: Event, players: list[Player], name: str = "", seed: int | None = None,
    actor: Actor | None = None,
) -> Pair:
    """Register two players as a pair (fixed-partnership formats): one pair and an entry for
    each player, or nothing. A bracket takes no new pairs once its first round is seated; a
    Swiss or movement event takes late pairs, who play from the next round."""
    locked = event_lock(event)
    if not locked.is_pairs:
        raise DomainError(gettext("This event takes players one by one (player_id), not pairs."),
                          field="player_ids", code="players_only")
    if locked.is_over:
        raise DomainError(gettext("This event is over; no more pairs."), field="player_ids")
    # a side of the event's game: two partners, a team of three, or one player head to head
    size = ruleset_for(preset=locked.ruleset_preset,
                       overrides=locked.ruleset_overrides).side_size
    if len(players) != size:
        words = {1: "one player", 2: "two players", 3: "three players"}.get(size, str(size))
        raise DomainError(gettext("A side of this game is %(words)s: give exactly %(size)s player id%(value)s.") % {"words": words, "size": size, "value": 's' if size != 1 else ''}, field="player_ids",
                          code="two_players" if size == 2 else "side_size")
    if len({p.pk for p in players}) != len(players):
        raise DomainError(gettext("%(name)s cannot partner themselves: give different players.") % {"name": players[0].name}, field="player_ids", code="same_player")
    started = locked.rounds.exists()
    if started and locked.spec.closed_field:
        raise DomainError(gettext("Play has started: a bracket or round robin takes no new pairs."),
                          field="player_ids", code="started")
    for player in players:
        if not player.club_links.filter(club_id=locked.club_id).exists():
            raise DomainError(gettext("%(name)s is not on this club's roster.") % {"name": player.name}, field="player_ids")
        check_not_erased(player, field="player_ids")
        taken = Entry.objects.filter(event=locked, player=player).select_related("pair").first()
        if taken is not None:
            raise DomainError(
                f"{player.name} is already entered in this event"
                + (f" (with pair {taken.pair})." if taken.pair else "."),
                field="player_ids", code="already_entered")
    name = name.strip()[:120] or " & ".join(p.name for p in players)
    if seed is not None:
        if not 1 <= seed <= 1024:
            raise DomainError(gettext("A seed is a whole number from 1 (the best) to 1024."), field="seed")
        if locked.pairs.filter(seed=seed).exists():
            raise DomainError(gettext("Seed %(seed)s is already given to another pair.") % {"seed": seed}, field="seed",
                              code="seed_taken")
    pair = Pair.objects.create(event=locked, name=name, seed=seed)
    joined = _next_round_number(locked)
    for player in players:
        Entry.objects.create(event=locked, player=player, pair=pair, joined_round=joined)
    event_log(locked, actor, "pair_registered", pair=pair.pk, name=name,
              players=[p.pk for p in players], seed=seed)
    return pair


@transaction.atomic
def pair_withdraw(*, pair: Pair, actor: Actor | None = None, forfeited: bool = False) -> Pair:
    """A pair withdraws: both players leave; results so far stay. In a bracket that has
    started, each of its later matches is a walkover for its opponent; a pair seated at a table
    of the open round forfeits that game instead (``scoring.services.game_forfeit``, which
    withdraws it with ``forfeited``)."""
    locked = event_lock(pair.event)
    if not forfeited:
        results_final_check(locked)
    if locked.is_bracket and not forfeited:
        seat = Seat.objects.filter(entry__pair=pair).exclude(
            round__status=Round.Status.CLOSED).select_related("table", "round").first()
        if seat is not None:
            raise DomainError(
                gettext("%(pair)s is seated at table %(number)s of round %(number2)s: forfeit that game (which can withdraw the pair) rather than withdraw it.") % {"pair": pair, "number": seat.table.number, "number2": seat.round.number},
                field="pair", code="seated")
    members = list(pair.members.select_related("player"))
    if all(m.status == Entry.Status.LEFT for m in members):
        raise DomainError(gettext("%(pair)s has already withdrawn.") % {"pair": pair}, field="pair")
    after = _next_round_number(locked) - 1
    for member in members:
        if member.status != Entry.Status.LEFT:
            member.status = Entry.Status.LEFT
            member.left_after_round = after
            member.save(update_fields=["status", "left_after_round"])
    event_log(locked, actor, "pair_withdrew", pair=pair.pk, name=str(pair))
    return pair


@transaction.atomic
def entries_create_many(*, event: Event, players: Iterable[Player],
                        actor: Actor | None = None) -> list[Entry]:
    """Check in several players at once, all or none (the check-in page and the demo data):
    one refused player leaves nobody half checked in."""
    return [entry_check_in(event=event, player=p, actor=actor) for p in players]




@transaction.atomic
def entries_check_in(
    *, event: Event, players: Iterable[Player], new_player: str = "", actor: Actor | None = None,
    new_players: Iterable[str] = (),
) -> list[Entry]:
    """The check-in page's submit: the ticked players plus, optionally, new players added to
    the roster (``new_player``, or the unknown names of a pasted list), all in one transaction.
    Players already checked in are left as they are (ticking a box twice is not an error);
    returns the entries checked in now."""
    chosen = list(players)
    for name in [new_player, *new_players]:
        if name.strip():
            chosen.append(player_create(club=event.club, name=name))
    here = set(
        event.entries.filter(status=Entry.Status.ACTIVE).values_list("player_id", flat=True)
    )
    return entries_create_many(
        event=event, players=[p for p in chosen if p.pk not in here], actor=actor
    )

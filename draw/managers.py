"""Round managers: what each family of formats needs gathered from the rows before its builder
can seat a round. Individuals (a club night, a progressive day) need the players here, the
alternates and fixed tables; pairs (Swiss, round robin, movements) need the pairs in seed order
and who still plays; a bracket needs the pairs and nothing of the qualifying order. Each manager
reads only what its family's builders use, checks the field is big enough and hands back the
:class:`formats.Situation`; ``draw.services.round_create`` does the rest (locks, stages,
writing the round). Once the round is written, the manager says what its family needs done
about the seating (:meth:`RoundManager.after_seating`): individuals name the players the format
left unseated as alternates, pairs walk over the tables where a withdrawn pair was seated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypedDict, Unpack

from django.utils.translation import gettext

from common.errors import DomainError, refused
from common.rulesets import event_ruleset, table_seats, table_teams, two_sides
from formats import Format, Meeting, Situation, Stage
from pairing.results import TableResult
from pairing.rotation import RoundPlan
from rules_engine import Ruleset
from scoring.models import Game
from standings.selectors import qualifying_order
from tournaments.models import Bye, Entry, Event, Seat
from tournaments.selectors import event_entrants, pairs_in_seed_order

from .season import season_partnerships
from .selectors import event_results, round_draw_seed, system_cut_results


@dataclass(frozen=True)
class AfterSeating:
    """What a seated round needs written next, as its manager says: ``alternates``, entries to
    mark as waiting alternates; ``walkovers``, table number -> (the side that forfeits, the pair
    that withdrew)."""

    alternates: tuple[int, ...] = ()
    walkovers: tuple[tuple[int, str, int], ...] = ()


@dataclass
class RoundManager:
    """Gathers a round's situation for one family of formats."""

    event: Event
    spec: Format
    number: int
    stage: str
    history: list[RoundPlan[int]]
    # The draw seed the builders get (``draw.selectors.round_draw_seed``): the event's seed, or
    # the next value of its stream after a re-draw.
    seed: int

    def __post_init__(self) -> None:
        """Read the family's rows (each manager reads its own)."""

    @property
    def ruleset(self) -> Ruleset:
        """The event's rules: the shape of its tables."""
        return event_ruleset(self.event)

    def check(self) -> None:
        """Refuse a field too small for the round (and the format's first-round checks)."""
        raise NotImplementedError

    def situation(self, results: tuple[TableResult, ...]) -> Situation:
        """The builder's situation, with every game's result (read after level games were
        settled)."""
        raise NotImplementedError

    def after_seating(self, plan: RoundPlan[int]) -> AfterSeating:
        """What the written round needs next (nothing, unless the family says so)."""
        return AfterSeating()

    def _ranking(self) -> tuple[int, ...]:
        """The qualifying order, for a round after a cut."""
        if self.stage == Stage.QUALIFYING:
            return ()
        return tuple(entry for entry, _ in qualifying_order(self.event))

    def _base(self, results: tuple[TableResult, ...], **family: Unpack[FamilyParts]
              ) -> Situation:
        return Situation(
            number=self.number, seed=self.seed, rounds_planned=self.event.rounds_planned,
            history=tuple(self.history), results=results,
            settings=dict(self.event.format_settings or {}),
            table_sizes=self.ruleset.table_sizes, individual=self.ruleset.individual,
            teams=table_teams(self.ruleset), **two_sides(self.ruleset), **family)

    def _first_round_check(self, entrants: int) -> None:
        if self.number == 1:
            with refused():
                self.spec.check_field(dict(self.event.format_settings or {}), entrants)


class FamilyParts(TypedDict, total=False):
    """What a family's manager gathers for :class:`formats.Situation` beyond the common parts."""

    entries: tuple[int, ...]
    fixed_tables: Mapping[int, int]
    ranking: tuple[int, ...]
    season_history: Mapping[frozenset[int], tuple[int, ...]]
    pairs: Mapping[int, tuple[int, ...]]
    active_pairs: tuple[int, ...]


class IndividualManager(RoundManager):
    """Players with rotating partners: who is here (in check-in order), the alternates waiting
    and the tables some players keep; for a club night, the partnerships of its season's
    earlier nights (``draw.season``)."""

    def __post_init__(self) -> None:
        self.active = list(
            self.event.entries.filter(status=Entry.Status.ACTIVE)
            .order_by("checked_in_at", "pk").values_list("pk", "fixed_table", "alternate"))
        self.players = [pk for pk, _, alternate in self.active if not alternate]
        alternates = [pk for pk, _, alternate in self.active if alternate]
        self.present = _present(self.players, alternates, self.history)

    def check(self) -> None:
        # a table of the smallest size the ruleset seats (three, where each plays alone); the
        # alternates who take the seats of players gone count, as they will sit down
        least = min(self.spec.min_entries, min(self.ruleset.table_sizes))
        if len(self.present) < least:
            raise DomainError(
                gettext("A round needs at least %(least)s checked-in players; %(count)s are here.") % {"least": least, "count": len(self.present)}, field="entries")
        self._first_round_check(len(self.players))

    def situation(self, results: tuple[TableResult, ...]) -> Situation:
        entries = self.present
        season = (season_partnerships(self.event, entries)
                  if self.spec.club_night and self.stage == Stage.QUALIFYING else {})
        return self._base(
            results,
            entries=entries,
            fixed_tables={pk: table for pk, table, _ in self.active if table},
            ranking=self._ranking(), season_history=season)

    def after_seating(self, plan: RoundPlan[int]) -> AfterSeating:
        """Players the format left unseated in a qualifying round (no bye either: a progressive
        game seats full tables only) wait as alternates from now on."""
        if self.stage != Stage.QUALIFYING or not self.spec.alternates:
            return AfterSeating()
        placed = set(plan.seated()) | set(plan.byes)
        return AfterSeating(alternates=tuple(pk for pk in self.players if pk not in placed))


class PairManager(RoundManager):
    """Fixed partnerships: every pair in seed order with its two entries, and the pairs still
    playing; after the qualifying rounds, their order for the playoff."""

    def __post_init__(self) -> None:
        self.pairs = pairs_in_seed_order(self.event)
        self.playing = [pk for pk, _, playing in self.pairs if playing]

    def check(self) -> None:
        if len(self.playing) < 2:
            raise DomainError(
                gettext("A round needs at least 2 pairs; %(count)s %(value)s registered and playing.") % {"count": len(self.playing), "value": 'is' if len(self.playing) == 1 else 'are'},
                field="pairs", code="too_few_pairs")
        self._first_round_check(len(self.playing))
        if self.number == 1:
            # the pairs are known now (none were when the event was created): a movement's
            # planned rounds are checked against its tables, every pair registered included
            with refused():
                self.spec.check_rounds(self.event.rounds_planned,
                                       dict(self.event.format_settings or {}), len(self.pairs))

    def situation(self, results: tuple[TableResult, ...]) -> Situation:
        return self._base(
            results,
            entries=tuple(e for _, members, playing in self.pairs if playing for e in members),
            ranking=self._ranking(),
            pairs={pk: members for pk, members, _ in self.pairs},
            active_pairs=tuple(self.playing))

    def after_seating(self, plan: RoundPlan[int]) -> AfterSeating:
        """A table seated with a pair that has withdrawn (a bracket keeps its withdrawn pairs in
        their places) is a walkover, in a format with forfeits: the pair forfeits the game at
        once and its opponent goes on. Should both pairs of a table have withdrawn, the N-S pair
        (the better seed of a bracket match) takes the walkover."""
        withdrawn = {pk for pk, _, playing in self.pairs if not playing}
        if not self.spec.forfeits or not withdrawn:
            return AfterSeating()
        pair_of = {entry: pk for pk, members, _ in self.pairs for entry in members}
        ruleset = self.ruleset
        walkovers = []
        for number, table in enumerate(plan.tables, start=1):
            seated = dict(zip(ruleset.seats_for(len(table)), table, strict=True))
            # the pair of each side (a side's first seat), the second side's checked first
            pairs = [(side, pair_of.get(seated[ruleset.seats_of(side)[0]]))
                     for side in ruleset.sides]
            for side, pair in reversed(pairs):
                if pair in withdrawn:
                    walkovers.append((number, side, pair))
                    break
        return AfterSeating(walkovers=tuple(walkovers))


class BracketManager(PairManager):
    """A bracket from the first round: seeded by the director, never by a qualifying order."""

    def _ranking(self) -> tuple[int, ...]:
        return ()


def manager_for(spec: Format) -> type[RoundManager]:
    if spec.bracket:
        return BracketManager
    return PairManager if spec.pairs else IndividualManager


def _present(
    players: list[int], alternates: list[int], history: list[RoundPlan[int]]
) -> tuple[int, ...]:
    """Who the builder seats: the players; the alternates who already play (they took a
    withdrawn player's seat earlier); and, in check-in order, one waiting alternate for each seat
    left empty since the last round that no late arrival fills. Other alternates wait."""
    if not history:
        return tuple(players)
    seated = set(history[-1].seated())
    playing = [pk for pk in alternates if pk in seated]
    staying = set(players) | set(playing)
    empty = len(seated - staying) - len(set(players) - seated)
    waiting = [pk for pk in alternates if pk not in seated]
    return tuple(players + playing + waiting[:max(empty, 0)])


def event_history(event: Event) -> list[RoundPlan[int]]:
    """Past rounds as the builders see them: tables of entry ids in seat order clockwise from
    North, and byes."""
    seats = (
        Seat.objects.filter(round__event=event)
        .order_by("round__number", "table__number")
        .values_list("round__number", "table__number", "position", "entry_id")
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
    ruleset = event_ruleset(event)
    return [
        RoundPlan(
            tables=tuple(
                tuple(t[p] for p in table_seats(ruleset, t))
                for _, t in sorted(tables.get(number, {}).items())
            ),
            byes=tuple(sorted(byes.get(number, []))),
        )
        for number in sorted(set(tables) | set(byes))
    ]


def table_meetings(event: Event) -> tuple[Meeting, ...]:
    """Who meets at each table of the next round before the tables' own draw of partners (a
    format whose tables cut the cards for partners: ``Format.meetings``), once every game of the
    latest round is decided: the director enters each table's draw from this. () when the next
    round needs no table draw, or cannot be seated yet (a level game waiting for its table's
    cut, a field too small: seating it says why). A level game the system cuts is read with the
    cut the seating will make (``draw.selectors.system_cut``)."""
    spec = event.spec
    settings = dict(event.format_settings or {})
    if (not spec.tables_draw(settings)
            or event.is_over):
        return ()
    latest = event.rounds.order_by("-number").first()
    if latest is None or Game.objects.filter(table__round=latest,
                                             status=Game.Status.PLAYING).exists():
        return ()
    number = latest.number + 1
    entrants = event_entrants(event)
    if number > spec.rounds_total(event.rounds_planned, settings, entrants):
        return ()
    manager = manager_for(spec)(
        event=event, spec=spec, number=number,
        stage=spec.stage_of(number, event.rounds_planned, settings, entrants),
        history=event_history(event), seed=round_draw_seed(event, number))
    results = system_cut_results(event, tuple(event_results(event)))
    try:
        manager.check()
        with refused():
            return spec.meetings(manager.situation(results))
    except DomainError:
        return ()


class MeetingPlayer(TypedDict):
    """A player at a table before its draw: the entry and the player's name."""

    entry: int
    name: str


class MeetingRow(TypedDict):
    """A table before its draw of partners, as the director's form and the API show it."""

    table: int
    stayers: list[MeetingPlayer]
    arrivals: list[MeetingPlayer]


def table_meeting_rows(event: Event) -> list[MeetingRow]:
    """:func:`table_meetings` with the players' names (one query more)."""
    meetings = table_meetings(event)
    if not meetings:
        return []
    ids = {pk for m in meetings for pk in (*m.stayers, *m.arrivals)}
    names = dict(Entry.objects.filter(pk__in=ids).values_list("pk", "player__name"))

    def players(found: tuple[int, int]) -> list[MeetingPlayer]:
        return [{"entry": pk, "name": names.get(pk, str(pk))} for pk in found]

    return [{"table": m.table, "stayers": players(m.stayers), "arrivals": players(m.arrivals)}
            for m in meetings]

"""What a format is: the spec every other layer asks, and the plain values a builder receives.

A :class:`Format` says everything the rest of the house needs to know about one way of running
an event: what its entrants are (players or pairs), what a sitting is called (a game or a
round), its settings (defaults and validation), its stage plan, how it builds a round from the
event's history and results, its final placements, and its capabilities (who may swap, whether
it seats itself, whether every game needs a winner, whether it may play on past its plan).
Pages, services, the API and the scripts ask the spec; none of them names a format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from pairing.club_night import BuiltRound
from pairing.errors import PairingError
from pairing.results import TableResult
from pairing.rotation import RoundPlan
from rules_engine.i18n import Text, gettext_noop, ngettext


class FormatError(PairingError):
    """A format refuses a request; ``field`` names the input at fault (``format_settings.cut``,
    ``round``, ``entries``), ``code`` the reason."""


class Stage(StrEnum):
    """The stage a round belongs to (``Round.stage``): a club night is all qualifying."""

    QUALIFYING = "qualifying"
    SEMIFINAL = "semifinal"
    FINAL = "final"
    BRACKET = "bracket"

    @property
    def label(self) -> str:
        return STAGE_LABELS[self]


STAGE_LABELS = {Stage.QUALIFYING: gettext_noop("Qualifying"),
                Stage.SEMIFINAL: gettext_noop("Semi-final"),
                Stage.FINAL: gettext_noop("Final"), Stage.BRACKET: gettext_noop("Bracket")}


def _shape_of(table_sizes: tuple[int, ...], teams: tuple[tuple[int, ...], ...]) -> str:
    if 3 in table_sizes:
        return "threes"
    if table_sizes == (4,) and len(teams) == 2:
        return "partnerships"
    return "other"


@dataclass(frozen=True)
class Situation:
    """Everything a builder may use to seat round ``number``."""

    number: int
    seed: int
    rounds_planned: int
    entries: tuple[int, ...]
    fixed_tables: Mapping[int, int] = field(default_factory=dict)
    history: tuple[RoundPlan[int], ...] = ()
    results: tuple[TableResult, ...] = ()
    settings: Mapping[str, object] = field(default_factory=dict)
    # The eligible players (pairs, in a pair event) in qualifying order (best first), for
    # rounds after a cut.
    ranking: tuple[int, ...] = ()
    # Fixed-partnership formats: every pair of the event (withdrawn ones too) with its two
    # entries, in seed order (the director's seeds, then registration order); and the pairs
    # still playing.
    pairs: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    active_pairs: tuple[int, ...] = ()
    # The ruleset's table shape: the sizes a table may seat (``(4,)``; ``(3,)`` tables of three,
    # the rest sit out; ``(3, 4)`` tables of three and as many of four as needed so nobody
    # waits) and whether each player is their own side (three-handed, cutthroat).
    table_sizes: tuple[int, ...] = (4,)
    individual: bool = False
    # Who plays with whom at a full table (the largest size): the seat indexes of each side,
    # clockwise from North. Partnerships N-S and E-W by default; six-handed ((0, 2, 4),
    # (1, 3, 5)); eight-handed four pairs opposite; each alone ((0,), (1,), ...).
    teams: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))
    # Two-sided games (the pair formats): each side's name and its first seat's, as the results
    # name them (``NS`` at ``N`` and ``EW`` at ``E``; two-handed ``N`` and ``S``).
    side_names: tuple[str, ...] = ("NS", "EW")
    first_seats: tuple[str, ...] = ("N", "E")
    # A club night of a season: the partnerships (teammates) of the club's earlier nights
    # among this event's entries, each pair with the nights since each time they partnered
    # (1 = the previous night): ``pairing.season.SeasonHistory``, gathered by ``draw.season``.
    # Empty for any other event; the builders avoid these after the evening's own repeats.
    season_history: Mapping[frozenset[int], tuple[int, ...]] = field(default_factory=dict)
    # The tables' own draw of partners (a format whose tables cut the cards for partners: see
    # :attr:`Format.meetings`): one (stayer, arrival) pair per table, who partner each other, as
    # the director entered it. Empty when the round needs none.
    table_draw: tuple[tuple[int, int], ...] = ()

    @property
    def threes(self) -> bool:
        """Individual play at tables of three (and maybe four)."""
        return 3 in self.table_sizes

    @property
    def shape(self) -> str:
        """``partnerships`` (two sides of two at four), ``threes``, or ``other`` (two, five,
        six or eight at a table: ``pairing.tables``)."""
        return _shape_of(self.table_sizes, self.teams)


@dataclass(frozen=True)
class Meeting:
    """Who meets at a table of the next round before the table's draw of partners: the two who
    stay (last round's partners, split now) and the two who arrive; the table's cut of the cards
    says which arrival partners which stayer (``Situation.table_draw``)."""

    table: int
    stayers: tuple[int, int]
    arrivals: tuple[int, int]


@dataclass(frozen=True)
class Finish:
    """What placing a finished event needs: the eligible entrants in qualifying order with their
    qualifying rank, and every game's result (``results``) by round."""

    rounds_planned: int
    settings: Mapping[str, object]
    ranking: tuple[tuple[int, int], ...]
    results: tuple[TableResult, ...]
    # A pair event's pairs with their entries, in seed order (as in :class:`Situation`).
    pairs: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    # The ruleset's table shape, as in :class:`Situation` (a progressive day at tables of
    # three places its final and semi-final tables by each player's own score).
    table_sizes: tuple[int, ...] = (4,)
    individual: bool = False
    side_names: tuple[str, ...] = ("NS", "EW")
    first_seats: tuple[str, ...] = ("N", "E")

    @property
    def threes(self) -> bool:
        return 3 in self.table_sizes


@dataclass(frozen=True)
class Placed:
    place: int
    entry_id: int  # a pair's id in a pair event
    stage: str
    # A format with more than one bracket at the end (the split final) names the one that
    # decided this place ("upper", "lower"); empty otherwise.
    group: str = ""


@dataclass(frozen=True)
class Cut:
    """After qualifying, the best ``size`` eligible entrants go on to ``goes_to`` (words)."""

    size: int
    goes_to: str


@dataclass(frozen=True)
class PlanChange:
    """A director changing the settings or planned rounds of an event already under way: what
    is stored, what is asked for, and how far play has gone."""

    stored: Mapping[str, object]
    settings: Mapping[str, object]
    rounds_planned: int
    seated: Mapping[str, int]  # rounds seated per stage
    here: int  # players (pairs) checked in and playing


def setting_int(settings: Mapping[str, object], key: str, default: int = 0) -> int:
    """The whole number under ``key`` (``default`` when it is absent, null or zero)."""
    value = settings.get(key)
    if isinstance(value, int | float | str) and value:
        return int(value)
    return default


def setting_map(settings: Mapping[str, object], key: str) -> Mapping[str, object]:
    """The nested settings under ``key`` (a playoff's), empty when absent or null."""
    value = settings.get(key)
    return value if isinstance(value, Mapping) else {}


def setting_ints(settings: Mapping[str, object], key: str) -> tuple[int, ...]:
    """The list of whole numbers under ``key`` (a bracket's consolation rounds), empty when
    absent or null."""
    value = settings.get(key)
    if not isinstance(value, list | tuple):
        return ()
    return tuple(int(v) for v in value if isinstance(v, int | float | str))


def _one_stage(number: int, rounds_planned: int, settings: Mapping[str, object],
               entrants: int) -> str:
    return Stage.QUALIFYING.value


def planned_rounds(rounds_planned: int, settings: Mapping[str, object], entrants: int) -> int:
    """The rounds the director planned (a format that plays them as planned)."""
    return rounds_planned


def _by_ranking(finish: Finish) -> list[Placed]:
    return [Placed(rank, entry, Stage.QUALIFYING.value) for entry, rank in finish.ranking]


def _no_meetings(situation: Situation) -> tuple[Meeting, ...]:
    return ()


def _never(settings: Mapping[str, object]) -> bool:
    return False


def _no_settings(raw: Mapping[str, object] | None) -> dict[str, object]:
    if raw:
        raise FormatError(Text(gettext_noop("This format has no settings of its own.")), field="format_settings")
    return {}


def _nothing_to_say(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    return []


def _any_change(change: PlanChange) -> None:
    return None


def _any_field(settings: Mapping[str, object], entrants: int) -> None:
    return None


def no_limit(settings: Mapping[str, object], entrants: int) -> int | None:
    """No limit on the planned rounds but the event's own."""
    return None


def no_cut(settings: Mapping[str, object]) -> Cut | None:
    """No cut after the qualifying rounds."""
    return None


@dataclass(frozen=True)
class Format:
    """One format. Only ``name``, ``label`` and ``build`` are required; the rest defaults to a
    club night's answers (players, rounds, no settings, one stage, placed by the standings)."""

    name: str
    label: str
    build: Callable[[Situation], BuiltRound]
    # A sentence for the format's choice on the new-event form, and the words of a shortcut
    # to a new event of this format on the club's pages ("" for none).
    summary: str = ""
    shortcut: str = ""
    entrants: Literal["players", "pairs"] = "players"
    # What one sitting of every table is called on every page: "round", or "game" where one
    # game is played per sitting and the day is counted in games (a progressive day).
    sitting: Literal["round", "game"] = "round"
    # The director's planned rounds: their defaults, their label, and whether the format uses
    # them at all (a round robin and a bracket decide their own length).
    default_rounds: int = 4
    default_deals: int | None = 8
    rounds_label: str = gettext_noop("Rounds")
    rounds_help: str = ""
    rounds_used: bool = True
    # The settings key that may give the planned rounds instead of ``rounds_planned``.
    rounds_setting: str = ""
    # Settings: the keys the format takes, validation with defaults filled in (raises
    # FormatError naming ``format_settings.<key>``), and the refusal of a change once under way.
    setting_keys: frozenset[str] = frozenset()
    check_settings: Callable[[Mapping[str, object] | None], dict[str, object]] = _no_settings
    check_plan_change: Callable[[PlanChange], None] = _any_change
    # The first round's refusal of a field too small for the settings (a cut of 8 with six
    # players): the settings and the entrants checked in.
    check_field: Callable[[Mapping[str, object], int], None] = _any_field
    # The most (qualifying) rounds the format seats for that many entrants, or None for no
    # limit: a table movement has as many rounds as tables before two pairs would meet again.
    # A plan of more is refused wherever the entrants are known (``check_rounds``).
    max_rounds: Callable[[Mapping[str, object], int], int | None] = no_limit
    # The stage of round N and how many rounds the event plays in all, from the planned
    # rounds, the settings and the number of entrants (players, or pairs in a pair event).
    stage_of: Callable[[int, int, Mapping[str, object], int], str] = _one_stage
    rounds_total: Callable[[int, Mapping[str, object], int], int] = planned_rounds
    # The rounds before any bracket or cut (a playoff seeds from their standings).
    qualifying_rounds: Callable[[int, Mapping[str, object], int], int] = planned_rounds
    # Final places when the event finishes (by default the standings' ranks).
    placements: Callable[[Finish], list[Placed]] = _by_ranking
    # The cut after the qualifying rounds (the standings draw its line), if any.
    qualifying_cut: Callable[[Mapping[str, object]], Cut | None] = no_cut
    # The format's rules in sentences (rules page, event page, results sheet).
    describe: Callable[[Mapping[str, object], int], list[str]] = _nothing_to_say
    # The tables draw partners themselves (cards cut at each table): whether the settings ask
    # for it, and who meets at each table of the round ``Situation`` describes before the draw
    # (the director enters each table's draw: ``Situation.table_draw``; () when the round
    # needs none). Such a round is seated by the director, never by the automatic advance.
    tables_draw: Callable[[Mapping[str, object]], bool] = _never
    meetings: Callable[[Situation], tuple[Meeting, ...]] = _no_meetings
    # --- capabilities ---
    min_entries: int = 4
    # Seat the next round by itself when the last game of the current one is confirmed.
    seats_automatically: bool = False
    # Every game must have a winner before the next round (a level game is settled by a cut).
    needs_winners: bool = False
    # More rounds than planned may be seated (a club night that plays on).
    open_ended: bool = True
    # Players beyond whole tables wait as alternates and take the seat of one who withdraws.
    alternates: bool = False
    # What a director's swap moves: single players' seats, or whole pairs.
    swap: Literal["players", "pairs"] = "players"
    # The field is fixed once play starts (no late entrants): a schedule or a bracket.
    closed_field: bool = False
    # The event is a bracket from its first round: its kind ("single", "double"), or "".
    bracket: str = ""
    # May end in a bracket after qualifying (``format_settings.playoff``).
    playoff: bool = False
    # An entrant may forfeit a round or a bracket match (a walkover).
    forfeits: bool = False
    # A club's regular night (a season of club nights counts these).
    club_night: bool = False
    # Stage standings: each stage's running totals start again (the scorecard says so).
    stage_totals: bool = False
    # Can run individual play at tables of three (a three-handed or cutthroat ruleset); the
    # others are partnership formats and refuse such a ruleset.
    tables_of_three: bool = False
    # Seats tables of any other size the rules texts describe (two head to head, five each for
    # themselves, six in two teams of three, eight in four teams of two): ``pairing.tables``.
    any_table: bool = False
    # Settings checked for a ruleset's table shape (raw settings, table sizes, individual):
    # ``None`` means the shape does not change them (see :meth:`settings_for`).
    check_settings_for_shape: (
        Callable[[Mapping[str, object] | None, tuple[int, ...], bool], dict[str, object]] | None
    ) = None

    @property
    def pairs(self) -> bool:
        """Fixed pairs register together and are seated, paired and ranked as one."""
        return self.entrants == "pairs"

    def settings_for(self, raw: Mapping[str, object] | None, *, table_sizes: tuple[int, ...] = (4,),
                     individual: bool = False,
                     teams: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))) -> dict[str, object]:
        """``check_settings`` for the event's ruleset: a format that cannot seat the ruleset's
        tables refuses it (field ``ruleset``); one that can fills in and checks its settings for
        the shape (a progressive day's cut is 9, 3 or 0 at tables of three)."""
        threes = 3 in table_sizes
        shape = _shape_of(tuple(table_sizes), tuple(teams))
        # the pair formats play any game of two sides (two-handed head to head, six-handed
        # teams of three); the others seat partnerships at four or individuals at three
        two_sided = self.pairs and len(teams) == 2 and len(table_sizes) == 1
        if shape == "other" and not self.any_table and not two_sided:
            raise FormatError(
                Text(gettext_noop("%(label)s is played at tables of four (or three); choose a club night for tables of %(value)s."), label=self.label, value=max(table_sizes)), field="ruleset", code="table_shape")
        if threes and not self.tables_of_three:
            raise FormatError(
                Text(gettext_noop("%(label)s is played by partnerships at tables of four; choose a ruleset for tables of four, or a club night or progressive day."), label=self.label),
                field="ruleset", code="table_shape")
        if threes and self.check_settings_for_shape is not None:
            return self.check_settings_for_shape(raw, tuple(table_sizes), individual)
        return self.check_settings(raw)

    def check_rounds(self, rounds_planned: int, settings: Mapping[str, object],
                     entrants: int) -> None:
        """Refuse planned rounds the format cannot seat for ``entrants`` (field
        ``rounds_planned``), saying the most it seats."""
        if not self.rounds_used or entrants < 1:
            return
        most = self.max_rounds(settings, entrants)
        if most is None or rounds_planned <= most:
            return
        # only a movement of tables limits its rounds; its sitting is a round
        where = (ngettext("%(n)s pair", "%(n)s pairs", entrants, n=entrants) if self.pairs
                 else ngettext("%(n)s player", "%(n)s players", entrants, n=entrants))
        if self.pairs:
            tables = (entrants + 1) // 2
            where = Text(gettext_noop("%(entrants)s (%(tables)s)"), entrants=where,
                         tables=ngettext("%(n)s table", "%(n)s tables", tables, n=tables))
        raise FormatError(
            ngettext("%(format)s with %(where)s seats at most %(most)s round before the same "
                     "entrants would meet again; plan at most %(most)s (or register more).",
                     "%(format)s with %(where)s seats at most %(most)s rounds before the same "
                     "entrants would meet again; plan at most %(most)s (or register more).",
                     most, format=Text(self.label), where=where, most=most),
            field="rounds_planned", code="too_many_rounds")

    @property
    def sitting_title(self) -> str:
        return self.sitting.title()

    def has_bracket(self, settings: Mapping[str, object]) -> bool:
        """The event plays a bracket (its own, or a playoff after qualifying)."""
        return bool(self.bracket) or bool(self.playoff and settings.get("playoff"))

    def describe_length(self, rounds_planned: int, deals: int | None,
                        settings: Mapping[str, object], entrants: int, *,
                        game_target: int | None = None) -> str:
        """The event's length in words, as its page's heading says it: "4 rounds of 8 deals",
        "10 qualifying games of 4 deals, then semi-finals and a 3-game final", "bracket
        matches of 4 deals"; ``game_target`` words a game played to a score instead of a
        number of deals."""
        if deals:
            game = ngettext("of %(deals)s deal", "of %(deals)s deals", deals, deals=deals)
        elif game_target:
            game = Text(gettext_noop("of a game to %(target)s"), target=game_target)
        else:
            game = Text("")
        if self.bracket:
            return Text(gettext_noop("bracket matches %(game)s"), game=game)
        total = self.rounds_total(rounds_planned, settings, entrants)
        if not self.stage_totals:
            if self.sitting == "game":
                return ngettext("%(n)s game %(game)s", "%(n)s games %(game)s", total, n=total,
                                game=game)
            return ngettext("%(n)s round %(game)s", "%(n)s rounds %(game)s", total, n=total,
                            game=game)
        counts: dict[str, int] = {}
        for number in range(1, total + 1):
            stage = self.stage_of(number, rounds_planned, settings, entrants)
            counts[stage] = counts.get(stage, 0) + 1
        qualifying = counts.get(Stage.QUALIFYING, 0)
        if self.sitting == "game":
            words = ngettext("%(n)s qualifying game %(game)s", "%(n)s qualifying games %(game)s",
                             qualifying, n=qualifying, game=game)
        else:
            words = ngettext("%(n)s qualifying round %(game)s",
                             "%(n)s qualifying rounds %(game)s", qualifying, n=qualifying,
                             game=game)
        semis = bool(counts.get(Stage.SEMIFINAL))
        finals = counts.get(Stage.FINAL, 0)
        if semis and finals > 1:
            return Text(gettext_noop("%(words)s, then semi-finals and a %(n)s-game final"),
                        words=words, n=finals)
        if semis and finals:
            return Text(gettext_noop("%(words)s, then semi-finals and a final"), words=words)
        if finals > 1:
            return Text(gettext_noop("%(words)s, then a %(n)s-game final"), words=words, n=finals)
        if finals:
            return Text(gettext_noop("%(words)s, then a final"), words=words)
        if semis:
            return Text(gettext_noop("%(words)s, then semi-finals"), words=words)
        return words

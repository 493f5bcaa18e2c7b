"""What every fixed-partnership format shares: the event's games as pair against pair, seating
pairs, the bracket (a format's own, or the playoff after qualifying rounds), the placements, the
bracket as pages draw it, and :func:`pair_format`, which makes a format's spec from its builder.

The builders under ``pairing/`` pair *pairs*; this module turns the event's situation into
pairs (each pair's two entries sit together: N-S for the first pair of a match, E-W for the
second) and the pairs' matches back into seats. A bracket round is a wave: every match whose
two pairs are known and that has not been played, each at its own table with its match code.
A playoff may be a split final (``playoff.lower``): the next pairs after the cut play a lower
bracket at the same time, its matches coded after "L-", its places after the upper bracket's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import NotRequired, TypedDict

from pairing.bracket import BracketError, Plan, State, bracket_plan, bracket_state
from pairing.club_night import BuiltRound
from pairing.results import TableResult
from pairing.rotation import RoundPlan
from pairing.round_robin import PairRound, ScheduleError
from rules_engine.i18n import Text, gettext_noop

from .pair_settings import (
    BRACKET_KEYS,
    COMMON_KEYS,
    PLAYOFF_KEYS,
    check_pair_settings,
    lower_plan,
)
from .spec import (
    Cut,
    Finish,
    Format,
    FormatError,
    Placed,
    PlanChange,
    Situation,
    Stage,
    no_cut,
    no_limit,
    planned_rounds,
    setting_int,
    setting_ints,
    setting_map,
)

BRACKET = Stage.BRACKET.value


@dataclass(frozen=True)
class PairResult:
    """One finished or running game between two pairs."""

    round_number: int
    table_number: int
    pairs: tuple[int, int]
    points: tuple[int, int]
    winner: int | None
    finished: bool
    match: str


def pair_of(pairs: Mapping[int, tuple[int, ...]]) -> dict[int, int]:
    return {entry: pair for pair, entries in pairs.items() for entry in entries}


def pair_results(s: Situation | Finish) -> list[PairResult]:
    """Every game of the event as pair against pair."""
    return _as_pairs(s.pairs, s.results, s.first_seats, s.side_names)


def _as_pairs(pairs: Mapping[int, tuple[int, ...]], results: Sequence[TableResult],
              first_seats: Sequence[str] = ("N", "E"),
              side_names: Sequence[str] = ("NS", "EW")) -> list[PairResult]:
    """The games as pair against pair: each side's pair sits in its first seat (N-S's at N, E-W's
    at E; two-handed N and S), the result names the sides."""
    pair_by_entry = pair_of(pairs)
    first, second = first_seats[0], first_seats[1]
    one, two = side_names[0], side_names[1]
    out = []
    for r in results:
        ns, ew = (pair_by_entry.get(r.seats.get(first, -1)),
                  pair_by_entry.get(r.seats.get(second, -1)))
        if ns is None or ew is None:
            continue
        winner = ns if r.winner == one else ew if r.winner == two else None
        out.append(PairResult(r.round_number, r.table_number, (ns, ew),
                              (int(r.points.get(one, 0)), int(r.points.get(two, 0))),
                              winner if r.finished else None, r.finished, r.match))
    return out


def seat(s: Situation, built: PairRound, method: str,
          matches: tuple[str, ...] = ()) -> BuiltRound:
    """A pairs' round as seats: the first pair of each match at the first side's seats (N-S),
    the second at the second's (E-W; a side of one or three alike); every member of a pair with
    a bye sits out."""
    size = sum(len(team) for team in s.teams)
    tables = []
    for a, b in built.matches:
        table = [0] * size
        for team, pair in zip(s.teams[:2], (a, b), strict=True):
            for index, entry in zip(team, s.pairs[pair], strict=True):
                table[index] = entry
        tables.append(tuple(table))
    byes = tuple(sorted(e for pair in built.byes for e in s.pairs[pair]))
    return BuiltRound(RoundPlan(tables=tuple(tables), byes=byes), method, matches)


def previous_finished(s: Situation) -> None:
    for r in pair_results(s):
        if r.round_number == s.number - 1 and (not r.finished or r.winner is None):
            raise FormatError(
                Text(gettext_noop("Table %(table_number)s's game of round %(round_number)s has no winner yet: the next round is paired from every result."), table_number=r.table_number, round_number=r.round_number), field="round")


def sit_out_withdrawn(s: Situation, built: PairRound) -> PairRound:
    """A fixed schedule (round robin, movements) keeps withdrawn pairs' places: their opponent
    has a bye instead."""
    active = set(s.active_pairs)
    matches, byes = [], [p for p in built.byes if p in active]
    for a, b in built.matches:
        if a in active and b in active:
            matches.append((a, b))
        else:
            byes += [p for p in (a, b) if p in active]
    return PairRound(matches=tuple(matches), byes=tuple(byes))


def _plan(bracket: str, settings: Mapping[str, object], entrants: int) -> Plan | None:
    """The bracket the event plays (its own of kind ``bracket``, or the playoff after
    qualifying), if any."""
    options: Mapping[str, object]
    if bracket:
        options = settings
        kind = bracket
    elif settings.get("playoff"):
        options = setting_map(settings, "playoff")
        kind = str(options["kind"])
        entrants = setting_int(options, "cut")
    else:
        return None
    try:
        return bracket_plan(
            max(entrants, 2), kind=kind, third_place=bool(options.get("third_place", False)),
            reset=bool(options.get("reset", True)),
            consolation=setting_ints(options, "consolation"))
    except BracketError as exc:
        raise FormatError(exc.message, field=f"format_settings.{exc.field}") from None


def bracket_plan_of(spec: Format, settings: Mapping[str, object], entrants: int) -> Plan | None:
    """The (upper) bracket an event of format ``spec`` plays, or None when it has none or it
    cannot be planned yet."""
    try:
        return _plan(spec.bracket, settings, entrants)
    except FormatError:
        return None


def _playoff_cut(settings: Mapping[str, object]) -> Cut | None:
    playoff = settings.get("playoff")
    if not isinstance(playoff, Mapping):
        return None
    size = playoff.get("cut", 8)
    if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
        return None
    return Cut(size, gettext_noop("the playoff"))


def _depth(plan: Plan | None) -> int:
    return max((m.depth for m in plan.matches), default=0) if plan else 0


def _seeds(bracket: str, settings: Mapping[str, object], pairs: Sequence[int],
           ranking: Sequence[int]) -> tuple[int, ...]:
    """The bracket's pairs, best seed first: the director's order (a bracket format) or the top
    of the qualifying standings (a playoff)."""
    if bracket:
        return tuple(pairs)
    cut = setting_int(setting_map(settings, "playoff"), "cut")
    seeds = tuple(ranking[:cut])
    if len(seeds) < cut:
        raise FormatError(Text(gettext_noop("The playoff takes %(cut)s pairs; only %(count)s are still playing."), cut=cut, count=len(seeds)), field="format_settings.playoff.cut")
    return seeds


# --- the split final: an upper and a lower bracket at the same time ---------------------------
# The lower bracket's match codes are its plan's codes after this prefix ("L-W1-1", "L-GF"); the
# upper bracket's (and a lone bracket's) are the plan's own ("W1-1", and "L2-1" in a losers'
# bracket: never "L-").
LOWER_PREFIX = "L-"
UPPER, LOWER = "upper", "lower"
GROUP_LABELS = {UPPER: "Upper bracket", LOWER: "Lower bracket"}


@dataclass(frozen=True)
class Bracket:
    """One bracket of the event: ``group`` is "" for the only one, "upper" or "lower" in a split
    final; ``seeds`` best first (None before a playoff's seeds are known); ``offset`` the
    places before its own (the upper bracket's pairs, for the lower one)."""

    group: str
    prefix: str
    plan: Plan
    seeds: tuple[int, ...] | None
    offset: int = 0

    def owns(self, code: str) -> bool:
        return code.startswith(self.prefix) if self.prefix else not code.startswith(LOWER_PREFIX)

    def results(self, played: Sequence[PairResult]) -> dict[str, int]:
        """The winners of this bracket's matches among ``played``, by the plan's codes."""
        return {r.match[len(self.prefix):]: r.winner for r in played
                if r.winner is not None and self.owns(r.match)}

    def state(self, played: Sequence[PairResult]) -> State:
        assert self.seeds is not None
        try:
            return bracket_state(self.plan, self.seeds, self.results(played))
        except BracketError as exc:
            raise FormatError(exc.message, field=exc.field) from None


def lower_size(settings: Mapping[str, object]) -> int:
    """The pairs of the split final's lower bracket (0 without one)."""
    return setting_int(setting_map(settings, "playoff"), "lower")


def brackets(bracket: str, settings: Mapping[str, object], entrants: int,
             seeds: Sequence[int] | None) -> list[Bracket]:
    """The event's brackets: its own (of kind ``bracket``, seeded by ``seeds``, the pairs in
    the director's order), or the playoff's upper bracket and the split final's lower one,
    seeded from ``seeds``, the qualifying order: the first ``cut`` pairs play the upper
    bracket, the next ``lower`` the lower one. ``seeds`` None: not known yet. None at all
    without a bracket or a playoff."""
    if not bracket and not settings.get("playoff"):
        return []
    if bracket:
        plan = _plan(bracket, settings, len(seeds) if seeds is not None else entrants)
        assert plan is not None
        return [Bracket("", "", plan, tuple(seeds) if seeds is not None else None)]
    playoff = setting_map(settings, "playoff")
    cut, lower = setting_int(playoff, "cut"), lower_size(settings)
    upper = _plan(bracket, settings, cut)
    assert upper is not None
    found = [Bracket(UPPER if lower else "", "", upper,
                     tuple(seeds[:cut]) if seeds is not None else None)]
    if lower:
        plan = lower_plan(playoff)
        assert plan is not None
        found.append(Bracket(LOWER, LOWER_PREFIX, plan,
                             tuple(seeds[cut:cut + lower]) if seeds is not None else None,
                             offset=cut))
    return found


def _seeded(bracket: str, settings: Mapping[str, object], pairs: Sequence[int],
            ranking: Sequence[int]) -> list[Bracket]:
    """The event's brackets with their seeds: a playoff's from the qualifying ``ranking``
    (refused when fewer pairs are still playing than its brackets take)."""
    seeds = _seeds(bracket, settings, pairs, ranking)
    if bracket:
        return brackets(bracket, settings, len(seeds), seeds)
    lower = lower_size(settings)
    cut = len(seeds)
    if lower and len(ranking) < cut + lower:
        raise FormatError(Text(gettext_noop("The lower bracket takes the %(lower)s pairs after the top %(cut)s; only %(value)s are still playing."), lower=lower, cut=cut, value=max(len(ranking) - cut, 0)),
                          field="format_settings.playoff.lower")
    return brackets(bracket, settings, cut, tuple(ranking[:cut + lower]))


def _bracket_round(s: Situation, bracket: str, first: int) -> BuiltRound:
    """The next wave of bracket matches: every match of every bracket (both of a split final)
    whose pairs are known and that no table has played yet."""
    parts = _seeded(bracket, s.settings, tuple(s.pairs), s.ranking)
    played = [r for r in pair_results(s) if r.round_number >= first and r.match]
    seated = {r.match for r in played}
    matches: list[tuple[int, int]] = []
    codes: list[str] = []
    complete = True
    for part in parts:
        state = part.state(played)
        complete = complete and state.complete
        for code in state.ready:
            if part.prefix + code not in seated:
                matches.append((_known(state.sides[code][0]), _known(state.sides[code][1])))
                codes.append(part.prefix + code)
    if not codes:
        if complete:
            raise FormatError(Text(gettext_noop("The bracket is complete: finish the event to write the places.")),
                              field="round", code="complete")
        raise FormatError(Text(gettext_noop("No bracket match is ready: a game of the last round has no result.")),
                          field="round")
    return seat(s, PairRound(matches=tuple(matches)), "bracket", tuple(codes))


def _known(pair: int | None) -> int:
    assert pair is not None
    return pair


def _placements(bracket: str, qualifying: int, finish: Finish) -> list[Placed]:
    """Bracket pairs by the bracket's places (a split final: the upper bracket's, then the
    lower bracket's after them); the others (or all, without a bracket) by the qualifying
    standings, after the brackets' places."""
    if not bracket and not finish.settings.get("playoff"):
        return [Placed(rank, pair, Stage.QUALIFYING.value) for pair, rank in finish.ranking]
    parts = _seeded(bracket, finish.settings, tuple(finish.pairs),
                    [p for p, _ in finish.ranking])
    played = [r for r in pair_results(finish) if r.round_number > qualifying and r.match]
    placed: list[Placed] = []
    for part in parts:
        state = part.state(played)
        if not state.complete:
            which = f"The {GROUP_LABELS[part.group].lower()}" if part.group else "The bracket"
            raise FormatError(Text(gettext_noop("%(which)s is not finished: play its last match before finishing the event."), which=which), field="status", code="bracket_unfinished")
        placed += [Placed(part.offset + place, pair, BRACKET, part.group)
                   for place, pair in state.placements]
    inside = {p.entry_id for p in placed}
    after = len(placed)
    placed += [Placed(max(rank, after + 1), pair, Stage.QUALIFYING.value)
               for pair, rank in finish.ranking if pair not in inside]
    return placed


# --- the bracket as pages draw it ---------------------------------------------------------------
class SideView(TypedDict):
    """One side of a drawn match: its slot's words and the pair, once known."""

    slot: str
    pair: int | None
    name: str
    seed: int | None


class MatchView(TypedDict):
    """One match of a drawn bracket (``status``: see :func:`bracket_view`)."""

    code: str
    bracket: str
    round: int
    position: int
    depth: int
    conditional: bool
    sides: list[SideView]
    winner: int | None
    loser: int | None
    winner_to: str | None
    loser_to: str | None
    status: str
    round_number: int | None
    table: int | None
    points: list[int] | None
    # the pair that forfeited the match (a walkover), once the event's games are read
    # (``draw.selectors.event_bracket``)
    forfeit: NotRequired[int | None]


class ColumnView(TypedDict):
    round: int
    matches: list[MatchView]


class PartView(TypedDict):
    """One bracket of the drawing (winners', losers', final, ...) by columns."""

    name: str
    label: str
    group: str
    rounds: list[ColumnView]
    # its share of a wall screen's height, its tallest column (the bracket page sets it)
    tallest: NotRequired[int]


class PlaceView(TypedDict):
    place: int
    pair: int
    name: str
    group: NotRequired[str]  # the bracket's places (not its consolation's) name their group


class _GroupView(TypedDict):
    complete: bool
    champion: int | None
    champion_name: str
    brackets: list[PartView]
    placements: list[PlaceView]
    consolation_placements: list[PlaceView]


class LowerView(TypedDict):
    """The split final's lower bracket in short."""

    entrants: int
    complete: bool
    champion: int | None
    champion_name: str


class BracketView(TypedDict):
    """The event's bracket as pages and the API draw it (:func:`bracket_view`)."""

    kind: str
    entrants: int
    seeded: bool
    complete: bool
    champion: int | None
    champion_name: str
    brackets: list[PartView]
    placements: list[PlaceView]
    consolation_placements: list[PlaceView]
    lower: LowerView | None


BRACKET_LABELS = {"winners": "Winners' bracket", "losers": "Losers' bracket",
                  "final": "Grand final", "third_place": "Third place",
                  "consolation": "Consolation bracket"}


def bracket_depth(bracket: str, settings: Mapping[str, object], entrants: int) -> int:
    """How many rounds (waves) the event's bracket takes at most (a split final: its deeper
    bracket's, both being played at the same time); 0 while it cannot be planned (too few pairs
    registered yet for its settings: seating the first round says why)."""
    try:
        return max((_depth(part.plan) for part in brackets(bracket, settings, entrants, None)),
                   default=0)
    except FormatError:
        return 0


def _slot_label(kind: str, ref: int | str, prefix: str = "", offset: int = 0) -> str:
    """"Seed 9" (a lower bracket's seeds count on from the cut), "Winner of L-W1-2"."""
    seed = int(ref) + offset if kind == "seed" else ref
    return {"seed": f"Seed {seed}", "winner": f"Winner of {prefix}{ref}",
            "loser": f"Loser of {prefix}{ref}"}[kind]


def bracket_view(
    bracket: str, settings: Mapping[str, object], *, entrants: int,
    seeds: Sequence[int] | None, members: Mapping[int, tuple[int, ...]],
    names: Mapping[int, str], results: Sequence[TableResult], first_round: int,
    statuses: Mapping[tuple[int, int], str], first_seats: Sequence[str] = ("N", "E"),
    side_names: Sequence[str] = ("NS", "EW"),
) -> BracketView:
    """Every match of the bracket, grouped by bracket and column, with what is known of it.

    A match: ``{"code", "bracket", "round", "position", "depth", "conditional", "sides":
    [{"slot", "pair", "name", "seed"}], "winner", "loser", "winner_to", "loser_to", "status",
    "round_number", "table", "points"}``; ``status`` is waiting (its pairs are not known yet),
    ready, seated, playing, to_confirm, finished or skipped. ``seeds`` is None before a
    playoff's seeds are known (the qualifying rounds are still being played); a playoff's are
    the qualifying order (the first ``cut`` seed it, a split final's next ``lower`` its lower
    bracket). A split final lists both brackets' parts (each with its ``group``, upper or lower,
    the lower bracket's codes after "L-"), the upper bracket's places then the lower's, and
    ``lower``: the lower bracket's entrants, completion and winner (None without one)."""
    parts = brackets(bracket, settings, entrants, seeds)
    if not parts:
        raise FormatError(Text(gettext_noop("This event plays no bracket.")), field="format_settings.playoff")
    played = {r.match: r for r in _as_pairs(members, results, first_seats, side_names)
              if r.round_number >= first_round and r.match}
    # A winner advances once the game is confirmed (until then the table may still correct it).
    confirmed = [r for r in played.values() if r.winner is not None
                 and statuses.get((r.round_number, r.table_number)) == "confirmed"]
    drawn = [_part_view(part, played, confirmed, names, statuses) for part in parts]
    upper = drawn[0]
    lower = drawn[1] if len(drawn) > 1 else None
    return {
        "kind": parts[0].plan.kind, "entrants": parts[0].plan.entrants,
        "seeded": seeds is not None,
        "complete": all(d["complete"] for d in drawn),
        "champion": upper["champion"], "champion_name": upper["champion_name"],
        "brackets": [b for d in drawn for b in d["brackets"]],
        "placements": [p for d in drawn for p in d["placements"]],
        "consolation_placements": upper["consolation_placements"],
        "lower": None if lower is None else {
            "entrants": parts[1].plan.entrants, "complete": lower["complete"],
            "champion": lower["champion"], "champion_name": lower["champion_name"]},
    }


def _part_view(part: Bracket, played: Mapping[str, PairResult],
               confirmed: Sequence[PairResult], names: Mapping[int, str],
               statuses: Mapping[tuple[int, int], str]) -> _GroupView:
    """One bracket of :func:`bracket_view`: its parts, places and winner."""
    plan, prefix = part.plan, part.prefix
    state = part.state(confirmed) if part.seeds is not None else None
    # a lower bracket's seeds are the standings' places after the cut: 9 to 16, not 1 to 8
    seed_of = {pair: n for n, pair in enumerate(part.seeds or (), start=part.offset + 1)}
    found: dict[str, dict[int, list[MatchView]]] = {}
    for m in plan.matches:
        known = state.sides.get(m.code, (None, None)) if state else (None, None)
        sides: list[SideView] = []
        for slot, pair in zip(m.sides, known, strict=True):
            sides.append({"slot": _slot_label(slot.kind, slot.ref, prefix, part.offset), "pair": pair,
                          "name": names.get(pair, "") if pair is not None else "",
                          "seed": seed_of.get(pair) if pair is not None else None})
        game = played.get(prefix + m.code)
        status = "waiting"
        if state and m.code in state.skipped:
            status = "skipped"
        elif state and m.code in state.winners:
            status = "finished"
        elif game is not None:
            status = {"playing": "playing", "finished": "to_confirm"}.get(
                statuses.get((game.round_number, game.table_number), ""), "seated")
        elif state and m.code in state.ready:
            status = "ready"
        found.setdefault(m.bracket, {}).setdefault(m.round, []).append({
            "code": prefix + m.code, "bracket": m.bracket, "round": m.round,
            "position": m.position, "depth": m.depth, "conditional": m.conditional,
            "sides": sides,
            "winner": state.winners.get(m.code) if state else None,
            "loser": state.losers.get(m.code) if state else None,
            "winner_to": prefix + m.winner_to if m.winner_to else None,
            "loser_to": prefix + m.loser_to if m.loser_to else None, "status": status,
            "round_number": game.round_number if game else None,
            "table": game.table_number if game else None,
            "points": list(game.points) if game else None,
        })
    order = ["winners", "losers", "final", "third_place", "consolation"]
    group = f"{GROUP_LABELS[part.group]}: " if part.group else ""

    def label(b: str) -> str:
        # a split final's single-elimination bracket is "Lower bracket", not "Lower bracket:
        # Winners' bracket" (it has no losers' bracket to tell it from)
        if part.group and b == "winners" and "losers" not in found:
            return GROUP_LABELS[part.group]
        return group + BRACKET_LABELS.get(b, b)

    return {
        "complete": bool(state and state.complete),
        "champion": state.champion if state else None,
        "champion_name": names.get(state.champion, "") if state and state.champion else "",
        "brackets": [
            {"name": b, "label": label(b), "group": part.group,
             "rounds": [{"round": r, "matches": sorted(ms, key=lambda x: x["position"])}
                        for r, ms in sorted(found[b].items())]}
            for b in order if b in found
        ],
        "placements": [{"place": part.offset + place, "pair": pair, "name": names.get(pair, ""),
                        "group": part.group}
                       for place, pair in (state.placements if state else ())],
        "consolation_placements": [
            {"place": place, "pair": pair, "name": names.get(pair, "")}
            for place, pair in (state.consolation_placements if state else ())],
    }


def _describe_bracket(kind: str, options: Mapping[str, object]) -> list[str]:
    words = [gettext_noop("A single-elimination bracket: a pair is out after one loss.")
             if kind == "single" else
             gettext_noop("A double-elimination bracket: a pair is out after its second loss; "
                          "losers of the winners' bracket drop into the losers' bracket.")]
    words.append(gettext_noop("The best seed meets the lowest in the first round, and so on; "
                              "when the pairs are not a power of two the top seeds have a bye "
                              "in the first round."))
    if kind == "double":
        words.append(gettext_noop("The grand final is played again if the losers' bracket pair "
                                  "wins it.")
                     if options.get("reset", True) else gettext_noop("One grand final decides."))
    if options.get("third_place"):
        words.append(gettext_noop("The semi-final losers play for third place."))
    if options.get("consolation"):
        rounds = ", ".join(str(r) for r in setting_ints(options, "consolation"))
        words.append(Text(gettext_noop(
            "Pairs knocked out in round %(rounds)s of the winners' bracket play a "
            "single-elimination consolation bracket.") if kind == "single" else gettext_noop(
            "Pairs knocked out in round %(rounds)s of the losers' bracket play a "
            "single-elimination consolation bracket."), rounds=rounds))
    return words


def _describe_lower(playoff: Mapping[str, object]) -> list[str]:
    """The split final's sentences (none without a lower bracket)."""
    lower = setting_int(playoff, "lower")
    if not lower:
        return []
    cut = setting_int(playoff, "cut")
    values = {"lower": lower, "first": cut + 1, "last": cut + lower, "cut": cut}
    if playoff.get("consolation"):
        return [Text(gettext_noop(
            "At the same time the next %(lower)s pairs (places %(first)s to %(last)s of the "
            "standings) play a lower bracket of the same kind, seeded by the standings, without "
            "a consolation bracket: the upper bracket decides places 1 to %(cut)s, the lower "
            "bracket places %(first)s to %(last)s, and the other pairs keep their places in the "
            "standings after them."), **values)]
    return [Text(gettext_noop(
        "At the same time the next %(lower)s pairs (places %(first)s to %(last)s of the "
        "standings) play a lower bracket of the same kind, seeded by the standings: the upper "
        "bracket decides places 1 to %(cut)s, the lower bracket places %(first)s to %(last)s, "
        "and the other pairs keep their places in the standings after them."), **values)]


def _describe_tail(settings: Mapping[str, object]) -> list[str]:
    words: list[str] = []
    if settings.get("playoff"):
        playoff = setting_map(settings, "playoff")
        words.append(Text(gettext_noop("Then the top %(cut)s pairs of the standings play a "
                                       "bracket, seeded by the standings."),
                          cut=playoff["cut"]))
        words += _describe_bracket(str(playoff["kind"]), playoff)
        words += _describe_lower(playoff)
    words.append(gettext_noop("A game that ends level is settled by cutting the cards; a bye "
                              "counts as a win."))
    if settings.get("game_minutes"):
        words.append(Text(gettext_noop("A game lasts at most %(minutes)s minutes: when the "
                                       "director calls time, the pair ahead wins."),
                          minutes=settings["game_minutes"]))
    return words


# How a forfeit is scored (``scoring.services.game_forfeit``, ``standings.services``): like a
# bye for the pair that was ready to play, which is what it amounts to for that pair.
FORFEIT_WORDS = [
    gettext_noop("A pair that cannot go on forfeits its game (a walkover): the other pair wins "
                 "it and scores what a bye scores; the forfeiting pair scores nothing. A pair "
                 "that withdraws from a bracket gives each of its later opponents a walkover."),
]


# What a pair event's schedule or bracket is built from: fixed once play has reached it.
PLAN_KEYS = ("groups", "third_place", "reset", "consolation")


def _check_plan_change(change: PlanChange, *, bracket: str) -> None:
    """A bracket's shape and a round robin's groups are fixed once round 1 is seated; a
    playoff once its first round is; Swiss and movements cannot plan fewer rounds than seated.
    The time limit and how level games are settled may change at any time."""
    if any(change.seated.values()):
        for key in PLAN_KEYS:
            if change.stored.get(key) != change.settings.get(key):
                raise FormatError(Text(gettext_noop("Play has started: the bracket or the groups cannot change now.")), field=f"format_settings.{key}", code="started")
    if (change.stored.get("playoff") != change.settings.get("playoff")
            and change.seated.get(BRACKET)):
        raise FormatError(Text(gettext_noop("The playoff has started: it cannot change now.")),
                          field="format_settings.playoff", code="started")
    seated = change.seated.get(Stage.QUALIFYING, 0)
    if change.rounds_planned < seated and not bracket:
        raise FormatError(Text(gettext_noop("%(seated)s rounds have been seated; the event cannot plan fewer."), seated=seated),
                          field="rounds_planned")


def _check_field(settings: Mapping[str, object], pairs: int) -> None:
    cut = setting_int(setting_map(settings, "playoff"), "cut")
    if cut > pairs:
        raise FormatError(
            Text(gettext_noop("The playoff takes the top %(cut)s pairs, but only %(pairs)s are registered: lower the cut (format_settings.playoff.cut) or register more pairs."), cut=cut, pairs=pairs),
            field="format_settings.playoff.cut", code="cut_larger_than_field")
    _check_lower(settings, pairs)


def _check_lower(settings: Mapping[str, object], pairs: int) -> None:
    """The split final's two brackets take ``cut + lower`` pairs: no more than are here."""
    lower, cut = lower_size(settings), setting_int(setting_map(settings, "playoff"), "cut")
    if lower and cut + lower > pairs:
        raise FormatError(
            Text(gettext_noop("The upper and lower brackets take the top %(value)s pairs (%(cut)s and %(lower)s), but only %(pairs)s are registered: make the lower bracket smaller (format_settings.playoff.lower) or register more pairs."), value=cut + lower, cut=cut, lower=lower, pairs=pairs),
            field="format_settings.playoff.lower", code="lower_larger_than_field")


# The planned rounds' help of a movement of tables (the new-event form shows it when the format
# is chosen: an event is created before its pairs register, so the limit is checked later).
MOVEMENT_ROUNDS_HELP = gettext_noop(
    "At most one round per table before two pairs would meet again: half the pairs, rounded "
    "up (8 pairs play at most 4 rounds, 9 pairs 5). A plan of more is refused when round 1 is "
    "seated, once the pairs have registered.")


def table_movement_rounds(
        rounds: Callable[[int], int]) -> Callable[[Mapping[str, object], int], int | None]:
    """A movement of tables' ``max_rounds``: ``rounds(pairs)``, its rounds before a rematch (as
    many as tables, a phantom table for an odd pair included); no limit before two pairs."""
    def max_rounds(settings: Mapping[str, object], pairs: int) -> int | None:
        return rounds(pairs) if pairs >= 2 else None
    return max_rounds


def pair_format(
    *, name: str, label: str, summary: str,
    qualify: Callable[[Situation], BuiltRound] | None = None,
    bracket: str = "",
    qualifying_rounds: Callable[[int, Mapping[str, object], int], int] = planned_rounds,
    keys: frozenset[str] = frozenset(),
    describe: Callable[[Mapping[str, object], int], list[str]] | None = None,
    rounds_help: str = gettext_noop("With a playoff, the qualifying rounds before it."),
    rounds_used: bool = True, closed_field: bool = False, shortcut: str = "",
    max_rounds: Callable[[Mapping[str, object], int], int | None] = no_limit,
) -> Format:
    """The spec of a fixed-partnership format: qualifying rounds built by ``qualify`` (then an
    optional playoff), or a bracket of kind ``bracket`` (``single``, ``double``) from round 1.
    ``keys`` are the format's own settings besides the common ones; ``max_rounds`` the most
    qualifying rounds it seats for that many pairs (a movement's tables)."""
    if bracket:
        qualifying_rounds = _no_rounds
    known = COMMON_KEYS | keys | (BRACKET_KEYS[bracket] if bracket else PLAYOFF_KEYS)

    def check(raw: Mapping[str, object] | None) -> dict[str, object]:
        return check_pair_settings(known, raw, bracket=bracket)

    def total(rounds_planned: int, settings: Mapping[str, object], entrants: int) -> int:
        return (qualifying_rounds(rounds_planned, settings, entrants)
                + bracket_depth(bracket, settings, entrants))

    def stage_of(number: int, rounds_planned: int, settings: Mapping[str, object],
                 entrants: int) -> str:
        qualifying = qualifying_rounds(rounds_planned, settings, entrants)
        return Stage.QUALIFYING.value if number <= qualifying else BRACKET

    def build(s: Situation) -> BuiltRound:
        qualifying = qualifying_rounds(s.rounds_planned, s.settings, len(s.pairs))
        if s.number > qualifying and not bracket and not s.settings.get("playoff"):
            raise FormatError(Text(gettext_noop("This event plays %(qualifying)s rounds and no playoff: there is no round %(number)s."), qualifying=qualifying, number=s.number), field="round", code="no_more_rounds")
        try:
            if s.number > qualifying or qualify is None:
                return _bracket_round(s, bracket, qualifying + 1)
            return qualify(s)
        except ScheduleError as exc:
            raise FormatError(exc.message, field=exc.field) from None

    def placements(finish: Finish) -> list[Placed]:
        qualifying = qualifying_rounds(finish.rounds_planned, finish.settings, len(finish.pairs))
        return _placements(bracket, qualifying, finish)

    def words(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
        own = describe(settings, rounds_planned) if describe else []
        if bracket:
            own += _describe_bracket(bracket, settings)
        return own + _describe_tail(settings) + FORFEIT_WORDS

    def plan_change(change: PlanChange) -> None:
        _check_plan_change(change, bracket=bracket)

    return Format(
        name=name, label=label, summary=summary, shortcut=shortcut, build=build,
        entrants="pairs",
        rounds_help=(gettext_noop("Not used: a bracket plays until it is decided.") if bracket
                     else rounds_help),
        rounds_used=rounds_used and not bracket,
        rounds_label=(gettext_noop("Rounds") if rounds_used and not bracket
                      else gettext_noop("Rounds (not used)")),
        setting_keys=known, check_settings=check, check_plan_change=plan_change,
        check_field=_check_field, max_rounds=max_rounds,
        qualifying_cut=no_cut if bracket else _playoff_cut,
        stage_of=stage_of, rounds_total=total, qualifying_rounds=qualifying_rounds,
        placements=placements, describe=words, min_entries=2, seats_automatically=True,
        needs_winners=True, open_ended=False, swap="pairs",
        closed_field=closed_field or bool(bracket), bracket=bracket,
        playoff=not bracket, forfeits=True,
    )


def _no_rounds(rounds_planned: int, settings: Mapping[str, object], entrants: int) -> int:
    return 0


def bracket_first_round(spec: Format, rounds_planned: int, settings: Mapping[str, object],
                        entrants: int) -> int:
    """The number of the event's first bracket round."""
    return spec.qualifying_rounds(rounds_planned, settings, entrants) + 1



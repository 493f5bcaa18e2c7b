"""What every fixed-partnership format shares: the event's games as pair against pair, seating
pairs, the bracket (a format's own, or the playoff after qualifying rounds), the placements, the
bracket as pages draw it, and :func:`pair_format`, which makes a format's spec from its builder.

The builders under ``pairing/`` pair *pairs*; this module turns the event's situation into
pairs (each pair's two entries sit together: N-S for the first pair of a match, E-W for the
second) and the pairs' matches back into seats. A bracket round is a wave: every match whose
two pairs are known and that has not been played, each at its own table with its match code.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pairing.bracket import BracketError, Plan, State, bracket_plan, bracket_state
from pairing.club_night import BuiltRound
from pairing.results import TableResult
from pairing.rotation import RoundPlan
from pairing.round_robin import PairRound, ScheduleError

from .pair_settings import BRACKET_KEYS, COMMON_KEYS, PLAYOFF_KEYS, check_pair_settings
from .spec import Finish, Format, FormatError, Placed, PlanChange, Situation, Stage

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
    return _as_pairs(s.pairs, s.results)


def _as_pairs(pairs: Mapping[int, tuple[int, ...]],
              results: Sequence[TableResult]) -> list[PairResult]:
    pair_by_entry = pair_of(pairs)
    out = []
    for r in results:
        ns, ew = (pair_by_entry.get(r.seats.get("N", -1)),
                  pair_by_entry.get(r.seats.get("E", -1)))
        if ns is None or ew is None:
            continue
        winner = ns if r.winner == "NS" else ew if r.winner == "EW" else None
        out.append(PairResult(r.round_number, r.table_number, (ns, ew),
                              (int(r.points.get("NS", 0)), int(r.points.get("EW", 0))),
                              winner if r.finished else None, r.finished, r.match))
    return out


def seat(s: Situation, built: PairRound, method: str,
          matches: tuple[str, ...] = ()) -> BuiltRound:
    """A pairs' round as seats: the first pair of each match N-S, the second E-W; both members
    of a pair with a bye sit out."""
    tables = []
    for a, b in built.matches:
        first, second = s.pairs[a], s.pairs[b]
        tables.append((first[0], second[0], first[1], second[1]))
    byes = tuple(sorted(e for pair in built.byes for e in s.pairs[pair]))
    return BuiltRound(RoundPlan(tables=tuple(tables), byes=byes), method, matches)


def previous_finished(s: Situation) -> None:
    for r in pair_results(s):
        if r.round_number == s.number - 1 and (not r.finished or r.winner is None):
            raise FormatError(
                f"Table {r.table_number}'s game of round {r.round_number} has no winner yet: "
                "the next round is paired from every result.", field="round")


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


def _plan(bracket: str, settings: Mapping[str, Any], entrants: int) -> Plan | None:
    """The bracket the event plays (its own of kind ``bracket``, or the playoff after
    qualifying), if any."""
    if bracket:
        options = dict(settings)
        kind = bracket
    elif settings.get("playoff"):
        options = dict(settings["playoff"])
        kind = str(options["kind"])
        entrants = int(options["cut"])
    else:
        return None
    try:
        return bracket_plan(
            max(entrants, 2), kind=kind, third_place=bool(options.get("third_place", False)),
            reset=bool(options.get("reset", True)),
            consolation=tuple(options.get("consolation") or ()))
    except BracketError as exc:
        raise FormatError(exc.message, field=f"format_settings.{exc.field}") from None


def _depth(plan: Plan | None) -> int:
    return max((m.depth for m in plan.matches), default=0) if plan else 0


def _seeds(bracket: str, settings: Mapping[str, Any], pairs: Sequence[int],
           ranking: Sequence[int]) -> tuple[int, ...]:
    """The bracket's pairs, best seed first: the director's order (a bracket format) or the top
    of the qualifying standings (a playoff)."""
    if bracket:
        return tuple(pairs)
    cut = int(settings["playoff"]["cut"])
    seeds = tuple(ranking[:cut])
    if len(seeds) < cut:
        raise FormatError(f"The playoff takes {cut} pairs; only {len(seeds)} are still "
                          "playing.", field="format_settings.playoff.cut")
    return seeds


def _state(bracket: str, settings: Mapping[str, Any], seeds: Sequence[int],
           played: Sequence[PairResult]) -> State:
    """Where the bracket stands after the bracket games ``played`` (those with a winner)."""
    plan = _plan(bracket, settings, len(seeds))
    assert plan is not None
    try:
        return bracket_state(plan, seeds, {r.match: r.winner for r in played
                                           if r.winner is not None})
    except BracketError as exc:
        raise FormatError(exc.message, field=exc.field) from None


def _bracket_round(s: Situation, bracket: str, first: int) -> BuiltRound:
    """The next wave of bracket matches: every match whose pairs are known and that no table
    has played yet."""
    seeds = _seeds(bracket, s.settings, tuple(s.pairs), s.ranking)
    played = [r for r in pair_results(s) if r.round_number >= first and r.match]
    state = _state(bracket, s.settings, seeds, played)
    seated = {r.match for r in played}
    ready = [code for code in state.ready if code not in seated]
    if not ready:
        if state.complete:
            raise FormatError("The bracket is complete: finish the event to write the places.",
                              field="round", code="complete")
        raise FormatError("No bracket match is ready: a game of the last round has no result.",
                          field="round")
    matches = tuple((_known(state.sides[code][0]), _known(state.sides[code][1])) for code in ready)
    return seat(s, PairRound(matches=matches), "bracket", tuple(ready))


def _known(pair: int | None) -> int:
    assert pair is not None
    return pair


def _placements(bracket: str, qualifying: int, finish: Finish) -> list[Placed]:
    """Bracket pairs by the bracket's places; the others (or all, without a bracket) by the
    qualifying standings, after the bracket's places."""
    if not bracket and not finish.settings.get("playoff"):
        return [Placed(rank, pair, Stage.QUALIFYING.value) for pair, rank in finish.ranking]
    seeds = _seeds(bracket, finish.settings, tuple(finish.pairs), [p for p, _ in finish.ranking])
    played = [r for r in pair_results(finish) if r.round_number > qualifying and r.match]
    state = _state(bracket, finish.settings, seeds, played)
    if not state.complete:
        raise FormatError("The bracket is not finished: play its last match before finishing "
                          "the event.", field="status", code="bracket_unfinished")
    placed = [Placed(place, pair, BRACKET) for place, pair in state.placements]
    inside = {pair for _, pair in state.placements}
    after = len(placed)
    placed += [Placed(max(rank, after + 1), pair, Stage.QUALIFYING.value)
               for pair, rank in finish.ranking if pair not in inside]
    return placed


# --- the bracket as pages draw it ---------------------------------------------------------------
BRACKET_LABELS = {"winners": "Winners' bracket", "losers": "Losers' bracket",
                  "final": "Grand final", "third_place": "Third place",
                  "consolation": "Consolation bracket"}


def bracket_depth(bracket: str, settings: Mapping[str, Any], entrants: int) -> int:
    """How many rounds (waves) the event's bracket takes at most; 0 while it cannot be planned
    (too few pairs registered yet for its settings: seating the first round says why)."""
    try:
        return _depth(_plan(bracket, settings, entrants))
    except FormatError:
        return 0


def _slot_label(kind: str, ref: int | str) -> str:
    return {"seed": f"Seed {ref}", "winner": f"Winner of {ref}",
            "loser": f"Loser of {ref}"}[kind]


def bracket_view(
    bracket: str, settings: Mapping[str, Any], *, entrants: int,
    seeds: Sequence[int] | None, members: Mapping[int, tuple[int, ...]],
    names: Mapping[int, str], results: Sequence[TableResult], first_round: int,
    statuses: Mapping[tuple[int, int], str],
) -> dict[str, Any]:
    """Every match of the bracket, grouped by bracket and column, with what is known of it.

    A match: ``{"code", "bracket", "round", "position", "depth", "conditional", "sides":
    [{"slot", "pair", "name", "seed"}], "winner", "loser", "winner_to", "loser_to", "status",
    "round_number", "table", "points"}``; ``status`` is waiting (its pairs are not known yet),
    ready, seated, playing, to_confirm, finished or skipped. ``seeds`` is None before a
    playoff's seeds are known (the qualifying rounds are still being played)."""
    size = len(seeds) if seeds is not None else (
        int(settings["playoff"]["cut"]) if settings.get("playoff") else entrants)
    plan = _plan(bracket, settings, size)
    assert plan is not None
    played = {r.match: r for r in _as_pairs(members, results)
              if r.round_number >= first_round and r.match}
    # A winner advances once the game is confirmed (until then the table may still correct it).
    confirmed = {code: r.winner for code, r in played.items() if r.winner is not None
                 and statuses.get((r.round_number, r.table_number)) == "confirmed"}
    state = bracket_state(plan, seeds, confirmed) if seeds is not None else None
    seed_of = {pair: n for n, pair in enumerate(seeds or (), start=1)}
    brackets: dict[str, dict[int, list[dict[str, Any]]]] = {}
    for m in plan.matches:
        known = state.sides.get(m.code, (None, None)) if state else (None, None)
        sides = []
        for slot, pair in zip(m.sides, known, strict=True):
            sides.append({"slot": _slot_label(slot.kind, slot.ref), "pair": pair,
                          "name": names.get(pair, "") if pair is not None else "",
                          "seed": seed_of.get(pair) if pair is not None else None})
        game = played.get(m.code)
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
        brackets.setdefault(m.bracket, {}).setdefault(m.round, []).append({
            "code": m.code, "bracket": m.bracket, "round": m.round, "position": m.position,
            "depth": m.depth, "conditional": m.conditional, "sides": sides,
            "winner": state.winners.get(m.code) if state else None,
            "loser": state.losers.get(m.code) if state else None,
            "winner_to": m.winner_to, "loser_to": m.loser_to, "status": status,
            "round_number": game.round_number if game else None,
            "table": game.table_number if game else None,
            "points": list(game.points) if game else None,
        })
    order = ["winners", "losers", "final", "third_place", "consolation"]
    return {
        "kind": plan.kind, "entrants": plan.entrants, "seeded": seeds is not None,
        "complete": bool(state and state.complete),
        "champion": state.champion if state else None,
        "champion_name": names.get(state.champion, "") if state and state.champion else "",
        "brackets": [
            {"name": b, "label": BRACKET_LABELS.get(b, b),
             "rounds": [{"round": r, "matches": sorted(ms, key=lambda x: x["position"])}
                        for r, ms in sorted(brackets[b].items())]}
            for b in order if b in brackets
        ],
        "placements": [{"place": place, "pair": pair, "name": names.get(pair, "")}
                       for place, pair in (state.placements if state else ())],
        "consolation_placements": [
            {"place": place, "pair": pair, "name": names.get(pair, "")}
            for place, pair in (state.consolation_placements if state else ())],
    }


def _describe_bracket(kind: str, options: Mapping[str, Any]) -> list[str]:
    words = ["A single-elimination bracket: a pair is out after one loss."] if kind == "single" \
        else ["A double-elimination bracket: a pair is out after its second loss; losers of "
              "the winners' bracket drop into the losers' bracket."]
    words.append("The best seed meets the lowest in the first round, and so on; when the "
                 "pairs are not a power of two the top seeds have a bye in the first round.")
    if kind == "double":
        words.append("The grand final is played again if the losers' bracket pair wins it."
                     if options.get("reset", True) else "One grand final decides.")
    if options.get("third_place"):
        words.append("The semi-final losers play for third place.")
    if options.get("consolation"):
        rounds = ", ".join(str(r) for r in options["consolation"])
        words.append(f"Pairs knocked out in round {rounds} of the "
                     f"{'winners' if kind == 'single' else 'losers'}' bracket play a "
                     "single-elimination consolation bracket.")
    return words




def _describe_tail(settings: Mapping[str, Any]) -> list[str]:
    words: list[str] = []
    if settings.get("playoff"):
        playoff = settings["playoff"]
        words.append(f"Then the top {playoff['cut']} pairs of the standings play a bracket, "
                     "seeded by the standings.")
        words += _describe_bracket(str(playoff["kind"]), playoff)
    words.append("A game that ends level is settled by cutting the cards; a bye counts as a "
                 "win.")
    if settings.get("game_minutes"):
        words.append(f"A game lasts at most {settings['game_minutes']} minutes: when the "
                     "director calls time, the pair ahead wins.")
    return words


# How a forfeit is scored (``scoring.services.game_forfeit``, ``standings.services``): like a
# bye for the pair that was ready to play, which is what it amounts to for that pair.
FORFEIT_WORDS = [
    "A pair that cannot go on forfeits its game (a walkover): the other pair wins it and "
    "scores what a bye scores; the forfeiting pair scores nothing. A pair that withdraws from "
    "a bracket gives each of its later opponents a walkover.",
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
                raise FormatError("Play has started: the bracket or the groups cannot change "
                                  "now.", field=f"format_settings.{key}", code="started")
    if (change.stored.get("playoff") != change.settings.get("playoff")
            and change.seated.get(BRACKET)):
        raise FormatError("The playoff has started: it cannot change now.",
                          field="format_settings.playoff", code="started")
    seated = change.seated.get(Stage.QUALIFYING, 0)
    if change.rounds_planned < seated and not bracket:
        raise FormatError(f"{seated} rounds have been seated; the event cannot plan fewer.",
                          field="rounds_planned")


def _check_field(settings: Mapping[str, Any], pairs: int) -> None:
    cut = int((settings.get("playoff") or {}).get("cut") or 0)
    if cut > pairs:
        raise FormatError(
            f"The playoff takes the top {cut} pairs, but only {pairs} are registered: lower the "
            "cut (format_settings.playoff.cut) or register more pairs.",
            field="format_settings.playoff.cut", code="cut_larger_than_field")


def _planned(rounds_planned: int, settings: Mapping[str, Any], entrants: int) -> int:
    return rounds_planned


def pair_format(
    *, name: str, label: str, summary: str,
    qualify: Callable[[Situation], BuiltRound] | None = None,
    bracket: str = "",
    qualifying_rounds: Callable[[int, Mapping[str, Any], int], int] = _planned,
    keys: frozenset[str] = frozenset(),
    describe: Callable[[Mapping[str, Any], int], list[str]] | None = None,
    rounds_help: str = "With a playoff, the qualifying rounds before it.",
    rounds_used: bool = True, closed_field: bool = False, shortcut: str = "",
) -> Format:
    """The spec of a fixed-partnership format: qualifying rounds built by ``qualify`` (then an
    optional playoff), or a bracket of kind ``bracket`` (``single``, ``double``) from round 1.
    ``keys`` are the format's own settings besides the common ones."""
    if bracket:
        qualifying_rounds = _no_rounds
    known = COMMON_KEYS | keys | (BRACKET_KEYS[bracket] if bracket else PLAYOFF_KEYS)

    def check(raw: Mapping[str, Any] | None) -> dict[str, Any]:
        return check_pair_settings(known, raw, bracket=bracket)

    def total(rounds_planned: int, settings: Mapping[str, Any], entrants: int) -> int:
        return (qualifying_rounds(rounds_planned, settings, entrants)
                + bracket_depth(bracket, settings, entrants))

    def stage_of(number: int, rounds_planned: int, settings: Mapping[str, Any],
                 entrants: int) -> str:
        qualifying = qualifying_rounds(rounds_planned, settings, entrants)
        return Stage.QUALIFYING.value if number <= qualifying else BRACKET

    def build(s: Situation) -> BuiltRound:
        qualifying = qualifying_rounds(s.rounds_planned, s.settings, len(s.pairs))
        try:
            if s.number > qualifying or qualify is None:
                return _bracket_round(s, bracket, qualifying + 1)
            return qualify(s)
        except ScheduleError as exc:
            raise FormatError(exc.message, field=exc.field) from None

    def placements(finish: Finish) -> list[Placed]:
        qualifying = qualifying_rounds(finish.rounds_planned, finish.settings, len(finish.pairs))
        return _placements(bracket, qualifying, finish)

    def words(settings: Mapping[str, Any], rounds_planned: int) -> list[str]:
        own = describe(settings, rounds_planned) if describe else []
        if bracket:
            own += _describe_bracket(bracket, settings)
        return own + _describe_tail(settings) + FORFEIT_WORDS

    def plan_change(change: PlanChange) -> None:
        _check_plan_change(change, bracket=bracket)

    return Format(
        name=name, label=label, summary=summary, shortcut=shortcut, build=build,
        entrants="pairs",
        rounds_help="Not used: a bracket plays until it is decided." if bracket else rounds_help,
        rounds_used=rounds_used and not bracket,
        rounds_label="Rounds" if rounds_used and not bracket else "Rounds (not used)",
        setting_keys=known, check_settings=check, check_plan_change=plan_change,
        check_field=_check_field,
        stage_of=stage_of, rounds_total=total, qualifying_rounds=qualifying_rounds,
        placements=placements, describe=words, min_entries=2, seats_automatically=True,
        needs_winners=True, open_ended=False, swap="pairs",
        closed_field=closed_field or bool(bracket), bracket=bracket,
        playoff=not bracket, forfeits=True,
    )


def _no_rounds(rounds_planned: int, settings: Mapping[str, Any], entrants: int) -> int:
    return 0


def bracket_first_round(spec: Format, rounds_planned: int, settings: Mapping[str, Any],
                        entrants: int) -> int:
    """The number of the event's first bracket round."""
    return spec.qualifying_rounds(rounds_planned, settings, entrants) + 1



"""The fixed-partnership formats in the registry: Swiss, round robin, the A/B and winners-stay
movements, and single- and double-elimination brackets (alone, or as a playoff after a
qualifying format).

The builders under ``pairing/`` pair *pairs*; this module turns the event's situation into
pairs (each pair's two entries sit together: N-S for the first pair of a match, E-W for the
second) and the pairs' matches back into seats. A bracket round is a wave: every match whose
two pairs are known and that has not been played, each at its own table with its match code.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from common.errors import DomainError
from pairing.bracket import BracketError, Plan, State, bracket_plan, bracket_state
from pairing.club_night import BuiltRound
from pairing.pair_movements import ab_movement, first_draw, winners_stay
from pairing.pair_settings import BRACKET_KINDS, PairSettingsError
from pairing.progressive.stages import Stage
from pairing.results import TableResult
from pairing.rotation import RoundPlan
from pairing.round_robin import PairRound, ScheduleError, round_robin, round_robin_rounds
from pairing.swiss import Standing, SwissError, swiss_round

from .formats import Finish, Format, Placed, Situation, register

BRACKET = "bracket"


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


def _pair_of(pairs: Mapping[int, tuple[int, ...]]) -> dict[int, int]:
    return {entry: pair for pair, entries in pairs.items() for entry in entries}


def pair_results(s: Situation | Finish) -> list[PairResult]:
    """Every game of the event as pair against pair."""
    return _as_pairs(s.pairs, s.results)


def _as_pairs(pairs: Mapping[int, tuple[int, ...]],
              results: Sequence[TableResult]) -> list[PairResult]:
    pair_of = _pair_of(pairs)
    out = []
    for r in results:
        ns, ew = pair_of.get(r.seats.get("N", -1)), pair_of.get(r.seats.get("E", -1))
        if ns is None or ew is None:
            continue
        winner = ns if r.winner == "NS" else ew if r.winner == "EW" else None
        out.append(PairResult(r.round_number, r.table_number, (ns, ew),
                              (int(r.points.get("NS", 0)), int(r.points.get("EW", 0))),
                              winner if r.finished else None, r.finished, r.match))
    return out


def _seat(s: Situation, built: PairRound, method: str,
          matches: tuple[str, ...] = ()) -> BuiltRound:
    """A pairs' round as seats: the first pair of each match N-S, the second E-W; both members
    of a pair with a bye sit out."""
    tables = []
    for a, b in built.matches:
        first, second = s.pairs[a], s.pairs[b]
        tables.append((first[0], second[0], first[1], second[1]))
    byes = tuple(sorted(e for pair in built.byes for e in s.pairs[pair]))
    return BuiltRound(RoundPlan(tables=tuple(tables), byes=byes), method, matches)


def _previous_finished(s: Situation) -> None:
    for r in pair_results(s):
        if r.round_number == s.number - 1 and (not r.finished or r.winner is None):
            raise DomainError(
                f"Table {r.table_number}'s game of round {r.round_number} has no winner yet: "
                "the next round is paired from every result.", field="round")


def _sit_out_withdrawn(s: Situation, built: PairRound) -> PairRound:
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


def qualifying_rounds(format_name: str, rounds_planned: int, settings: Mapping[str, Any],
                       entrants: int) -> int:
    """The rounds before the bracket: none for a bracket format, a round robin's schedule,
    otherwise the rounds the director planned."""
    if format_name in BRACKET_KINDS:
        return 0
    if format_name == "round_robin":
        try:
            return round_robin_rounds(entrants, groups=int(settings.get("groups") or 1))
        except ScheduleError:  # too few pairs yet: the round robin cannot be planned
            return rounds_planned
    return rounds_planned


def _plan(format_name: str, settings: Mapping[str, Any], entrants: int) -> Plan | None:
    """The bracket the event plays (its own, or the playoff after qualifying), if any."""
    if format_name in BRACKET_KINDS:
        options = dict(settings)
        kind = BRACKET_KINDS[format_name]
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
        raise DomainError.of(exc, field_prefix="format_settings.") from None


def _depth(plan: Plan | None) -> int:
    return max((m.depth for m in plan.matches), default=0) if plan else 0


def _seeds(format_name: str, settings: Mapping[str, Any], pairs: Sequence[int],
           ranking: Sequence[int]) -> tuple[int, ...]:
    """The bracket's pairs, best seed first: the director's order (a bracket format) or the top
    of the qualifying standings (a playoff)."""
    if format_name in BRACKET_KINDS:
        return tuple(pairs)
    cut = int(settings["playoff"]["cut"])
    seeds = tuple(ranking[:cut])
    if len(seeds) < cut:
        raise DomainError(f"The playoff takes {cut} pairs; only {len(seeds)} are still "
                          "playing.", field="format_settings.playoff.cut")
    return seeds


def _state(format_name: str, settings: Mapping[str, Any], seeds: Sequence[int],
           played: Sequence[PairResult]) -> State:
    """Where the bracket stands after the bracket games ``played`` (those with a winner)."""
    plan = _plan(format_name, settings, len(seeds))
    assert plan is not None
    try:
        return bracket_state(plan, seeds, {r.match: r.winner for r in played
                                           if r.winner is not None})
    except BracketError as exc:
        raise DomainError.of(exc) from None


def _bracket_round(s: Situation, format_name: str, first: int) -> BuiltRound:
    """The next wave of bracket matches: every match whose pairs are known and that no table
    has played yet."""
    seeds = _seeds(format_name, s.settings, tuple(s.pairs), s.ranking)
    played = [r for r in pair_results(s) if r.round_number >= first and r.match]
    state = _state(format_name, s.settings, seeds, played)
    seated = {r.match for r in played}
    ready = [code for code in state.ready if code not in seated]
    if not ready:
        if state.complete:
            raise DomainError("The bracket is complete: finish the event to write the places.",
                              field="round", code="complete")
        raise DomainError("No bracket match is ready: a game of the last round has no result.",
                          field="round")
    matches = tuple((_known(state.sides[code][0]), _known(state.sides[code][1])) for code in ready)
    return _seat(s, PairRound(matches=matches), "bracket", tuple(ready))


def _known(pair: int | None) -> int:
    assert pair is not None
    return pair


def _standings(s: Situation) -> list[Standing]:
    """What the Swiss pairing needs per pair still playing: wins (a bye counts as one),
    points, opponents met and byes."""
    pair_of = _pair_of(s.pairs)
    wins = dict.fromkeys(s.pairs, 0)
    points = dict.fromkeys(s.pairs, 0)
    met: dict[int, set[int]] = {p: set() for p in s.pairs}
    for r in pair_results(s):
        for i, pair in enumerate(r.pairs):
            points[pair] += r.points[i]
            met[pair].add(r.pairs[1 - i])
        if r.winner is not None:
            wins[r.winner] += 1
    byes = dict.fromkeys(s.pairs, 0)
    for past in s.history:
        for pair in {pair_of[e] for e in past.byes if e in pair_of}:
            byes[pair] += 1
            wins[pair] += 1
    return [Standing(pair=p, wins=wins[p], points=points[p], opponents=frozenset(met[p]),
                     byes=byes[p]) for p in s.active_pairs]


def _swiss(s: Situation) -> BuiltRound:
    if s.number > 1:
        _previous_finished(s)
    try:
        found = swiss_round(_standings(s), seed=s.seed * 1000 + s.number,
                            shuffle_first=s.settings.get("first_draw") == "random")
    except SwissError as exc:
        raise DomainError.of(exc) from None
    q = found.quality
    built = PairRound(matches=found.matches, byes=(found.bye,) if found.bye is not None else ())
    return _seat(s, built, f"swiss: {q.rematches} rematches, spread {q.spread}")


def _round_robin(s: Situation) -> BuiltRound:
    schedule = round_robin(tuple(s.pairs), groups=int(s.settings.get("groups") or 1))
    return _seat(s, _sit_out_withdrawn(s, schedule[s.number - 1]), "round_robin")


def _ab(s: Situation) -> BuiltRound:
    return _seat(s, _sit_out_withdrawn(s, ab_movement(tuple(s.pairs), s.number)), "ab_movement")


def _winners_stay(s: Situation) -> BuiltRound:
    random_draw = s.settings.get("first_draw") == "random"
    if s.number == 1:
        built = first_draw(s.active_pairs, seed=s.seed if random_draw else -1)
        return _seat(s, built, "first_draw")
    _previous_finished(s)
    firsts = sorted((r for r in pair_results(s) if r.round_number == 1),
                    key=lambda r: r.table_number)
    first_byes = sorted({_pair_of(s.pairs)[e] for e in s.history[0].byes})
    built = winners_stay([r.pairs for r in firsts], [r.winner or r.pairs[0] for r in firsts],
                         s.number, first_byes)
    return _seat(s, _sit_out_withdrawn(s, built), "winners_stay")


BUILDERS = {"swiss": _swiss, "round_robin": _round_robin, "ab_movement": _ab,
            "winners_stay": _winners_stay}


def _register(name: str, label: str) -> None:
    def total(rounds_planned: int, settings: Mapping[str, Any], entrants: int) -> int:
        return (qualifying_rounds(name, rounds_planned, settings, entrants)
                + bracket_depth(name, settings, entrants))

    def stage_of(number: int, rounds_planned: int, settings: Mapping[str, Any],
                 entrants: int) -> str:
        qualifying = qualifying_rounds(name, rounds_planned, settings, entrants)
        return Stage.QUALIFYING.value if number <= qualifying else BRACKET

    def build(s: Situation) -> BuiltRound:
        qualifying = qualifying_rounds(name, s.rounds_planned, s.settings, len(s.pairs))
        try:
            if s.number > qualifying:
                return _bracket_round(s, name, qualifying + 1)
            return BUILDERS[name](s)
        except (ScheduleError, PairSettingsError) as exc:
            raise DomainError.of(exc) from None

    def placements(finish: Finish) -> list[Placed]:
        return _placements(name, finish)

    register(Format(name=name, label=label, build=build, min_entries=2,
                    seats_automatically=True, stage_of=stage_of, rounds_total=total,
                    placements=placements, needs_winners=True, open_ended=False, pairs=True))


def _placements(name: str, finish: Finish) -> list[Placed]:
    """Bracket pairs by the bracket's places; the others (or all, without a bracket) by the
    qualifying standings, after the bracket's places."""
    if name not in BRACKET_KINDS and not finish.settings.get("playoff"):
        return [Placed(rank, pair, Stage.QUALIFYING.value) for pair, rank in finish.ranking]
    qualifying = qualifying_rounds(name, finish.rounds_planned, finish.settings, len(finish.pairs))
    seeds = _seeds(name, finish.settings, tuple(finish.pairs), [p for p, _ in finish.ranking])
    played = [r for r in pair_results(finish) if r.round_number > qualifying and r.match]
    state = _state(name, finish.settings, seeds, played)
    if not state.complete:
        raise DomainError("The bracket is not finished: play its last match before finishing "
                          "the event.", field="status", code="bracket_unfinished")
    placed = [Placed(place, pair, BRACKET) for place, pair in state.placements]
    inside = {pair for _, pair in state.placements}
    after = len(placed)
    placed += [Placed(max(rank, after + 1), pair, Stage.QUALIFYING.value)
               for pair, rank in finish.ranking if pair not in inside]
    return placed


for _name, _label in (
    ("swiss", "Swiss (pairs)"), ("round_robin", "Round robin (pairs)"),
    ("ab_movement", "A/B movement (pairs)"), ("winners_stay", "Winners stay (pairs)"),
    ("single_elimination", "Single elimination bracket (pairs)"),
    ("double_elimination", "Double elimination bracket (pairs)"),
):
    _register(_name, _label)


# --- the bracket as pages draw it ---------------------------------------------------------------
BRACKET_LABELS = {"winners": "Winners' bracket", "losers": "Losers' bracket",
                  "final": "Grand final", "third_place": "Third place",
                  "consolation": "Consolation bracket"}


def bracket_depth(format_name: str, settings: Mapping[str, Any], entrants: int) -> int:
    """How many rounds (waves) the event's bracket takes at most; 0 while it cannot be planned
    (too few pairs registered yet for its settings: seating the first round says why)."""
    try:
        return _depth(_plan(format_name, settings, entrants))
    except DomainError:
        return 0


def _slot_label(kind: str, ref: int | str) -> str:
    return {"seed": f"Seed {ref}", "winner": f"Winner of {ref}",
            "loser": f"Loser of {ref}"}[kind]


def bracket_view(
    format_name: str, settings: Mapping[str, Any], *, entrants: int,
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
    plan = _plan(format_name, settings, size)
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


def describe(format_name: str, settings: Mapping[str, Any], rounds_planned: int) -> list[str]:
    """The format's rules in sentences (the event page, the results sheet, the API)."""
    words = {
        "swiss": [f"Swiss, {rounds_planned} rounds: pairs with the same number of wins meet, "
                  "never twice; with an odd number of pairs one has a bye each round (never "
                  "twice while another has had none), which counts as a win."],
        "round_robin": ["Round robin: every pair meets every other pair of its group once."
                        + (f" The pairs play in {settings['groups']} groups."
                           if int(settings.get("groups") or 1) > 1 else "")],
        "ab_movement": [f"A/B movement, {rounds_planned} rounds: the A pairs keep their table; "
                        "the B pairs move one table up each round."],
        "winners_stay": [f"Winners stay, {rounds_planned} rounds: the first game's winners keep "
                         "their table all day; the others move one table up each round."],
    }.get(format_name, [])
    if format_name in BRACKET_KINDS:
        words += _describe_bracket(BRACKET_KINDS[format_name], settings)
    elif settings.get("playoff"):
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

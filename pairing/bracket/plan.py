"""Building a bracket: seeding, byes, the losers bracket's drop-in order, the grand final, the
third-place match and the consolation bracket.

Every bracket is first laid out at full size (the next power of two), with empty seats for the
seeds beyond the field. A match with an empty seat is never played: its other pair goes straight
on (a bye), and a match that would have received the loser of such a match passes its other side
on in the same way. What remains keeps the codes, rounds and positions of the full layout.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules_engine.i18n import Text, gettext_noop

from .consolation import order_entrants
from .model import KINDS, MAX_ENTRANTS, BracketError, Match, Plan, Slot

_BRACKET_ORDER = {"winners": 0, "losers": 1, "final": 2, "third_place": 3, "consolation": 4}


def _power_at_least(count: int) -> int:
    size = 1
    while size < count:
        size *= 2
    return size


def _log2(size: int) -> int:
    return size.bit_length() - 1


def seed_order(size: int) -> list[int]:
    """Seeds from the top of the first round to the bottom for a bracket of ``size`` (a power of
    two): 1 meets ``size``, and the best seeds can only meet when the field has thinned out,
    1 and 2 in the final. ``seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]``."""
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or size < 1
        or size > 2 * MAX_ENTRANTS
        or size & (size - 1)
    ):
        raise BracketError(
            Text(gettext_noop("A seeding order is for 1, 2, 4, 8, ... places (at most %(value)s), not %(size)s."), value=2 * MAX_ENTRANTS, size=repr(size)),
            field="size",
            code="bad_size",
        )
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def drop_order(losers_round: int, count: int) -> list[int]:
    """Which winners-bracket match's loser drops into each match of a losers round that takes
    drop-ins: entry ``j`` (0-based) is the 1-based position of the winners-bracket match whose
    loser plays losers match ``j + 1``.

    Losers round 2 takes them in reverse order, round 4 reverses each half, round 6 the whole
    order again, and so on. That way a pair dropping down never meets, in its first
    losers-bracket match, the pair it beat in its last winners-bracket match, nor the pair
    that just beat it when that pair drops in turn (the losers-bracket final, where the last
    two sides meet, is the one place this cannot be avoided, apart from a field of 5 pairs).
    """
    positions = list(range(1, count + 1))
    if count == 1:
        return positions
    if losers_round % 4 == 2:
        return positions[::-1]
    half = count // 2
    return positions[:half][::-1] + positions[half:][::-1]


class _Builder:
    """Lays out the full bracket and keeps only the matches with two real pairs."""

    def __init__(self) -> None:
        self.sides: dict[str, tuple[Slot, Slot]] = {}
        self.where: dict[str, tuple[str, int, int]] = {}
        self.won: dict[str, Slot | None] = {}
        self.lost: dict[str, Slot | None] = {}
        self.conditional: set[str] = set()

    def add(
        self, code: str, bracket: str, rnd: int, position: int, a: Slot | None, b: Slot | None
    ) -> None:
        if a is None or b is None:
            self.won[code] = a if b is None else b
            self.lost[code] = None
            return
        self.sides[code] = (a, b)
        self.where[code] = (bracket, rnd, position)
        self.won[code] = Slot("winner", code)
        self.lost[code] = Slot("loser", code)

    def elimination(
        self, prefix: str, bracket: str, entrants: Sequence[Slot | None]
    ) -> list[list[str]]:
        """A single-elimination bracket over ``entrants`` (best first, None = empty seat);
        returns the full layout's codes, round by round."""
        size = _power_at_least(len(entrants))
        order = seed_order(size)
        seat = [entrants[s - 1] if s <= len(entrants) else None for s in order]
        rounds: list[list[str]] = []
        for rnd in range(1, _log2(size) + 1):
            codes = []
            for pos in range(1, size // 2**rnd + 1):
                code = f"{prefix}{rnd}-{pos}"
                if rnd == 1:
                    a, b = seat[2 * pos - 2], seat[2 * pos - 1]
                else:
                    a, b = self.won[rounds[-1][2 * pos - 2]], self.won[rounds[-1][2 * pos - 1]]
                self.add(code, bracket, rnd, pos, a, b)
                codes.append(code)
            rounds.append(codes)
        return rounds

    def losers(self, winners: list[list[str]]) -> list[list[str]]:
        """The losers bracket fed by the winners bracket's rounds (full layout codes)."""
        rounds: list[list[str]] = []
        first = winners[0]
        codes = []
        for pos in range(1, len(first) // 2 + 1):
            code = f"L1-{pos}"
            self.add(
                code, "losers", 1, pos, self.lost[first[2 * pos - 2]], self.lost[first[2 * pos - 1]]
            )
            codes.append(code)
        rounds.append(codes)
        for w_round in range(2, len(winners) + 1):
            # Major round: the survivors meet the pairs dropping from winners round w_round.
            rnd = 2 * w_round - 2
            dropping = winners[w_round - 1]
            order = drop_order(rnd, len(dropping))
            codes = []
            for pos in range(1, len(dropping) + 1):
                code = f"L{rnd}-{pos}"
                survivor = self.won[rounds[-1][pos - 1]]
                self.add(
                    code, "losers", rnd, pos, survivor, self.lost[dropping[order[pos - 1] - 1]]
                )
                codes.append(code)
            rounds.append(codes)
            if w_round == len(winners):
                break
            # Minor round: the survivors play each other.
            rnd += 1
            codes = []
            for pos in range(1, len(rounds[-1]) // 2 + 1):
                code = f"L{rnd}-{pos}"
                prev = rounds[-1]
                self.add(
                    code,
                    "losers",
                    rnd,
                    pos,
                    self.won[prev[2 * pos - 2]],
                    self.won[prev[2 * pos - 1]],
                )
                codes.append(code)
            rounds.append(codes)
        return rounds

    def real(self, codes: Sequence[str]) -> list[str]:
        return [c for c in codes if c in self.sides]


def _check_options(
    entrants: int, kind: str, third_place: bool, reset: bool, consolation: Sequence[int]
) -> tuple[int, ...]:
    if isinstance(entrants, bool) or not isinstance(entrants, int):
        raise BracketError(
            Text(gettext_noop("The number of pairs is a whole number.")), field="entrants", code="bad_entrants"
        )
    if entrants < 2:
        raise BracketError(Text(gettext_noop("A bracket needs at least 2 pairs.")), field="entrants", code="too_few")
    if entrants > MAX_ENTRANTS:
        raise BracketError(
            Text(gettext_noop("A bracket takes at most %(max_entrants)s pairs, not %(entrants)s."), max_entrants=MAX_ENTRANTS, entrants=entrants),
            field="entrants",
            code="too_many",
        )
    if kind not in KINDS:
        raise BracketError(
            Text(gettext_noop("A bracket is single or double elimination, not %(kind)s."), kind=repr(str(kind)[:20])),
            field="kind",
            code="bad_kind",
        )
    if not isinstance(third_place, bool):
        raise BracketError(Text(gettext_noop("third_place is true or false.")), field="third_place", code="bad_option")
    if not isinstance(reset, bool):
        raise BracketError(Text(gettext_noop("reset is true or false.")), field="reset", code="bad_option")
    if third_place and kind == "double":
        raise BracketError(
            Text(gettext_noop("A third-place match is for single elimination; in double elimination the losers-bracket final decides third place.")),
            field="third_place",
            code="not_single",
        )
    if third_place and entrants < 4:
        raise BracketError(
            Text(gettext_noop("A third-place match needs at least 4 pairs (two semi-finals).")),
            field="third_place",
            code="too_few",
        )
    if isinstance(consolation, str | bytes) or not isinstance(consolation, Sequence):
        raise BracketError(
            Text(gettext_noop("The consolation rounds are a list of round numbers.")),
            field="consolation",
            code="bad_consolation",
        )
    rounds: list[int] = []
    for rnd in consolation:
        if isinstance(rnd, bool) or not isinstance(rnd, int):
            raise BracketError(
                Text(gettext_noop("A consolation round is a round number, not %(rnd)s."), rnd=repr(str(rnd)[:20])),
                field="consolation",
                code="bad_consolation",
            )
        if rnd in rounds:
            raise BracketError(
                Text(gettext_noop("Consolation round %(rnd)s is listed twice."), rnd=rnd),
                field="consolation",
                code="bad_consolation",
            )
        rounds.append(rnd)
    return tuple(sorted(rounds))


def _consolation_entrants(
    builder: _Builder,
    kind: str,
    third_place: bool,
    rounds: tuple[int, ...],
    main: list[list[str]],
    entrants: int,
) -> list[Slot]:
    """The losers of the configured rounds, best seed first: later rounds first, then from the
    top of the drawing down."""
    which = "winners" if kind == "single" else "losers"
    # Rounds whose losers are still playing for a top place cannot feed the consolation.
    last = len(main) - 1
    if kind == "single" and third_place:
        last -= 1
    groups: list[list[str]] = []
    for rnd in sorted(rounds, reverse=True):
        if rnd < 1 or rnd > last:
            setting = (
                Text(gettext_noop("%(entrants)s pairs in single elimination with a third-place "
                                  "match"), entrants=entrants)
                if kind == "single" and third_place
                else Text(gettext_noop("%(entrants)s pairs in single elimination"),
                          entrants=entrants) if kind == "single"
                else Text(gettext_noop("%(entrants)s pairs in double elimination"),
                          entrants=entrants))
            if last < 1:
                allowed = Text(gettext_noop("no round can"))
            elif last == 1:
                allowed = (Text(gettext_noop("only the losers of winners round 1 can"))
                           if which == "winners"
                           else Text(gettext_noop("only the losers of losers round 1 can")))
            else:
                allowed = (Text(gettext_noop("the losers of winners rounds 1 to %(last)s can"),
                                last=last) if which == "winners"
                           else Text(gettext_noop("the losers of losers rounds 1 to %(last)s can"),
                                     last=last))
            raise BracketError(
                Text(gettext_noop("Round %(rnd)s cannot feed the consolation bracket: with %(setting)s, %(allowed)s."), rnd=rnd, setting=setting, allowed=allowed),
                field="consolation",
                code="bad_round",
            )
        played = builder.real(main[rnd - 1])
        if not played:
            raise BracketError(
                Text(gettext_noop("%(value)s round %(rnd)s has no matches with %(entrants)s pairs (byes take its place), so nobody goes out there."), value=which.capitalize(), rnd=rnd, entrants=entrants),
                field="consolation",
                code="bad_round",
            )
        groups.append(played)
    count = sum(len(group) for group in groups)
    order = order_entrants(builder.sides, groups, seed_order(_power_at_least(count)))
    feeding = [Slot("loser", code) for code in order]
    if rounds and len(feeding) < 2:
        raise BracketError(
            Text(gettext_noop("A consolation bracket needs at least 2 pairs; the chosen rounds send only %(count)s."), count=len(feeding)),
            field="consolation",
            code="too_few",
        )
    return feeding


def bracket_plan(
    entrants: int,
    *,
    kind: str = "single",
    third_place: bool = False,
    reset: bool = True,
    consolation: Sequence[int] = (),
) -> Plan:
    """Every match of a single- or double-elimination bracket for ``entrants`` pairs.

    Seeds are placed in the standard order; when the field is not a power of two the best
    seeds get byes into round 2. ``third_place`` (single elimination only) adds ``3P`` between
    the semi-final losers. ``reset`` (double elimination): if the losers-bracket side wins the
    grand final ``GF``, ``GF2`` is played; without it ``GF`` decides. ``consolation`` lists
    rounds whose losers play a consolation bracket: winners rounds in single elimination,
    losers rounds in double elimination (where those losers go out).
    """
    rounds = _check_options(entrants, kind, third_place, reset, consolation)
    size = max(2, _power_at_least(entrants))
    builder = _Builder()
    seeds: list[Slot | None] = [Slot("seed", s) for s in range(1, entrants + 1)]
    winners = builder.elimination("W", "winners", seeds)
    main = winners
    if kind == "single":
        if third_place:
            semis = winners[-2]
            builder.add("3P", "third_place", 1, 1, builder.lost[semis[0]], builder.lost[semis[1]])
    else:
        final = winners[-1][0]
        if size == 2:
            losers_champion = builder.lost[final]
            main = []
        else:
            main = builder.losers(winners)
            losers_champion = builder.won[main[-1][0]]
        builder.add("GF", "final", 1, 1, builder.won[final], losers_champion)
        if reset:
            builder.add("GF2", "final", 2, 1, Slot("loser", "GF"), Slot("winner", "GF"))
            builder.conditional.add("GF2")
    if rounds:
        feeding = _consolation_entrants(builder, kind, third_place, rounds, main, entrants)
        builder.elimination("C", "consolation", list(feeding))
    return _finish(builder, kind, entrants, third_place, reset, rounds)


def _finish(
    builder: _Builder,
    kind: str,
    entrants: int,
    third_place: bool,
    reset: bool,
    rounds: tuple[int, ...],
) -> Plan:
    depth: dict[str, int] = {}
    winner_to: dict[str, str] = {}
    loser_to: dict[str, str] = {}
    for code, sides in builder.sides.items():  # insertion order: sources before their matches
        deepest = 0
        for side in sides:
            if side.kind == "seed":
                continue
            source = str(side.ref)
            deepest = max(deepest, depth[source])
            (winner_to if side.kind == "winner" else loser_to)[source] = code
        depth[code] = deepest + 1
    matches = [
        Match(
            code=code,
            bracket=builder.where[code][0],
            round=builder.where[code][1],
            position=builder.where[code][2],
            sides=sides,
            winner_to=winner_to.get(code),
            loser_to=loser_to.get(code),
            depth=depth[code],
            conditional=code in builder.conditional,
        )
        for code, sides in builder.sides.items()
    ]
    matches.sort(key=lambda m: (m.depth, _BRACKET_ORDER[m.bracket], m.round, m.position))
    return Plan(
        kind=kind,
        entrants=entrants,
        third_place=third_place,
        reset=reset if kind == "double" else False,
        consolation=rounds,
        matches=tuple(matches),
    )


def elimination_places(plan: Plan) -> dict[str, tuple[int | None, int | None]]:
    """Per match, the place its winner and its loser take there, when the match decides one:
    ``(1, 2)`` for the final, ``(None, 9)`` for a first-round match of a 16-pair single
    elimination (its loser shares ninth place), ``(None, None)`` when both play on (or, for a
    grand final with a reset, when that depends on who wins). Consolation matches give places
    within the consolation bracket."""
    places: dict[str, tuple[int | None, int | None]] = {}
    for bracket, deciding in (
        ("winners" if plan.kind == "single" else "losers", plan.kind == "single"),
        ("consolation", True),
    ):
        matches = plan.in_bracket(bracket)
        if not matches:
            continue
        per_round: dict[int, int] = {}
        for m in matches:
            per_round[m.round] = per_round.get(m.round, 0) + 1
        top = max(per_round)
        # Single elimination and consolation: the final's loser is 2nd. Losers bracket: the
        # grand final's loser is 2nd, so the losers-bracket final's loser is 3rd.
        first = 2 if deciding else 3
        for m in matches:
            later = sum(n for r, n in per_round.items() if r > m.round)
            loser_place: int | None = first + later
            if m.loser_to is not None and m.loser_to == "3P":
                loser_place = None
            winner_place = 1 if deciding and m.round == top else None
            places[m.code] = (winner_place, loser_place)
    if plan.has("3P"):
        places["3P"] = (3, 4)
    if plan.has("GF"):
        places["GF"] = (None, None) if plan.has("GF2") else (1, 2)
    if plan.has("GF2"):
        places["GF2"] = (1, 2)
    for m in plan.matches:
        places.setdefault(m.code, (None, None))
    return places

"""Where a bracket stands: who plays which match, which matches can be seated now, who is out,
and the final places once everything has been played."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from rules_engine.i18n import Text, gettext_noop

from .model import BracketError, Plan, State
from .plan import elimination_places

_MAIN = ("winners", "losers", "final")


def _check_seeds(plan: Plan, seeds: Sequence[int]) -> list[int]:
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Sequence):
        raise BracketError(
            Text(gettext_noop("The seeds are a list of pair ids, best first.")), field="seeds", code="bad_seeds"
        )
    out: list[int] = []
    seen: set[int] = set()
    for i, entrant in enumerate(seeds):
        if isinstance(entrant, bool) or not isinstance(entrant, int):
            raise BracketError(
                Text(gettext_noop("Seed %(value)s is %(entrant)s, not a pair id (a whole number)."), value=i + 1, entrant=repr(str(entrant)[:20])),
                field="seeds",
                code="bad_id",
            )
        if entrant in seen:
            raise BracketError(
                Text(gettext_noop("Pair %(entrant)s is seeded twice (again at seed %(value)s)."), entrant=entrant, value=i + 1),
                field="seeds",
                code="duplicate",
            )
        seen.add(entrant)
        out.append(entrant)
    if len(out) != plan.entrants:
        raise BracketError(
            Text(gettext_noop("The bracket is for %(entrants)s pairs but %(count)s were seeded."), entrants=plan.entrants, count=len(out)),
            field="seeds",
            code="wrong_count",
        )
    return out


def _check_results(plan: Plan, results: Mapping[str, int]) -> None:
    if not isinstance(results, Mapping):
        raise BracketError(
            Text(gettext_noop("The results map match codes to the winning pair's id.")),
            field="match",
            code="bad_results",
        )
    for code, winner in results.items():
        if not isinstance(code, str) or not plan.has(code):
            raise BracketError(
                Text(gettext_noop("There is no match %(code)s in this bracket, so it cannot have a result."), code=str(code)[:20]),
                field="match",
                code="unknown_match",
            )
        if isinstance(winner, bool) or not isinstance(winner, int):
            raise BracketError(
                Text(gettext_noop("The winner of match %(code)s is %(winner)s, not a pair id."), code=code, winner=repr(str(winner)[:20])),
                field="winner",
                code="bad_id",
            )


def _pair(entrant: int | None) -> str:
    return "not known yet" if entrant is None else f"pair {entrant}"


def bracket_state(plan: Plan, seeds: Sequence[int], results: Mapping[str, int]) -> State:
    """Play the results (match code -> winning pair id) through the plan, seeds best first."""
    order = _check_seeds(plan, seeds)
    _check_results(plan, results)
    rank = {entrant: i for i, entrant in enumerate(order)}
    sides: dict[str, tuple[int | None, int | None]] = {}
    winners: dict[str, int] = {}
    losers: dict[str, int] = {}
    skipped: set[str] = set()
    ready: list[str] = []
    losses = dict.fromkeys(order, 0)

    def occupant(kind: str, ref: int | str) -> int | None:
        if kind == "seed":
            return order[int(ref) - 1]
        return (winners if kind == "winner" else losers).get(str(ref))

    for match in plan.matches:
        a, b = (occupant(s.kind, s.ref) for s in match.sides)
        sides[match.code] = (a, b)
        if match.conditional:
            # GF2 is needed only if the losers-bracket side (GF's second side) won GF.
            gf = str(match.sides[1].ref)
            if gf in winners and winners[gf] == sides[gf][0]:
                skipped.add(match.code)
        result = results.get(match.code)
        if match.code in skipped:
            if result is not None:
                raise BracketError(
                    Text(gettext_noop("Match %(code)s is not played: the winners-bracket side won the grand final, so it has no result."), code=match.code),
                    field="match",
                    code="skipped",
                )
            continue
        if result is None:
            if a is not None and b is not None:
                ready.append(match.code)
            continue
        if a is None or b is None:
            raise BracketError(
                Text(gettext_noop("The pairs of match %(code)s are not known yet: %(value)s is %(value2)s, %(value3)s is %(value4)s. Enter the earlier results first."), code=match.code, value=match.sides[0].label(), value2=_pair(a), value3=match.sides[1].label(), value4=_pair(b)),
                field="match",
                code="not_ready",
            )
        if result not in (a, b):
            raise BracketError(
                Text(gettext_noop("Pair %(result)s did not play match %(code)s; it is pair %(a)s against pair %(b)s."), result=result, code=match.code, a=a, b=b),
                field="winner",
                code="wrong_winner",
            )
        loser = b if result == a else a
        winners[match.code] = result
        losers[match.code] = loser
        if match.bracket in _MAIN:
            losses[loser] += 1

    needed = [m for m in plan.matches if m.code not in skipped]
    complete = all(m.code in winners for m in needed)
    champion: int | None = None
    if plan.kind == "single":
        final = next(m for m in plan.matches if m.bracket == "winners" and m.winner_to is None)
        champion = winners.get(final.code)
    elif "GF" in winners:
        decided_at_gf = "GF2" in skipped or not plan.has("GF2")
        champion = winners["GF"] if decided_at_gf else winners.get("GF2")

    places = elimination_places(plan)

    def placed(brackets: tuple[str, ...]) -> tuple[tuple[int, int], ...]:
        out: list[tuple[int, int]] = []
        for m in plan.matches:
            if m.bracket not in brackets or m.code in skipped:
                continue
            won, lost = places[m.code]
            if m.code == "GF" and plan.has("GF2") and "GF2" in skipped:
                won, lost = 1, 2
            if won is not None:
                out.append((won, winners[m.code]))
            if lost is not None:
                out.append((lost, losers[m.code]))
        return tuple(sorted(out, key=lambda pe: (pe[0], rank.get(pe[1], 0))))

    placements: tuple[tuple[int, int], ...] = ()
    if complete:
        placements = placed((*_MAIN, "third_place"))
    consolation = plan.in_bracket("consolation")
    consolation_placements: tuple[tuple[int, int], ...] = ()
    if consolation and all(m.code in winners for m in consolation):
        consolation_placements = placed(("consolation",))
    return State(
        sides=sides,
        winners=winners,
        losers=losers,
        ready=tuple(ready),
        skipped=frozenset(skipped),
        complete=complete,
        champion=champion,
        losses=losses,
        placements=placements,
        consolation_placements=consolation_placements,
    )

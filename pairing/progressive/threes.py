"""A progressive day at tables of three (three-handed or cutthroat pinochle): the seat draw, the
movement after each game, the cut, the semi-final and final tables and the places (pure Python).

Vocabulary, as in the package docstring, except that nobody has a partner: a **table** is three
players in seats N, E, S (clockwise), each their own side; a game's result
(:class:`pairing.results.TableResult`) names the **winner** by seat letter and gives the
**points** by seat. At each table the players finish **first** (the winner), **second** and
**third** (by points; equal points: the earlier seat clockwise from North ranks ahead).

* **First game**: a seeded draw seats everyone at full tables of three; players beyond a
  multiple of three wait as alternates (the format leaves them unseated).
* **Movement** (``winners_move``, the only one at tables of three): the winner moves one table
  toward table 1, second stays, third moves one table away from it; at table 1 the winner stays
  and at the last table third stays (they cannot move further). Every table then seats three
  again: a stayer, the winner from the table below and the third from the table above. With
  ``direction`` ``down`` winners move away from table 1 and thirds toward it. The seats at the
  new table are drawn (seeded), so the dealer changes. The fixed seat movement has no meaning
  without a fourth seat and is refused (``format_settings.movement``).
* **Alternates**: ``leaving[i]`` is replaced by ``entering[i]`` in the last game's seat before the
  movement, exactly as at tables of four.
* **Cut** (``format_settings.cut``): 9 — the top nine qualifiers play one semi-final game at three
  tables (seeded 1, 6, 7 / 2, 5, 8 / 3, 4, 9, or drawn), the three table winners meet at the final
  table; 3 — the top three go straight to the final table; 0 — no cut.
* **Final** (``final_rule``): ``rotate`` plays three games with the seats rotating (each finalist
  sits in each seat once), the highest total is champion; ``single_game`` plays one game, the
  winner is champion and the others place by points. Equal totals are split by the qualifying
  standings, at the final and among the semi-final players who did not win (places 4 to 9, by
  their semi-final score). Everyone else is placed by the qualifying standings.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

from rules_engine.i18n import Text, gettext_noop, ngettext

from ..results import TableResult
from .model import Direction, Movement, ProgressiveError
from .stages import FinalRule, Placement, SemiPartners, Stage, StagePlan

Three = tuple[int, int, int]
SEATS3 = ("N", "E", "S")
CUTS_THREES = (9, 3, 0)
DEFAULT_CUT_THREES = 9
# Semi-finals by seed (indexes into the top 9), the snake: 1, 6, 7 / 2, 5, 8 / 3, 4, 9.
_SEEDED_SEMIS = ((0, 5, 6), (1, 4, 7), (2, 3, 8))
# Final games at a table of three: the seats rotate so each finalist sits in each seat once.
_FINAL_SEATS = {FinalRule.ROTATE: ((0, 1, 2), (1, 2, 0), (2, 0, 1)),
                FinalRule.SINGLE_GAME: ((0, 1, 2),)}


def first_game(players: Sequence[int], *, seed: int) -> tuple[Three, ...]:
    """Everyone at a table of three, seats drawn at random (reproducible for ``seed``)."""
    if len(set(players)) != len(players):
        raise ProgressiveError("players", Text(gettext_noop("A player is listed twice.")), "duplicate")
    over = len(players) % 3
    if len(players) < 3 or over:
        raise ProgressiveError(
            "entries",
            Text(gettext_noop("A progressive game at tables of three seats everyone: %(count)s players make %(value)s tables with %(value2)s over. Check in alternates to fill a table, or take players off the event."), count=len(players), value=len(players) // 3, value2=over or len(players)), "not_full_tables",
        )
    order = sorted(players)
    random.Random(f"progressive-threes-first:{seed}:{len(order)}").shuffle(order)
    return tuple((order[i], order[i + 1], order[i + 2]) for i in range(0, len(order), 3))


def finishing_order(result: TableResult, where: str = "round") -> tuple[int, int, int]:
    """The table's players first, second and third: the winner, then by points (equal points:
    the earlier seat). The winner is the named seat, or the one seat with the most points."""
    if not result.finished:
        raise ProgressiveError(
            where, Text(gettext_noop("Table %(table_number)s's game is not finished: the movement needs every table's result."), table_number=result.table_number), "not_finished")
    seats = [s for s in SEATS3 if s in result.seats]
    if len(seats) != 3 or len(result.seats) != 3:
        raise ProgressiveError(where, Text(gettext_noop("Table %(table_number)s does not seat three."), table_number=result.table_number),
                               "bad_table")
    points = {s: int(result.points.get(s, 0)) for s in seats}
    winner = result.winner
    best = max(points.values())
    if winner is None:
        top = [s for s in seats if points[s] == best]
        if len(top) > 1:
            raise ProgressiveError(
                where, Text(gettext_noop("Table %(table_number)s's game ended level: the table cuts the cards to settle who won."), table_number=result.table_number), "tie")
        winner = top[0]
    if winner not in seats:
        raise ProgressiveError(where, Text(gettext_noop("Table %(table_number)s's winner must be a seat: N, E or S."), table_number=result.table_number), "bad_winner")
    if points[winner] < best:
        raise ProgressiveError(where, Text(gettext_noop("Table %(table_number)s's winner scored fewer points than another player."), table_number=result.table_number), "winner_behind")
    rest = sorted((s for s in seats if s != winner), key=lambda s: (-points[s], seats.index(s)))
    first, second, third = [result.seats[s] for s in (winner, *rest)]
    return first, second, third


def next_game(
    last: Sequence[Sequence[int]],
    orders: Sequence[Sequence[int]],
    *,
    direction: str = Direction.UP.value,
    seed: int = 0,
    entering: Sequence[int] = (),
    leaving: Sequence[int] = (),
) -> tuple[Three, ...]:
    """The next game's tables from the last game's tables and each table's finishing order
    (first, second, third; :func:`finishing_order`). See the module docstring."""
    if direction not in {d.value for d in Direction}:
        raise ProgressiveError("direction", Text(gettext_noop("Choose one of: up, down.")), "bad_choice")
    if len(orders) != len(last) or any(
        len(o) != 3 or set(o) != set(t) for o, t in zip(orders, last, strict=False)
    ):
        raise ProgressiveError("results", Text(gettext_noop("Give each table's three players in finishing order.")),
                               "bad_results")
    if len(entering) != len(leaving):
        raise ProgressiveError("entering", Text(gettext_noop("Each player who leaves needs one who enters.")),
                               "no_seat" if len(entering) > len(leaving) else "empty_seat")
    swap = dict(zip(leaving, entering, strict=True))
    seated = {p for t in last for p in t}
    if not set(leaving) <= seated or set(entering) & seated:
        raise ProgressiveError("leaving", Text(gettext_noop("A leaver must be seated and an alternate must not.")),
                               "bad_substitution")
    count = len(last)
    tables: list[list[int]] = [[] for _ in range(count)]
    up = direction == Direction.UP.value
    for i, order in enumerate(orders):
        first, second, third = (swap.get(p, p) for p in order)
        toward, away = max(i - 1, 0), min(i + 1, count - 1)
        tables[toward if up else away].append(first)
        tables[i].append(second)
        tables[away if up else toward].append(third)
    out = []
    for number, row in enumerate(tables, start=1):
        ids = sorted(row)
        # keyed by the seed and the table, not the ids (a database's keys): see movement.py
        random.Random(f"progressive-threes:{seed}:{number}").shuffle(ids)
        out.append((ids[0], ids[1], ids[2]))
    return tuple(out)


def check_cut(cut: object) -> int:
    if isinstance(cut, bool) or not isinstance(cut, int) or cut not in CUTS_THREES:
        raise ProgressiveError(
            "format_settings.cut",
            Text(gettext_noop("At tables of three the cut is 9 (three semi-final tables, then the final table), 3 (the final table) or 0 (no cut).")), "bad_choice")
    return int(cut)


def check_movement(movement: object) -> None:
    if movement != Movement.WINNERS_MOVE.value:
        raise ProgressiveError(
            "format_settings.movement",
            Text(gettext_noop("At tables of three the movement is winners_move (the winner moves up a table, second stays, third moves down): fixed seats need four seats.")), "bad_choice")


def _need(ranking: Sequence[int], count: int, stage: str) -> None:
    if len(set(ranking)) != len(ranking):
        raise ProgressiveError("ranking", Text(gettext_noop("A player is listed twice in the standings.")), "duplicate")
    if len(ranking) < count:
        raise ProgressiveError(
            "cut", Text(gettext_noop("The %(stage)s needs %(count)s eligible qualifiers; the standings have %(count2)s."), stage=stage, count=count, count2=len(ranking)), "cut_larger_than_field")


def semifinal_tables(ranking: Sequence[int], *, mode: str = "seeded",
                     seed: int = 0) -> tuple[Three, ...]:
    """The three semi-final tables from the qualifying order (best first)."""
    _need(ranking, 9, "semi-final")
    top = list(ranking[:9])
    if mode == SemiPartners.DRAW.value:
        drawn = sorted(top)
        random.Random(f"progressive-threes-semis:{seed}").shuffle(drawn)
        return tuple((drawn[i], drawn[i + 1], drawn[i + 2]) for i in (0, 3, 6))
    return tuple((top[a], top[b], top[c]) for a, b, c in _SEEDED_SEMIS)


def _seed_key(ranking: Sequence[int]) -> Callable[[int], tuple[int, int]]:
    seeds = {entry: i for i, entry in enumerate(ranking)}
    return lambda entry: (seeds.get(entry, 10**9), entry)


def finalists(ranking: Sequence[int], semis: Sequence[TableResult], *, cut: int) -> list[int]:
    """The three finalists in seed order: the winner of each semi-final table, or the top 3."""
    if cut == 3:
        _need(ranking, 3, "final")
        return list(ranking[:3])
    if len(semis) != 3:
        raise ProgressiveError("semifinal", Text(gettext_noop("The final needs the three semi-final tables' results.")), "not_finished")
    winners = [finishing_order(r, f"semifinal[{i}]")[0]
               for i, r in enumerate(sorted(semis, key=lambda r: r.table_number))]
    return sorted(winners, key=_seed_key(ranking))


def final_table(players: Sequence[int], *, game: int, rule: str = "rotate") -> Three:
    """Seats at the final table for final game ``game`` (1-based); ``players`` in seed order."""
    seats = _FINAL_SEATS[FinalRule(rule)]
    if not 1 <= game <= len(seats):
        raise ProgressiveError("round", Text(gettext_noop("The final has %(count)s game(s)."), count=len(seats)), "no_such_game")
    if len(players) != 3 or len(set(players)) != 3:
        raise ProgressiveError("finalists", Text(gettext_noop("The final table seats three different players.")),
                               "bad_finalists")
    a, b, c = seats[game - 1]
    return (players[a], players[b], players[c])


def _points(results: Sequence[TableResult]) -> dict[int, int]:
    totals: dict[int, int] = {}
    for r in results:
        for seat, entry in r.seats.items():
            totals[entry] = totals.get(entry, 0) + int(r.points.get(seat, 0))
    return totals


def placements(
    *,
    ranking: Sequence[tuple[int, int]],
    plan: StagePlan,
    semis: Sequence[TableResult] = (),
    finals: Sequence[TableResult] = (),
) -> list[Placement]:
    """Final places at tables of three: the final table, then the semi-final players who did not
    reach it, then the qualifying standings (sharing a place where they share a rank)."""
    order = [entry for entry, _ in ranking]
    key = _seed_key(order)
    placed: list[Placement] = []
    decided: set[int] = set()
    played = [r for r in finals if r.finished]
    final_players = sorted({e for r in finals for e in r.seats.values()}, key=key)
    if plan.cut and len(final_players) == 3 and played:
        totals = _points(played)
        if plan.final_rule == FinalRule.SINGLE_GAME:
            first = finishing_order(played[0], "final[0]")[0]
            ordered = [first] + sorted((e for e in final_players if e != first),
                                       key=lambda e: (-totals.get(e, 0), key(e)))
        else:
            ordered = sorted(final_players, key=lambda e: (-totals.get(e, 0), key(e)))
        placed += [Placement(i, e, Stage.FINAL, totals.get(e, 0))
                   for i, e in enumerate(ordered, start=1)]
        decided.update(final_players)
    if plan.cut == 9 and decided and semis:
        semi_points = _points(semis)
        others = sorted({e for r in semis for e in r.seats.values()} - decided,
                        key=lambda e: (-semi_points.get(e, 0), key(e)))
        placed += [Placement(len(placed) + i, e, Stage.SEMIFINAL, semi_points.get(e))
                   for i, e in enumerate(others, start=1)]
        decided.update(others)
    base = len(placed)
    previous: int | None = None
    place = 0
    for position, (entry, rank) in enumerate(
        ((e, r) for e, r in ranking if e not in decided), start=1
    ):
        if rank != previous:
            place, previous = base + position, rank
        placed.append(Placement(place, entry, Stage.QUALIFYING))
    return placed


def describe(settings: Mapping[str, object], qualifying: int) -> list[str]:
    """The day's rules at tables of three in plain sentences."""
    cut = settings.get("cut", DEFAULT_CUT_THREES)
    toward = settings.get("direction", "up") == "up"
    lines = [
        ngettext("%(n)s qualifying game at tables of three; everyone plays for themselves and "
                 "each player's score is their own points in every game they play.",
                 "%(n)s qualifying games at tables of three; everyone plays for themselves and "
                 "each player's score is their own points in every game they play.",
                 qualifying, n=qualifying),
        gettext_noop("After each game the winner moves one table toward table 1, second stays "
                     "and third moves one table away from it (at the end tables the one who "
                     "cannot move stays); seats at the new table are drawn.") if toward else
        gettext_noop("After each game the winner moves one table away from table 1, second "
                     "stays and third moves one table toward it (at the end tables the one who "
                     "cannot move stays); seats at the new table are drawn."),
    ]
    if not cut:
        lines.append(gettext_noop("No cut: the qualifying standings are the final result."))
        return lines
    if cut == 9:
        if settings.get("semi_partners") == SemiPartners.DRAW.value:
            lines.append(gettext_noop("The top 9 qualifiers play one semi-final game at tables "
                                      "1 to 3, drawn by the system."))
        else:
            lines.append(gettext_noop("The top 9 qualifiers play one semi-final game: seeds 1, "
                                      "6 and 7 at table 1, 2, 5 and 8 at table 2, 3, 4 and 9 at "
                                      "table 3."))
        lines.append(gettext_noop("The winner at each semi-final table goes to the final "
                                  "table."))
    else:
        lines.append(gettext_noop("The top 3 qualifiers go straight to the final table."))
    if settings.get("final_rule") == FinalRule.SINGLE_GAME.value:
        lines.append(gettext_noop("The final is one game: its winner is the champion; the other "
                                  "two place by their points."))
    else:
        lines.append(gettext_noop("The final is three games with the seats rotating; the "
                                  "highest total over the three games is the champion."))
    lines.append(gettext_noop(
        "Equal scores at the final and semi-final tables are split by the qualifying standings. "
        "Semi-final players who do not reach the final take places 4 to 9 by their semi-final "
        "score; everyone else is placed by the qualifying standings.") if cut == 9 else
        gettext_noop("Equal scores at the final and semi-final tables are split by the "
                     "qualifying standings. everyone else is placed by the qualifying "
                     "standings."))
    return lines

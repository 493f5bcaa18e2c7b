"""The movement: input checks, ``winners_move`` with its draw, ``fixed_seats``, and the report.

See the package docstring (``pairing.progressive``) for the vocabulary and the rules.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import TypeAlias, TypeVar, cast

from rules_engine.i18n import Text, gettext_noop

from .model import (
    CLOCKWISE_NEXT,
    DEFAULT_STEPS,
    MAX_GAMES,
    MAX_HISTORY_ITEMS,
    MAX_HISTORY_TABLES,
    MAX_POINTS,
    MAX_STEP,
    MAX_TABLES,
    OPPOSITE,
    SEAT_INDEX,
    SEATS,
    Arrival,
    Direction,
    Draw,
    DrawMode,
    Move,
    Movement,
    MovementWarning,
    ProgressiveError,
    ProgressiveQuality,
    ProgressiveRound,
    Repeat,
    Seat,
    Side,
    Substitution,
)

P = TypeVar("P", bound=Hashable)

# A table as given: {"N": id, "E": id, "S": id, "W": id}, or a sequence (N, E, S, W).
TableLike: TypeAlias = Mapping[str, P] | Sequence[P]
Table: TypeAlias = tuple[P, P, P, P]
Pair: TypeAlias = frozenset[Hashable]

_SIDE_SEATS = {Side.NS: (Seat.N, Seat.S), Side.EW: (Seat.E, Seat.W)}
_OTHER_SIDE = {Side.NS: Side.EW, Side.EW: Side.NS}
_SEAT_NAMES = frozenset(str(s) for s in SEATS)
_SIDE_NAMES = frozenset(str(s) for s in Side)
E_ = TypeVar("E_", Movement, Direction, DrawMode)


# --- small helpers --------------------------------------------------------------------------------


def _shown(value: object, limit: int = 30) -> str:
    """``repr`` of an input value, cut short: messages never quote much of the input."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_list(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes, bytearray))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _player(value: object, where: str) -> Hashable:
    """A player id: any hashable value but None and booleans (ints and strings in JSON)."""
    if value is None or isinstance(value, bool):
        raise ProgressiveError(where, Text(gettext_noop("%(value)s is not a player id."), value=_shown(value)), "bad_id")
    try:
        hash(value)
    except TypeError:
        raise ProgressiveError(where, Text(gettext_noop("%(value)s is not a player id."), value=_shown(value)), "bad_id") from None
    return cast(Hashable, value)


def _enum(kind: type[E_], value: object, field: str) -> E_:
    if isinstance(value, str) and value in {m.value for m in kind}:
        return kind(value)
    allowed = ", ".join(f'"{m.value}"' for m in kind)
    raise ProgressiveError(
        field, Text(gettext_noop("%(value)s is not a %(field)s; use one of %(allowed)s."), value=_shown(value), field=field, allowed=allowed), f"bad_{field}"
    )


def _pair(a: Hashable, b: Hashable) -> Pair:
    return frozenset((a, b))


def _partner_pairs(table: Table[P]) -> tuple[tuple[P, P], tuple[P, P]]:
    n, e, s, w = table
    return ((n, s), (e, w))


def _opponent_pairs(table: Table[P]) -> tuple[tuple[P, P], ...]:
    n, e, s, w = table
    return ((n, e), (n, w), (s, e), (s, w))


# --- reading the input ----------------------------------------------------------------------------


def _read_table(raw: object, where: str) -> Table[Hashable]:
    if isinstance(raw, Mapping):
        for key in raw:
            if not isinstance(key, str) or key not in _SEAT_NAMES:
                raise ProgressiveError(
                    where,
                    Text(gettext_noop("Unknown seat %(value)s; a table has exactly the seats N, E, S, W."), value=_shown(key)),
                    "unknown_seat",
                )
        for seat in SEATS:
            if str(seat) not in raw:
                raise ProgressiveError(
                    where, Text(gettext_noop("Seat %(seat)s is missing; a table seats N, E, S and W."), seat=seat), "missing_seat"
                )
        values = [raw[str(seat)] for seat in SEATS]
    elif _is_list(raw) and len(cast(Sequence[object], raw)) == 4:
        values = list(cast(Sequence[object], raw))
    else:
        raise ProgressiveError(
            where, Text(gettext_noop("A table is an object {\"N\": id, \"E\": id, \"S\": id, \"W\": id}.")), "bad_table"
        )
    n, e, s, w = (_player(v, f"{where}.{seat}") for v, seat in zip(values, SEATS, strict=True))
    return (n, e, s, w)


def _read_seating(raw: object, field: str) -> list[Table[Hashable]]:
    """Tables in order; every player seated once."""
    if isinstance(raw, Mapping) and "tables" in raw:
        extra = set(raw) - {"tables", "byes"}
        if extra:
            raise ProgressiveError(
                field, Text(gettext_noop("Unknown key %(value)s in a seating."), value=_shown(sorted(map(str, extra))[0])), "bad_key"
            )
        raw = raw["tables"]
    if not _is_list(raw):
        raise ProgressiveError(field, Text(gettext_noop("A seating is a list of tables in table order.")), "bad_tables")
    items = cast(Sequence[object], raw)
    if not items:
        raise ProgressiveError(field, Text(gettext_noop("A seating needs at least one table.")), "empty")
    if len(items) > MAX_TABLES:
        raise ProgressiveError(
            field, Text(gettext_noop("At most %(max_tables)s tables; %(count)s given."), max_tables=MAX_TABLES, count=len(items)), "too_many"
        )
    tables: list[Table[Hashable]] = []
    seen: dict[Hashable, tuple[int, Seat]] = {}
    for t, item in enumerate(items):
        table = _read_table(item, f"{field}[{t}]")
        for player, seat in zip(table, SEATS, strict=True):
            if player in seen:
                first_table, first_seat = seen[player]
                raise ProgressiveError(
                    f"{field}[{t}].{seat}",
                    Text(gettext_noop("Player %(value)s is seated twice: table %(value2)s %(first_seat)s and table %(value3)s %(seat)s."), value=_shown(player), value2=first_table + 1, first_seat=first_seat, value3=t + 1, seat=seat),
                    "seated_twice",
                )
            seen[player] = (t, seat)
        tables.append(table)
    return tables


def _is_partner_pair(item: object) -> bool:
    if not _is_list(item):
        return False
    values = cast(Sequence[object], item)
    return len(values) == 2 and not any(isinstance(v, Mapping) or _is_list(v) for v in values)


def _read_history(raw: object, last: list[Table[Hashable]]) -> tuple[Counter[Pair], Counter[Pair]]:
    """Partner and opponent counts over the history plus the last game.

    A history item is a seating (a list of tables, or ``{"tables": [...]}``) or a partner pair
    ``[a, b]``. The last game is counted once even when the history also ends with it.
    """
    if raw is None:
        raw = ()
    if not _is_list(raw):
        raise ProgressiveError(
            "history", Text(gettext_noop("history is a list of seatings and/or partner pairs.")), "bad_history"
        )
    items = cast(Sequence[object], raw)
    if len(items) > MAX_HISTORY_ITEMS:
        raise ProgressiveError(
            "history",
            Text(gettext_noop("At most %(max_history_items)s history items; %(count)s given."), max_history_items=format(MAX_HISTORY_ITEMS, ','), count=len(items)),
            "too_many",
        )
    partners: Counter[Pair] = Counter()
    opponents: Counter[Pair] = Counter()
    seatings: list[list[Table[Hashable]]] = []
    total_tables = 0
    for i, item in enumerate(items):
        where = f"history[{i}]"
        if _is_partner_pair(item):
            a, b = (_player(v, where) for v in cast(Sequence[object], item))
            if a == b:
                raise ProgressiveError(
                    where, Text(gettext_noop("A partner pair names two players, not %(value)s twice."), value=_shown(a)), "bad_pair"
                )
            partners[_pair(a, b)] += 1
            continue
        if not (_is_list(item) or isinstance(item, Mapping)):
            raise ProgressiveError(
                where,
                Text(gettext_noop("A history item is a seating (list of tables) or a partner pair [a, b].")),
                "bad_history",
            )
        seating = _read_seating(item, where)
        total_tables += len(seating)
        if total_tables > MAX_HISTORY_TABLES:
            raise ProgressiveError(
                "history", Text(gettext_noop("At most %(max_history_tables)s tables over the history."), max_history_tables=format(MAX_HISTORY_TABLES, ',')), "too_many"
            )
        seatings.append(seating)
    if items and not _is_partner_pair(items[-1]) and seatings[-1] == last:
        seatings.pop()  # the caller included the last game; count it once
    seatings.append(last)
    for seating in seatings:
        for table in seating:
            for a, b in _partner_pairs(table):
                partners[_pair(a, b)] += 1
            for a, b in _opponent_pairs(table):
                opponents[_pair(a, b)] += 1
    return partners, opponents


def _read_points(raw: object, where: str) -> dict[Side, int] | None:
    if raw is None:
        return None
    if not isinstance(raw, Mapping) or set(map(str, raw)) != _SIDE_NAMES or len(raw) != 2:
        raise ProgressiveError(
            where, Text(gettext_noop("Points are {\"NS\": total, \"EW\": total} for the game.")), "bad_points"
        )
    points: dict[Side, int] = {}
    for side in Side:
        value = raw[str(side)]
        if not _is_int(value) or abs(cast(int, value)) > MAX_POINTS:
            raise ProgressiveError(
                f"{where}.{side}", Text(gettext_noop("%(value)s is not a points total."), value=_shown(value)), "bad_points"
            )
        points[side] = cast(int, value)
    return points


def _resolve_winners(winners: object, points: object, count: int) -> list[Side]:
    """The winning side of each table (see the package docstring for ties)."""
    if winners is None:
        winners = ()
    if not _is_list(winners):
        raise ProgressiveError(
            "winners",
            Text(gettext_noop("winners lists the winning side of each table: \"NS\" or \"EW\".")),
            "bad_winners",
        )
    given = cast(Sequence[object], winners)
    if len(given) > count:
        raise ProgressiveError("winners", Text(gettext_noop("%(count)s winners for %(count2)s tables."), count=len(given), count2=count), "too_many")
    if points is None:
        points = ()
    if not _is_list(points):
        raise ProgressiveError(
            "points", Text(gettext_noop("points lists {\"NS\": total, \"EW\": total} per table (or null).")), "bad_points"
        )
    totals = cast(Sequence[object], points)
    if len(totals) > count:
        raise ProgressiveError("points", Text(gettext_noop("%(count)s points for %(count2)s tables."), count=len(totals), count2=count), "too_many")
    sides: list[Side] = []
    for t in range(count):
        where = f"winners[{t}]"
        pts = _read_points(totals[t] if t < len(totals) else None, f"points[{t}]")
        raw = given[t] if t < len(given) else None
        if raw is None:
            if pts is None:
                raise ProgressiveError(
                    where, Text(gettext_noop("Table %(value)s has no winner; give \"NS\" or \"EW\"."), value=t + 1), "missing"
                )
            if pts[Side.NS] == pts[Side.EW]:
                raise ProgressiveError(
                    where,
                    Text(gettext_noop("Table %(value)s tied at %(pts)s; decide the winner at the table (a high-card cut) and give it as \"NS\" or \"EW\"."), value=t + 1, pts=pts[Side.NS]),
                    "tie",
                )
            sides.append(Side.NS if pts[Side.NS] > pts[Side.EW] else Side.EW)
            continue
        if not isinstance(raw, str) or raw not in _SIDE_NAMES:
            raise ProgressiveError(
                where, Text(gettext_noop("%(value)s is not a side; the winner is \"NS\" or \"EW\"."), value=_shown(raw)), "bad_side"
            )
        side = Side(raw)
        if pts is not None and pts[_OTHER_SIDE[side]] > pts[side]:
            raise ProgressiveError(
                where,
                Text(gettext_noop("Table %(value)s: %(side)s is given as the winner but scored %(pts)s to %(pts2)s."), value=t + 1, side=side, pts=pts[side], pts2=pts[_OTHER_SIDE[side]]),
                "disagrees_with_points",
            )
        sides.append(side)
    return sides


def _read_ids(raw: object, field: str) -> list[Hashable]:
    if raw is None:
        return []
    if not _is_list(raw):
        raise ProgressiveError(field, Text(gettext_noop("%(field)s is a list of player ids."), field=field), "bad_list")
    values = cast(Sequence[object], raw)
    if len(values) > 4 * MAX_TABLES:
        raise ProgressiveError(field, Text(gettext_noop("At most %(value)s ids."), value=4 * MAX_TABLES), "too_many")
    ids: list[Hashable] = []
    seen: set[Hashable] = set()
    for j, value in enumerate(values):
        player = _player(value, f"{field}[{j}]")
        if player in seen:
            raise ProgressiveError(
                f"{field}[{j}]", Text(gettext_noop("Player %(value)s is listed twice."), value=_shown(player)), "duplicate"
            )
        seen.add(player)
        ids.append(player)
    return ids


def _substitute(
    tables: list[Table[Hashable]], entering: object, leaving: object
) -> tuple[list[Table[Hashable]], list[Substitution[Hashable]]]:
    """Put each entering player in the seat of the leaver at the same place in the lists."""
    comers = _read_ids(entering, "entering")
    goers = _read_ids(leaving, "leaving")
    where: dict[Hashable, tuple[int, int]] = {
        p: (t, i) for t, table in enumerate(tables) for i, p in enumerate(table)
    }
    for j, p in enumerate(goers):
        if p not in where:
            raise ProgressiveError(
                f"leaving[{j}]",
                Text(gettext_noop("Player %(value)s leaves but did not play the last game."), value=_shown(p)),
                "not_seated",
            )
    for j, p in enumerate(comers):
        if p in where:
            raise ProgressiveError(
                f"entering[{j}]",
                Text(gettext_noop("Player %(value)s enters but is already seated."), value=_shown(p)),
                "already_seated",
            )
    if len(comers) > len(goers):
        raise ProgressiveError(
            "entering",
            Text(gettext_noop("%(count)s players enter but %(count2)s leave; the movement works on full tables, so the extra alternates wait (or the director opens a table by hand)."), count=len(comers), count2=len(goers)),
            "no_seat",
        )
    if len(goers) > len(comers):
        empty = [where[p] for p in goers[len(comers) :]]
        t, i = empty[0]
        tables_named = ", ".join(str(u + 1) for u in sorted({u for u, _ in empty}))
        raise ProgressiveError(
            f"tables[{t}].{SEATS[i]}",
            Text(gettext_noop("Table %(value)s seat %(seats)s would be empty: %(value2)s leaves and no entering player is left to take the seat (tables with an empty seat: %(tables_named)s). Give an alternate in entering, or reseat by hand."), value=t + 1, seats=SEATS[i], value2=_shown(goers[len(comers)]), tables_named=tables_named),
            "empty_seat",
        )
    seated = [list(table) for table in tables]
    subs: list[Substitution[Hashable]] = []
    for goer, comer in zip(goers, comers, strict=True):
        t, i = where[goer]
        seated[t][i] = comer
        subs.append(Substitution(left=goer, entered=comer, table=t + 1, seat=SEATS[i]))
    return [(s[0], s[1], s[2], s[3]) for s in seated], subs


def _read_steps(raw: object) -> dict[Seat, int]:
    steps = dict(DEFAULT_STEPS)
    if raw is None:
        return steps
    if not isinstance(raw, Mapping):
        raise ProgressiveError(
            "steps",
            Text(gettext_noop("steps maps a seat to a table step, e.g. {\"N\": 0, \"S\": 1, \"E\": -1, \"W\": -2}.")),
            "bad_steps",
        )
    for key, value in raw.items():
        if not isinstance(key, str) or key not in _SEAT_NAMES:
            raise ProgressiveError(
                "steps", Text(gettext_noop("Unknown seat %(value)s; steps are keyed N, E, S, W."), value=_shown(key)), "unknown_seat"
            )
        if not _is_int(value) or abs(cast(int, value)) > MAX_STEP:
            raise ProgressiveError(
                f"steps.{key}",
                Text(gettext_noop("%(value)s is not a step; give a whole number of tables (positive = toward higher table numbers)."), value=_shown(value)),
                "bad_step",
            )
        steps[Seat(key)] = cast(int, value)
    return steps


def _read_games(raw: object, default: int) -> int:
    if raw is None:
        return default
    if not _is_int(raw) or not 1 <= cast(int, raw) <= MAX_GAMES:
        raise ProgressiveError(
            "games", Text(gettext_noop("games is a whole number from 1 to %(max_games)s."), max_games=MAX_GAMES), "bad_games"
        )
    return cast(int, raw)


# --- winners_move ---------------------------------------------------------------------------------


def _destination(table: int, count: int, direction: Direction) -> int:
    """0-based table the winners of 0-based ``table`` go to."""
    step = -1 if direction is Direction.UP else 1
    return (table + step) % count


def _meetings(
    tables: list[Table[Hashable]], sides: list[Side], direction: Direction
) -> list[Arrival[Hashable]]:
    count = len(tables)
    source = {_destination(t, count, direction): t for t in range(count)}
    out: list[Arrival[Hashable]] = []
    for u, table in enumerate(tables):
        stay_seats = _SIDE_SEATS[_OTHER_SIDE[sides[u]]]
        src = source[u]
        move_seats = _SIDE_SEATS[sides[src]]
        out.append(
            Arrival(
                table=u + 1,
                stayers=(table[SEAT_INDEX[stay_seats[0]]], table[SEAT_INDEX[stay_seats[1]]]),
                arrivals=(
                    tables[src][SEAT_INDEX[move_seats[0]]],
                    tables[src][SEAT_INDEX[move_seats[1]]],
                ),
                from_table=src + 1,
            )
        )
    return out


def _read_table_draw(
    raw: object, meetings: list[Arrival[Hashable]]
) -> list[tuple[Hashable, Hashable]]:
    """For each table, the (stayer, arrival) who partner each other, as the table drew."""
    if not _is_list(raw):
        raise ProgressiveError(
            "table_draw",
            Text(gettext_noop("With draw \"table\", table_draw lists for each table one stayer and the arrival who partners them: [[stayer, arrival], ...].")),
            "missing",
        )
    given = cast(Sequence[object], raw)
    if len(given) > len(meetings):
        raise ProgressiveError(
            "table_draw", Text(gettext_noop("%(count)s draws for %(count2)s tables."), count=len(given), count2=len(meetings)), "too_many"
        )
    chosen: list[tuple[Hashable, Hashable]] = []
    for u, meeting in enumerate(meetings):
        where = f"table_draw[{u}]"
        if u >= len(given) or given[u] is None:
            raise ProgressiveError(
                where,
                Text(gettext_noop("No draw for table %(value)s; name one stayer and their new partner."), value=u + 1),
                "missing",
            )
        item = given[u]
        if not _is_list(item) or len(cast(Sequence[object], item)) != 2:
            raise ProgressiveError(
                where, Text(gettext_noop("A draw is a pair [stayer, arrival] who partner each other.")), "bad_pair"
            )
        p, q = (_player(v, where) for v in cast(Sequence[object], item))
        stayers, arrivals = meeting.stayers, meeting.arrivals
        if p in stayers and q in arrivals:
            chosen.append((p, q))
        elif q in stayers and p in arrivals:
            chosen.append((q, p))
        elif p in stayers and q in stayers:
            raise ProgressiveError(
                where,
                Text(gettext_noop("%(value)s and %(value2)s both stay at table %(value3)s and must be split; pair a stayer with an arrival."), value=_shown(p), value2=_shown(q), value3=u + 1),
                "stayers_together",
            )
        elif p in arrivals and q in arrivals:
            raise ProgressiveError(
                where,
                Text(gettext_noop("%(value)s and %(value2)s both arrive at table %(value3)s; pair a stayer with an arrival."), value=_shown(p), value2=_shown(q), value3=u + 1),
                "arrivals_together",
            )
        else:
            stranger = p if p not in stayers and p not in arrivals else q
            raise ProgressiveError(
                where,
                Text(gettext_noop("%(value)s is not at table %(value2)s next game (staying: %(value3)s, %(value4)s; arriving: %(value5)s, %(value6)s)."), value=_shown(stranger), value2=u + 1, value3=_shown(stayers[0]), value4=_shown(stayers[1]), value5=_shown(arrivals[0]), value6=_shown(arrivals[1])),
                "not_at_table",
            )
    return chosen


def _draw_rng(seed: int, meeting: Arrival[Hashable]) -> random.Random:
    # The seed and the table only: never the players' ids, which are a database's keys (an
    # archive numbers them afresh), so anyone re-runs the draw from the event's own data.
    return random.Random(f"pairing.progressive|{seed}|{meeting.table}")


def _winners_move(
    tables: list[Table[Hashable]],
    sides: list[Side],
    direction: Direction,
    draw: DrawMode,
    seed: int,
    table_draw: object,
    partners: Counter[Pair],
) -> tuple[list[Table[Hashable]], list[Draw[Hashable]], list[MovementWarning]]:
    meetings = _meetings(tables, sides, direction)
    caller = _read_table_draw(table_draw, meetings) if draw is DrawMode.TABLE else None
    new_tables: list[Table[Hashable]] = []
    draws: list[Draw[Hashable]] = []
    warnings: list[MovementWarning] = []
    for u, meeting in enumerate(meetings):
        (a, b), (x, y) = meeting.stayers, meeting.arrivals
        options = (((a, x), (b, y)), ((a, y), (b, x)))
        repeats = [sum(1 for p, q in opt if partners[_pair(p, q)]) for opt in options]
        times = [sum(partners[_pair(p, q)] for p, q in opt) for opt in options]
        if caller is not None:
            pick = 0 if caller[u] in options[0] else 1
            reason = "table_draw"
        elif repeats[0] != repeats[1]:
            pick = 0 if repeats[0] < repeats[1] else 1
            reason = "avoids_repeat" if repeats[pick] == 0 else "fewer_repeats"
        elif times[0] != times[1]:
            pick = 0 if times[0] < times[1] else 1
            reason = "fewer_past_partnerships"
        else:
            pick = _draw_rng(seed, meeting).randrange(2)
            reason = "seeded_draw"
        chosen = options[pick]
        if repeats[pick]:
            names = "; ".join(
                f"{_shown(p)} & {_shown(q)}" for p, q in chosen if partners[_pair(p, q)]
            )
            if repeats[1 - pick]:
                warnings.append(
                    MovementWarning(
                        "forced_repeat",
                        Text(gettext_noop("Table %(table)s: both pairings repeat a partnership; "
                                          "partnering again: %(names)s."),
                             table=u + 1, names=names),
                    )
                )
            else:
                warnings.append(
                    MovementWarning(
                        "table_draw_repeat",
                        Text(gettext_noop("Table %(table)s: the table's draw partners %(names)s "
                                          "again although the other pairing would not."),
                             table=u + 1, names=names),
                    )
                )
        # The stayers sat N-S or E-W; the one in the earlier seat keeps it.
        seat_a = _SIDE_SEATS[_OTHER_SIDE[sides[u]]][0]
        seat_b = CLOCKWISE_NEXT[seat_a]
        placed = {
            seat_a: a,
            seat_b: b,
            OPPOSITE[seat_a]: chosen[0][1],
            OPPOSITE[seat_b]: chosen[1][1],
        }
        new_tables.append((placed[Seat.N], placed[Seat.E], placed[Seat.S], placed[Seat.W]))
        draws.append(
            Draw(
                table=u + 1,
                stayers=(a, b),
                arrivals=(x, y),
                partners=chosen,
                mode=draw,
                reason=reason,
                repeats=(repeats[pick], repeats[1 - pick]),
            )
        )
    if len(tables) == 1:
        warnings.append(
            MovementWarning(
                "one_table",
                Text(gettext_noop("With one table the winners come back to it; only partners "
                                  "change.")),
            )
        )
    return new_tables, draws, warnings


# --- fixed_seats ----------------------------------------------------------------------------------


def _fixed_seats(tables: list[Table[Hashable]], steps: Mapping[Seat, int]) -> list[Table[Hashable]]:
    count = len(tables)
    placed: list[list[Hashable]] = [[None] * 4 for _ in range(count)]
    for t, table in enumerate(tables):
        for i, seat in enumerate(SEATS):
            placed[(t + steps[seat]) % count][i] = table[i]
    return [(p[0], p[1], p[2], p[3]) for p in placed]


def _steps_text(steps: Mapping[Seat, int]) -> str:
    return ", ".join(f"{seat} {steps[seat]:+d}" for seat in SEATS)


def fixed_seats_warnings(
    tables: int, steps: Mapping[str, int] | None = None, games: int | None = None
) -> tuple[MovementWarning, ...]:
    """Warnings when the ``fixed_seats`` steps make partners meet again within ``games`` games.

    Simulates the movement for ``tables`` tables from a seating where every player is named by
    the table and seat they start at, for ``games`` games (default: as many games as tables) and
    reports, per partnership of seats (N/S, E/W), the first game where two players partner a
    second time. Steps whose difference ``d`` for a seat pair has ``gcd(d, tables) = 1`` keep
    that pair's partners apart for ``tables`` games, the most possible.
    """
    if not _is_int(tables) or not 1 <= tables <= MAX_TABLES:
        raise ProgressiveError(
            "tables", Text(gettext_noop("The table count is a whole number from 1 to %(max_tables)s."), max_tables=MAX_TABLES), "bad_count"
        )
    step = _read_steps(steps)
    span = _read_games(games, tables)
    first_repeat: dict[tuple[Seat, Seat], tuple[int, int, int, int]] = {}
    met: dict[tuple[tuple[Seat, Seat], int, int], int] = {}
    # Positions repeat with a period dividing the table count, so tables + 1 games show it all.
    for game in range(min(span, tables + 1)):
        at: dict[tuple[int, Seat], int] = {}
        for start in range(tables):
            for seat in SEATS:
                at[((start + game * step[seat]) % tables, seat)] = start
        for seats in ((Seat.N, Seat.S), (Seat.E, Seat.W)):
            if seats in first_repeat:
                continue
            for t in range(tables):
                key = (seats, at[(t, seats[0])], at[(t, seats[1])])
                if key in met:
                    first_repeat[seats] = (game, met[key], key[1], key[2])
                    break
                met[key] = game
    warnings = []
    for seats in ((Seat.N, Seat.S), (Seat.E, Seat.W)):
        if seats not in first_repeat:
            continue
        game, before, one, two = first_repeat[seats]
        diff = step[seats[1]] - step[seats[0]]
        apart = tables // math.gcd(diff % tables, tables)
        warnings.append(
            MovementWarning(
                "partners_repeat",
                Text(gettext_noop(
                    "With %(tables)s tables and steps %(steps)s, %(a)s/%(b)s partners repeat in "
                    "game %(game)s: the players who started at table %(one)s %(a)s and table "
                    "%(two)s %(b)s already partnered in game %(before)s. These steps keep "
                    "%(a)s/%(b)s partners apart for %(apart)s game(s); a %(b)s step minus %(a)s "
                    "step that shares no factor with %(tables)s keeps them apart for %(tables)s."),
                    tables=tables, steps=_steps_text(step), a=str(seats[0]), b=str(seats[1]),
                    game=game + 1, one=one + 1, two=two + 1, before=before + 1, apart=apart),
            )
        )
    return tuple(warnings)


# --- the public functions -------------------------------------------------------------------------


def _check_seed(seed: object) -> int:
    if not _is_int(seed):
        raise ProgressiveError("seed", Text(gettext_noop("seed must be a whole number.")), "bad_seed")
    return cast(int, seed)


def arrivals(
    seating: Sequence[TableLike[P]],
    winners: Sequence[str | None],
    *,
    direction: str = "up",
    points: Sequence[Mapping[str, int] | None] | None = None,
    entering: Sequence[P] | None = (),
    leaving: Sequence[P] | None = (),
) -> tuple[Arrival[P], ...]:
    """Who stays and who arrives at each table under ``winners_move``, before the draw.

    A director running draw mode ``table`` shows this so each table can cut cards; the result
    goes back to :func:`next_game` as ``table_draw``.
    """
    way = _enum(Direction, direction, "direction")
    tables = _read_seating(seating, "tables")
    tables, _ = _substitute(tables, entering, leaving)
    sides = _resolve_winners(winners, points, len(tables))
    return tuple(cast(list[Arrival[P]], _meetings(tables, sides, way)))


def next_game(
    seating: Sequence[TableLike[P]],
    winners: Sequence[str | None] | None,
    history: Sequence[object] | None = (),
    *,
    movement: str = "winners_move",
    direction: str = "up",
    draw: str = "system",
    seed: int = 0,
    steps: Mapping[str, int] | None = None,
    table_draw: Sequence[Sequence[P] | None] | None = None,
    points: Sequence[Mapping[str, int] | None] | None = None,
    entering: Sequence[P] | None = (),
    leaving: Sequence[P] | None = (),
    games: int | None = None,
) -> ProgressiveRound[P]:
    """The seating of the next game and its quality report.

    ``seating``: the last game, tables in order, each ``{"N": id, "E": id, "S": id, "W": id}``
    (or ``(N, E, S, W)``). ``winners``: the winning side per table (``"NS"``/``"EW"``; ``None``
    where ``points`` decide; not read by ``fixed_seats``). ``history``: earlier games, each a
    seating or a partner pair ``(a, b)``; the last game is always counted, once. ``points``:
    optional ``{"NS": n, "EW": m}`` per table. ``entering``/``leaving``: alternates who take the
    seats of leavers, matched in list order. ``steps`` and ``games``: ``fixed_seats`` only.
    ``table_draw``: with ``draw="table"``, one ``(stayer, arrival)`` pair per table.

    Raises :class:`ProgressiveError` on bad input. Deterministic for a given input and seed.
    """
    how = _enum(Movement, movement, "movement")
    way = _enum(Direction, direction, "direction")
    mode = _enum(DrawMode, draw, "draw")
    seed = _check_seed(seed)
    last = _read_seating(seating, "tables")
    count = len(last)
    step = _read_steps(steps)
    span = _read_games(games, count)
    if table_draw is not None and (how is not Movement.WINNERS_MOVE or mode is not DrawMode.TABLE):
        raise ProgressiveError(
            "table_draw",
            Text(gettext_noop("table_draw is read only with movement \"winners_move\" and draw \"table\".")),
            "not_used",
        )
    tables, subs = _substitute(last, entering, leaving)
    partners, opponents = _read_history(history, last)
    warnings: list[MovementWarning] = []
    draws: list[Draw[Hashable]] = []
    settings: dict[str, object] = {"movement": str(how), "seed": seed}
    if how is Movement.WINNERS_MOVE:
        sides = _resolve_winners(winners, points, count)
        new_tables, draws, warnings = _winners_move(
            tables, sides, way, mode, seed, table_draw, partners
        )
        settings.update(direction=str(way), draw=str(mode))
        for name, value in (("steps", steps), ("games", games)):
            if value is not None:
                warnings.append(
                    MovementWarning(
                        "setting_ignored", f"{name} is read only by the fixed_seats movement."
                    )
                )
    else:
        new_tables = _fixed_seats(tables, step)
        warnings.extend(fixed_seats_warnings(count, {str(k): v for k, v in step.items()}, span))
        settings.update(steps={str(seat): step[seat] for seat in SEATS}, games=span)

    origin = {p: (t + 1, SEATS[i]) for t, table in enumerate(last) for i, p in enumerate(table)}
    moves: list[Move[Hashable]] = []
    repeat_partners: list[Repeat[Hashable]] = []
    repeat_opponents: list[Repeat[Hashable]] = []
    for u, table in enumerate(new_tables):
        for i, player in enumerate(table):
            from_table, from_seat = origin.get(player, (None, None))
            moves.append(Move(player, from_table, from_seat, u + 1, SEATS[i]))
        for p, q in _partner_pairs(table):
            if partners[_pair(p, q)]:
                repeat_partners.append(Repeat((p, q), u + 1, partners[_pair(p, q)]))
        for p, q in _opponent_pairs(table):
            if opponents[_pair(p, q)]:
                repeat_opponents.append(Repeat((p, q), u + 1, opponents[_pair(p, q)]))
    quality: ProgressiveQuality[Hashable] = ProgressiveQuality(
        repeat_partners=tuple(repeat_partners),
        repeat_opponents=tuple(repeat_opponents),
        moves=tuple(moves),
        warnings=tuple(warnings),
        draws=tuple(draws),
        substitutions=tuple(subs),
        settings=settings,
    )
    return cast(ProgressiveRound[P], ProgressiveRound(tuple(new_tables), quality))

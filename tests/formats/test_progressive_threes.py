"""The progressive day at tables of three through the format spec: settings for the shape, a seat
draw into full tables of three, the winner up / second stays / third down, alternates, the cut to
three semi-final tables or straight to the final table, and the places with a champion."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

import formats
from formats import Finish, FormatError, Situation
from pairing.club_night import BuiltRound
from pairing.results import TableResult
from pairing.rotation import RoundPlan

SPEC = formats.get("individual_progressive")
SHAPE: dict[str, Any] = {"table_sizes": (3,), "individual": True}


def settings(raw: dict[str, Any] | None = None) -> dict[str, Any]:
    return SPEC.settings_for(raw, **SHAPE)


def play(number: int, built: BuiltRound, winner: Callable[[Sequence[int]], int],
         ) -> list[TableResult]:
    """Every table finished: ``winner`` picks the winning seat index from the three ids; the
    winner scores 300, the others 200 and 100 in seat order after the winner."""
    out = []
    for table, ids in enumerate(built.plan.tables, start=1):
        seats = dict(zip("NES", ids, strict=True))
        first = "NES"[winner(ids)]
        rest = [s for s in "NES" if s != first]
        points = {first: 300, rest[0]: 200, rest[1]: 100}
        out.append(TableResult(number, table, seats, points, first, True))
    return out


def lowest(ids: Sequence[int]) -> int:
    return list(ids).index(min(ids))


def standings(results: Sequence[TableResult], rounds: int, eligible: Sequence[int]) -> list[int]:
    totals: Counter[int] = Counter()
    for r in results:
        if r.round_number <= rounds:
            for seat, entry in r.seats.items():
                totals[entry] += r.points[seat]
    return sorted(eligible, key=lambda e: (-totals[e], e))


def situation(number: int, entries: Sequence[int], built: Sequence[BuiltRound],
              results: Sequence[TableResult], chosen: dict[str, Any], qualifying: int,
              ranking: Sequence[int] = ()) -> Situation:
    return Situation(number=number, seed=11, rounds_planned=qualifying, entries=tuple(entries),
                     history=tuple(b.plan for b in built), results=tuple(results),
                     settings=chosen, ranking=tuple(ranking), **SHAPE)


def day(n: int, raw: dict[str, Any] | None = None, qualifying: int = 4,
        winner: Callable[[Sequence[int]], int] = lowest,
        ) -> tuple[list[BuiltRound], list[TableResult], list[int], dict[str, Any]]:
    chosen = settings(raw)
    entries = list(range(1, n + 1))
    built: list[BuiltRound] = []
    results: list[TableResult] = []
    total = SPEC.rounds_total(qualifying, chosen, n)
    seated = entries[:n - n % 3]
    ranking: list[int] = []
    for number in range(1, total + 1):
        if number > qualifying and not ranking:
            ranking = standings(results, qualifying, seated)
        s = situation(number, entries, built, results, chosen, qualifying, ranking)
        round_ = SPEC.build(s)
        assert all(len(t) == 3 for t in round_.plan.tables)
        built.append(round_)
        results += play(number, round_, winner)
    return built, results, ranking or standings(results, qualifying, seated), chosen


def test_the_shape_picks_the_threes_settings() -> None:
    chosen = settings()
    assert chosen["cut"] == 9 and chosen["movement"] == "winners_move"
    assert settings({"cut": 3})["cut"] == 3 and settings({"cut": 0})["cut"] == 0
    assert SPEC.tables_of_three and formats.get("club_night").tables_of_three
    assert SPEC.settings_for(None)["cut"] == 8  # tables of four keep the NPA's


@pytest.mark.parametrize(("raw", "key"), [
    ({"cut": 8}, "cut"), ({"cut": 4}, "cut"), ({"cut": 6}, "cut"),
    ({"movement": "fixed_seats"}, "movement"), ({"draw": "table"}, "draw"),
    ({"steps": {"N": 1}}, "steps"),
])
def test_settings_that_need_four_seats_are_refused(raw: dict[str, Any], key: str) -> None:
    with pytest.raises(FormatError) as info:
        settings(raw)
    assert info.value.field == f"format_settings.{key}"


def test_pair_formats_refuse_tables_of_three() -> None:
    for name in ("swiss", "round_robin", "ab_movement", "winners_stay", "single_elimination",
                 "double_elimination"):
        spec = formats.get(name)
        assert not spec.tables_of_three
        with pytest.raises(FormatError) as info:
            spec.settings_for(None, **SHAPE)
        assert info.value.field == "ruleset"


def test_four_seat_settings_reaching_the_builder_are_refused() -> None:
    four = SPEC.check_settings(None)  # cut 8: the event was not made for its ruleset
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(1, range(1, 10), [], [], four, 4))
    assert info.value.field == "format_settings.cut"


@pytest.mark.parametrize("n", [9, 12, 15, 21])
def test_a_day_reaches_a_champion_through_the_semi_finals(n: int) -> None:
    built, results, ranking, chosen = day(n)
    stages = [SPEC.stage_of(i, 4, chosen, n) for i in range(1, len(built) + 1)]
    assert stages == ["qualifying"] * 4 + ["semifinal"] + ["final"] * 3
    semis = built[4].plan.tables
    top = ranking[:9]
    assert semis == ((top[0], top[5], top[6]), (top[1], top[4], top[7]),
                     (top[2], top[3], top[8]))
    semi_winners = {min(t) for t in semis}  # the lowest id wins every table
    finals = [set(b.plan.tables[0]) for b in built[5:]]
    assert all(f == semi_winners for f in finals)
    assert [b.plan.tables[0][0] for b in built[5:]] != [built[5].plan.tables[0][0]] * 3
    placed = SPEC.placements(Finish(rounds_planned=4, settings=chosen,
                                    ranking=tuple((e, i) for i, e in enumerate(ranking, 1)),
                                    results=tuple(results), **SHAPE))
    assert [p.place for p in placed] == list(range(1, len(ranking) + 1))
    assert placed[0].stage == "final" and placed[0].entry_id == min(semi_winners)
    assert {p.entry_id for p in placed[:3]} == semi_winners
    assert {p.stage for p in placed[3:9]} == {"semifinal"}
    assert all(p.stage == "qualifying" for p in placed[9:])
    assert SPEC.qualifying_cut(chosen) is not None
    assert SPEC.qualifying_cut(chosen).goes_to == "the semi-final tables"  # type: ignore[union-attr]


def test_a_cut_of_three_goes_straight_to_a_single_final_game() -> None:
    built, results, ranking, chosen = day(12, {"cut": 3, "final_rule": "single_game"},
                                          winner=lambda ids: list(ids).index(max(ids)))
    assert len(built) == 5 and set(built[4].plan.tables[0]) == set(ranking[:3])
    placed = SPEC.placements(Finish(rounds_planned=4, settings=chosen,
                                    ranking=tuple((e, i) for i, e in enumerate(ranking, 1)),
                                    results=tuple(results), **SHAPE))
    assert placed[0].entry_id == max(ranking[:3]) and placed[0].stage == "final"
    assert [p.stage for p in placed[3:]] == ["qualifying"] * 9
    assert SPEC.qualifying_cut(chosen).goes_to == "the final table"  # type: ignore[union-attr]


def test_players_beyond_full_tables_wait_and_take_a_leavers_seat() -> None:
    chosen = settings()
    entries = list(range(1, 15))  # 14: four tables of three, 13 and 14 wait
    first = SPEC.build(situation(1, entries, [], [], chosen, 4))
    assert sorted(first.plan.seated()) == list(range(1, 13)) and first.method == "seat_draw"
    results = play(1, first, lowest)
    # player 5 withdraws: 13 takes the seat, 14 still waits
    here = [e for e in entries if e != 5]
    second = SPEC.build(situation(2, here, [first], results, chosen, 4))
    assert sorted(second.plan.seated()) == sorted(set(range(1, 14)) - {5})
    # two withdraw, one alternate: refused naming the entries
    short = [e for e in entries if e not in (5, 6) and e != 14]
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(2, short, [first], results, chosen, 4))
    assert (info.value.field, info.value.code) == ("entries", "no_alternate")


def test_an_unfinished_or_level_table_stops_the_movement() -> None:
    chosen = settings()
    first = SPEC.build(situation(1, range(1, 10), [], [], chosen, 4))
    results = play(1, first, lowest)[:2]
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(2, range(1, 10), [first], results, chosen, 4))
    assert info.value.field == "round"
    level = TableResult(1, 3, dict(zip("NES", first.plan.tables[2], strict=True)),
                        {"N": 200, "E": 200, "S": 100}, None, True)
    with pytest.raises(FormatError) as info:
        SPEC.build(situation(2, range(1, 10), [first], [*results, level], chosen, 4))
    assert (info.value.field, info.value.code) == ("round", "tie")


def test_the_rules_say_tables_of_three() -> None:
    text = " ".join(SPEC.describe(settings(), 5))
    assert "tables of three" in text and "third moves one table away" in text
    assert "seeds 1, 6 and 7" in text
    assert "tables of three" in " ".join(SPEC.describe(SPEC.check_settings({"cut": 0}), 5))
    assert "tables of three" in " ".join(formats.get("club_night").describe({}, 4))
    assert SPEC.describe_length(5, 4, settings(), 12) == (
        "5 qualifying games of 4 deals, then semi-finals and a 3-game final")


def test_a_club_night_at_tables_of_three_through_the_spec() -> None:
    spec = formats.get("club_night")
    history: list[RoundPlan[int]] = []
    for number in range(1, 5):
        s = Situation(number=number, seed=2, rounds_planned=4, entries=tuple(range(1, 12)),
                      history=tuple(history), table_sizes=(3, 4), individual=True)
        built = spec.build(s)
        assert built.method == "threes"
        assert sorted(len(t) for t in built.plan.tables) == [3, 4, 4]
        history.append(built.plan)

"""The split final (``playoff.lower``), on plain values: after the qualifying rounds the top
``cut`` pairs play the upper bracket and the next ``lower`` pairs a lower bracket at the same
time; the upper bracket decides places 1..cut, the lower the next ones, the others keep their
qualifying places after them."""

from __future__ import annotations

from typing import Any

import pytest

import formats
from formats import Finish, FormatError, Situation
from formats.pairs import bracket_view
from pairing.club_night import BuiltRound
from pairing.results import TableResult

QUALIFYING = 3
PAIRS = {p: (10 * p, 10 * p + 1) for p in range(1, 21)}
PAIR_OF = {e: p for p, members in PAIRS.items() for e in members}
# The qualifying order: pair 20 best, pair 1 last (ranks 1..20).
RANKING = tuple(range(20, 0, -1))
SWISS = formats.get("swiss")


def settings(**playoff: Any) -> dict[str, Any]:
    return SWISS.check_settings({"playoff": {"kind": "single", "cut": 4, **playoff}})


def situation(number: int, played: list[TableResult], chosen: dict[str, Any],
              ranking: tuple[int, ...] = RANKING) -> Situation:
    return Situation(number=number, seed=7, rounds_planned=QUALIFYING,
                     entries=tuple(PAIR_OF), results=tuple(played), settings=chosen,
                     ranking=ranking, pairs=PAIRS, active_pairs=tuple(PAIRS))


def tables(built: BuiltRound) -> dict[str, tuple[int, int]]:
    """Match code -> (N-S pair, E-W pair)."""
    return {code: (PAIR_OF[t[0]], PAIR_OF[t[1]])
            for code, t in zip(built.matches, built.plan.tables, strict=True)}


def play(number: int, built: BuiltRound, winners: str = "NS") -> list[TableResult]:
    """Every table of the wave finished, the side ``winners`` winning."""
    return [TableResult(number, n, dict(zip("NESW", t, strict=True)),
                        {"NS": 300, "EW": 200} if winners == "NS" else {"NS": 200, "EW": 300},
                        winners, True, code)
            for n, (t, code) in enumerate(zip(built.plan.tables, built.matches, strict=True), 1)]


def finish(chosen: dict[str, Any], played: list[TableResult]) -> Finish:
    return Finish(rounds_planned=QUALIFYING, settings=chosen,
                  ranking=tuple((p, rank) for rank, p in enumerate(RANKING, start=1)),
                  results=tuple(played), pairs=PAIRS)


def test_the_lower_bracket_is_a_setting_of_the_playoff_named_when_refused() -> None:
    assert settings(lower=4)["playoff"]["lower"] == 4
    assert "lower" not in settings()["playoff"] and "lower" not in settings(lower=0)["playoff"]
    assert "lower" not in settings(lower=None)["playoff"]
    for bad in (1, -2, "4", 2.5, True, 257):
        with pytest.raises(FormatError) as info:
            settings(lower=bad)
        assert info.value.field == "format_settings.playoff.lower", bad
    # two pairs cannot play a third-place match: the lower bracket says so
    with pytest.raises(FormatError) as info:
        settings(lower=2, third_place=True)
    assert info.value.field == "format_settings.playoff.lower"
    assert "lower bracket of 2 pairs" in info.value.message
    with pytest.raises(FormatError) as info:
        SWISS.check_settings({"playoff": {"cut": 4, "lowr": 4}})
    assert info.value.field == "format_settings.playoff.lowr"


def test_the_field_must_hold_both_brackets() -> None:
    chosen = settings(lower=4)
    SWISS.check_field(chosen, 8)
    with pytest.raises(FormatError) as info:
        SWISS.check_field(chosen, 7)
    assert info.value.field == "format_settings.playoff.lower"
    assert info.value.code == "lower_larger_than_field"
    with pytest.raises(FormatError) as info:
        SWISS.check_field(chosen, 3)
    assert info.value.field == "format_settings.playoff.cut"


@pytest.mark.parametrize(("cut", "lower", "total"), [
    (4, 4, QUALIFYING + 2), (4, 8, QUALIFYING + 3), (8, 4, QUALIFYING + 3),
    (2, 0, QUALIFYING + 1), (2, 5, QUALIFYING + 3),
])
def test_the_bracket_rounds_are_those_of_the_deeper_bracket(cut: int, lower: int,
                                                             total: int) -> None:
    chosen = SWISS.check_settings({"playoff": {"kind": "single", "cut": cut, "lower": lower}})
    assert SWISS.rounds_total(QUALIFYING, chosen, 20) == total
    assert [SWISS.stage_of(n, QUALIFYING, chosen, 20) for n in range(1, total + 1)] == (
        ["qualifying"] * QUALIFYING + ["bracket"] * (total - QUALIFYING))


def test_both_brackets_are_seated_in_each_wave_and_placed_one_after_the_other() -> None:
    chosen = settings(lower=4, third_place=True)
    first = SWISS.build(situation(4, [], chosen))
    assert first.method == "bracket"
    # the upper bracket: seeds 1-4 of the standings; the lower: 5-8, its codes after "L-"
    assert tables(first) == {"W1-1": (20, 17), "W1-2": (19, 18),
                             "L-W1-1": (16, 13), "L-W1-2": (15, 14)}
    played = play(4, first, "EW")  # the lower seeds win every match of the first wave
    second = SWISS.build(situation(5, played, chosen))
    assert tables(second) == {"W2-1": (17, 18), "3P": (20, 19),
                              "L-W2-1": (13, 14), "L-3P": (16, 15)}
    played += play(5, second, "NS")
    with pytest.raises(FormatError) as info:
        SWISS.build(situation(6, played, chosen))
    assert info.value.code == "complete"
    placed = SWISS.placements(finish(chosen, played))
    assert [(p.place, p.entry_id, p.stage, p.group) for p in placed[:8]] == [
        (1, 17, "bracket", "upper"), (2, 18, "bracket", "upper"),
        (3, 20, "bracket", "upper"), (4, 19, "bracket", "upper"),
        (5, 13, "bracket", "lower"), (6, 14, "bracket", "lower"),
        (7, 16, "bracket", "lower"), (8, 15, "bracket", "lower")]
    # the other twelve keep their qualifying places (9..20)
    assert [(p.place, p.entry_id, p.stage, p.group) for p in placed[8:]] == [
        (rank, pair, "qualifying", "") for rank, pair in enumerate(RANKING[8:], start=9)]


def test_a_deeper_lower_bracket_plays_on_alone_after_the_upper_final() -> None:
    chosen = SWISS.check_settings({"playoff": {"kind": "single", "cut": 2, "lower": 4}})
    first = SWISS.build(situation(4, [], chosen))
    assert tables(first) == {"W1-1": (20, 19), "L-W1-1": (18, 15), "L-W1-2": (17, 16)}
    played = play(4, first)
    second = SWISS.build(situation(5, played, chosen))
    assert tables(second) == {"L-W2-1": (18, 17)}
    # the upper bracket is decided, the lower is not: no finishing yet, naming the lower one
    with pytest.raises(FormatError) as info:
        SWISS.placements(finish(chosen, played))
    assert info.value.code == "bracket_unfinished" and "lower bracket" in info.value.message
    played += play(5, second)
    placed = SWISS.placements(finish(chosen, played))
    # single elimination without a third-place match: the semi-final losers share a place
    assert [(p.place, p.entry_id) for p in placed[:6]] == [
        (1, 20), (2, 19), (3, 18), (4, 17), (5, 16), (5, 15)]
    assert [p.place for p in placed[6:]] == list(range(7, 21))


def test_a_double_elimination_split_final_codes_the_lower_losers_bracket_apart() -> None:
    chosen = SWISS.check_settings({"playoff": {"kind": "double", "cut": 4, "lower": 4}})
    played: list[TableResult] = []
    seen: list[str] = []
    number = QUALIFYING + 1
    while True:
        try:
            built = SWISS.build(situation(number, played, chosen))
        except FormatError as exc:
            assert exc.code == "complete"
            break
        seen += built.matches
        played += play(number, built)
        number += 1
    upper = [c for c in seen if not c.startswith("L-")]
    lower = [c[2:] for c in seen if c.startswith("L-")]
    assert sorted(upper) == sorted(lower)  # the same plan, both played through
    assert "L2-1" in upper and "L-L2-1" in seen and "L-GF" in seen
    # every wave seated both brackets' ready matches; the resets (GF2) were not needed
    assert "GF2" not in seen and number == SWISS.rounds_total(QUALIFYING, chosen, 20)
    placed = SWISS.placements(finish(chosen, played))
    assert sorted(p.place for p in placed[:8]) == [1, 2, 3, 4, 5, 6, 7, 8]
    assert {p.group for p in placed[:4]} == {"upper"} and {p.group for p in placed[4:8]} == {
        "lower"}


def test_too_few_pairs_left_for_the_lower_bracket_is_refused_naming_it() -> None:
    chosen = settings(lower=4)
    with pytest.raises(FormatError) as info:
        SWISS.build(situation(4, [], chosen, ranking=RANKING[:6]))
    assert info.value.field == "format_settings.playoff.lower"


def test_the_view_draws_both_brackets_with_their_places() -> None:
    chosen = settings(lower=4)
    names = {p: f"Pair {p}" for p in PAIRS}
    waiting = bracket_view("", chosen, entrants=20, seeds=None, members=PAIRS, names=names,
                           results=[], first_round=4, statuses={})
    assert not waiting["seeded"] and waiting["lower"] == {
        "entrants": 4, "complete": False, "champion": None, "champion_name": ""}
    assert [(b["label"], b["group"]) for b in waiting["brackets"]] == [
        ("Upper bracket", "upper"),
        ("Lower bracket", "lower")]
    first = SWISS.build(situation(4, [], chosen))
    played = play(4, first)
    second = SWISS.build(situation(5, played, chosen))
    played += play(5, second)
    statuses = {(r.round_number, r.table_number): "confirmed" for r in played}
    view = bracket_view("", chosen, entrants=20, seeds=RANKING, members=PAIRS, names=names,
                        results=played, first_round=4, statuses=statuses)
    lower = view["brackets"][1]["rounds"]
    assert [m["code"] for m in lower[0]["matches"]] == ["L-W1-1", "L-W1-2"]
    assert lower[0]["matches"][0]["winner_to"] == "L-W2-1"
    assert lower[1]["matches"][0]["sides"][0]["slot"] == "Winner of L-W1-1"
    assert [s["seed"] for s in lower[0]["matches"][0]["sides"]] == [5, 8]  # the standings places after the cut of 4
    assert all(m["status"] == "finished" for part in view["brackets"]
               for col in part["rounds"] for m in col["matches"])
    assert view["complete"] and view["champion"] == 20 and view["lower"]["champion"] == 16
    assert [(p["place"], p["pair"], p["group"]) for p in view["placements"]] == [
        (1, 20, "upper"), (2, 19, "upper"), (3, 18, "upper"), (3, 17, "upper"),
        (5, 16, "lower"), (6, 15, "lower"), (7, 14, "lower"), (7, 13, "lower")]
    # before the lower final is confirmed the split final is not complete
    statuses[(5, 2)] = "finished"
    view = bracket_view("", chosen, entrants=20, seeds=RANKING, members=PAIRS, names=names,
                        results=played, first_round=4, statuses=statuses)
    assert not view["complete"] and view["champion"] == 20 and view["lower"]["champion"] is None


def test_the_rules_mention_the_lower_bracket() -> None:
    words = " ".join(SWISS.describe(settings(lower=4), QUALIFYING))
    assert "lower bracket" in words and "places 5 to 8" in words
    assert "lower bracket" not in " ".join(SWISS.describe(settings(), QUALIFYING))


def test_without_a_playoff_there_is_no_bracket_round_and_no_bracket_to_draw() -> None:
    chosen = SWISS.check_settings({})
    assert SWISS.rounds_total(QUALIFYING, chosen, 20) == QUALIFYING
    with pytest.raises(FormatError):
        bracket_view("", chosen, entrants=20, seeds=None, members=PAIRS, names={},
                     results=[], first_round=4, statuses={})

"""Winners stay (pairs) as a plugin: the first game's winners keep their table all day; the
others move one table up each round."""

from __future__ import annotations

import formats
from tests.formats.pair_checks import assert_pairs_sit_together
from tests.formats.play import Day

SPEC = formats.get("winners_stay")


def test_what_winners_stay_is() -> None:
    assert SPEC.pairs and SPEC.seats_automatically and SPEC.check_settings({})["first_draw"] == "seeded"
    assert "winners keep their table" in " ".join(SPEC.describe({}, 4))


def test_the_first_games_winners_keep_their_table() -> None:
    day = Day(SPEC, 8, rounds_planned=4)
    day.play_all()
    assert_pairs_sit_together(day)
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    first = [r for r in day.results if r.round_number == 1]
    stayers = {r.table_number: pair_of[r.seats["N" if r.winner == "NS" else "E"]] for r in first}
    for plan in day.history[1:]:
        for number, table in enumerate(plan.tables, start=1):
            assert stayers[number] in {pair_of[e] for e in table}


def test_a_random_first_draw_depends_on_the_seed() -> None:
    draws = {tuple(Day(SPEC, 12, settings={"first_draw": "random"}, seed=s).play_round().plan.tables)
             for s in range(6)}
    assert len(draws) > 1
    seeded = {tuple(Day(SPEC, 12, seed=s).play_round().plan.tables) for s in range(6)}
    assert len(seeded) == 1

"""The club night as a plugin: individuals, rotating partners round after round, open-ended."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError
from tests.formats.play import Day

SPEC = formats.get("club_night")


def _partnerships(day: Day) -> list[frozenset[int]]:
    return [frozenset(pair) for plan in day.history for t in plan.tables
            for pair in ((t[0], t[2]), (t[1], t[3]))]


def test_what_a_club_night_is() -> None:
    assert (SPEC.entrants, SPEC.sitting, SPEC.default_rounds, SPEC.default_deals) == (
        "players", "round", 4, 8)
    assert SPEC.club_night and SPEC.open_ended and not SPEC.seats_automatically
    assert not SPEC.bracket and not SPEC.forfeits and SPEC.swap == "players"
    assert SPEC.describe_length(4, 8, {}, 16) == "4 rounds of 8 deals"
    assert "partners change every round" in " ".join(SPEC.describe({}, 4))


def test_it_takes_no_settings() -> None:
    assert SPEC.check_settings({}) == {}
    with pytest.raises(FormatError) as info:
        SPEC.check_settings({"cut": 8})
    assert info.value.field == "format_settings"


@settings(max_examples=30, deadline=None)
@given(players=st.integers(min_value=4, max_value=40), seed=st.integers(0, 10_000))
def test_every_round_seats_everyone_once_and_nobody_partners_twice_while_avoidable(
        players: int, seed: int) -> None:
    day = Day(SPEC, players, seed=seed, rounds_planned=3)
    day.play_all()
    for plan in day.history:
        assert sorted([*plan.seated(), *plan.byes]) == list(range(1, players + 1))
        assert len(plan.byes) == players % 4
    if players >= 16:
        together = _partnerships(day)
        assert len(together) == len(set(together))


def test_byes_go_round_in_turn() -> None:
    day = Day(SPEC, 13, rounds_planned=4)
    day.play_all()
    sat_out = [b for plan in day.history for b in plan.byes]
    assert len(sat_out) == 4 and len(set(sat_out)) == 4


def test_the_places_are_the_standings() -> None:
    day = Day(SPEC, 12, rounds_planned=2)
    day.play_all()
    placed = day.finish()
    assert [p.entry_id for p in placed] == list(day.ranking())
    assert [p.place for p in placed] == list(range(1, 13))

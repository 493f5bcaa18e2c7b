"""Swiss (pairs) as a plugin: pairs with the same number of wins meet, never twice; a bye counts
as a win; an optional playoff bracket."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import formats
from formats import FormatError
from tests.formats.pair_checks import assert_pairs_sit_together, meetings
from tests.formats.play import Day

SPEC = formats.get("swiss")


def test_what_a_swiss_is() -> None:
    assert SPEC.pairs and SPEC.sitting == "round" and SPEC.swap == "pairs"
    assert SPEC.seats_automatically and SPEC.needs_winners and SPEC.forfeits and SPEC.playoff
    assert not SPEC.bracket and not SPEC.open_ended and SPEC.min_entries == 2
    assert "never twice" in " ".join(SPEC.describe(SPEC.check_settings({}), 4))


def test_settings_fill_defaults_and_refuse_naming_the_key() -> None:
    assert SPEC.check_settings({})["first_draw"] == "seeded"
    with pytest.raises(FormatError) as info:
        SPEC.check_settings({"first_draw": "alphabetical"})
    assert info.value.field == "format_settings.first_draw"


@settings(max_examples=30, deadline=None)
@given(pairs=st.integers(min_value=4, max_value=24), seed=st.integers(0, 10_000))
def test_no_rematch_and_one_bye_at_most_each(pairs: int, seed: int) -> None:
    day = Day(SPEC, pairs, seed=seed, rounds_planned=3)
    day.play_all()
    assert_pairs_sit_together(day)
    met = meetings(day)
    assert len(met) == len(set(met))
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    byes = [pair_of[plan.byes[0]] for plan in day.history if plan.byes]
    assert len(byes) == (3 if pairs % 2 else 0) and len(set(byes)) == len(byes)


def test_winners_meet_winners_after_the_first_round() -> None:
    day = Day(SPEC, 8, rounds_planned=2)
    day.play_round()
    pair_of = {e: p for p, members in day.pairs.items() for e in members}
    won = {pair_of[r.seats["N" if r.winner == "NS" else "E"]] for r in day.results}
    second = day.play_round()
    for north, east, _, _ in second.plan.tables:
        assert (pair_of[north] in won) == (pair_of[east] in won)


def test_the_places_are_the_standings_without_a_playoff() -> None:
    day = Day(SPEC, 6, rounds_planned=3)
    day.play_all()
    assert [p.entry_id for p in day.finish()] == list(day.ranking())

"""The individual progressive day as a plugin: games of four deals with winners moving and
losers staying, a cut to the semi-final tables and a final table."""

from __future__ import annotations

import pytest

import formats
from formats import FormatError
from formats.spec import Stage
from tests.formats.play import Day

SPEC = formats.get("individual_progressive")


def test_what_a_progressive_day_is() -> None:
    assert (SPEC.entrants, SPEC.sitting, SPEC.default_deals) == ("players", "game", 4)
    assert SPEC.seats_automatically and SPEC.alternates and SPEC.needs_winners
    assert SPEC.stage_totals and not SPEC.open_ended and SPEC.rounds_setting


def test_settings_fill_defaults_and_refuse_naming_the_key() -> None:
    settings = SPEC.check_settings({})
    assert settings["cut"] == 8 and settings["movement"] == "winners_move"
    cut = SPEC.qualifying_cut(settings)
    assert cut is not None and cut.size == 8
    with pytest.raises(FormatError) as info:
        SPEC.check_settings({"cut": 7})
    assert info.value.field == "format_settings.cut"
    with pytest.raises(FormatError) as info:
        SPEC.check_settings({"movement": "sideways"})
    assert info.value.field == "format_settings.movement"


def test_a_field_smaller_than_the_cut_is_refused_before_the_first_game() -> None:
    settings = SPEC.check_settings({})
    with pytest.raises(FormatError):
        SPEC.check_field(settings, 6)
    SPEC.check_field(settings, 32)


def test_the_stages_qualifying_then_semi_final_then_final() -> None:
    settings = SPEC.check_settings({})
    stages = [SPEC.stage_of(n, 4, settings, 32) for n in range(1, SPEC.rounds_total(4, settings, 32) + 1)]
    assert stages[:4] == [Stage.QUALIFYING] * 4
    assert Stage.SEMIFINAL in stages and stages[-1] == Stage.FINAL
    assert "qualifying games of 4 deals, then semi-finals" in SPEC.describe_length(4, 4, settings, 32)


def test_a_day_played_through_its_stages() -> None:
    day = Day(SPEC, 32, rounds_planned=4)
    day.play_all()
    first, *qualifying = day.history[:4]
    assert sorted(first.seated()) == list(range(1, 33))
    semis = [n for n, b in enumerate(day.built) if b.method == "semifinal"]
    final = day.built[-1]
    assert len(semis) == 1
    semi = day.built[semis[0]]
    # the best 8 of the qualifying order, at two tables
    assert len(semi.plan.tables) == 2
    assert set(semi.plan.seated()) == set(day.rankings[semis[0]][:8])
    assert final.method == "final" and len(final.plan.tables) == 1
    placed = day.finish()
    assert sorted(p.entry_id for p in placed) == list(range(1, 33))
    assert placed[0].stage == Stage.FINAL

"""The format registry: Event.format decides how the next round is built, with results."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from draw import formats
from draw.formats import Format, Situation, format_for, register
from draw.selectors import event_results
from draw.services import round_create, round_set_status
from pairing.club_night import BuiltRound
from scoring.services import game_confirm, hand_submit
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players
from tournaments.models import EventLog

pytestmark = pytest.mark.django_db


def test_club_night_is_registered_and_unknown_formats_are_refused() -> None:
    assert format_for("club_night").name == "club_night"
    with pytest.raises(DomainError) as info:
        format_for("bracket")
    assert info.value.field == "format"


def test_a_full_night_of_twelve_follows_the_whist_design() -> None:
    event = event_with_players(players=12, rounds_planned=3)
    for _ in range(3):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status="playing")
        round_set_status(round_=round_, status="closed", close_unfinished=True)
    methods = [log.details["method"] for log in EventLog.objects.filter(
        event=event, action="round_seated").order_by("id")]
    assert methods == ["whist_design"] * 3


def test_builders_receive_seatings_and_results(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Situation] = []
    club_night = format_for("club_night")

    def spy(situation: Situation) -> BuiltRound:
        seen.append(situation)
        return club_night.build(situation)

    monkeypatch.setitem(formats.FORMATS, "club_night",
                        Format(name="club_night", label="spy", build=spy))
    event = event_with_players(players=8, deals_per_round=1)
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    for table in round_.tables.all():
        hand_submit(game=table.game, number=1, values=values())
        game_confirm(game=table.game, position="E")
    round_set_status(round_=round_, status="closed", close_unfinished=True)
    round_create(event=event)
    assert len(seen) == 2
    assert seen[0].results == () and seen[0].history == ()
    results = seen[1].results
    assert len(results) == 2 and all(r.finished and r.winner == "EW" for r in results)
    assert all(r.points == {"NS": 51, "EW": 55} for r in results)
    assert len(seen[1].history) == 1
    assert event_results(event)[0].seats.keys() == {"N", "E", "S", "W"}


def test_registering_a_name_twice_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="twice"):
        register(Format(name="club_night", label="again", build=format_for("club_night").build))


def test_every_format_an_event_can_have_has_a_builder() -> None:
    from tournaments.models import Event

    assert set(formats.FORMATS) == set(Event.Format.values)

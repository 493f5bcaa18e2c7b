from __future__ import annotations

import pytest

from common.errors import DomainError
from draw.services import event_status_set, round_create
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.tournaments.factories import EventFactory, event_with_players
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


def test_checking_a_player_in_twice_is_refused_and_names_the_field() -> None:
    club = ClubFactory()
    event = EventFactory(club=club)
    player = PlayerFactory(club=club)
    entry_check_in(event=event, player=player)
    with pytest.raises(DomainError) as info:
        entry_check_in(event=event, player=player)
    assert info.value.field == "player"
    assert event.entries.count() == 1


def test_a_player_of_another_club_cannot_be_checked_in() -> None:
    event = EventFactory()
    with pytest.raises(DomainError) as info:
        entry_check_in(event=event, player=PlayerFactory())  # on another club's roster
    assert info.value.field == "player"


def test_an_event_cannot_finish_with_a_round_open() -> None:
    event = event_with_players(players=8)
    round_create(event=event)
    with pytest.raises(DomainError):
        event_status_set(event=event, status="finished")

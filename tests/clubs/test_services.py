from __future__ import annotations

import pytest
from django.db import IntegrityError

from clubs.models import ClubPlayer, Membership, Player
from clubs.services import club_create, membership_set, player_create, player_merge
from common.errors import DomainError
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Entry
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


def test_club_create_makes_the_creator_owner() -> None:
    owner = UserFactory()
    club = club_create(name="Eastside Pinochle", owner=owner, time_zone="America/Chicago")
    assert club.slug == "eastside-pinochle"
    assert Membership.objects.get(club=club, user=owner).role == "owner"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "X", "time_zone": "Mars/Olympus"}, "time_zone"),
        ({"name": "X", "ruleset_preset": "no_such_game"}, "ruleset_preset"),
        ({"name": "X", "ruleset_overrides": {"no_such_option": 1}}, "ruleset_overrides"),
    ],
)
def test_club_create_rejects_bad_input_naming_the_field(kwargs: dict, field: str) -> None:
    with pytest.raises(DomainError) as info:
        club_create(owner=UserFactory(), **kwargs)
    assert info.value.field == field


def test_player_create_refuses_a_duplicate_name_in_the_club() -> None:
    club = ClubFactory()
    player_create(club=club, name="Ada Brooks")
    with pytest.raises(DomainError) as info:
        player_create(club=club, name="  ada   brooks ")
    assert info.value.field == "name"
    assert Player.objects.filter(name__iexact="Ada Brooks").count() == 1


def test_one_person_can_play_in_two_clubs() -> None:
    a, b = ClubFactory(), ClubFactory()
    player = PlayerFactory(club=a)
    ClubPlayer.objects.create(club=b, player=player)
    assert set(player.clubs.all()) == {a, b}
    with pytest.raises(IntegrityError):
        ClubPlayer.objects.create(club=b, player=player)


def test_merge_moves_entries_and_removes_the_duplicate() -> None:
    club = ClubFactory()
    keep, duplicate = PlayerFactory(club=club), PlayerFactory(club=club)
    event = EventFactory(club=club)
    entry_check_in(event=event, player=duplicate)
    player_merge(club=club, keep=keep, duplicate=duplicate)
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert Entry.objects.get(event=event).player == keep


def test_merge_refuses_two_people_who_played_the_same_night() -> None:
    club = ClubFactory()
    a, b = PlayerFactory(club=club), PlayerFactory(club=club)
    event = EventFactory(club=club)
    entry_check_in(event=event, player=a)
    entry_check_in(event=event, player=b)
    with pytest.raises(DomainError):
        player_merge(club=club, keep=a, duplicate=b)
    assert Player.objects.filter(pk=b.pk).exists()


def test_the_last_owner_cannot_be_demoted() -> None:
    owner = UserFactory()
    club = club_create(name="Solo", owner=owner)
    with pytest.raises(DomainError) as info:
        membership_set(club=club, username=owner.username, role="member")
    assert info.value.field == "role"
    assert Membership.objects.get(club=club, user=owner).role == "owner"


def test_membership_role_is_guarded_by_the_database() -> None:
    club, user = ClubFactory(), UserFactory()
    with pytest.raises(IntegrityError):
        Membership.objects.create(club=club, user=user, role="emperor")

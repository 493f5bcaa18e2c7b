"""Bugs found while rebuilding the house, each pinned by a test."""

from __future__ import annotations

import datetime

import pytest

from clubs.models import Membership
from clubs.permissions import has_club_role
from common.errors import DomainError
from common.rulesets import event_ruleset
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Entry
from tournaments.services import entries_check_in, event_create

pytestmark = pytest.mark.django_db


def test_a_clubs_overrides_stay_with_its_own_preset() -> None:
    club = ClubFactory(ruleset_preset="pagat_double_deck", ruleset_overrides={"game_target": 250})
    own = event_create(club=club, name="Own rules", date=datetime.date(2026, 11, 20))
    other = event_create(club=club, name="Single deck", date=datetime.date(2026, 11, 20),
                         ruleset_preset="single_deck_partnership")
    assert event_ruleset(own).game_target == 250
    assert other.ruleset_overrides == {}
    assert event_ruleset(other).game_target != 250


def test_checking_in_many_is_all_or_nothing() -> None:
    club = ClubFactory()
    event = EventFactory(club=club)
    ours = [PlayerFactory(club=club) for _ in range(3)]
    stranger = PlayerFactory(club=ClubFactory())
    with pytest.raises(DomainError) as info:
        entries_check_in(event=event, players=[*ours, stranger])
    assert info.value.field == "player"
    assert Entry.objects.filter(event=event).count() == 0


def test_a_role_change_is_seen_by_the_same_user_object() -> None:
    club = ClubFactory()
    user = UserFactory()
    assert not has_club_role(user=user, club=club, role="scorer")
    membership = Membership.objects.create(club=club, user=user, role="scorer")
    assert has_club_role(user=user, club=club, role="scorer")
    membership.role = "member"
    membership.save()
    assert not has_club_role(user=user, club=club, role="scorer")


def test_an_event_takes_the_new_rule_options_and_names_a_bad_one() -> None:
    club = ClubFactory(ruleset_preset="single_deck_partnership")
    day = datetime.date(2026, 11, 20)
    overrides = {"meld.run_extra": 20, "set_keeps_meld": True, "dealer_opens_lower": True,
                 "target_exceed": True}
    event = event_create(club=club, name="House rules", date=day, ruleset_overrides=overrides)
    rs = event_ruleset(event)
    assert (rs.run_extra, rs.set_keeps_meld, rs.dealer_lowest_bid, rs.target_exceed) == (
        20, True, 140, True)
    with pytest.raises(DomainError) as info:
        event_create(club=club, name="Bad", date=day, ruleset_overrides={"meld.run_extra": -5})
    assert info.value.field == "ruleset_overrides" and "meld.run_extra" in info.value.message
    # score entry records tricks where the ruleset needs them: such a ruleset is accepted
    moon = event_create(club=club, name="Moon", date=day, ruleset_overrides={"all_tricks": "bonus"})
    assert event_ruleset(moon).all_tricks == "bonus"

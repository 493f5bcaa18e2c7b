"""Factories shared by the whole suite."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubPlayer, Membership, Player
from tournaments.models import Event


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", "pass-word-123")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    ruleset_preset = "pagat_double_deck"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.DIRECTOR


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player on the roster of ``club`` (pass club=...; a new club when omitted)."""

    class Meta:
        model = Player
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Player {n:03d}")

    @factory.post_generation
    def club(self, create: bool, extracted: Club | None, **kwargs: object) -> None:
        if not create:
            return
        ClubPlayer.objects.create(club=extracted or ClubFactory(), player=self)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Club night {n}")
    date = factory.LazyFunction(lambda: datetime.date(2026, 11, 20))
    ruleset_preset = "pagat_double_deck"
    rounds_planned = 4
    deals_per_round = 4
    tie_breaks = ["points", "wins", "head_to_head", "highest_game"]


def club_with_director(*, slug: str = "club-a", is_public: bool = True) -> tuple[Club, object]:
    club = ClubFactory(slug=slug, name=slug.replace("-", " ").title(), is_public=is_public)
    director = UserFactory(username=f"director-{slug}")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club, director


def event_with_players(*, club: Club | None = None, players: int = 8, **event_kwargs: object) -> Event:
    """An event of ``club`` with ``players`` players checked in (through the service)."""
    from tournaments.services import entry_check_in

    club = club or ClubFactory()
    event = EventFactory(club=club, **event_kwargs)
    for _ in range(players):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    return event

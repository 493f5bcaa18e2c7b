"""Factories for events and entries."""

from __future__ import annotations

import datetime
from typing import Any

import factory

from clubs.models import Club
from tests.clubs.factories import ClubFactory, PlayerFactory
from tournaments.models import Event


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
    seed = "0"  # the draws of a test replay; events made through event_create draw their own


def event_with_players(*, club: Club | None = None, players: int = 8, **event_kwargs: object) -> Event:
    """An event of ``club`` with ``players`` players checked in (through the service)."""
    from tournaments.services import entry_check_in

    club = club or ClubFactory()
    event = EventFactory(club=club, **event_kwargs)
    for _ in range(players):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    return event


def progressive_event(players: int, *, club: Club | None = None, **kwargs: Any) -> Event:
    """An individual progressive event (through ``event_create``: its defaults and checks) with
    ``players`` players checked in."""
    from tournaments.services import entry_check_in, event_create

    club = club or ClubFactory()
    event = event_create(club=club, name="NPA day", date=datetime.date(2026, 11, 22),
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, **kwargs)
    for _ in range(players):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    return event


class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Entry"

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)


def bye_for(*, event: Event, round_number: int, entry: object) -> object:
    from tournaments.models import Bye, Round

    round_, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": "closed"}
    )
    return Bye.objects.create(round=round_, entry=entry)

"""The search across public clubs, events and players (PostgreSQL: full-text and trigram), its
page and its API: what is found, what never is, and the refusals naming their parameter."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from clubs.models import Club, ClubPlayer, Player
from search.query import terms_read
from search.selectors import SearchHits, public_players
from tests.clubs.factories import ClubFactory
from tests.tournaments.factories import EntryFactory, EventFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db

FINISHED = Event.Status.FINISHED


def played(player: Player, event: Event) -> None:
    ClubPlayer.objects.get_or_create(club=event.club, player=player)
    EntryFactory(event=event, player=player)


@pytest.fixture
def archive() -> dict[str, Any]:
    """Two public clubs and a private one; public, hidden, draft and cancelled events; players
    on public results, on private results only, on a hidden event only, and one erased."""
    elm = ClubFactory(name="Elm Street Pinochle", slug="elm", time_zone="America/Chicago")
    oak = ClubFactory(name="Oakridge Card Club", slug="oak", time_zone="Europe/Berlin")
    secret = ClubFactory(name="Elm Secret Society", slug="secret", is_public=False)
    spring = EventFactory(club=elm, name="Spring Open", date=datetime.date(2024, 5, 11),
                          status=FINISHED)
    night = EventFactory(club=oak, name="Tuesday club night", date=datetime.date(2024, 6, 4),
                         status=Event.Status.RUNNING)
    hidden = EventFactory(club=elm, name="Spring Private Invitational", is_public=False,
                          date=datetime.date(2024, 5, 12), status=FINISHED)
    draft = EventFactory(club=elm, name="Spring Draft Night", date=datetime.date(2024, 5, 13))
    cancelled = EventFactory(club=elm, name="Spring Cancelled", date=datetime.date(2024, 5, 14),
                             status=Event.Status.CANCELLED)
    private_event = EventFactory(club=secret, name="Spring Secret Cup",
                                 date=datetime.date(2024, 5, 15), status=FINISHED)
    smith = Player.objects.create(name="John Smith")
    played(smith, spring)
    played(smith, private_event)
    jones = Player.objects.create(name="Mary Jones")
    played(jones, night)
    only_private = Player.objects.create(name="Johanna Smithers")
    played(only_private, private_event)
    only_hidden = Player.objects.create(name="John Hidden")
    played(only_hidden, hidden)
    only_draft = Player.objects.create(name="John Drafted")
    played(only_draft, draft)
    erased = Player.objects.create(name="John Erased", erased_at=datetime.datetime(
        2025, 1, 1, tzinfo=datetime.UTC))
    played(erased, spring)
    return {"elm": elm, "oak": oak, "secret": secret, "spring": spring, "night": night,
            "hidden": hidden, "draft": draft, "cancelled": cancelled,
            "private_event": private_event, "smith": smith, "jones": jones}


def names(q: str, kind: str = "") -> list[str]:
    return [hit.name for hit in SearchHits(terms_read(q), kind)[0:50]]


def test_the_tests_run_on_postgresql_with_pg_trgm() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'")
        assert cursor.fetchone() == ("pg_trgm",)


def test_only_public_things_are_found(archive: dict[str, Any]) -> None:
    assert names("spring", "events") == ["Spring Open"]
    assert names("elm", "clubs") == ["Elm Street Pinochle"]
    assert names("john", "players") == ["John Smith"]
    assert set(public_players().values_list("name", flat=True)) == {"John Smith", "Mary Jones"}

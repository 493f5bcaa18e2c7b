"""The search page on a phone (a real browser at 390 px): the header's Search link opens it,
a query submitted from the field shows the grouped hits without sideways scrolling, and the
"All N players" link pages one kind."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from playwright.sync_api import Page

from clubs.models import ClubPlayer, Player
from tests.clubs.factories import ClubFactory
from tests.tournaments.factories import EntryFactory, EventFactory
from tournaments.models import Event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_searching_from_a_phone(live_server: Any, phone: Page) -> None:
    club = ClubFactory(name="Elm Street Pinochle Society of the Greater Metropolitan Area",
                       slug="elm", time_zone="America/Chicago")
    event = EventFactory(club=club, name="Spring Open", date=datetime.date(2024, 5, 11),
                         status=Event.Status.FINISHED)
    for n in range(7):
        player = Player.objects.create(name=f"Springfield Smithersonworthington {n}")
        ClubPlayer.objects.create(club=club, player=player)
        EntryFactory(event=event, player=player)
    phone.goto(live_server.url + "/")
    phone.click("#nav-search")
    phone.fill("#search-q", "sprng")  # misspelt
    phone.click("#search-form button[type=submit]")
    phone.wait_for_selector("#group-events")
    assert "Spring Open" in phone.inner_text("#group-events")
    assert phone.locator("#group-players li.hit").count() == 5
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.click("#group-players a.more")
    phone.wait_for_selector("#group-players")
    assert phone.locator("#group-players li.hit").count() == 7
    assert "kind=players" in phone.url
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

"""The event page's heading says how long the event is, by its format: a progressive day's
qualifying games and the stages after them (the format's own count of rounds), a club night's
rounds, a pair event's rounds, a bracket's matches."""

from __future__ import annotations

import datetime
import re

import pytest
from django.test import Client
from django.urls import reverse

from formats import get as format_for
from tests.clubs.factories import ClubFactory
from tournaments.models import Event
from tournaments.services import event_create

pytestmark = pytest.mark.django_db


def _heading(client: Client, event: Event) -> str:
    """The line under the event's name: date · rules · length · players."""
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    found = re.search(r"</h1>\s*<p class=\"muted\">(.*?)</p>", page, re.S)
    assert found is not None
    return " ".join(found.group(1).split())


def _event(format: str, **kwargs: object) -> Event:
    return event_create(club=ClubFactory(), name="Day", date=datetime.date(2026, 11, 22),
                        format=format, **kwargs)


def test_a_10_game_progressive_day_is_headed_by_its_games_and_stages(client: Client) -> None:
    day = _event(Event.Format.INDIVIDUAL_PROGRESSIVE, format_settings={"qualifying_games": 10})
    heading = _heading(client, day)
    assert ("· 10 qualifying games of 4 deals, then semi-finals and a 3-game final ·"
            in heading), heading
    assert "rounds" not in heading
    # The same day as the format counts it: 10 games, the semi-finals, 3 games of the final.
    assert format_for(day.format).rounds_total(day.rounds_planned, day.format_settings, 0) == 14


@pytest.mark.parametrize(("settings", "words"), [
    ({"qualifying_games": 7, "cut": 4, "final_rule": "single_game"},
     "7 qualifying games of 4 deals, then a final"),
    ({"qualifying_games": 1, "cut": 0}, "1 qualifying game of 4 deals"),
])
def test_a_progressive_day_names_only_the_stages_it_plays(client: Client, settings: dict[str, object],
                                                          words: str) -> None:
    heading = _heading(client, _event(Event.Format.INDIVIDUAL_PROGRESSIVE,
                                      format_settings=settings))
    assert f"· {words} ·" in heading, heading


def test_club_nights_pairs_and_brackets_keep_their_words(client: Client) -> None:
    assert "· 4 rounds of 8 deals ·" in _heading(client, _event(Event.Format.CLUB_NIGHT))
    assert "· 3 rounds of a game to " in _heading(
        client, _event(Event.Format.CLUB_NIGHT, rounds_planned=3, deals_per_round=None))
    assert "· 5 rounds of 2 deals ·" in _heading(
        client, _event("swiss", rounds_planned=5, deals_per_round=2))
    assert "· bracket matches of 1 deal ·" in _heading(
        client, _event("single_elimination", deals_per_round=1))

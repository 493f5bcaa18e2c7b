"""The club's page: the current season's leaderboard, then its past events, latest first."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.clubs.factories import club_with_director
from tests.tournaments.factories import EventFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def test_club_page_lists_past_events_latest_first_after_the_season(client) -> None:
    club, _ = club_with_director(slug="order")
    dates = [datetime.date(2026, 10, d) for d in (18, 4, 25, 11)]
    for day in dates:
        EventFactory(club=club, name=f"Night {day.day}", date=day, status=Event.Status.FINISHED)
    html = client.get(reverse("club-detail", args=[club.slug])).content.decode()
    past = html.split("<h2>Past nights</h2>", 1)[1]
    assert html.index('<h2 id="season">') < html.index("<h2>Past nights</h2>")
    positions = [past.index(f"Night {day.day}<") for day in sorted(dates, reverse=True)]
    assert positions == sorted(positions)

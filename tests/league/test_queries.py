"""The season leaderboard reads a fixed handful of queries whatever the number of nights: a
club of 5 and of 40 weekly nights (bulk-built as ``bench/profile.py`` builds them; the times at
five years of nights are ``make bench-pages``'s)."""

from __future__ import annotations

import datetime
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.profile import build
from league.models import Season

pytestmark = pytest.mark.django_db

# the club, the season, its events, their entries' players, their snapshots, the names, the
# ratings, the club's seasons (for the season menu)
SEASON_QUERIES = 9


def test_the_season_page_costs_the_same_queries_for_5_and_40_nights(client) -> None:
    counts = []
    for nights in (5, 40):
        subject = build(random.Random(nights), events=nights, rounds=2, deals=1, tables=2)
        club = subject.club_links.get().club
        season = Season.objects.create(club=club, name="Ten years",
                                       starts_on=datetime.date(2024, 1, 1),
                                       ends_on=datetime.date(2033, 12, 31), events="all")
        url = reverse("season-detail", args=[club.slug, season.pk])
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        board = response.context["board"]
        assert board["events"] == nights
        assert next(r for r in board["ranked"] if r["player_id"] == subject.pk)["nights"] == nights
        counts.append(len(queries))
    assert counts[0] == counts[1] <= SEASON_QUERIES, counts

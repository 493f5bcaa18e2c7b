"""The profile reads a fixed handful of queries whatever the number of events, games or hands
(no query per event, per game or per hand)."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Membership
from league.ratings import ratings_rebuild
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.profiles.builders import Ledger, season

pytestmark = pytest.mark.django_db

# the player; entries with events and clubs; seats; everyone at those tables; live hands;
# standings snapshots; the current rating; its history and that history's events
PROFILE_QUERIES = 9


def test_the_api_and_the_page_read_a_handful_of_queries_whatever_the_events(
    client, django_assert_max_num_queries
) -> None:
    rng = random.Random(11)
    club = ClubFactory(slug="many")
    others = [PlayerFactory(club=club) for _ in range(6)]
    busy, light = PlayerFactory(club=club), PlayerFactory(club=club)
    ledger = Ledger()
    season(ledger, club, busy, others, events=12, rounds=2, rng=rng)
    season(ledger, club, light, others, events=2, rounds=1, rng=rng)
    private = ClubFactory(slug="private-many", is_public=False)
    season(ledger, private, busy, others, events=3, rounds=1, rng=rng)
    ratings_rebuild()

    counts = {}
    for player in (busy, light):
        with CaptureQueriesContext(connection) as captured:
            data = client.get(reverse("api-player-profile", args=[player.pk])).json()
        counts[player.pk] = len(captured)
        assert data["rating"] is not None and data["analytics"][0]["games"] > 0
    assert len(client.get(reverse("api-player-profile", args=[busy.pk])).json()["events"]) == 12
    assert counts[busy.pk] == counts[light.pk] <= PROFILE_QUERIES

    with django_assert_max_num_queries(PROFILE_QUERIES):
        response = client.get(reverse("player-profile", args=[busy.pk]))
    assert response.status_code == 200 and response.content.count(b"<svg") == 3

    # a member of the private club: the session, the user and the role in that club (asked once
    # for its three events, once more by the rating's history) on top
    member = UserFactory(username="many-member")
    Membership.objects.create(club=private, user=member, role=Membership.Role.MEMBER)
    client.force_login(member)
    with django_assert_max_num_queries(PROFILE_QUERIES + 4):
        data = client.get(reverse("api-player-profile", args=[busy.pk])).json()
    assert len(data["events"]) == 15


def test_the_page_costs_the_same_queries_for_5_and_40_events(client) -> None:
    """Bulk-built nights (as ``bench/profile.py`` builds them; its times at 500 events are
    ``make bench-pages``'s): the same queries for a player of 5 and of 40 events."""
    from bench.profile import build

    counts = []
    for events in (5, 40):
        subject = build(random.Random(events), events=events, rounds=2, deals=1, tables=2)
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("player-profile", args=[subject.pk]))
        assert response.status_code == 200
        assert len(response.context["events"]) == events
        counts.append(len(captured))
    assert counts[0] == counts[1] <= PROFILE_QUERIES, counts


def test_from_summaries_the_page_costs_the_same_queries_for_5_and_40_events(client) -> None:
    """Once the summaries are written (every bulk-built night is finished), the profile reads
    them and not the hands: fewer queries, the same for 5 and 40 events."""
    from bench.profile import build
    from profiles.services import event_summaries_backfill

    counts = []
    for events in (5, 40):
        subject = build(random.Random(events), events=events, rounds=2, deals=1, tables=2)
        event_summaries_backfill()
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("player-profile", args=[subject.pk]))
        assert response.status_code == 200
        assert not any("scoring_handrevision" in q["sql"] for q in captured.captured_queries)
        counts.append(len(captured))
    assert counts[0] == counts[1] < PROFILE_QUERIES, counts


def test_the_events_table_shows_50_events_a_page(client) -> None:
    from bench.profile import build

    subject = build(random.Random(55), events=55, rounds=1, deals=1, tables=1)
    url = reverse("player-profile", args=[subject.pk])
    first = client.get(url)
    assert first.context["event_count"] == 55 and len(first.context["events"]) == 50
    assert b'rel="next"' in first.content and b'rel="prev"' not in first.content
    second = client.get(url + "?page=2")
    assert [e["name"] for e in second.context["events"]] == [f"Night {n}" for n in range(5, 0, -1)]
    assert b'rel="prev"' in second.content and b'rel="next"' not in second.content
    # the figures cover every event whatever the page
    assert second.context["groups"][0]["events"] == 55
    for bad in ("3", "0", "two"):
        assert client.get(url + f"?page={bad}").status_code == 404

"""'Seat round N' queues an idempotent seating job; the event page shows it and its outcome."""

from __future__ import annotations

import pytest
from django.urls import reverse

from draw import seating
from draw.tasks import seat_round
from tests.clubs.factories import club_with_director
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db


def test_two_clicks_seat_one_round(client) -> None:
    club, director = club_with_director()
    event = event_with_players(club=club, players=9)
    client.force_login(director)
    first = client.post(reverse("round-seat", args=[event.pk]), {"number": 1})
    second = client.post(reverse("round-seat", args=[event.pk]), {"number": 1})
    assert first.status_code == second.status_code == 302
    assert event.rounds.count() == 1
    page = client.get(first["Location"])
    assert b"Round 1 is seated" in page.content
    assert b'id="seating-state"' not in page.content


def test_a_refused_seating_is_shown_on_the_event_page(client) -> None:
    club, director = club_with_director()
    event = event_with_players(club=club, players=3)
    client.force_login(director)
    response = client.post(reverse("round-seat", args=[event.pk]))
    page = client.get(response["Location"])
    assert event.rounds.count() == 0
    assert b"Round 1 was not seated" in page.content
    assert b"at least 4 checked-in players" in page.content


def test_a_queued_job_shows_as_working_until_the_round_exists(client) -> None:
    club, director = club_with_director()
    event = event_with_players(club=club, players=8)
    client.force_login(director)
    seating.job_queued(event_id=event.pk, number=1)  # as if a worker had not picked it up yet
    page = client.get(reverse("event-detail", args=[event.pk]))
    assert b"Seating round 1" in page.content
    seat_round.apply(args=(event.pk, 1)).get()
    page = client.get(reverse("event-detail", args=[event.pk]))
    assert b"Seating round 1" not in page.content
    assert event.rounds.count() == 1


def test_only_directors_may_seat(client) -> None:
    club, _ = club_with_director()
    _, stranger = club_with_director(slug="other")
    event = event_with_players(club=club, players=8)
    client.force_login(stranger)
    assert client.post(reverse("round-seat", args=[event.pk])).status_code == 403
    assert event.rounds.count() == 0

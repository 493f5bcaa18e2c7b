"""A table movement (A/B movement, winners stay) seats as many rounds as tables before two pairs
would meet again: a plan of more is refused, naming ``rounds_planned`` and the most it seats,
wherever the pairs are known: a settings change (the API and the settings page) and the first
round's seating (an event is created before its pairs register, so creating it refuses
nothing: the new-event form says the limit when the format is chosen, and the settings page
beside the planned rounds)."""

from __future__ import annotations

import datetime
import json
import re
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.services import player_create
from tests.clubs.factories import club_with_director
from tournaments.models import Event
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 22)


def _event(format: str, pairs: int, rounds: int) -> tuple[Event, Any]:
    club, director = club_with_director(slug=f"moves-{format[:8]}-{pairs}")
    event = event_create(club=club, name="Movement", date=DAY, actor=director, format=format,
                         rounds_planned=rounds, deals_per_round=2)
    players = [player_create(club=club, name=f"P{n}") for n in range(2 * pairs)]
    for n in range(pairs):
        pair_register(event=event, players=players[2 * n:2 * n + 2], actor=director)
    return event, director


def _api(director: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(director)
    return api


@pytest.mark.parametrize(("format", "pairs", "most"), [
    ("ab_movement", 6, 3), ("ab_movement", 7, 4), ("winners_stay", 5, 3),
    ("winners_stay", 8, 4)])
def test_the_api_refuses_more_rounds_than_the_movement_seats(format: str, pairs: int,
                                                             most: int) -> None:
    event, director = _event(format, pairs, rounds=2)
    api = _api(director)
    url = reverse("api-event", args=[event.pk])
    answer = api.patch(url, {"rounds_planned": most + 1}, format="json")
    assert answer.status_code == 400, answer.content
    (error,) = answer.json()["errors"]
    assert error["field"] == "rounds_planned" and error["code"] == "too_many_rounds"
    tables = (pairs + 1) // 2
    assert f"with {pairs} pairs ({tables} tables) seats at most {most} rounds" \
        in error["message"], error["message"]
    event.refresh_from_db()
    assert event.rounds_planned == 2  # nothing changed
    # the most it seats is accepted
    assert api.patch(url, {"rounds_planned": most}, format="json").status_code == 200
    event.refresh_from_db()
    assert event.rounds_planned == most


def test_creating_a_movement_refuses_nothing_before_its_pairs_register() -> None:
    club, director = club_with_director(slug="moves-new")
    answer = _api(director).post(reverse("api-events"), {
        "club": club.slug, "name": "Movement", "format": "ab_movement", "rounds_planned": 9},
        format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["rounds_planned"] == 9


def test_the_first_round_is_refused_when_the_registered_pairs_cannot_play_the_plan() -> None:
    event, director = _event("ab_movement", 4, rounds=5)
    api = _api(director)
    answer = api.post(reverse("api-event-rounds", args=[event.pk]), {}, format="json")
    assert answer.status_code == 400, answer.content
    (error,) = answer.json()["errors"]
    assert error["field"] == "rounds_planned"
    assert "with 4 pairs (2 tables) seats at most 2 rounds" in error["message"]
    assert not event.rounds.exists()
    # planned down to what it seats, the round is seated
    assert api.patch(reverse("api-event", args=[event.pk]), {"rounds_planned": 2},
                     format="json").status_code == 200
    assert api.post(reverse("api-event-rounds", args=[event.pk]), {},
                    format="json").status_code == 201


def test_the_settings_page_shows_the_refusal_at_the_rounds_field(client: Any) -> None:
    event, director = _event("winners_stay", 6, rounds=2)
    client.force_login(director)
    url = reverse("event-edit", args=[event.pk])
    page = client.get(url)
    form = page.context["form"]
    data: dict[str, Any] = {}
    for field in form:
        value = field.value()
        if isinstance(value, bool):
            if value:
                data[field.name] = "on"
        elif value is not None:
            data[field.name] = str(value) if isinstance(value, datetime.date) else value
    data["rounds_planned"] = 4
    answer = client.post(url, data)
    assert answer.status_code == 200  # the form again, with the error
    errors = answer.context["form"].errors
    assert "rounds_planned" in errors, errors
    assert "seats at most 3 rounds" in errors["rounds_planned"][0]
    event.refresh_from_db()
    assert event.rounds_planned == 2
    data["rounds_planned"] = 3
    assert client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.rounds_planned == 3


def test_a_format_without_a_movement_takes_any_plan() -> None:
    event, director = _event("swiss", 4, rounds=2)
    answer = _api(director).patch(reverse("api-event", args=[event.pk]),
                                  {"rounds_planned": 9}, format="json")
    assert answer.status_code == 200, answer.content


def test_the_new_event_form_and_the_settings_page_say_the_movements_limit(client: Any) -> None:
    """Created before its pairs register, a movement cannot refuse its planned rounds then: the
    form says the limit when the format is chosen (the page's script shows the chosen format's
    help), and the settings page beside the rounds."""
    club, director = club_with_director(slug="moves-help")
    client.force_login(director)
    page = client.get(reverse("event-create", args=[club.slug])).content.decode()
    found = re.search(r'<script id="format-data" type="application/json">(.*?)</script>', page,
                      re.S)
    assert found is not None
    data = json.loads(found.group(1))
    for name in ("ab_movement", "winners_stay"):
        assert "At most one round per table" in data[name]["rounds_help"], data[name]
    assert "one round per table" not in data["swiss"]["rounds_help"]
    event, director = _event("ab_movement", 6, rounds=2)
    client.force_login(director)
    form = client.get(reverse("event-edit", args=[event.pk])).context["form"]
    assert "At most one round per table" in str(form["rounds_planned"].help_text)
    swiss, _ = _event("swiss", 4, rounds=2)
    client.force_login(_)
    form = client.get(reverse("event-edit", args=[swiss.pk])).context["form"]
    assert "one round per table" not in str(form["rounds_planned"].help_text)

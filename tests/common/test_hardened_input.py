"""Input that used to end in a 500 answers 400 (or the page as usual), and stores nothing:
out-of-range seasons and bye points, JSON nested thousands deep, over-long idempotency keys,
lone surrogates and infinite numbers in JSON bodies."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import Club
from common.errors import DomainError
from common.parsers import MAX_DEPTH, check_json_value
from scoring.models import HandRevision
from scoring.services import event_settings_update
from tests.clubs.factories import club_with_director
from tests.scoring.factories import member, seated_table, values
from tests.tournaments.factories import EventFactory
from tournaments import services as events
from tournaments.models import Event

pytestmark = pytest.mark.django_db

HUGE = 2**31  # one past the 32-bit column


def _fields(response: Any) -> list[str]:
    return [e["field"] for e in response.json()["errors"]]


def _post_json(api: APIClient, path: str, body: str, **headers: str) -> Any:
    return api.generic("POST", path, body, content_type="application/json", headers=headers)


# --- the club page's season -----------------------------------------------------------------------
@pytest.mark.parametrize("season", ["-1", "0", "1", "999", "10000", "99999", "9" * 30, "9" * 5000,
                                    "2025.5", "２０２５", " ", "abc", "1e3"])
def test_any_season_on_the_club_page_shows_a_page(client, season: str) -> None:
    club, _ = club_with_director(slug="seasons")
    EventFactory(club=club, date=datetime.date(2019, 6, 1), status="finished")
    response = client.get(f"/clubs/{club.slug}/", {"season": season})
    assert response.status_code == 200
    assert response.context["season"].name == "2019"  # the only year with events


def test_a_real_season_is_still_shown(client) -> None:
    club, _ = club_with_director(slug="seasons")
    for year in (2019, 2021):
        EventFactory(club=club, date=datetime.date(year, 6, 1), status="finished")
    response = client.get(f"/clubs/{club.slug}/", {"season": "2019"})
    assert response.status_code == 200 and response.context["season"].name == "2019"


# --- bye points -----------------------------------------------------------------------------------
@pytest.mark.parametrize("points", [HUGE, -HUGE - 1, 10**20, 100_001])
def test_out_of_range_bye_points_are_a_field_error_on_the_event_form(client, points: int) -> None:
    club, director = club_with_director(slug="byes")
    client.force_login(director)
    data = {"name": "Night", "date": "2026-11-20", "ruleset_preset": "pagat_double_deck",
            "rounds_planned": 4, "deals_per_round": 8, "bye_scoring": "fixed",
            "bye_points": str(points), "is_public": "on"}
    response = client.post(reverse("event-create", args=[club.slug]), data)
    assert response.status_code == 200
    assert "bye_points" in response.context["form"].errors
    assert not Event.objects.exists()

    event = EventFactory(club=club, bye_points=5)
    edited = client.post(reverse("event-edit", args=[event.pk]), data)
    assert edited.status_code == 200 and "bye_points" in edited.context["form"].errors
    event.refresh_from_db()
    assert event.bye_points == 5


@pytest.mark.parametrize("points", [HUGE, -HUGE - 1, 10**20])
def test_out_of_range_bye_points_are_a_field_error_in_the_api(points: int) -> None:
    club, director = club_with_director(slug="byes")
    api = APIClient()
    api.force_authenticate(director)
    created = api.post("/api/events/", {"club": club.slug, "name": "Night", "date": "2026-11-20",
                                        "bye_points": points}, format="json")
    assert created.status_code == 400 and _fields(created) == ["bye_points"]
    assert not Event.objects.exists()
    event = EventFactory(club=club, bye_points=5)
    patched = api.patch(f"/api/events/{event.pk}/", {"bye_points": points}, format="json")
    assert patched.status_code == 400 and _fields(patched) == ["bye_points"]
    event.refresh_from_db()
    assert event.bye_points == 5


def test_the_event_services_refuse_out_of_range_bye_points() -> None:
    club, director = club_with_director(slug="byes")
    with pytest.raises(DomainError) as created:
        events.event_create(club=club, name="Night", date=datetime.date(2026, 11, 20),
                            bye_scoring="fixed", bye_points=HUGE, actor=director)
    assert created.value.field == "bye_points"
    assert not Event.objects.exists()
    event = EventFactory(club=club, bye_points=5)
    with pytest.raises(DomainError) as updated:
        event_settings_update(event=event, name=event.name, date=event.date,
                              ruleset_preset=event.ruleset_preset, rounds_planned=4,
                              deals_per_round=4, bye_scoring="fixed", bye_points=-HUGE - 1)
    assert updated.value.field == "bye_points"
    event.refresh_from_db()
    assert event.bye_points == 5
    ok = events.event_create(club=club, name="Fine", date=datetime.date(2026, 11, 20),
                             bye_scoring="fixed", bye_points=-100_000)
    assert ok.bye_points == -100_000


# --- JSON bodies ----------------------------------------------------------------------------------
def _deep(levels: int) -> str:
    return "[" * levels + "]" * levels


def _deep_object(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


@pytest.mark.parametrize("body", [_deep(5000), _deep_object(5000), _deep(MAX_DEPTH + 1),
                                  '{"name": ' + _deep(5000) + "}"])
def test_json_nested_thousands_deep_is_a_400_on_every_kind_of_endpoint(body: str) -> None:
    club, director = club_with_director(slug="deep")
    table = seated_table(club=club)
    api = APIClient()
    api.force_authenticate(director)
    paths = ["/api/clubs/", f"/api/clubs/{club.slug}/players/", "/api/events/",
             f"/api/tables/{table.token}/hands/", f"/api/tables/{table.token}/check/",
             f"/api/events/{table.round.event_id}/hands/"]
    for path in paths:
        response = _post_json(api, path, body)
        assert response.status_code == 400, (path, response.content[:200])
        assert response.json()["errors"][0]["field"] == "__all__"
    patched = api.generic("PATCH", f"/api/events/{table.round.event_id}/", body,
                          content_type="application/json")
    assert patched.status_code == 400
    assert Club.objects.count() == 1 and HandRevision.objects.count() == 0


def test_ordinary_nesting_still_parses() -> None:
    check_json_value({"meld": {"NS": 24, "EW": 32}, "list": [[1], [2]]})


@pytest.mark.parametrize("field", ["dealer", "bidder", "trump", "outcome", "renege_seat",
                                   "idempotency_key"])
def test_a_lone_surrogate_in_a_hand_is_a_400_on_that_field(field: str) -> None:
    table = seated_table()
    body = json.dumps({"number": 1, **values(), field: "\ud800"})  # json escapes it: "\ud800"
    assert "\\ud800" in body
    response = _post_json(APIClient(), f"/api/tables/{table.token}/hands/", body)
    assert response.status_code == 400
    assert _fields(response) == [field]
    assert HandRevision.objects.count() == 0


def test_lone_surrogates_anywhere_are_refused_and_never_echoed() -> None:
    club, director = club_with_director(slug="text")
    table = seated_table(club=club)
    api = APIClient()
    api.force_authenticate(director)
    cases = [
        ("/api/clubs/", {"name": "Club \udfff"}, "name"),
        (f"/api/clubs/{club.slug}/players/", {"name": "\ud83d"}, "name"),
        ("/api/events/", {"club": club.slug, "name": "x", "date": "2026-11-20",
                          "tie_breaks": ["points", "\udc00"]}, "tie_breaks"),
        (f"/api/tables/{table.token}/check/", {**values(), "meld": {"\ud800": 1}}, "meld"),
        (f"/api/events/{table.round.event_id}/hands/",
         {**values(), "number": 1, "round": 1, "table": 1, "note": "late \ud800"}, "note"),
    ]
    for path, data, field in cases:
        response = _post_json(api, path, json.dumps(data))
        assert response.status_code == 400, (path, response.content[:300])
        assert _fields(response) == [field], (path, response.json())
        response.content.decode("utf-8")  # the error itself is valid UTF-8
    assert Club.objects.count() == 1 and HandRevision.objects.count() == 0
    # A proper pair (one emoji, written as two escapes) is fine.
    fine = _post_json(api, f"/api/clubs/{club.slug}/players/", '{"name": "Ann \\ud83d\\ude00"}')
    assert fine.status_code == 201 and fine.json()["name"] == "Ann \U0001f600"


def test_an_infinite_number_is_a_400() -> None:
    table = seated_table()
    body = json.dumps({"number": 1, **values()}).replace('"bid": 51', '"bid": 1e999')
    response = _post_json(APIClient(), f"/api/tables/{table.token}/hands/", body)
    assert response.status_code == 400
    assert HandRevision.objects.count() == 0


# --- idempotency keys -----------------------------------------------------------------------------
def test_an_idempotency_key_longer_than_64_is_a_400_on_its_field() -> None:
    table = seated_table()
    scorer = member(table.round.event.club, "director", "desk")
    long_key = "k" * 65
    api = APIClient()
    hand = {"number": 1, **values()}
    by_header = api.post(f"/api/tables/{table.token}/hands/", hand, format="json",
                         headers={"Idempotency-Key": long_key})
    assert by_header.status_code == 400 and _fields(by_header) == ["idempotency_key"]
    by_body = api.post(f"/api/tables/{table.token}/hands/", {**hand, "idempotency_key": long_key},
                       format="json")
    assert by_body.status_code == 400 and _fields(by_body) == ["idempotency_key"]
    api.force_authenticate(scorer)
    desk = api.post(f"/api/events/{table.round.event_id}/hands/",
                    {**hand, "round": 1, "table": 1}, format="json",
                    headers={"Idempotency-Key": long_key})
    assert desk.status_code == 400 and _fields(desk) == ["idempotency_key"]
    assert HandRevision.objects.count() == 0
    stored = api.post(f"/api/tables/{table.token}/hands/", hand, format="json",
                      headers={"Idempotency-Key": "k" * 64})
    assert stored.status_code == 201
    correction = api.put(f"/api/hands/{stored.json()['hand_id']}/",
                         {**values(bid=52), "expected_revision": 1}, format="json",
                         headers={"Idempotency-Key": long_key})
    assert correction.status_code == 400 and _fields(correction) == ["idempotency_key"]
    assert HandRevision.objects.count() == 1

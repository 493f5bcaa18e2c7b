"""The NUL character, which no PostgreSQL text column stores, is a 400 naming the field wherever
it comes in: a query parameter, a form field (its value or its name), a JSON body. It used to
reach the database and end in a 500 (``GET /api/events/?club=%00``)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Club, Player
from tests.clubs.factories import club_with_director

pytestmark = pytest.mark.django_db


def _errors(response) -> list[dict[str, str]]:
    return response.json()["errors"]


@pytest.mark.parametrize("query", ["club=%00", "club=riv%00erside", "status=%00", "x%00=1"])
def test_a_nul_in_a_query_parameter_is_a_400_naming_it(query: str) -> None:
    club_with_director(slug="riverside")
    response = Client().get(f"/api/events/?{query}")
    assert response.status_code == 400, response.content[:300]
    field = query.split("=")[0].replace("%00", "\\x00")
    assert _errors(response)[0]["field"] == field
    assert "Null characters" in _errors(response)[0]["message"]
    # the same parameter without it is answered as before
    assert Client().get("/api/events/?club=riverside").status_code == 200


def test_a_nul_in_a_page_query_is_a_400() -> None:
    club, _ = club_with_director(slug="riverside")
    assert Client().get(f"/clubs/{club.slug}/", {"season": "20\x0019"}).status_code == 400


def test_a_nul_in_a_form_field_is_a_400_and_stores_nothing() -> None:
    club, director = club_with_director(slug="riverside")
    client = Client()
    client.force_login(director)
    before = Player.objects.count()
    for data in ({"name": "Ann\x00"}, {"name": "Ann", "email\x00": "x"}):
        response = client.post(f"/clubs/{club.slug}/manage/players/", data)
        assert response.status_code == 400
        assert _errors(response)[0]["field"] in ("name", "email\\x00")
    assert Player.objects.count() == before
    # url-encoded forms too (the client's default is multipart)
    response = client.post("/clubs/new/", "name=Club%00&slug=c",
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code == 400 and _errors(response)[0]["field"] == "name"
    assert Club.objects.count() == 1


def test_a_nul_in_a_json_body_is_a_400_naming_the_field() -> None:
    club, director = club_with_director(slug="riverside")
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(f"/api/clubs/{club.slug}/players/", {"name": "Ann\x00"}, format="json")
    assert response.status_code == 400
    assert _errors(response)[0]["field"] == "name"
    response = api.post(f"/api/clubs/{club.slug}/players/", {"name": "Ann", "x\x00": 1},
                        format="json")
    assert response.status_code == 400
    assert Player.objects.filter(club_links__club=club).count() == 0

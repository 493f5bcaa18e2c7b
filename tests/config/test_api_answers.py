"""How the API answers beyond its views: a path no route takes answers the API's JSON 404 (not
the site's HTML page), and the answers holding a table's state or a person's own data are never
stored by a browser or a shared cache (``Cache-Control: no-store``)."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.scoring.factories import seated_table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", [
    "/api/events/abc/", "/api/events/1.5/rounds/", "/api/events/-1/", "/api/clubs/x/y/z/",
    "/api/events/99999999999999999999999/", "/api/nowhere/",
])
def test_an_api_path_with_a_malformed_id_answers_the_apis_json_404(path: str) -> None:
    _, director = club_with_director(slug="home")
    api = APIClient()
    api.force_authenticate(director)
    response = api.get(path)
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    (error,) = response.json()["errors"]
    assert error["code"] == "not_found" and error["field"] == "__all__"


def test_a_site_page_that_is_not_there_is_still_the_html_404(client) -> None:
    response = client.get("/events/abc/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_the_table_api_and_its_calls_are_never_stored() -> None:
    table = seated_table()
    api = APIClient()
    for response in (api.get(f"/api/tables/{table.token}/"),
                     api.get(f"/api/tables/{table.token}/calls/"),
                     api.get(f"/api/tables/{table.token}/status/"),
                     api.post(f"/api/tables/{table.token}/check/", {}, format="json"),
                     api.get("/api/tables/not-a-token/")):
        assert response["Cache-Control"] == "no-store", response.request["PATH_INFO"]
    assert api.get(f"/api/tables/{table.token}/").status_code == 200


def test_a_persons_own_data_is_never_stored(client) -> None:
    user = UserFactory(username="rita")
    PlayerFactory(user=user, name="Rita Roster")
    api = APIClient()
    api.force_authenticate(user)
    mine = api.get("/api/me/data/")
    assert mine.status_code == 200 and mine["Cache-Control"] == "no-store"
    client.force_login(user)
    page = client.get(reverse("privacy-data"))
    assert page.status_code == 200 and page["Cache-Control"] == "no-store"
    assert client.get(reverse("privacy-data-download"))["Cache-Control"] == "no-store"
    # the rest of the API is not touched
    assert "no-store" not in APIClient().get("/api/clubs/").get("Cache-Control", "")


def test_an_id_too_large_for_the_database_is_a_json_404() -> None:
    _, director = club_with_director(slug="home")
    api = APIClient()
    api.force_authenticate(director)
    for response in (api.post("/api/events/99999999999999999999999/advance/", {"held": True},
                              format="json"),
                     api.get("/api/events/99999999999999999999999/")):
        assert response.status_code == 404
        assert response.json()["errors"][0]["code"] == "not_found"

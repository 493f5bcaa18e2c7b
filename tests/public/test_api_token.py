"""API tokens: the signed-in user's token page and ``manage.py drf_create_token``."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.clubs.factories import UserFactory, club_with_director

pytestmark = pytest.mark.django_db


def test_drf_create_token_makes_a_working_token() -> None:
    club, director = club_with_director(slug="home", is_public=False)
    out = io.StringIO()
    call_command("drf_create_token", director.username, stdout=out)
    key = Token.objects.get(user=director).key
    assert key in out.getvalue()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get(f"/api/clubs/{club.slug}/").status_code == 200
    assert APIClient().get(f"/api/clubs/{club.slug}/").status_code == 404
    call_command("drf_create_token", director.username, "--reset", stdout=io.StringIO())
    assert Token.objects.get(user=director).key != key


def test_the_token_page_needs_a_login(client: Client) -> None:
    response = client.get(reverse("api-token"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert client.post(reverse("api-token")).status_code == 302
    assert not Token.objects.exists()


def test_create_see_and_regenerate_a_token(client: Client) -> None:
    user = UserFactory(username="director")
    client.force_login(user)
    page = client.get(reverse("api-token"))
    assert page.status_code == 200 and b"Create a token" in page.content
    created = client.post(reverse("api-token"))
    assert created.status_code == 302 and created["Location"] == reverse("api-token")
    key = Token.objects.get(user=user).key
    shown = client.get(reverse("api-token"))
    assert key.encode() in shown.content and b"Make a new token" in shown.content
    client.post(reverse("api-token"))
    new_key = Token.objects.get(user=user).key
    assert new_key != key
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.post("/api/clubs/", {"name": "Old key"}, format="json").status_code == 401
    api.credentials(HTTP_AUTHORIZATION=f"Token {new_key}")
    assert api.post("/api/clubs/", {"name": "New key"}, format="json").status_code == 201


def test_the_token_page_is_csrf_protected() -> None:
    user = UserFactory(username="director")
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    assert client.post(reverse("api-token")).status_code == 403
    assert not Token.objects.exists()


def test_the_user_menu_links_to_the_token_page(client: Client) -> None:
    assert reverse("api-token").encode() not in client.get("/").content
    # A player has no use for it; a director of a club is offered it.
    client.force_login(UserFactory(username="player"))
    assert reverse("api-token").encode() not in client.get("/").content
    _, director = club_with_director(slug="token-club")
    client.force_login(director)
    assert f'href="{reverse("api-token")}"'.encode() in client.get("/").content


@pytest.mark.parametrize("how", ["wrong", "regenerated", "inactive", "none"])
def test_a_bad_or_missing_token_is_a_401_asking_for_a_token(how: str) -> None:
    """REST's convention (and DRF's, with token authentication first): a credential that is
    missing or not accepted is a 401 with ``WWW-Authenticate: Token``, not a 403."""
    club, director = club_with_director(slug="home")
    token = Token.objects.create(user=director)
    key = token.key
    if how == "regenerated":
        token.delete()
        Token.objects.create(user=director)
    elif how == "inactive":
        director.is_active = False
        director.save(update_fields=["is_active"])
    elif how == "wrong":
        key = "0" * 40
    api = APIClient()
    if how != "none":
        api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    for response in (api.post("/api/clubs/", {"name": "New"}, format="json"),
                     api.post(f"/api/clubs/{club.slug}/players/", {"name": "Ann"}, format="json")):
        assert response.status_code == 401, response.content
        assert response["WWW-Authenticate"] == "Token"
        assert response.json()["errors"][0]["field"] == "__all__"
    if how != "none":  # a bad token is refused even where anonymous reading is allowed
        assert api.get(f"/api/clubs/{club.slug}/").status_code == 401


def test_a_signed_in_browser_still_uses_its_session_and_a_role_refusal_stays_403(
        client: Client) -> None:
    club, director = club_with_director(slug="home")
    outsider = UserFactory(username="outsider")
    client.force_login(director)
    assert client.post(f"/api/clubs/{club.slug}/players/", {"name": "Ann"},
                       content_type="application/json").status_code == 201
    client.force_login(outsider)
    assert client.post(f"/api/clubs/{club.slug}/players/", {"name": "Bob"},
                       content_type="application/json").status_code == 403

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
    assert api.post("/api/clubs/", {"name": "Old key"}, format="json").status_code in (401, 403)
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

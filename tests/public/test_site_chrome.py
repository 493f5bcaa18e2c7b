"""The site's frame: the icon browsers ask for, the navigation by role, the admin's words."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from clubs.models import Membership
from tests.clubs.factories import ClubFactory, UserFactory, club_with_director
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


def test_favicon_answers_with_an_icon(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 200 and response["Content-Type"] == "image/x-icon"
    body = response.content
    assert body[:4] == b"\x00\x00\x01\x00" and b"PNG" in body[:40]  # an ICO holding a PNG
    page = client.get(reverse("home")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg"' in page
    assert client.get("/static/favicon.svg").status_code == 200


def test_api_links_are_offered_to_directors_only(client: Client) -> None:
    club = ClubFactory(slug="home")
    player = UserFactory(username="player")
    Membership.objects.create(club=club, user=player, role=Membership.Role.MEMBER)
    for html in (client.get(reverse("home")).content.decode(),):  # a visitor
        assert 'id="nav-api"' not in html and 'id="nav-api-token"' not in html
    client.force_login(player)
    html = client.get(reverse("home")).content.decode()
    assert 'id="nav-api"' not in html and 'id="nav-api-token"' not in html
    assert ">API token<" not in html and ">API<" not in html
    _, director = club_with_director(slug="other")
    client.force_login(director)
    html = client.get(reverse("home")).content.decode()
    assert 'id="nav-api"' in html and 'id="nav-api-token"' in html


def test_the_admin_says_entries(client: Client) -> None:
    assert Entry._meta.verbose_name_plural == "entries"
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "pw-12345678")
    client.force_login(admin)
    html = client.get(reverse("admin:index")).content.decode()
    assert ">Entries<" in html and "Entrys" not in html

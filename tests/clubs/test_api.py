"""Club API: creating a club (the creator owns it), the roster, merging duplicates, roles."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Club, Membership, Player
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db


def _fields(response: Any) -> list[str]:
    return [e["field"] for e in response.json()["errors"]]


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def test_a_signed_in_user_creates_a_club_and_owns_it(api: APIClient) -> None:
    user = UserFactory(username="founder")
    api.force_authenticate(user)
    response = api.post("/api/clubs/", {"name": "Tuesday Pinochle"}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["slug"] == "tuesday-pinochle" and body["is_public"] is True
    club = Club.objects.get(slug="tuesday-pinochle")
    assert Membership.objects.get(club=club, user=user).role == "owner"
    chosen = api.post("/api/clubs/", {"name": "Other", "slug": "my-club", "is_public": False},
                      format="json")
    assert chosen.status_code == 201 and chosen.json()["slug"] == "my-club"
    taken = api.post("/api/clubs/", {"name": "Again", "slug": "my-club"}, format="json")
    assert taken.status_code == 400 and _fields(taken) == ["slug"]
    nameless = api.post("/api/clubs/", {"name": "  "}, format="json")
    assert nameless.status_code == 400 and _fields(nameless) == ["name"]
    bad_zone = api.post("/api/clubs/", {"name": "Zoned", "time_zone": "Mars/Olympus"},
                        format="json")
    assert bad_zone.status_code == 400 and _fields(bad_zone) == ["time_zone"]
    bad_rules = api.post("/api/clubs/", {"name": "Ruled", "ruleset_preset": "nope"},
                         format="json")
    assert bad_rules.status_code == 400 and _fields(bad_rules) == ["ruleset_preset"]


def test_anonymous_cannot_create_a_club(api: APIClient) -> None:
    response = api.post("/api/clubs/", {"name": "Nobody's"}, format="json")
    assert response.status_code in (401, 403)
    assert not Club.objects.exists()


def test_players_are_added_by_directors(api: APIClient) -> None:
    club, director = club_with_director(slug="home")
    api.force_authenticate(director)
    response = api.post("/api/clubs/home/players/", {"name": "Ada Lovelace"}, format="json")
    assert response.status_code == 201
    player = Player.objects.get(pk=response.json()["id"])
    assert player.club_links.filter(club=club).exists()
    twice = api.post("/api/clubs/home/players/", {"name": "ada  lovelace"}, format="json")
    assert twice.status_code == 400 and _fields(twice) == ["name"]
    listed = api.get("/api/clubs/home/players/").json()
    assert [p["name"] for p in listed] == ["Ada Lovelace"]


def test_merge_a_duplicate_player(api: APIClient) -> None:
    club, director = club_with_director(slug="home")
    event = event_with_players(club=club, players=1)
    duplicate = event.entries.get().player
    keep = PlayerFactory(club=club, name="Keeper")
    api.force_authenticate(director)
    response = api.post("/api/clubs/home/players/merge/",
                        {"keep": keep.pk, "duplicate": duplicate.pk}, format="json")
    assert response.status_code == 200 and response.json() == {"id": keep.pk, "name": "Keeper"}
    assert not Player.objects.filter(pk=duplicate.pk).exists()
    assert event.entries.get().player_id == keep.pk
    same = api.post("/api/clubs/home/players/merge/", {"keep": keep.pk, "duplicate": keep.pk},
                    format="json")
    assert same.status_code == 400 and _fields(same) == ["duplicate"]


def test_merge_refuses_another_clubs_player_without_naming_them(api: APIClient) -> None:
    _, director = club_with_director(slug="home")
    club_b, _ = club_with_director(slug="elsewhere", is_public=False)
    stranger = PlayerFactory(club=club_b, name="Hidden Person")
    mine = PlayerFactory(club=Club.objects.get(slug="home"))
    api.force_authenticate(director)
    response = api.post("/api/clubs/home/players/merge/",
                        {"keep": mine.pk, "duplicate": stranger.pk}, format="json")
    assert response.status_code == 400 and _fields(response) == ["duplicate"]
    assert "Hidden" not in response.content.decode()
    assert Player.objects.filter(pk=stranger.pk).exists()


def test_owners_give_roles(api: APIClient) -> None:
    owner = UserFactory(username="owner")
    api.force_authenticate(owner)
    slug = api.post("/api/clubs/", {"name": "Roles"}, format="json").json()["slug"]
    helper = UserFactory(username="helper")
    response = api.post(f"/api/clubs/{slug}/members/", {"username": "helper", "role": "scorer"},
                        format="json")
    assert response.status_code == 200
    assert response.json() == {"username": "helper", "role": "scorer"}
    assert Membership.objects.get(user=helper, club__slug=slug).role == "scorer"
    members = api.get(f"/api/clubs/{slug}/members/").json()
    assert {(m["username"], m["role"]) for m in members} == {("owner", "owner"),
                                                              ("helper", "scorer")}
    nobody = api.post(f"/api/clubs/{slug}/members/", {"username": "ghost", "role": "scorer"},
                      format="json")
    assert nobody.status_code == 400 and _fields(nobody) == ["username"]
    bad_role = api.post(f"/api/clubs/{slug}/members/", {"username": "helper", "role": "king"},
                        format="json")
    assert bad_role.status_code == 400 and _fields(bad_role) == ["role"]
    last_owner = api.post(f"/api/clubs/{slug}/members/", {"username": "owner", "role": "member"},
                          format="json")
    assert last_owner.status_code == 400 and _fields(last_owner) == ["role"]

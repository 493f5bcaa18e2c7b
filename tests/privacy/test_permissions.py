"""Who may have a player's data: the person themselves (pages and API, only ever their own),
a director of the player's club for that club's rows (a button on the player's club page,
and the API), never another club's director, a member, or anyone signed out."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from clubs.models import Membership
from privacy.models import PrivacyLog
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.privacy.world import World, build_world
from tests.shared import module_data

pytestmark = pytest.mark.django_db


@module_data
def world() -> World:
    """Built once for the module: its tests only read it."""
    return build_world()


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_signed_out_people_get_nothing(world: World) -> None:
    client = Client()
    assert client.get(reverse("api-me-data")).status_code == 401
    assert client.post(reverse("api-me-erase"), {"confirm": "sam"},
                       content_type="application/json").status_code == 401
    for name in ("privacy-data", "privacy-data-download", "privacy-erase"):
        answer = client.get(reverse(name))
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]
    url = reverse("api-club-player-data", args=["riverside", world.subject.pk])
    assert client.get(url).status_code == 401
    assert not PrivacyLog.objects.exists()


def test_each_person_gets_only_their_own_data(world: World) -> None:
    stranger = UserFactory(username="bob")
    bob = PlayerFactory(club=world.club, name="Bob Stranger")
    type(bob).objects.filter(pk=bob.pk).update(user=stranger)
    answer = _client(stranger).get(reverse("api-me-data"))
    assert answer.status_code == 200
    text = json.dumps(answer.json())
    assert answer.json()["player"]["name"] == "Bob Stranger"
    assert "Samantha Quill" not in text and "sam@example.org" not in text
    # the token works too, and gives the token's owner's data
    token = Token.objects.get(user=world.user)
    mine = Client().get(reverse("api-me-data"), HTTP_AUTHORIZATION=f"Token {token.key}")
    assert mine.status_code == 200 and mine.json()["account"]["username"] == "sam"
    assert len(mine.json()["events"]) == 3


def test_the_data_page_and_its_download(world: World) -> None:
    client = _client(world.user)
    page = client.get(reverse("privacy-data"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Samantha Quill" in text and "3 events" in text and "4 games" in text
    download = client.get(reverse("privacy-data-download"))
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith('attachment; filename="pinochle-data-sam-')
    document = json.loads(download.content)
    assert document["account"]["username"] == "sam"
    assert [e["event"]["name"] for e in document["events"]] == [
        "Riverside NPA day", "Riverside club night", "Hilltop night"]


def test_a_director_exports_their_own_clubs_rows_for_a_player(world: World) -> None:
    client = _client(world.director)
    page = client.get(reverse("player-conduct", args=["riverside", world.subject.pk]))
    assert page.status_code == 200
    assert reverse("privacy-club-player-data", args=["riverside", world.subject.pk]).encode() \
        in page.content
    answer = client.post(reverse("privacy-club-player-data",
                                 args=["riverside", world.subject.pk]))
    assert answer.status_code == 200
    document = json.loads(answer.content)
    assert document["scope"]["club"] == "riverside"
    assert document["account"] is None  # the account is the person's, not the club's
    assert [e["event"]["name"] for e in document["events"]] == [
        "Riverside NPA day", "Riverside club night"]  # not the other club's night
    assert "Hilltop" not in json.dumps(document["events"])
    assert [c["club"] for c in document["player"]["clubs"]] == ["riverside"]
    assert "league.PlayerRating" in document["withheld"]
    api = client.get(reverse("api-club-player-data", args=["riverside", world.subject.pk]))
    assert api.status_code == 200 and api.json()["player"]["id"] == world.subject.pk
    logs = PrivacyLog.objects.filter(action="export")
    assert [(log.club_id, log.player_id, log.actor_id) for log in logs] == [
        (world.club.pk, world.subject.pk, world.director.pk)] * 2


def test_no_director_exports_another_clubs_player(world: World) -> None:
    stranger_club_player = PlayerFactory(club=world.other_club, name="Hilltop only")
    client = _client(world.other_director)
    # through the subject's club: not their club
    url = reverse("api-club-player-data", args=["riverside", world.subject.pk])
    assert client.get(url).status_code == 403
    assert client.post(reverse("privacy-club-player-data",
                               args=["riverside", world.subject.pk])).status_code == 403
    # through their own club: a player their club never knew
    riverside_only = world.others[0]
    url = reverse("api-club-player-data", args=["hilltop", riverside_only.pk])
    assert client.get(url).status_code == 404
    # and the riverside director cannot reach a hilltop-only player either
    url = reverse("api-club-player-data", args=["riverside", stranger_club_player.pk])
    assert _client(world.director).get(url).status_code == 404
    assert not PrivacyLog.objects.exists()


def test_a_member_or_the_player_cannot_use_the_directors_export(world: World) -> None:
    member = UserFactory(username="member")
    Membership.objects.create(club=world.club, user=member, role=Membership.Role.MEMBER)
    for user in (member, world.user):
        client = _client(user)
        url = reverse("api-club-player-data", args=["riverside", world.subject.pk])
        assert client.get(url).status_code == 403
    # the player's own club page shows them no director's button
    page = _client(world.user).get(reverse("player-conduct", args=["riverside",
                                                                   world.subject.pk]))
    assert page.status_code == 200 and b"player-data-export" not in page.content

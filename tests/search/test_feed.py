"""The open data feed of a public club's finished results: what is in it, paging, the links,
the private club's 404 and the refusals."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.urls import reverse

import formats
from clubs.models import ClubPlayer, Membership, Player
from standings.models import StandingsSnapshot
from tests.clubs.factories import ClubFactory, UserFactory
from tests.tournaments.factories import EntryFactory, EventFactory
from tournaments.models import Entry, Event, Pair

pytestmark = pytest.mark.django_db

FINISHED = Event.Status.FINISHED
PAIR_FORMAT = next(name for name in formats.names() if formats.get(name).pairs)


def entered(event: Event, name: str, **kwargs: Any) -> Entry:
    player = Player.objects.create(name=name)
    ClubPlayer.objects.get_or_create(club=event.club, player=player)
    return EntryFactory(event=event, player=player, **kwargs)


def feed(client: Any, slug: str, **params: Any) -> Any:
    return client.get(reverse("api-club-results", args=[slug]), params)


@pytest.fixture
def club() -> Any:
    club = ClubFactory(name="Elm Street", slug="elm")
    night = EventFactory(club=club, name="Tuesday night", date=datetime.date(2024, 5, 7),
                         status=FINISHED)
    ann, bob = entered(night, "Ann Able"), entered(night, "Bob Baker")
    gone = entered(night, "Withdrawn player")
    Player.objects.filter(pk=gone.player_id).update(
        erased_at=datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC))
    StandingsSnapshot.objects.create(event=night, placements=[
        {"place": 1, "entry_id": bob.pk, "name": "Bob Baker", "stage": "qualifying",
         "prize": "20.00"},
        {"place": 2, "entry_id": ann.pk, "name": "Ann Able", "stage": "qualifying",
         "prize": None},
        {"place": 3, "entry_id": gone.pk, "name": "Withdrawn player", "stage": "qualifying",
         "prize": None},
    ])
    cup = EventFactory(club=club, name="Pairs cup", date=datetime.date(2024, 6, 1),
                       status=FINISHED, format=PAIR_FORMAT, partnership="fixed")
    pair = Pair.objects.create(event=cup, name="Cy & Di")
    cy, di = entered(cup, "Cy Cole", pair=pair), entered(cup, "Di Dunn", pair=pair)
    StandingsSnapshot.objects.create(event=cup, placements=[
        {"place": 1, "pair_id": pair.pk, "entry_id": cy.pk, "name": "Cy & Di",
         "stage": "final", "group": "", "prize": None}])
    for name, kwargs in (("Hidden night", {"is_public": False, "status": FINISHED}),
                         ("Draft night", {}), ("Running night", {"status": Event.Status.RUNNING}),
                         ("Cancelled night", {"status": Event.Status.CANCELLED})):
        EventFactory(club=club, name=name, **kwargs)
    return {"club": club, "night": night, "cup": cup, "ann": ann, "bob": bob, "di": di}


def test_the_feed_lists_finished_public_events_latest_first(client, club: dict[str, Any]) -> None:
    response = feed(client, "elm")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 2 and body["next"] is None
    assert body["club"]["slug"] == "elm" and body["club"]["url"].endswith("/clubs/elm/")
    assert [e["name"] for e in body["results"]] == ["Pairs cup", "Tuesday night"]
    night = body["results"][1]
    assert night["date"] == "2024-05-07" and night["player_count"] == 3
    assert [p["name"] for p in night["players"]] == ["Ann Able", "Bob Baker",
                                                     "Withdrawn player"]
    assert [(p["place"], p["name"], p["prize"]) for p in night["placements"]] == [
        (1, "Bob Baker", "20.00"), (2, "Ann Able", None), (3, "Withdrawn player", None)]
    assert night["placements"][0]["players"] == [
        {"player_id": club["bob"].player_id, "name": "Bob Baker"}]
    assert night["placements"][2]["players"] == [{"player_id": None, "name": "Withdrawn player"}]
    assert night["url"] == f"http://testserver/events/{club['night'].pk}/"
    assert night["results_url"] == f"http://testserver/api/events/{club['night'].pk}/standings/"
    assert client.get(night["results_url"]).status_code == 200


def test_a_pair_is_placed_with_both_players(client, club: dict[str, Any]) -> None:
    cup = feed(client, "elm").json()["results"][0]
    assert cup["is_pairs"] is True and cup["format"] == PAIR_FORMAT
    [first] = cup["placements"]
    assert first["pair_id"] is not None and first["stage"] == "final"
    assert [p["name"] for p in first["players"]] == ["Cy Cole", "Di Dunn"]


def test_the_feed_is_paged(client) -> None:
    club = ClubFactory(slug="busy")
    for n in range(23):
        EventFactory(club=club, name=f"Night {n:02d}", status=FINISHED,
                     date=datetime.date(2024, 1, 1) + datetime.timedelta(days=n))
    first = feed(client, "busy").json()
    assert first["count"] == 23 and len(first["results"]) == 20
    assert first["results"][0]["name"] == "Night 22"
    second = client.get(first["next"]).json()
    assert [e["name"] for e in second["results"]] == ["Night 02", "Night 01", "Night 00"]
    assert second["results"][0]["placements"] == []  # finished before places were kept
    assert feed(client, "busy", page=3).status_code == 404


@pytest.mark.parametrize("page", ["0", "-1", "x", "1.5", "9999999999"])
def test_a_bad_page_is_a_400_naming_it(client, club: dict[str, Any], page: str) -> None:
    response = feed(client, "elm", page=page)
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "page"


def test_a_private_club_has_no_feed_even_for_its_members(client) -> None:
    private = ClubFactory(slug="hush", is_public=False)
    EventFactory(club=private, status=FINISHED)
    assert feed(client, "hush").status_code == 404
    user = UserFactory()
    Membership.objects.create(club=private, user=user, role=Membership.Role.OWNER)
    client.force_login(user)
    response = feed(client, "hush")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"
    assert feed(client, "no-such-club").status_code == 404


def test_the_schema_documents_the_feed(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/clubs/{slug}/results/"]["get"]
    assert {"200", "400", "404"} <= set(operation["responses"])
    assert "archive" in str(schema["components"]["schemas"]["FeedEventOutput"])

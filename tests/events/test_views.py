"""Event and club pages and API: the director's flow, and tenancy between clubs."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Player
from draw.services import round_create
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.tournaments.factories import event_with_players
from tournaments.models import Entry, Event, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_clubs():
    club_a, director_a = club_with_director(slug="club-a")
    club_b, director_b = club_with_director(slug="club-b")
    event_a = event_with_players(club=club_a, players=8)
    round_a = round_create(event=event_a)
    return {"club_a": club_a, "director_a": director_a, "club_b": club_b,
            "director_b": director_b, "event_a": event_a, "round_a": round_a}


def test_director_runs_a_night_through_the_pages(client) -> None:
    club, director = club_with_director(slug="home")
    players = [PlayerFactory(club=club) for _ in range(9)]
    client.force_login(director)
    response = client.post(reverse("event-create", args=[club.slug]), {
        "name": "Friday night", "date": "2026-11-20", "ruleset_preset": "pagat_double_deck",
        "rounds_planned": 3, "deals_per_round": 4, "bye_scoring": "average_winning",
        "bye_points": 0, "is_public": "on",
    })
    event = Event.objects.get(name="Friday night")
    assert response.status_code == 302
    response = client.post(reverse("event-checkin", args=[event.pk]),
                           {"players": [p.pk for p in players[:8]], "new_player": "Late Comer"})
    assert response.status_code == 302
    assert event.entries.count() == 9
    assert Player.objects.filter(name="Late Comer", club_links__club=club).exists()
    response = client.post(reverse("round-seat", args=[event.pk]))
    assert response.status_code == 302
    round_ = event.rounds.get()
    page = client.get(reverse("round-detail", args=[event.pk, 1]))
    assert page.status_code == 200
    assert page.content.count(b'class="card table-card"') == 2
    cards = client.get(reverse("round-cards", args=[event.pk, 1]))
    assert cards.status_code == 200
    assert cards.content.count(b"<svg") == 2  # a QR code per table
    # ... encoding the table's day card, valid in every round, not this round's table token
    for day_card in event.table_cards.order_by("number"):
        assert f"/c/{day_card.token}/".encode() in cards.content
    assert list(event.table_cards.values_list("number", flat=True).order_by("number")) == [1, 2]
    for table in round_.tables.all():
        assert f"/t/{table.token}/".encode() not in cards.content
    assert client.get(reverse("round-sheet", args=[event.pk, 1])).status_code == 200
    client.post(reverse("round-start", args=[event.pk, 1]))
    asked = client.post(reverse("round-close", args=[event.pk, 1]))
    assert asked.status_code == 409  # the games are not played: the page lists them and asks
    assert b'id="close-unfinished"' in asked.content and b"Table 2: playing" in asked.content
    round_.refresh_from_db()
    assert round_.status == Round.Status.PLAYING
    client.post(reverse("round-close", args=[event.pk, 1]), {"close_unfinished": "1"})
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED


def test_check_in_form_reports_a_duplicate_new_player_next_to_the_field(client) -> None:
    club, director = club_with_director(slug="home")
    PlayerFactory(club=club, name="Ada Brooks")
    event = event_with_players(club=club, players=0)
    client.force_login(director)
    response = client.post(reverse("event-checkin", args=[event.pk]), {"new_player": "ada brooks"})
    assert response.status_code == 200
    assert b"already on the roster" in response.content
    assert event.entries.count() == 0


def test_event_form_rejects_nonsense_next_to_the_field(client) -> None:
    club, director = club_with_director(slug="home")
    client.force_login(director)
    response = client.post(reverse("event-create", args=[club.slug]), {
        "name": "X", "date": "not a date", "ruleset_preset": "pagat_double_deck",
        "rounds_planned": 0, "bye_scoring": "average_winning",
    })
    assert response.status_code == 200
    form = response.context["form"]
    assert "date" in form.errors and "rounds_planned" in form.errors
    assert not Event.objects.filter(name="X").exists()


@pytest.mark.parametrize(
    ("name", "method"),
    [
        ("event-checkin", "get"), ("round-seat", "post"), ("round-cards", "get"),
        ("round-sheet", "get"), ("round-start", "post"), ("round-swap", "post"),
        ("event-hands-csv", "get"), ("event-finish", "post"),
    ],
)
def test_director_of_another_club_is_refused_on_every_management_page(
    client, two_clubs, name: str, method: str
) -> None:
    event = two_clubs["event_a"]
    args = [event.pk] if name in {"event-checkin", "round-seat", "event-hands-csv", "event-finish"} \
        else [event.pk, 1]
    client.force_login(two_clubs["director_b"])
    response = getattr(client, method)(reverse(name, args=args))
    assert response.status_code in (403, 404)
    assert Round.objects.get(pk=two_clubs["round_a"].pk).status == Round.Status.SEATED
    assert event.rounds.count() == 1


def test_director_of_another_club_cannot_manage_the_club(client, two_clubs) -> None:
    client.force_login(two_clubs["director_b"])
    slug = two_clubs["club_a"].slug
    assert client.get(reverse("club-manage", args=[slug])).status_code == 403
    response = client.post(reverse("club-player-add", args=[slug]), {"name": "Intruder"})
    assert response.status_code == 403
    assert not Player.objects.filter(name="Intruder").exists()


def test_private_club_is_invisible_to_outsiders(client) -> None:
    club, director = club_with_director(slug="secret", is_public=False)
    event = event_with_players(club=club, players=4)
    assert client.get(reverse("club-detail", args=[club.slug])).status_code == 404
    assert client.get(reverse("event-detail", args=[event.pk])).status_code == 404
    client.force_login(director)
    assert client.get(reverse("event-detail", args=[event.pk])).status_code == 200


def test_api_tenancy(two_clubs) -> None:
    api = APIClient()
    token = Token.objects.create(user=two_clubs["director_b"])
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    event = two_clubs["event_a"]
    player = PlayerFactory(club=two_clubs["club_a"])
    assert api.post(f"/api/events/{event.pk}/entries/", {"player_id": player.pk}).status_code == 403
    assert api.post(f"/api/events/{event.pk}/rounds/", {}).status_code == 403
    assert api.get(f"/api/clubs/{two_clubs['club_a'].slug}/players/").status_code == 403
    public_round = api.get(f"/api/events/{event.pk}/rounds/1/")
    assert public_round.status_code == 200
    assert all("token" not in t for t in public_round.json()["tables"])
    assert not Entry.objects.filter(event=event, player=player).exists()


def test_api_check_in_and_seat_as_director(two_clubs) -> None:
    api = APIClient()
    api.force_authenticate(two_clubs["director_a"])
    event = two_clubs["event_a"]
    player = PlayerFactory(club=two_clubs["club_a"])
    response = api.post(f"/api/events/{event.pk}/entries/", {"player_id": player.pk})
    assert response.status_code == 201
    again = api.post(f"/api/events/{event.pk}/entries/", {"player_id": player.pk})
    assert again.status_code == 400
    assert again.json()["errors"][0]["field"] == "player"
    busy = api.post(f"/api/events/{event.pk}/rounds/", {})
    assert busy.status_code == 400
    assert busy.json()["errors"][0]["field"] == "round"


def test_director_edits_settings_and_errors_land_next_to_the_field(client) -> None:
    club, director = club_with_director(slug="home")
    event = event_with_players(club=club, players=4)
    client.force_login(director)
    page = client.get(reverse("event-edit", args=[event.pk]))
    assert page.status_code == 200
    data = {"name": "Renamed night", "date": "2026-11-21", "ruleset_preset": "pagat_double_deck",
            "rounds_planned": 5, "deals_per_round": 6, "bye_scoring": "fixed", "bye_points": 30,
            "tie_breaks": ["points", "wins"], "is_public": "on"}
    assert client.post(reverse("event-edit", args=[event.pk]), data).status_code == 302
    event.refresh_from_db()
    assert (event.name, event.rounds_planned, event.bye_points) == ("Renamed night", 5, 30)
    response = client.post(reverse("event-edit", args=[event.pk]), data | {"rounds_planned": 0})
    assert "rounds_planned" in response.context["form"].errors


def test_settings_are_for_the_clubs_directors_only(client, two_clubs) -> None:
    client.force_login(two_clubs["director_b"])
    event = two_clubs["event_a"]
    assert client.get(reverse("event-edit", args=[event.pk])).status_code in (403, 404)


def test_api_creates_an_event_for_the_clubs_director_only(two_clubs) -> None:
    api = APIClient()
    payload = {"club": "club-a", "name": "API night", "date": "2026-11-27", "deals_per_round": 4}
    api.force_authenticate(two_clubs["director_b"])
    assert api.post("/api/events/", payload, format="json").status_code == 403
    api.force_authenticate(two_clubs["director_a"])
    bad = api.post("/api/events/", payload | {"rounds_planned": 0}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "rounds_planned"
    response = api.post("/api/events/", payload, format="json")
    assert response.status_code == 201
    assert Event.objects.get(pk=response.json()["id"]).club == two_clubs["club_a"]

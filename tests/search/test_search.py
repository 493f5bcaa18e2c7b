"""The search across public clubs, events and players (PostgreSQL: full-text and trigram), its
page and its API: what is found, what never is, and the refusals naming their parameter."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from clubs.models import Club, ClubPlayer, Player
from search.query import terms_read
from search.selectors import SearchHits, public_players
from tests.clubs.factories import ClubFactory
from tests.tournaments.factories import EntryFactory, EventFactory
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db

FINISHED = Event.Status.FINISHED


def played(player: Player, event: Event) -> None:
    ClubPlayer.objects.get_or_create(club=event.club, player=player)
    EntryFactory(event=event, player=player)


@pytest.fixture
def archive() -> dict[str, Any]:
    """Two public clubs and a private one; public, hidden, draft and cancelled events; players
    on public results, on private results only, on a hidden event only, and one erased."""
    elm = ClubFactory(name="Elm Street Pinochle", slug="elm", time_zone="America/Chicago")
    oak = ClubFactory(name="Oakridge Card Club", slug="oak", time_zone="Europe/Berlin")
    secret = ClubFactory(name="Elm Secret Society", slug="secret", is_public=False)
    spring = EventFactory(club=elm, name="Spring Open", date=datetime.date(2024, 5, 11),
                          status=FINISHED)
    night = EventFactory(club=oak, name="Tuesday club night", date=datetime.date(2024, 6, 4),
                         status=Event.Status.RUNNING)
    hidden = EventFactory(club=elm, name="Spring Private Invitational", is_public=False,
                          date=datetime.date(2024, 5, 12), status=FINISHED)
    draft = EventFactory(club=elm, name="Spring Draft Night", date=datetime.date(2024, 5, 13))
    cancelled = EventFactory(club=elm, name="Spring Cancelled", date=datetime.date(2024, 5, 14),
                             status=Event.Status.CANCELLED)
    private_event = EventFactory(club=secret, name="Spring Secret Cup",
                                 date=datetime.date(2024, 5, 15), status=FINISHED)
    smith = Player.objects.create(name="John Smith")
    played(smith, spring)
    played(smith, private_event)
    jones = Player.objects.create(name="Mary Jones")
    played(jones, night)
    only_private = Player.objects.create(name="Johanna Smithers")
    played(only_private, private_event)
    only_hidden = Player.objects.create(name="John Hidden")
    played(only_hidden, hidden)
    only_draft = Player.objects.create(name="John Drafted")
    played(only_draft, draft)
    erased = Player.objects.create(name="John Erased", erased_at=datetime.datetime(
        2025, 1, 1, tzinfo=datetime.UTC))
    played(erased, spring)
    return {"elm": elm, "oak": oak, "secret": secret, "spring": spring, "night": night,
            "hidden": hidden, "draft": draft, "cancelled": cancelled,
            "private_event": private_event, "smith": smith, "jones": jones}


def names(q: str, kind: str = "") -> list[str]:
    return [hit.name for hit in SearchHits(terms_read(q), kind)[0:50]]


def test_the_tests_run_on_postgresql_with_pg_trgm() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'")
        assert cursor.fetchone() == ("pg_trgm",)


def test_only_public_things_are_found(archive: dict[str, Any]) -> None:
    assert names("spring", "events") == ["Spring Open"]
    assert names("elm", "clubs") == ["Elm Street Pinochle"]
    johns = names("john", "players")
    assert johns[0] == "John Smith"  # and "Mary Jones", misspelt
    assert not {"Johanna Smithers", "John Hidden", "John Drafted", "John Erased"} & set(johns)
    assert set(public_players().values_list("name", flat=True)) == {"John Smith", "Mary Jones"}


def test_misspelt_prefix_and_partial_names_are_found(archive: dict[str, Any]) -> None:
    assert names("Smiht", "players") == ["John Smith"]
    assert names("Jonh Smiht", "players") == ["John Smith"]
    assert names("spr op", "events") == ["Spring Open"]
    assert names("Elm Stret", "clubs") == ["Elm Street Pinochle"]
    assert names("oakrige", "clubs") == ["Oakridge Card Club"]
    assert names("xylophone quartet") == []


def test_a_club_is_found_by_its_place(archive: dict[str, Any]) -> None:
    assert names("Chicago", "clubs") == ["Elm Street Pinochle"]
    assert names("berlin") == ["Oakridge Card Club"]


def test_a_date_narrows_the_events(archive: dict[str, Any]) -> None:
    assert names("2024-05-11") == ["Spring Open"]
    assert names("2024-05") == ["Spring Open"]
    assert names("May 2024") == ["Spring Open"]
    assert names("2024") == ["Tuesday club night", "Spring Open"]  # the latest first
    assert names("tuesday 2024") == ["Tuesday club night"]
    assert names("spring 2023") == []


def test_the_closest_name_ranks_first() -> None:
    club = ClubFactory(name="Ranking club")
    event = EventFactory(club=club, name="Night", status=FINISHED)
    for name in ("Anna Smithson", "Anna Smith", "Bob Smith", "Anna Smiht"):
        played(Player.objects.create(name=name), event)
    found = names("anna smith", "players")
    assert found[0] == "Anna Smith"
    assert set(found) == {"Anna Smith", "Anna Smithson", "Anna Smiht"}  # not Bob


def test_a_player_hit_names_only_public_clubs(archive: dict[str, Any]) -> None:
    [hit] = SearchHits(terms_read("john smith"), "players")[0:5]
    assert [club.name for club in hit.clubs] == ["Elm Street Pinochle"]
    assert hit.url == reverse("player-profile", args=[archive["smith"].pk])


def test_all_kinds_are_ranked_together_and_paged(client, archive: dict[str, Any]) -> None:
    club = Club.objects.get(slug="oak")
    for n in range(23):
        played(Player.objects.create(name=f"Oakley {n:02d}"), archive["night"])
    first = client.get("/api/search/", {"q": "oak"}).json()
    assert first["count"] == 24  # the club and 23 players
    assert len(first["results"]) == 20 and first["previous"] is None
    assert first["results"][0]["kind"] == "club"
    assert first["results"][0]["url"].endswith(reverse("club-detail", args=[club.slug]))
    second = client.get(first["next"]).json()
    assert len(second["results"]) == 4 and second["next"] is None
    seen = [(r["kind"], r["id"]) for r in first["results"] + second["results"]]
    assert len(set(seen)) == 24
    players = client.get("/api/search/", {"q": "oak", "kind": "players", "page": 2}).json()
    assert players["count"] == 23 and len(players["results"]) == 3
    assert {r["kind"] for r in players["results"]} == {"player"}
    assert players["results"][0]["clubs"][0]["slug"] == "oak"


def test_the_api_answers_a_hit_with_what_tells_it_apart(client, archive: dict[str, Any]) -> None:
    body = client.get("/api/search/", {"q": "spring open"}).json()
    [event] = body["results"]
    assert event["kind"] == "event" and event["date"] == "2024-05-11"
    assert event["status"] == "finished" and event["club"]["slug"] == "elm"
    assert event["url"] == f"http://testserver{reverse('event-detail', args=[archive['spring'].pk])}"


@pytest.mark.parametrize(("params", "field", "code"), [
    ({}, "q", "required"),
    ({"q": "   "}, "q", "required"),
    ({"q": "j"}, "q", "min_length"),
    ({"q": "x" * 101}, "q", "max_length"),
    ({"q": "!!"}, "q", "invalid"),
    ({"q": "john", "kind": "teams"}, "kind", "invalid_choice"),
    ({"q": "john", "page": "0"}, "page", "invalid"),
    ({"q": "john", "page": "two"}, "page", "invalid"),
    ({"q": "john", "page": "51"}, "page", "invalid"),
])
def test_bad_parameters_are_a_400_naming_them(client, params: dict[str, str], field: str,
                                               code: str) -> None:
    response = client.get("/api/search/", params)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == (field, code)


def test_a_page_past_the_last_is_a_404(client, archive: dict[str, Any]) -> None:
    response = client.get("/api/search/", {"q": "spring", "page": 2})
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_the_search_page_groups_the_hits(client, archive: dict[str, Any]) -> None:
    html = client.get(reverse("search"), {"q": "spring"}).content.decode()
    events = html.split('id="group-events"', 1)[1].split("</section>", 1)[0]
    assert "Spring Open" in events and 'href="/events/' in events
    for never in ("Private Invitational", "Draft Night", "Cancelled", "Secret"):
        assert never not in html
    assert "No clubs found." in html and "No players found." in html


def test_the_search_page_pages_one_kind(client, archive: dict[str, Any]) -> None:
    for n in range(25):
        played(Player.objects.create(name=f"Mary Jones {n:02d}"), archive["night"])
    html = client.get(reverse("search"), {"q": "mary jones"}).content.decode()
    assert "All 26 players" in html
    html = client.get(reverse("search"), {"q": "mary jones", "kind": "players",
                                          "page": 2}).content.decode()
    assert "Page 2 of 2" in html and html.count('class="hit player"') == 6
    assert 'rel="prev"' in html and 'rel="next"' not in html


def test_the_search_page_shows_a_bad_query_beside_the_field(client) -> None:
    response = client.get(reverse("search"), {"q": ""})
    assert response.status_code == 400
    assert 'data-field="q"' in response.content.decode()
    empty = client.get(reverse("search"))
    assert empty.status_code == 200 and "field-error" not in empty.content.decode()


def test_the_public_home_page_header_links_the_search(client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("search")}" id="nav-search"' in html


def test_the_search_indexes_exist() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname, indexdef FROM pg_indexes WHERE indexname LIKE 'search_%%'")
        found = dict(cursor.fetchall())
    assert "date DESC, id DESC" in found["search_event_date_idx"]
    for prefix in ("search_club", "search_event", "search_player"):
        assert "gin_trgm_ops" in found[f"{prefix}_trgm_idx"]
        assert "to_tsvector('simple'" in found[f"{prefix}_fts_idx"]


def test_the_schema_documents_the_search(client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/search/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"q", "kind", "page"}
    assert "400" in operation["responses"] and "200" in operation["responses"]


def test_a_common_word_is_counted_up_to_the_last_page_served(client) -> None:
    event = EventFactory(club=ClubFactory(), name="Big night", status=FINISHED)
    players = Player.objects.bulk_create(Player(name=f"Miller {n:04d}") for n in range(1010))
    Entry.objects.bulk_create(Entry(event=event, player=p) for p in players)
    body = client.get("/api/search/", {"q": "miller", "kind": "players", "page": 50}).json()
    assert body["count"] == 1000 and len(body["results"]) == 20 and body["next"] is None
    html = client.get(reverse("search"), {"q": "miller"}).content.decode()
    assert "All 1000+ players" in html

"""Creating a three-handed event from the page and the API: the director chooses what happens to
the players beyond tables of three; a format that seats partnerships refuses rules played by
individuals, naming the field; the round page and the table cards read the table's shape."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from draw.services import round_create
from tests.clubs.factories import PlayerFactory, club_with_director
from tournaments.models import Event
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


def _form(**over: str) -> dict[str, str]:
    data = {"name": "Tuesday trios", "date": "2026-12-01", "format": "club_night",
            "ruleset_preset": "three_handed", "rounds_planned": "3", "deals_per_round": "4",
            "bye_scoring": "average_winning", "bye_points": "0", "is_public": "on",
            "sit_out": "dealer"}
    data.update(over)
    return data


def test_the_director_picks_tables_of_four_or_byes_for_the_players_beyond_threes() -> None:
    club, director = club_with_director()
    client = Client()
    client.force_login(director)
    url = f"/clubs/{club.slug}/events/new/"
    assert "Players beyond tables of three" in client.get(url).content.decode()
    assert client.post(url, _form()).status_code == 302
    assert client.post(url, _form(name="Byes night", sit_out="none")).status_code == 302
    fours, byes = (Event.objects.get(name=n) for n in ("Tuesday trios", "Byes night"))
    assert fours.ruleset_overrides == {} and byes.ruleset_overrides == {"sit_out": "none"}
    # seven players: one table of three and one of four, or two of three and a bye
    for event in (fours, byes):
        for _ in range(7):
            entry_check_in(event=event, player=PlayerFactory(club=club))
    seated = round_create(event=fours)
    assert sorted(t.seats.count() for t in seated.tables.all()) == [3, 4]
    assert seated.byes.count() == 0
    rested = round_create(event=byes)
    assert sorted(t.seats.count() for t in rested.tables.all()) == [3, 3]
    assert rested.byes.count() == 1
    page = client.get(f"/events/{fours.pk}/rounds/1/cards/").content.decode()
    assert "Each player for themselves" in page and "partners" not in page
    rules = client.get(f"/events/{fours.pk}/rules/").content.decode()
    assert "sits that hand out" in rules


def test_a_partnership_format_refuses_rules_played_by_individuals() -> None:
    club, director = club_with_director()
    api = APIClient()
    api.force_authenticate(director)
    for fmt in ("swiss", "round_robin", "single_elimination"):
        answer = api.post("/api/events/", {"club": club.slug, "name": "Cutthroat pairs",
                                           "date": "2026-12-01", "format": fmt,
                                           "ruleset_preset": "cutthroat"}, format="json")
        assert answer.status_code == 400, answer.content
        assert answer.json()["errors"][0]["field"] in ("ruleset_preset", "ruleset")
    assert not Event.objects.exists()
    # a four-handed ruleset that needs the tricks is accepted for any format
    moon = api.post("/api/events/", {"club": club.slug, "name": "Moon", "date": "2026-12-01",
                                     "ruleset_preset": "pagat_double_deck",
                                     "ruleset_overrides": {"meld_needs_trick": True}},
                    format="json")
    assert moon.status_code == 201, moon.content

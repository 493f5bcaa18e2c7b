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


def test_the_desk_enters_a_hand_at_a_table_of_four_with_the_tricks() -> None:
    """The director's desk form at a three-handed table of four: the dealer's fields are left
    empty (the dealer sits out), the last playing seat's counters and tricks are filled in."""
    from scoring.models import HandRevision

    club, director = club_with_director()
    client = Client()
    client.force_login(director)
    assert client.post(f"/clubs/{club.slug}/events/new/", _form()).status_code == 302
    event = Event.objects.get()
    for _ in range(4):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    round_ = round_create(event=event)
    [table] = round_.tables.all()
    url = f"/events/{event.pk}/hands/?round=1&table={table.number}"
    page = client.get(url).content.decode()
    assert 'name="tricks_W"' in page and 'data-sit-out="dealer"' in page
    answer = client.post(url, {
        "number": "1", "idempotency_key": "desk-1", "outcome": "played", "dealer": "N",
        "bidder": "E", "bid": "300", "trump": "H",
        "meld_E": "150", "meld_S": "40", "meld_W": "20",
        "counters_E": "170", "counters_S": "50",  # W's 30 is the rest of the 250
        "tricks_E": "10", "tricks_S": "3",          # W's 2 are the rest of the 15
    })
    assert answer.status_code == 302, answer.content.decode()[:2000]
    stored = HandRevision.objects.get()
    assert stored.counters == {"E": 170, "S": 50, "W": 30}
    assert stored.tricks == {"E": 10, "S": 3, "W": 2}
    assert stored.points == {"N": 0, "E": 320, "S": 90, "W": 50}
    # the dealer's values are refused, named
    bad = client.post(url, {
        "number": "2", "idempotency_key": "desk-2", "outcome": "played", "dealer": "E",
        "bidder": "E", "bid": "300", "trump": "H", "meld_N": "20", "meld_S": "40",
        "meld_W": "20", "counters_N": "170", "counters_S": "50", "counters_W": "30",
        "tricks_N": "10", "tricks_S": "3", "tricks_W": "2"})
    assert bad.status_code == 400
    assert "sits it out" in bad.content.decode()
    assert HandRevision.objects.count() == 1

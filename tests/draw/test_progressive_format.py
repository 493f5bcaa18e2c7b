"""The individual progressive format through the bridge: NPA defaults, a seat draw, then winners
move and losers stay, seated by itself when the last game of a round is confirmed."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from common.errors import DomainError
from draw.services import round_create, round_set_status
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import ClubFactory, club_with_director
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event
from tournaments.services import event_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def _tables(round_) -> dict[int, dict[str, int]]:
    return {t.number: {s.position: s.entry_id for s in t.seats.all()} for t in round_.tables.all()}


def test_only_the_format_given_means_the_npa_defaults() -> None:
    event = progressive_event(0)
    assert (event.rounds_planned, event.deals_per_round) == (6, 4)
    assert event.format_settings == {
        "movement": "winners_move", "direction": "up", "draw": "system", "cut": 8,
        "semi_partners": "seeded", "final_rule": "rotate", "ties": "system_cut",
        "game_minutes": None,
    }


def test_bad_settings_and_counts_are_refused_naming_the_field() -> None:
    with pytest.raises(DomainError) as info:
        progressive_event(0, format_settings={"direction": "sideways"})
    assert info.value.field == "format_settings.direction"
    with pytest.raises(DomainError) as info:
        event_create(club=ClubFactory(), name="x", date=DAY, format="bracket")
    assert info.value.field == "format"
    event = progressive_event(3)
    with pytest.raises(DomainError) as info:
        round_create(event=event)
    assert info.value.field == "entries"
    assert event.rounds.count() == 0


def test_players_beyond_full_tables_wait_as_alternates_the_last_to_check_in() -> None:
    event = progressive_event(10)
    last_two = list(event.entries.order_by("-checked_in_at", "-pk").values_list("pk", flat=True))[:2]
    first = round_create(event=event)
    assert first.tables.count() == 2
    seated = set(first.tables.values_list("seats__entry_id", flat=True))
    assert seated.isdisjoint(last_two)
    assert set(event.entries.filter(alternate=True).values_list("pk", flat=True)) == set(last_two)


def test_winners_move_up_losers_stay_and_the_next_game_seats_itself(
    django_capture_on_commit_callbacks,
) -> None:
    event = progressive_event(12, deals_per_round=1)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    before = _tables(first)
    assert len(before) == 3
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            hand_submit(game=table.game, number=1, values=values())  # EW win 55 to 51
            game_confirm(game=table.game, position="N")
    first.refresh_from_db()
    assert first.status == "closed"  # the last confirmation closed it and seated game 2
    second = event.rounds.get(number=2)
    after = _tables(second)
    for number, seats in before.items():
        stayers = {seats["N"], seats["S"]}  # the losers
        now = after[number]
        assert stayers <= set(now.values())
        assert {now["N"], now["S"]} != stayers and {now["E"], now["W"]} != stayers
        # the winners went one table up; table 1's winners to the last table
        target = number - 1 if number > 1 else len(before)
        assert {seats["E"], seats["W"]} <= set(after[target].values())


def test_the_api_creates_a_progressive_event_with_its_defaults() -> None:
    club, director = club_with_director()
    api = APIClient()
    api.force_authenticate(director)
    response = api.post("/api/events/", {"club": club.slug, "name": "Open", "date": "2026-11-21",
                                         "format": "individual_progressive"}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["format"] == "individual_progressive"
    assert (body["rounds_planned"], body["deals_per_round"]) == (6, 4)
    bad = api.post("/api/events/", {"club": club.slug, "name": "Open", "date": "2026-11-21",
                                    "format": "individual_progressive",
                                    "format_settings": {"draw": "coin"}}, format="json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "format_settings.draw"


def test_the_event_form_creates_a_progressiveprogressive_event(client) -> None:
    from django.urls import reverse

    club, director = club_with_director(slug="npa")
    client.force_login(director)
    response = client.post(reverse("event-create", args=[club.slug]), {
        "name": "Open pairs day", "date": "2026-11-21", "format": "individual_progressive",
        "ruleset_preset": "pagat_double_deck", "rounds_planned": 6, "deals_per_round": 4,
        "bye_scoring": "average_winning", "bye_points": 0, "is_public": "on",
    })
    assert response.status_code == 302
    event = Event.objects.get(name="Open pairs day")
    assert event.format == "individual_progressive"
    assert event.format_settings["movement"] == "winners_move"

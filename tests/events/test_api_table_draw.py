"""The tables' own draw of partners through the API (a progressive day's ``draw: table``): who
meets at each table (``GET table-draw/``), seating the next game and the director's advance with
``table_draw``, a wrong draw refused with a 400 naming the table's draw, and only the event's
directors may read or post it."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Membership
from draw.services import round_create
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import UserFactory, club_with_director
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def played_day(capture: Any, *, confirm: bool = True) -> tuple[Event, Any]:
    club, director = club_with_director(slug="table-draw")
    event = progressive_event(8, club=club, deals_per_round=1,
                              format_settings={"draw": "table", "cut": 0})
    first = round_create(event=event)
    with capture(execute=True):
        for table in first.tables.order_by("number"):
            hand_submit(game=table.game, number=1, values=values())
            if confirm:
                game_confirm(game=table.game, position="N")
    return event, director


def client_for(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_director_reads_the_meetings_and_seats_from_the_draws(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director = played_day(django_capture_on_commit_callbacks)
    api = client_for(director)
    shown = api.get(f"/api/events/{event.pk}/table-draw/")
    assert shown.status_code == 200
    body = shown.json()
    assert body["round"] == 2 and [t["table"] for t in body["tables"]] == [1, 2]
    assert all(len(t["stayers"]) == 2 and len(t["arrivals"]) == 2 and t["stayers"][0]["name"]
               for t in body["tables"])
    draw = [[t["stayers"][0]["entry"], t["arrivals"][1]["entry"]] for t in body["tables"]]
    # without the draws: refused, naming the field, and nothing seated
    missing = api.post(f"/api/events/{event.pk}/rounds/", {}, format="json")
    assert missing.status_code == 400
    assert missing.json()["errors"][0]["field"] == "table_draw"
    seated = api.post(f"/api/events/{event.pk}/rounds/", {"table_draw": draw}, format="json")
    assert seated.status_code == 201, seated.content
    for pair, table in zip(draw, seated.json()["tables"], strict=True):
        at = {s["position"]: s["entry_id"] for s in table["seats"]}
        assert set(pair) in ({at["N"], at["S"]}, {at["E"], at["W"]})
    assert api.get(f"/api/events/{event.pk}/table-draw/").json()["tables"] == []


@pytest.mark.parametrize(("mangle", "field", "code"), [
    ("swap_tables", "table_draw.0", "not_at_table"),
    ("stayers", "table_draw.1", "stayers_together"),
    ("short", "table_draw.1", "missing"),
])
def test_a_wrong_draw_is_a_400_naming_the_table(
        django_capture_on_commit_callbacks: Any, mangle: str, field: str, code: str) -> None:
    event, director = played_day(django_capture_on_commit_callbacks, confirm=False)
    api = client_for(director)
    tables = api.get(f"/api/events/{event.pk}/table-draw/").json()["tables"]
    first, second = tables
    draw = {
        "swap_tables": [[first["stayers"][0]["entry"], second["arrivals"][0]["entry"]],
                        [second["stayers"][0]["entry"], first["arrivals"][0]["entry"]]],
        "stayers": [[first["stayers"][0]["entry"], first["arrivals"][0]["entry"]],
                    [s["entry"] for s in second["stayers"]]],
        "short": [[first["stayers"][0]["entry"], first["arrivals"][0]["entry"]]],
    }[mangle]
    refused = api.post(f"/api/events/{event.pk}/rounds/1/advance/",
                       {"close_unfinished": True, "table_draw": draw}, format="json")
    assert refused.status_code == 400, refused.content
    error = refused.json()["errors"][0]
    assert (error["field"], error["code"]) == (field, code)
    assert error["message"]
    assert event.rounds.count() == 1 and event.rounds.get().status == "playing"
    # the same step with a right draw closes and seats
    right = [[t["stayers"][0]["entry"], t["arrivals"][0]["entry"]] for t in tables]
    done = api.post(f"/api/events/{event.pk}/rounds/1/advance/",
                    {"close_unfinished": True, "table_draw": right}, format="json")
    assert done.status_code == 200, done.content
    assert done.json()["round"]["number"] == 2


def test_a_malformed_draw_is_a_400(django_capture_on_commit_callbacks: Any) -> None:
    event, director = played_day(django_capture_on_commit_callbacks)
    refused = client_for(director).post(f"/api/events/{event.pk}/rounds/",
                                        {"table_draw": [["a", 1]]}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "table_draw.0"  # the first table's draw


def test_only_the_events_directors_read_or_post_the_draws(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director = played_day(django_capture_on_commit_callbacks)
    other_club, other_director = club_with_director(slug="elsewhere")
    scorer = UserFactory(username="scorer-elsewhere")
    Membership.objects.create(club=other_club, user=scorer, role=Membership.Role.SCORER)
    own_scorer = UserFactory(username="scorer-here")
    Membership.objects.create(club=event.club, user=own_scorer, role=Membership.Role.SCORER)
    draw = [[t["stayers"][0]["entry"], t["arrivals"][0]["entry"]]
            for t in client_for(director).get(f"/api/events/{event.pk}/table-draw/")
            .json()["tables"]]
    for user in (other_director, scorer, own_scorer):
        api = client_for(user)
        assert api.get(f"/api/events/{event.pk}/table-draw/").status_code == 403
        assert api.post(f"/api/events/{event.pk}/rounds/", {"table_draw": draw},
                        format="json").status_code == 403
    assert APIClient().get(f"/api/events/{event.pk}/table-draw/").status_code in (401, 403)
    assert event.rounds.count() == 1

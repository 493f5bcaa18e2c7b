"""Confirmation at the desk from the players' signed score sheets: per table and in bulk, through
the API (``POST /api/events/{id}/rounds/{n}/confirm/``) and the director's games page; a game
still playing or an unknown table is refused with its reason while the others are confirmed;
the round advances once its last game is confirmed; directors of the event's club only."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from draw.services import round_create
from scoring.models import Game
from scoring.services import games_confirm_at_desk, hand_submit
from tests.clubs.factories import club_with_director
from tests.scoring.factories import member, values
from tests.tournaments.factories import progressive_event
from tournaments.models import EventLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def day() -> dict[str, Any]:
    """A progressive day of 12 players (3 tables, one deal a game): tables 1 and 3 finished,
    table 2 still playing."""
    club, director = club_with_director(slug="desk")
    event = progressive_event(12, club=club, deals_per_round=1)
    first = round_create(event=event)
    for number in (1, 3):
        hand_submit(game=Game.objects.get(table__round=first, table__number=number), number=1,
                    values=values())
    api = APIClient()
    api.force_authenticate(director)
    return {"club": club, "director": director, "event": event, "round": first, "api": api,
            "url": f"/api/events/{event.pk}/rounds/1/confirm/"}


def _status(round_: Any, table: int) -> str:
    return Game.objects.get(table__round=round_, table__number=table).status


def test_finished_games_are_confirmed_and_the_others_refused_with_their_reason(
        day: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = day["api"].post(day["url"], {"tables": [1, 2, 3, 9],
                                                "source": "signed_sheet"}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["round"], body["source"]) == (1, "signed_sheet")
    by_table = {r["table"]: r for r in body["tables"]}
    assert [r["table"] for r in body["tables"]] == [1, 2, 3, 9]
    assert by_table[1]["confirmed"] and by_table[3]["confirmed"]
    assert not by_table[2]["confirmed"] and by_table[2]["code"] == "not_finished"
    assert "still playing" in by_table[2]["error"]
    assert not by_table[9]["confirmed"] and "no table 9" in by_table[9]["error"]
    assert [_status(day["round"], t) for t in (1, 2, 3)] == ["confirmed", "playing", "confirmed"]
    game = Game.objects.get(table__round=day["round"], table__number=1)
    assert game.confirmed_at is not None and game.confirmed_by is None
    log = EventLog.objects.get(event=day["event"], action="games_confirmed")
    assert log.actor == day["director"]
    assert log.details == {"round": 1, "tables": [1, 3], "source": "signed_sheet"}
    # the round waits for table 2: not advanced yet
    assert not day["event"].rounds.filter(number=2).exists()
    # asked again: already confirmed, no error, no second log row
    again = day["api"].post(day["url"], {"tables": [1], "source": "director"}, format="json")
    assert again.status_code == 200
    assert again.json()["tables"] == [{"table": 1, "confirmed": True, "already": True}]
    assert EventLog.objects.filter(event=day["event"], action="games_confirmed").count() == 1


def test_confirming_the_last_games_at_the_desk_advances_the_round(
        day: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    hand_submit(game=Game.objects.get(table__round=day["round"], table__number=2), number=1,
                values=values())
    with django_capture_on_commit_callbacks(execute=True):
        response = day["api"].post(day["url"], {"tables": [1, 2, 3], "source": "signed_sheet"},
                                   format="json")
    assert response.status_code == 200
    assert all(r["confirmed"] for r in response.json()["tables"])
    day["round"].refresh_from_db()
    assert day["round"].status == "closed"
    second = day["event"].rounds.get(number=2)
    assert second.tables.count() == 3


@pytest.mark.parametrize(("body", "field"), [
    ({"tables": [1], "source": "phone"}, "source"),
    ({"tables": [1]}, "source"),
    ({"tables": [], "source": "signed_sheet"}, "tables"),
    ({"tables": "1,3", "source": "signed_sheet"}, "tables"),
    ({"tables": [0], "source": "signed_sheet"}, "tables"),
    ({"source": "signed_sheet"}, "tables"),
])
def test_bad_input_names_the_field(day: dict[str, Any], body: dict[str, Any],
                                   field: str) -> None:
    response = day["api"].post(day["url"], body, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert _status(day["round"], 1) == "finished"


def test_the_service_refuses_an_unknown_source() -> None:
    club, _ = club_with_director(slug="svc")
    event = progressive_event(8, club=club, deals_per_round=1)
    first = round_create(event=event)
    from common.errors import DomainError
    with pytest.raises(DomainError) as info:
        games_confirm_at_desk(round_=first, tables=[1], source="rumour")
    assert info.value.field == "source"


def test_only_the_events_directors_confirm_at_the_desk(day: dict[str, Any]) -> None:
    other_club, other_director = club_with_director(slug="elsewhere")
    outsider = APIClient()
    outsider.force_authenticate(other_director)
    body = {"tables": [1, 3], "source": "signed_sheet"}
    assert outsider.post(day["url"], body, format="json").status_code in (403, 404)
    scorer = APIClient()
    scorer.force_authenticate(member(day["club"], "scorer", "desk-scorer"))
    assert scorer.post(day["url"], body, format="json").status_code == 403
    other_scorer = APIClient()
    other_scorer.force_authenticate(member(other_club, "scorer", "other-scorer"))
    assert other_scorer.post(day["url"], body, format="json").status_code in (403, 404)
    assert APIClient().post(day["url"], body, format="json").status_code in (401, 403)
    assert [_status(day["round"], t) for t in (1, 3)] == ["finished", "finished"]
    # a private club's event is not even there for outsiders
    day["club"].is_public = False
    day["club"].save(update_fields=["is_public"])
    assert outsider.post(day["url"], body, format="json").status_code == 404


def test_the_games_page_confirms_the_ticked_games_and_shows_each_result(
        day: dict[str, Any], client: Any, django_capture_on_commit_callbacks: Any) -> None:
    client.force_login(day["director"])
    url = f"/events/{day['event'].pk}/games/"
    page = client.get(url)
    html = page.content.decode()
    assert 'value="1-1"' in html and 'value="1-3"' in html and 'value="1-2"' not in html
    assert "Confirm from signed sheets" in html and "Select all finished (2)" in html
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url + "?all=1", {"game": ["1-1", "1-2"], "source": "signed_sheet"})
    assert done.status_code == 200
    html = done.content.decode()
    assert "Round 1, table 1:\n      confirmed" in html
    assert "Round 1, table 2:" in html and "still playing" in html
    assert "at the desk (signed score sheet)" in html
    assert [_status(day["round"], t) for t in (1, 2, 3)] == ["confirmed", "playing", "finished"]
    nothing = client.post(url, {"source": "signed_sheet"})
    assert nothing.status_code == 400 and "Tick the finished games" in nothing.content.decode()
    # a scorer sees the page without the desk's form, and cannot post it
    client.force_login(member(day["club"], "scorer", "page-scorer"))
    assert "Confirm from signed sheets" not in client.get(url).content.decode()
    assert client.post(url, {"game": ["1-3"], "source": "signed_sheet"}).status_code == 403
    assert _status(day["round"], 3) == "finished"

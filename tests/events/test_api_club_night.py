"""A whole club night run through the REST API alone, as a director's script would: a token from
``manage.py drf_create_token``, then club, players, event, check-in, rounds, every hand from the
tables' tokens, confirmations, closing, finishing; the placements and standings are checked
against totals recomputed here from the points the API answered for each hand."""

from __future__ import annotations

import io
from collections import defaultdict
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

BYE_POINTS = 30
ROUNDS = 3
DEALS = 2

# Valid double-deck hands (meld per side, counters adding up to the deck's 50): a made bid by
# NS, a made bid by EW, and EW set. The dealer is filled in from the table's next dealer.
HANDS: list[dict[str, Any]] = [
    {"outcome": "played", "bidder": "N", "bid": 51, "trump": "H",
     "meld": {"NS": 24, "EW": 32}, "counters": {"NS": 27, "EW": 23}},
    {"outcome": "played", "bidder": "E", "bid": 50, "trump": "S",
     "meld": {"NS": 20, "EW": 30}, "counters": {"NS": 10, "EW": 40}},
    {"outcome": "played", "bidder": "W", "bid": 60, "trump": "D",
     "meld": {"NS": 16, "EW": 20}, "counters": {"NS": 25, "EW": 25}},
]


def _side(position: str) -> str:
    return "NS" if position in ("N", "S") else "EW"


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:500])
    return response.json()


@pytest.fixture
def director_api() -> APIClient:
    UserFactory(username="night-director")
    out = io.StringIO()
    call_command("drf_create_token", "night-director", stdout=out)
    key = Token.objects.get(user__username="night-director").key
    assert key in out.getvalue()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return api


def test_a_club_night_through_the_api_alone(director_api: APIClient) -> None:
    api = director_api
    table_api = APIClient()  # the tables' phones: no login, the token in the URL

    club = _ok(api.post("/api/clubs/", {"name": "Riverside Pinochle"}, format="json"), 201)
    slug = club["slug"]
    assert slug == "riverside-pinochle"
    player_ids = [
        _ok(api.post(f"/api/clubs/{slug}/players/", {"name": f"Player {n}"}, format="json"),
            201)["id"]
        for n in range(1, 10)
    ]

    event = _ok(api.post("/api/events/", {
        "club": slug, "name": "Friday night", "date": "2026-11-20", "format": "club_night",
        "ruleset_preset": "pagat_double_deck", "deals_per_round": DEALS,
        "rounds_planned": ROUNDS, "bye_scoring": "fixed", "bye_points": BYE_POINTS,
    }, format="json"), 201)
    event_id = event["id"]
    assert (event["format"], event["status"], event["placements"]) == ("club_night", "draft", [])

    entry_ids = [
        _ok(api.post(f"/api/events/{event_id}/entries/", {"player_id": pk}, format="json"),
            201)["id"]
        for pk in player_ids
    ]
    assert len(set(entry_ids)) == 9

    expected: dict[int, int] = defaultdict(int)  # entry id -> points recomputed from the hands
    hand_number = 0
    for number in range(1, ROUNDS + 1):
        round_ = _ok(api.post(f"/api/events/{event_id}/rounds/", {}, format="json"), 201)
        assert round_["number"] == number and round_["status"] == "seated"
        assert len(round_["tables"]) == 2 and len(round_["byes"]) == 1
        seated = [s["entry_id"] for t in round_["tables"] for s in t["seats"]]
        assert sorted(seated + round_["byes"]) == sorted(entry_ids)
        # asking again for the same round number answers it unchanged
        again = _ok(api.post(f"/api/events/{event_id}/rounds/", {"number": number},
                             format="json"), 200)
        assert again == round_
        for entry_id in round_["byes"]:
            expected[entry_id] += BYE_POINTS
        started = _ok(api.post(f"/api/events/{event_id}/rounds/{number}/start/"))
        assert started["status"] == "playing"

        for table in round_["tables"]:
            token = table["token"]
            seats = {s["position"]: s["entry_id"] for s in table["seats"]}
            assert set(seats) == {"N", "E", "S", "W"}
            scorer = _ok(table_api.post(f"/api/tables/{token}/scorer/", {"position": "N"},
                                        format="json"))
            assert scorer["scorer_position"] == "N"
            for _ in range(DEALS):
                state = _ok(table_api.get(f"/api/tables/{token}/"))
                body = {**HANDS[hand_number % len(HANDS)], "dealer": state["next_dealer"],
                        "number": state["next_number"]}
                hand_number += 1
                stored = _ok(table_api.post(f"/api/tables/{token}/hands/", body, format="json",
                                            HTTP_IDEMPOTENCY_KEY=f"r{number}-t{table['number']}"
                                                                 f"-h{body['number']}"), 201)
                for position, entry_id in seats.items():
                    expected[entry_id] += stored["points"][_side(position)]
            state = _ok(table_api.get(f"/api/tables/{token}/"))
            assert state["game"]["status"] == "finished"
            # the scorer's own side may not confirm; the other side does
            same_side = table_api.post(f"/api/tables/{token}/confirm/", {"position": "S"},
                                       format="json")
            assert same_side.status_code == 400
            assert same_side.json()["errors"][0]["field"] == "position"
            confirmed = _ok(table_api.post(f"/api/tables/{token}/confirm/", {"position": "E"},
                                           format="json"))
            assert confirmed["status"] == "confirmed"

        closed = _ok(api.post(f"/api/events/{event_id}/rounds/{number}/close/"))
        assert closed["status"] == "closed"
        # a closed round takes no more writes from the tables
        late = table_api.post(f"/api/tables/{round_['tables'][0]['token']}/confirm/",
                              {"position": "E"}, format="json")
        assert late.status_code == 403 and late.json()["errors"][0]["field"] == "round"

    running = _ok(api.get(f"/api/events/{event_id}/"))
    assert running["status"] == "running" and running["placements"] == []

    finished = _ok(api.post(f"/api/events/{event_id}/finish/"))
    assert finished["status"] == "finished"

    standings = _ok(api.get(f"/api/events/{event_id}/standings/"))
    assert standings["behind"] is False
    rows = standings["rows"]
    assert {row["entry_id"]: row["points"] for row in rows} == dict(expected)
    assert sum(row["byes"] for row in rows) == ROUNDS

    detail = _ok(api.get(f"/api/events/{event_id}/"))
    assert (detail["status"], detail["format"]) == ("finished", "club_night")
    placements = detail["placements"]
    assert placements == finished["placements"]
    assert sorted(p["entry_id"] for p in placements) == sorted(entry_ids)
    assert [(p["place"], p["entry_id"]) for p in placements] == [
        (row["rank"], row["entry_id"]) for row in rows]
    # placed by points first (the event's first tie-break); ties share a place
    points_in_order = [expected[p["entry_id"]] for p in placements]
    assert points_in_order == sorted(points_in_order, reverse=True)
    assert placements[0]["place"] == 1
    for before, after in zip(placements, placements[1:], strict=False):
        if after["place"] == before["place"]:
            assert expected[after["entry_id"]] == expected[before["entry_id"]]
        else:
            assert after["place"] == placements.index(after) + 1
    best = max(expected.values())
    assert {p["entry_id"] for p in placements if p["place"] == 1} <= {
        e for e, pts in expected.items() if pts == best}

    # a director may reopen (placements go until it finishes again) and finish again
    refused = api.post(f"/api/events/{event_id}/reopen/", {}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "reason"
    reopened = _ok(api.post(f"/api/events/{event_id}/reopen/",
                            {"reason": "table 2 keyed a hand wrongly"}, format="json"))
    assert (reopened["status"], reopened["placements"]) == ("running", [])
    assert _ok(api.post(f"/api/events/{event_id}/finish/"))["placements"] == placements

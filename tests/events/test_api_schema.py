"""API parity with the pages, measured on the OpenAPI schema: every director or table action of
the pages has an operation, with its request body and the error statuses it answers."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import URLPattern, get_resolver

pytestmark = pytest.mark.django_db

# page URL name -> the API operation doing the same (method, path as in the schema)
PAGE_ACTIONS: dict[str, tuple[str, str]] = {
    "club-create": ("post", "/api/clubs/"),
    "club-player-add": ("post", "/api/clubs/{slug}/players/"),
    "club-player-merge": ("post", "/api/clubs/{slug}/players/merge/"),
    "club-member-set": ("post", "/api/clubs/{slug}/members/"),
    "club-manage": ("get", "/api/clubs/{slug}/members/"),
    "club-member-remove": ("post", "/api/clubs/{slug}/members/remove/"),
    "club-corrections": ("patch", "/api/clubs/{slug}/"),
    "club-language": ("patch", "/api/clubs/{slug}/"),
    "club-watchers": ("patch", "/api/clubs/{slug}/"),
    "set_language": ("put", "/api/me/language/"),
    "invitation-create": ("post", "/api/clubs/{slug}/invitations/"),
    "invitation-revoke": ("post", "/api/clubs/{slug}/invitations/{id}/revoke/"),
    "invitation-accept": ("post", "/api/invitations/{token}/accept/"),
    "event-create": ("post", "/api/events/"),
    "event-edit": ("patch", "/api/events/{id}/"),
    "event-detail": ("get", "/api/events/{id}/"),
    "event-checkin": ("post", "/api/events/{id}/entries/"),
    "entry-leave": ("post", "/api/events/{id}/entries/{entry_id}/leave/"),
    "entry-alternate": ("post", "/api/events/{id}/entries/{entry_id}/alternate/"),
    "checkin-self-mode": ("post", "/api/events/{id}/self-check-in/"),
    "checkin-arrivals": ("get", "/api/events/{id}/arrivals/"),
    "arrival-decide": ("post", "/api/events/{id}/arrivals/{arrival_id}/"),
    "self-checkin": ("post", "/api/events/{id}/here/"),
    "self-checkin-find": ("get", "/api/events/{id}/here/"),
    "event-pairs": ("post", "/api/events/{id}/entries/"),
    "pair-leave": ("post", "/api/events/{id}/pairs/{pair_id}/leave/"),
    "event-bracket": ("get", "/api/events/{id}/bracket/"),
    "event-corrections": ("get", "/api/events/{id}/corrections/"),
    "event-finish": ("post", "/api/events/{id}/finish/"),
    "event-reopen": ("post", "/api/events/{id}/reopen/"),
    "round-seat": ("post", "/api/events/{id}/rounds/"),
    "round-detail": ("get", "/api/events/{id}/rounds/{number}/"),
    "round-start": ("post", "/api/events/{id}/rounds/{number}/start/"),
    "round-close": ("post", "/api/events/{id}/rounds/{number}/close/"),
    "round-advance": ("post", "/api/events/{id}/rounds/{number}/advance/"),
    "round-swap": ("post", "/api/events/{id}/rounds/{number}/swap/"),
    "table-entry": ("post", "/api/tables/{token}/hands/"),
    "table-hand-correct": ("put", "/api/hands/{hand_id}/"),
    "table-set-scorer": ("post", "/api/tables/{token}/scorer/"),
    "table-confirm": ("post", "/api/tables/{token}/confirm/"),
    # the phone page's live fragment (score, hands, next hand): the table's state as data
    "table-entry-live": ("get", "/api/tables/{token}/"),
    "director-hands": ("post", "/api/events/{event_id}/hands/"),
    "director-hand-delete-last": ("post", "/api/events/{event_id}/hands/delete-last/"),
    "hand-history": ("get", "/api/hands/{hand_id}/revisions/"),
    "event-standings": ("get", "/api/events/{event_id}/standings/"),
    "event-director-advance": ("post", "/api/events/{id}/advance/"),
    "event-director-cut": ("post", "/api/events/{id}/rounds/{number}/tables/{table}/cut/"),
    "event-director-time": ("post", "/api/events/{id}/rounds/{number}/time/"),
    "table-forfeit": ("post", "/api/events/{id}/rounds/{number}/tables/{table}/forfeit/"),
    "season-list": ("get", "/api/clubs/{slug}/seasons/"),
    "season-create": ("post", "/api/clubs/{slug}/seasons/"),
    "season-edit": ("patch", "/api/clubs/{slug}/seasons/{id}/"),
    "season-delete": ("delete", "/api/clubs/{slug}/seasons/{id}/"),
    "season-detail": ("get", "/api/clubs/{slug}/seasons/{id}/leaderboard/"),
    "club-ratings": ("get", "/api/clubs/{slug}/ratings/"),
    "event-wall-seating": ("get", "/api/events/{id}/seating/"),
    "player-profile": ("get", "/api/players/{player_id}/profile/"),
    "event-archive": ("get", "/api/events/{id}/archive/"),
    "club-event-import": ("post", "/api/clubs/{slug}/events/import/"),
    "club-event-import-job": ("get", "/api/clubs/{slug}/events/import/jobs/{id}/"),
    "club-roster-import": ("post", "/api/clubs/{slug}/players/import/"),
    # the director's authority: penalties, appeals, the penalty table, adjusted results, and a
    # player's conduct record
    "event-penalties": ("post", "/api/events/{id}/penalties/"),
    "penalty-withdraw": ("post", "/api/events/{id}/penalties/{penalty_id}/withdraw/"),
    "penalty-table": ("put", "/api/events/{id}/penalty-table/"),
    "event-appeal": ("post", "/api/events/{id}/appeals/"),
    "table-adjust": ("post", "/api/events/{id}/rounds/{number}/tables/{table}/adjust/"),
    "player-conduct": ("get", "/api/clubs/{slug}/players/{player_id}/conduct/"),
    # calls for a director: the table's phone calls and puts the ruling away, directors rule
    "table-call": ("post", "/api/tables/{token}/calls/"),
    "table-call-dismiss": ("post", "/api/tables/{token}/calls/{call_id}/dismiss/"),
    "event-calls": ("get", "/api/events/{id}/calls/"),
    "event-calls-live": ("get", "/api/events/{id}/calls/"),
    "event-call-take": ("post", "/api/events/{id}/calls/{call_id}/take/"),
    "event-call-close": ("post", "/api/events/{id}/calls/{call_id}/close/"),
    # series: events under one points table
    "series-create": ("post", "/api/series/"),
    "series-edit": ("patch", "/api/series/{id}/"),
    "series-delete": ("delete", "/api/series/{id}/"),
    "series-detail": ("get", "/api/series/{id}/standings/"),
    # registering in advance: the public form, the door, the director's list and actions
    "event-register": ("post", "/api/events/{id}/registrations/"),
    "event-registered": ("post", "/api/events/{id}/registrations/link/"),
    "event-registrations": ("get", "/api/events/{id}/registrations/"),
    "registrations-check-in": ("post", "/api/events/{id}/registrations/check-in/"),
    "registration-act": ("post", "/api/events/{id}/registrations/{rid}/approve/"),
    "registration-mine": ("get", "/api/events/{id}/registrations/{rid}/"),
}
# pages that print or download what the API already answers as data
PRINTABLES = {"invitation-detail", "round-cards", "round-sheet", "event-hands-csv", "director-games",
              "event-standings-csv", "event-standings-wall", "event-standings-version",
              "event-standings-fragment", "event-player", "event-pair",
              # a progressive day's screens and paper: rounds, standings and placements as data
              "event-director", "event-wall-movement", "event-results", "event-scorecard",
              "event-scorecards", "event-table-cards", "table-card",
              # where do I sit (its version for the wall) and the rules of the evening
              "event-wall-seating-version", "event-rules",
              # the self check-in poster: the QR code of the self check-in page
              "checkin-poster",
              # the table phone's service worker: a script, no data of its own
              "table-service-worker",
              # the series' wall (and its poll) and spreadsheet: its standings as data
              "series-wall", "series-version", "series-fragment", "series-csv"}

# the error statuses each new write really answers
ERRORS: dict[tuple[str, str], set[str]] = {
    ("post", "/api/clubs/"): {"400", "403"},
    ("post", "/api/clubs/{slug}/players/merge/"): {"400", "403", "404"},
    ("patch", "/api/clubs/{slug}/"): {"400", "403", "404"},
    ("post", "/api/clubs/{slug}/members/"): {"400", "403", "404"},
    ("post", "/api/clubs/{slug}/members/remove/"): {"400", "403", "404"},
    ("post", "/api/clubs/{slug}/invitations/"): {"400", "403", "404"},
    ("post", "/api/events/"): {"400", "403", "404"},
    ("patch", "/api/events/{id}/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/entries/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/entries/{entry_id}/leave/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/entries/bulk/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/entries/{entry_id}/alternate/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/self-check-in/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/arrivals/{arrival_id}/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/confirm/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/finish/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/reopen/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/start/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/close/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/advance/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/swap/"): {"400", "403", "404"},
    ("post", "/api/tables/{token}/scorer/"): {"400", "403", "404"},
    ("post", "/api/tables/{token}/confirm/"): {"400", "403", "404"},
    ("post", "/api/events/{event_id}/hands/"): {"400", "403", "404", "409"},
    ("post", "/api/events/{event_id}/hands/delete-last/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/advance/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/tables/{table}/cut/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/time/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/tables/{table}/forfeit/"): {"400", "403", "404"},
    ("post", "/api/clubs/{slug}/seasons/"): {"400", "403", "404"},
    ("patch", "/api/clubs/{slug}/seasons/{id}/"): {"400", "403", "404"},
    ("post", "/api/clubs/{slug}/events/import/"): {"400", "403", "404"},
    ("post", "/api/clubs/{slug}/players/import/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/penalties/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/penalties/{penalty_id}/withdraw/"): {"400", "403", "404"},
    ("put", "/api/events/{id}/penalty-table/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/appeals/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/rounds/{number}/tables/{table}/adjust/"): {"400", "403", "404"},
    ("post", "/api/tables/{token}/calls/"): {"400", "403", "404"},
    ("post", "/api/tables/{token}/calls/{call_id}/dismiss/"): {"400", "404"},
    ("post", "/api/events/{id}/calls/{call_id}/take/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/calls/{call_id}/close/"): {"400", "403", "404"},
    ("post", "/api/series/"): {"400", "401", "403", "404"},
    ("patch", "/api/series/{id}/"): {"400", "401", "403", "404"},
    ("put", "/api/events/{id}/registrations/settings/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/registrations/"): {"400", "404"},
    ("post", "/api/events/{id}/registrations/{rid}/approve/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/registrations/{rid}/refuse/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/registrations/{rid}/paid/"): {"400", "403", "404"},
    ("post", "/api/events/{id}/registrations/{rid}/withdraw/"): {"400", "404"},
    ("post", "/api/events/{id}/registrations/{rid}/confirm/"): {"400", "404"},
    ("post", "/api/events/{id}/registrations/{rid}/here/"): {"400", "404"},
    ("post", "/api/events/{id}/registrations/check-in/"): {"400", "403", "404"},
}


@pytest.fixture(scope="module")
def schema(django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def _page_names() -> set[str]:
    names = set()
    for module in ("clubs.urls", "events.urls", "scoring.urls", "standings.urls", "league.urls",
                   "profiles.urls", "archive.urls", "conduct.urls", "series.urls",
                   "registrations.urls"):
        for pattern in get_resolver(module).url_patterns:
            if isinstance(pattern, URLPattern) and pattern.name:
                names.add(pattern.name)
    return names


def test_every_page_is_mapped_to_the_api_or_is_a_printable() -> None:
    unmapped = _page_names() - set(PAGE_ACTIONS) - PRINTABLES
    assert unmapped == set(), f"pages without an API counterpart: {sorted(unmapped)}"


def test_every_page_action_is_in_the_schema(schema: dict[str, Any]) -> None:
    missing = [
        f"{method.upper()} {path}" for method, path in PAGE_ACTIONS.values()
        if method not in schema["paths"].get(path, {})
    ]
    assert missing == []


def test_new_writes_declare_their_request_and_error_statuses(schema: dict[str, Any]) -> None:
    for (method, path), codes in ERRORS.items():
        operation = schema["paths"][path][method]
        responses = set(operation["responses"])
        assert codes <= responses, (method, path, responses)
        assert responses & {"200", "201"}, (method, path)
        for code in codes:
            content = operation["responses"][code]["content"]["application/json"]["schema"]
            assert "$ref" in content, (method, path, code)
    with_body = [key for key in ERRORS if not key[1].endswith(("/finish/", "/reopen/", "/start/",
                                                               "/close/", "/leave/", "/dismiss/", "/take/",
                                                               "/time/", "/approve/", "/refuse/"))]
    for method, path in with_body:
        assert "requestBody" in schema["paths"][path][method], (method, path)


def test_the_required_shapes_are_documented(schema: dict[str, Any]) -> None:
    components = schema["components"]["schemas"]
    event = components["EventOutput"]["properties"]
    assert {"id", "status", "format", "placements"} <= set(event)
    placement = components["PlacementOutput"]["properties"]
    assert {"place", "entry_id"} <= set(placement)
    round_ = components["RoundOutput"]["properties"]
    assert {"number", "status", "tables", "byes"} <= set(round_)
    seat = components["SeatOutput"]["properties"]
    assert {"position", "entry_id"} <= set(seat)
    event_input = components["EventInput"]["properties"]
    assert "format" in event_input
    row = components["StandingsRowOutput"]["properties"]
    assert {"entry_id", "rank", "points"} <= set(row)
    seat_round = schema["paths"]["/api/events/{id}/rounds/"]["post"]
    assert {"200", "201"} <= set(seat_round["responses"])
    assert "synchronously" in seat_round["description"]

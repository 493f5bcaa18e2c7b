"""Every API write a director (or scorer) can make answers like the pages to everyone else:
404 for a private club's event to people outside the club, 403 to members without the role or to
directors of another (public) club, 401/403 to anonymous callers; and nothing changes."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Membership
from draw.services import round_create
from scoring import services as scoring
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.scoring.factories import values
from tests.shared import module_data
from tests.tournaments.factories import event_with_players
from tournaments.models import Event, EventLog, Round, Seat

pytestmark = pytest.mark.django_db


def _night(slug: str, *, is_public: bool) -> dict[str, Any]:
    club, director = club_with_director(slug=slug, is_public=is_public)
    event = event_with_players(club=club, players=9, status="running", deals_per_round=2)
    round_ = round_create(event=event)
    table = round_.tables.order_by("number").first()
    assert table is not None
    scoring.hand_submit(game=table.game, number=1, values=values())
    entries = list(event.entries.order_by("pk"))
    return {"club": club, "director": director, "event": event, "round": round_,
            "table": table, "entries": entries, "spare": PlayerFactory(club=club)}


@module_data
def nights() -> dict[str, Any]:
    """Three clubs' nights, built once for the module: its tests only read them (what a
    request writes is rolled back with the test)."""
    return {"public": _night("open-club", is_public=True),
            "private": _night("closed-club", is_public=False),
            "other": _night("other-club", is_public=True)}


def director_writes(night: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """(method, path, body) of every director-only write on ``night``'s club and event."""
    event, club = night["event"], night["club"]
    a, b = night["entries"][0], night["entries"][1]
    base = f"/api/events/{event.pk}"
    return [
        ("post", "/api/events/", {"club": club.slug, "name": "Sneaky", "date": "2026-12-01"}),
        ("patch", f"{base}/", {"name": "Renamed"}),
        ("post", f"{base}/finish/", {}),
        ("post", f"{base}/reopen/", {}),
        ("post", f"{base}/entries/", {"player_id": night["spare"].pk}),
        ("post", f"{base}/entries/{a.pk}/leave/", {}),
        ("post", f"{base}/rounds/", {}),
        ("post", f"{base}/rounds/", {"number": 1, "reseat": True}),
        ("post", f"{base}/rounds/1/start/", {}),
        ("post", f"{base}/rounds/1/close/", {}),
        ("post", f"{base}/rounds/1/swap/", {"entry_a": a.pk, "entry_b": b.pk}),
        ("post", f"{base}/rounds/1/tables/1/forfeit/", {"side": "NS", "reason": "Gone home"}),
        ("post", f"/api/clubs/{club.slug}/players/", {"name": "Intruder"}),
        ("post", f"/api/clubs/{club.slug}/players/merge/",
         {"keep": night["spare"].pk, "duplicate": a.player_id}),
        ("post", f"/api/clubs/{club.slug}/members/", {"username": "someone", "role": "owner"}),
    ]


def scorer_writes(night: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    base = f"/api/events/{night['event'].pk}"
    return [
        ("post", f"{base}/hands/", {**values(dealer="W"), "number": 2, "round": 1, "table": 1}),
        ("post", f"{base}/hands/delete-last/", {"round": 1, "table": 1}),
    ]


def _snapshot(night: dict[str, Any]) -> tuple[Any, ...]:
    event = Event.objects.get(pk=night["event"].pk)
    round_ = Round.objects.get(pk=night["round"].pk)
    seats = sorted(Seat.objects.filter(round=round_).values_list("table__number", "position",
                                                                 "entry_id"))
    return (event.name, event.status, event.entries.count(), event.rounds.count(), round_.status,
            tuple(seats), night["table"].game.hands.count(), Event.objects.count(),
            night["club"].players.count(), night["club"].memberships.count())


def _call(api: APIClient, method: str, path: str, body: dict[str, Any]) -> Any:
    return getattr(api, method)(path, body, format="json")


def _token_client(user: Any) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def test_another_clubs_director_gets_403_on_a_public_club_and_404_on_a_private_one(
    nights: dict[str, Any],
) -> None:
    api = _token_client(nights["other"]["director"])
    UserFactory(username="someone")
    for kind, status in (("public", 403), ("private", 404)):
        night = nights[kind]
        before = _snapshot(night)
        for method, path, body in director_writes(night) + scorer_writes(night):
            response = _call(api, method, path, body)
            assert response.status_code == status, (kind, method, path, response.content)
            assert set(response.json()) == {"errors"}
        assert _snapshot(night) == before
        assert not EventLog.objects.filter(event=night["event"],
                                           actor=nights["other"]["director"]).exists()


def test_a_scorer_of_the_club_gets_403_on_director_writes(nights: dict[str, Any]) -> None:
    for kind in ("public", "private"):
        night = nights[kind]
        scorer = UserFactory(username=f"scorer-{kind}")
        Membership.objects.create(club=night["club"], user=scorer, role="scorer")
        api = _token_client(scorer)
        before = _snapshot(night)
        for method, path, body in director_writes(night):
            response = _call(api, method, path, body)
            assert response.status_code == 403, (kind, method, path, response.content)
        assert _snapshot(night) == before


def test_a_director_is_not_an_owner(nights: dict[str, Any]) -> None:
    night = nights["public"]
    api = _token_client(night["director"])
    UserFactory(username="someone")
    response = api.post(f"/api/clubs/{night['club'].slug}/members/",
                        {"username": "someone", "role": "director"}, format="json")
    assert response.status_code == 403


def test_a_member_without_a_role_gets_403(nights: dict[str, Any]) -> None:
    night = nights["private"]
    member = UserFactory(username="plain-member")
    Membership.objects.create(club=night["club"], user=member, role="member")
    api = _token_client(member)
    before = _snapshot(night)
    for method, path, body in director_writes(night) + scorer_writes(night):
        assert _call(api, method, path, body).status_code == 403, (method, path)
    assert _snapshot(night) == before


def test_anonymous_callers_get_401_or_403(nights: dict[str, Any]) -> None:
    api = APIClient()
    bad_token = APIClient()
    bad_token.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    for kind in ("public", "private"):
        night = nights[kind]
        before = _snapshot(night)
        for client in (api, bad_token):
            for method, path, body in director_writes(night) + scorer_writes(night):
                response = _call(client, method, path, body)
                assert response.status_code in (401, 403), (kind, method, path)
        assert _snapshot(night) == before
    assert api.post("/api/clubs/", {"name": "Anonymous club"}, format="json").status_code in (
        401, 403)


def test_a_private_event_is_404_to_outsiders_for_reads_too(nights: dict[str, Any]) -> None:
    night = nights["private"]
    api = _token_client(nights["other"]["director"])
    base = f"/api/events/{night['event'].pk}"
    for path in (f"{base}/", f"{base}/entries/", f"{base}/rounds/", f"{base}/rounds/1/",
                 f"{base}/standings/"):
        assert api.get(path).status_code == 404, path
    assert APIClient().get(f"{base}/").status_code == 404


def test_the_table_token_is_the_only_credential_of_the_table_endpoints(
    nights: dict[str, Any],
) -> None:
    api = APIClient()
    for suffix in ("scorer/", "confirm/"):
        assert api.post(f"/api/tables/not-a-token/{suffix}", {"position": "N"},
                        format="json").status_code == 404
    # a private club's table answers its token without any login (like entering hands)
    table = nights["private"]["table"]
    response = api.post(f"/api/tables/{table.token}/confirm/", {"position": "E"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "status"

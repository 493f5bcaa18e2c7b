"""The check-in API's counterparts of the check-in pages: alternates, self check-in's switch,
its arrivals and approvals, and the players' own self check-in (no login, rate-limited)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from draw.services import round_create
from tests.clubs.factories import ClubFactory, PlayerFactory, club_with_director
from tests.scoring.factories import member
from tests.tournaments.factories import EventFactory, progressive_event
from tournaments.models import Arrival, Entry, Event
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def room() -> dict[str, Any]:
    club, director = club_with_director(slug="api-room")
    event = progressive_event(0, club=club, deals_per_round=1)
    api = APIClient()
    api.force_authenticate(director)
    ann = PlayerFactory(club=club, name="Ann Smith")
    return {"club": club, "event": event, "api": api, "ann": ann,
            "base": f"/api/events/{event.pk}"}


def _fields(response: Any) -> list[str]:
    return [e["field"] for e in response.json()["errors"]]


def test_self_check_in_through_the_api_then_approved_by_the_director(
        room: dict[str, Any]) -> None:
    player = APIClient()
    found = player.get(f"{room['base']}/here/", {"name": "ann s"})
    assert found.status_code == 200
    assert found.json() == [{"player_id": room["ann"].pk, "name": "Ann Smith", "state": "free"}]
    assert _fields(player.get(f"{room['base']}/here/", {"name": "a"})) == ["name"]
    here = player.post(f"{room['base']}/here/", {"player_id": room["ann"].pk}, format="json")
    assert here.status_code == 201 and here.json()["state"] == "waiting"
    assert _fields(player.post(f"{room['base']}/here/", {"player_id": 999999},
                               format="json")) == ["player_id"]
    arrivals = room["api"].get(f"{room['base']}/arrivals/").json()
    (waiting,) = arrivals["waiting"]
    assert (waiting["name"], waiting["status"]) == ("Ann Smith", "waiting")
    assert player.get(f"{room['base']}/arrivals/").status_code in (401, 403)
    done = room["api"].post(f"{room['base']}/arrivals/{waiting['id']}/", {"approve": True},
                            format="json")
    assert done.status_code == 200 and done.json()["status"] == "approved"
    assert room["event"].entries.filter(player=room["ann"], status=Entry.Status.ACTIVE).exists()
    assert player.get(f"{room['base']}/here/", {"name": "ann"}).json()[0]["state"] == "here"


def test_self_check_in_mode_and_its_closing(room: dict[str, Any]) -> None:
    bad = room["api"].post(f"{room['base']}/self-check-in/", {"mode": "maybe"}, format="json")
    assert bad.status_code == 400 and _fields(bad) == ["mode"]
    opened = room["api"].post(f"{room['base']}/self-check-in/", {"mode": "open"}, format="json")
    assert opened.status_code == 200 and opened.json()["self_check_in"] == "open"
    here = APIClient().post(f"{room['base']}/here/", {"player_id": room["ann"].pk},
                            format="json")
    assert here.status_code == 201 and here.json()["state"] == "here"
    for _ in range(7):
        entry_check_in(event=room["event"], player=PlayerFactory(club=room["club"]))
    round_create(event=room["event"])
    late = APIClient().post(f"{room['base']}/here/",
                            {"player_id": PlayerFactory(club=room["club"]).pk}, format="json")
    assert late.status_code == 400 and late.json()["errors"][0]["code"] == "started"
    scorer = APIClient()
    scorer.force_authenticate(member(room["club"], "scorer", "api-scorer"))
    assert scorer.post(f"{room['base']}/self-check-in/", {"mode": "off"},
                       format="json").status_code == 403


def test_the_self_check_in_api_is_rate_limited(room: dict[str, Any], settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "self_checkin": "2/min"}}
    player = APIClient()
    codes = [player.get(f"{room['base']}/here/", {"name": "ann"}).status_code for _ in range(3)]
    assert codes == [200, 200, 429]
    assert player.post(f"{room['base']}/here/", {"player_id": room["ann"].pk},
                       format="json").status_code == 429
    assert not Arrival.objects.exists()


def test_an_alternate_is_marked_through_the_api(room: dict[str, Any]) -> None:
    entry = entry_check_in(event=room["event"], player=room["ann"])
    url = f"{room['base']}/entries/{entry.pk}/alternate/"
    assert _fields(room["api"].post(url, {}, format="json")) == ["alternate"]
    marked = room["api"].post(url, {"alternate": True}, format="json")
    assert marked.status_code == 200 and marked.json()["alternate"] is True
    _, elsewhere = club_with_director(slug="api-else")
    outsider = APIClient()
    outsider.force_authenticate(elsewhere)
    assert outsider.post(url, {"alternate": False}, format="json").status_code in (403, 404)
    entry.refresh_from_db()
    assert entry.alternate
    other_club_player = PlayerFactory(club=ClubFactory())
    assert APIClient().post(f"{room['base']}/here/", {"player_id": other_club_player.pk},
                            format="json").status_code == 400


def _open(room: dict[str, Any]) -> None:
    assert room["api"].post(f"{room['base']}/self-check-in/", {"mode": "open"},
                            format="json").status_code == 200


def test_a_phone_checks_in_two_players_at_most_and_each_tap_is_logged_with_who_tapped(
        room: dict[str, Any]) -> None:
    _open(room)
    players = [room["ann"], *(PlayerFactory(club=room["club"]) for _ in range(2))]
    phone = APIClient()  # keeps its cookie, as a phone's browser
    url = f"{room['base']}/here/"
    taps = [phone.post(url, {"player_id": p.pk}, format="json", REMOTE_ADDR="203.0.113.7")
            for p in players]
    assert [t.status_code for t in taps] == [201, 201, 400]
    (error,) = taps[2].json()["errors"]
    assert (error["field"], error["code"]) == ("player_id", "phone_limit")
    assert not Entry.objects.filter(event=room["event"], player=players[2]).exists()
    # another phone may
    assert APIClient().post(url, {"player_id": players[2].pk}, format="json",
                            REMOTE_ADDR="203.0.113.8").status_code == 201
    logged = list(room["event"].log.filter(action="here_tapped").order_by("pk"))
    assert [(e.details["player"], e.details["address"]) for e in logged] == [
        (players[0].pk, "203.0.113.7"), (players[1].pk, "203.0.113.7"),
        (players[2].pk, "203.0.113.8")]
    phones = [e.details["phone"] for e in logged]
    assert phones[0] == phones[1] != phones[2] and len(phones[0]) == 12


def test_the_taps_of_one_event_are_limited_whoever_taps(room: dict[str, Any],
                                                        settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "self_checkin_event": "3/min"}}
    _open(room)
    players = [PlayerFactory(club=room["club"]) for _ in range(4)]
    # a script keeping no cookie, from addresses of its own: a new phone each tap
    codes = [APIClient().post(f"{room['base']}/here/", {"player_id": p.pk}, format="json",
                              REMOTE_ADDR=f"198.51.100.{n}")
             for n, p in enumerate(players)]
    assert [c.status_code for c in codes] == [201, 201, 201, 429]
    assert int(codes[3]["Retry-After"]) > 0
    assert Entry.objects.filter(event=room["event"]).count() == 3
    # another event's door is its own
    other = progressive_event(0, club=room["club"], deals_per_round=1)
    Event.objects.filter(pk=other.pk).update(self_check_in=Event.SelfCheckIn.OPEN)
    assert APIClient().post(f"/api/events/{other.pk}/here/", {"player_id": players[3].pk},
                            format="json").status_code == 201


def test_the_search_names_only_players_a_public_page_may_name(room: dict[str, Any]) -> None:
    club = room["club"]
    hidden = EventFactory(club=club, is_public=False)
    public = EventFactory(club=club)
    private_club = ClubFactory(is_public=False)
    private_club_event = EventFactory(club=private_club)
    only_hidden = PlayerFactory(club=club, name="Ann Hidden")
    entry_check_in(event=hidden, player=only_hidden)
    only_private_club = PlayerFactory(club=club, name="Ann Private")
    only_private_club.club_links.create(club=private_club)
    entry_check_in(event=private_club_event, player=only_private_club)
    both = PlayerFactory(club=club, name="Ann Public")
    entry_check_in(event=hidden, player=both)
    entry_check_in(event=public, player=both)
    here_already = PlayerFactory(club=club, name="Ann Here")
    entry_check_in(event=hidden, player=here_already)
    entry_check_in(event=room["event"], player=here_already)
    found = APIClient().get(f"{room['base']}/here/", {"name": "ann"})
    assert found.status_code == 200
    assert sorted(f["name"] for f in found.json()) == ["Ann Here", "Ann Public", "Ann Smith"]
    # the page's search is the same
    page = APIClient().get(f"/events/{room['event'].pk}/here/", {"name": "ann"})
    text = page.content.decode()
    assert "Ann Public" in text and "Ann Hidden" not in text and "Ann Private" not in text

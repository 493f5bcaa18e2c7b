"""The check-in pages: the director's (everyone, a pasted list with its preview, alternates,
self check-in's arrivals and approvals, the poster) and the players' self check-in page (search,
"I'm here", the phone's limit, closed once play starts, rate-limited)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from draw.services import round_create
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import member
from tests.tournaments.factories import EventFactory, progressive_event
from tournaments.models import Arrival, Entry, Event
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db

NAMES = ["Ann Smith", "Bob Jones", "Bobby Jonas", "Cleo Park", "Dev Patel", "Eve Stone",
         "Finn Gray", "Gus Hale", "Hana Kim"]


@pytest.fixture
def room(client: Client) -> dict[str, Any]:
    club, director = club_with_director(slug="room")
    event = progressive_event(0, club=club, deals_per_round=1)
    players = {name: PlayerFactory(club=club, name=name) for name in NAMES}
    client.force_login(director)
    return {"club": club, "director": director, "event": event, "players": players,
            "client": client, "url": f"/events/{event.pk}/checkin/",
            "here": f"/events/{event.pk}/here/"}


def _active(event: Event) -> set[str]:
    return set(event.entries.filter(status=Entry.Status.ACTIVE).values_list("player__name",
                                                                            flat=True))


def test_everyone_on_the_roster_is_checked_in_at_once(room: dict[str, Any]) -> None:
    page = room["client"].get(room["url"]).content.decode()
    assert "Check in everyone on the roster (9)" in page
    done = room["client"].post(room["url"], {"action": "everyone"}, follow=True)
    assert _active(room["event"]) == set(NAMES)
    html = done.content.decode()
    assert "Checked in (9)" in html
    # nine here in a format of full tables: the page says one will wait as an alternate
    assert "9 players here" in html and "1 of them will wait as alternate" in html


def test_a_pasted_list_is_previewed_then_the_ticked_names_checked_in(
        room: dict[str, Any]) -> None:
    entry_check_in(event=room["event"], player=room["players"]["Cleo Park"])
    text = "ann smith\nBob Jo\ncleo park\nZed Newcomer"
    preview = room["client"].post(room["url"], {"action": "paste", "names": text})
    assert preview.status_code == 200
    html = preview.content.decode()
    assert _active(room["event"]) == {"Cleo Park"}  # nothing written by the preview
    ann, bob, bobby = (room["players"][n].pk for n in ("Ann Smith", "Bob Jones", "Bobby Jonas"))
    assert f'name="players" value="{ann}" checked' in html
    assert "could be:" in html and f'value="{bob}"' in html and f'value="{bobby}"' in html
    assert "already here" in html
    assert 'value="Zed Newcomer"' in html
    confirm = room["client"].post(room["url"], {"action": "checkin", "players": [ann, bobby],
                                                "new_players": ["Zed Newcomer"]}, follow=True)
    assert confirm.status_code == 200
    assert _active(room["event"]) == {"Cleo Park", "Ann Smith", "Bobby Jonas", "Zed Newcomer"}
    empty = room["client"].post(room["url"], {"action": "paste", "names": " \n, "})
    assert "Paste the names first" in empty.content.decode()


def test_the_director_marks_an_alternate_and_the_page_says_why(room: dict[str, Any]) -> None:
    eve = entry_check_in(event=room["event"], player=room["players"]["Eve Stone"])
    room["client"].post(f"/events/{room['event'].pk}/entries/{eve.pk}/alternate/",
                        {"alternate": "1"})
    eve.refresh_from_db()
    assert eve.alternate
    html = room["client"].get(room["url"]).content.decode()
    assert "marked as an alternate by the director" in html
    room["client"].post(f"/events/{room['event'].pk}/entries/{eve.pk}/alternate/",
                        {"alternate": "0"})
    eve.refresh_from_db()
    assert not eve.alternate


def test_a_ninth_player_left_out_by_the_seating_is_shown_as_an_alternate_with_the_reason(
        room: dict[str, Any]) -> None:
    for name in NAMES:
        entry_check_in(event=room["event"], player=room["players"][name])
    round_create(event=room["event"])
    waiting = room["event"].entries.filter(alternate=True)
    assert waiting.count() == 1
    html = room["client"].get(room["url"]).content.decode()
    assert f'id="entry-{waiting.get().pk}"' in html
    assert "no full table of four was left for them" in html


def test_self_check_in_with_approval_shows_on_the_directors_page(
        room: dict[str, Any]) -> None:
    phone = Client()
    found = phone.get(room["here"], {"name": "ann"}).content.decode()
    ann = room["players"]["Ann Smith"]
    assert "Ann Smith" in found and f'name="player" value="{ann.pk}"' in found
    assert "Bob Jones" not in found
    live = phone.get(room["here"] + "find/", {"name": "bob jo"}).content.decode()
    assert "Bob Jones" in live and "Ann Smith" not in live
    answer = phone.post(room["here"], {"player": ann.pk}, follow=True).content.decode()
    assert "the director will confirm you" in answer
    assert not room["event"].entries.exists()
    # the director's page and its live region list the arrival with an approve button
    arrivals = room["client"].get(room["url"] + "arrivals/").content.decode()
    assert "Ann Smith" in arrivals and "1 waiting for your approval" in arrivals
    arrival = Arrival.objects.get(event=room["event"], player=ann)
    room["client"].post(f"{room['url']}arrivals/{arrival.pk}/", {"approve": "1"})
    assert _active(room["event"]) == {"Ann Smith"}
    assert "Checked in ✓" in phone.get(room["here"], {"name": "ann"}).content.decode()
    # approve all
    for name in ("Cleo Park", "Dev Patel"):
        Client().post(room["here"], {"player": room["players"][name].pk})
    room["client"].post(f"{room['url']}arrivals/0/", {"approve": "1"})
    assert _active(room["event"]) == {"Ann Smith", "Cleo Park", "Dev Patel"}


def test_self_check_in_without_approval_and_one_phone_checks_in_two_players_at_most(
        room: dict[str, Any]) -> None:
    room["client"].post(room["url"] + "self/", {"mode": "open"})
    room["event"].refresh_from_db()
    assert room["event"].self_check_in == "open"
    phone = Client()
    first = phone.post(room["here"], {"player": room["players"]["Ann Smith"].pk}, follow=True)
    assert "Welcome, Ann Smith: you are checked in." in first.content.decode()
    phone.post(room["here"], {"player": room["players"]["Bob Jones"].pk})
    third = phone.post(room["here"], {"player": room["players"]["Cleo Park"].pk}, follow=True)
    assert "This phone has checked in 2 players already" in third.content.decode()
    assert _active(room["event"]) == {"Ann Smith", "Bob Jones"}
    assert not room["event"].entries.filter(alternate=True).exists()


def test_self_check_in_is_closed_once_play_starts_or_when_off(room: dict[str, Any]) -> None:
    for name in NAMES[:8]:
        entry_check_in(event=room["event"], player=room["players"][name])
    round_create(event=room["event"])
    phone = Client()
    page = phone.get(room["here"]).content.decode()
    assert "Play has started: please check in at the desk." in page
    assert 'id="self-name"' not in page
    late = phone.post(room["here"], {"player": room["players"]["Hana Kim"].pk}, follow=True)
    assert "Play has started" in late.content.decode()
    assert not room["event"].entries.filter(player=room["players"]["Hana Kim"]).exists()
    other = EventFactory(club=room["club"], self_check_in="off")
    assert "has no self check-in" in phone.get(f"/events/{other.pk}/here/").content.decode()


def test_self_check_in_is_rate_limited(room: dict[str, Any], settings: Any) -> None:
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "self_checkin": "3/min"}}
    phone = Client()
    answers = [phone.get(room["here"] + "find/", {"name": "ann"}).status_code for _ in range(4)]
    assert answers == [200, 200, 200, 429]
    refused = phone.post(room["here"], {"player": room["players"]["Ann Smith"].pk})
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    assert not Arrival.objects.exists()


def test_the_check_in_pages_are_the_directors(room: dict[str, Any]) -> None:
    scorer = Client()
    scorer.force_login(member(room["club"], "scorer", "room-scorer"))
    event = room["event"]
    assert scorer.get(room["url"]).status_code == 403
    assert scorer.get(room["url"] + "arrivals/").status_code == 403
    assert scorer.get(room["url"] + "poster/").status_code == 403
    assert scorer.post(room["url"] + "self/", {"mode": "off"}).status_code == 403
    assert scorer.post(room["url"], {"action": "everyone"}).status_code == 403
    assert not event.entries.exists()
    poster = room["client"].get(room["url"] + "poster/").content.decode()
    assert "<svg" in poster and f"/events/{event.pk}/here/" in poster

"""The event page tells the director what comes next, and the wall tells the room the state of
play: a seated round is not "Playing", Finish is the main button once the planned rounds are
played, and check-in finds names and asks before someone leaves."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from draw.services import round_create
from tests.clubs.factories import club_with_director
from tests.tournaments.factories import event_with_players
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db


def _badges(html: str) -> list[str]:
    return re.findall(r'<article class="card table-card".*?<span class="badge (\w+)">', html, re.S)


def _main_buttons(html: str) -> list[str]:
    panel = html.split('id="director-panel"', 1)[1].split("</section>", 1)[0]
    return re.findall(r'<button class="btn" type="submit" id="([\w-]+)"', panel)


def test_tables_of_a_seated_round_are_not_called_playing(client) -> None:
    club, director = club_with_director(slug="home")
    event = event_with_players(club=club, players=8)
    round_ = round_create(event=event)
    client.force_login(director)
    html = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _badges(html) == ["seated", "seated"] and "Seated, not started" in html
    client.post(reverse("round-start", args=[event.pk, round_.number]))
    html = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _badges(html) == ["playing", "playing"]
    detail = client.get(reverse("round-detail", args=[event.pk, 1])).content.decode()
    assert _badges(detail) == ["playing", "playing"]


def test_finish_is_the_main_button_once_the_planned_rounds_are_played(client) -> None:
    club, director = club_with_director(slug="home")
    event = event_with_players(club=club, players=8)
    Event.objects.filter(pk=event.pk).update(rounds_planned=2, status=Event.Status.RUNNING)
    client.force_login(director)
    for number in (1, 2):
        html = client.get(reverse("event-detail", args=[event.pk])).content.decode()
        assert _main_buttons(html) == ["seat-round"]
        assert 'id="finish-early"' in html or number == 1  # a page that asks first
        round_create(event=event)
        client.post(reverse("round-start", args=[event.pk, number]))
        client.post(reverse("round-close", args=[event.pk, number]), {"close_unfinished": "1"})
        assert Round.objects.get(event=event, number=number).status == Round.Status.CLOSED
    html = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _main_buttons(html) == ["finish-event"]
    assert "Play an extra round (3)" in html  # a club night may play on, as a secondary choice
    assert 'id="finish-early"' not in html


def test_wall_version_poll_carries_the_state_of_play(client) -> None:
    club, _ = club_with_director(slug="home")
    event = event_with_players(club=club, players=8)
    url = reverse("event-standings-version", args=[event.pk])
    assert "round" not in client.get(url).json()  # the phones' poll stays lean
    assert client.get(url + "?round=1").json()["round"] is None
    round_create(event=event)
    state = client.get(url + "?round=1").json()["round"]
    assert state["status"] == "seated" and state["tables"] == 2 and "find your table" in state["text"]
    Round.objects.filter(event=event).update(status=Round.Status.PLAYING)
    assert "0 of 2 tables finished" in client.get(url + "?round=1").json()["round"]["text"]
    Round.objects.filter(event=event).update(status=Round.Status.CLOSED)
    assert "next round is not seated yet" in client.get(url + "?round=1").json()["round"]["text"]
    wall = client.get(reverse("event-standings-wall", args=[event.pk])).content.decode()
    assert 'id="wall-round-status"' in wall and "next round is not seated yet" in wall


def test_check_in_searches_names_and_asks_before_leaving(client) -> None:
    club, director = club_with_director(slug="home")
    event = event_with_players(club=club, players=4)
    client.force_login(director)
    html = client.get(reverse("event-checkin", args=[event.pk])).content.decode()
    assert 'data-filter=".checkin-tile, .here-row"' in html
    names = list(event.entries.values_list("player__name", flat=True))
    for name in names:
        assert f'data-name="{name}"' in html
    assert html.count("is leaving: take them out of the next rounds?") == len(names)


def test_a_club_nights_standings_page_has_no_stage_tabs_and_no_template_text(client) -> None:
    club, _ = club_with_director(slug="home")
    event = event_with_players(club=club, players=8)
    for _ in range(2):
        round_ = round_create(event=event)
        Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    html = client.get(reverse("event-standings", args=[event.pk])).content.decode()
    assert 'id="stage-tabs"' not in html  # one stage: nothing to choose
    assert "{#" not in html and "#}" not in html and "{%" not in html

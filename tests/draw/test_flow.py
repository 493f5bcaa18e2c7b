"""The director's flow through a day: a round in one step (close round N and seat round N+1)
for an individual, a pair and a bracket event; the event page's next step; "Call time" asking
before it ends games 0-0, and the wall's clock stopping after it; "Finish" showing the placings
before writing them; the podium; the results sheet's final games; and the words of the format
on the event page, the round page and the director screen."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from draw.services import round_advance, round_create, round_set_status
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from standings.models import StandingsSnapshot
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import values
from tests.scoring.test_call_time import MISDEAL, play
from tests.tournaments.factories import event_with_players, progressive_event
from tournaments.models import Event, EventLog, Round
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db


def _play_round(round_: Round) -> None:
    """Every table of the round plays its one deal (EW win 55 to 51) and is confirmed."""
    for table in round_.tables.order_by("number"):
        game = Game.objects.get(table=table)
        if game.status == Game.Status.PLAYING:
            hand_submit(game=game, number=1, values=values())
            game_confirm(game=game, position="N")


def _next_step(html: str) -> tuple[str, str]:
    """The event page's next step: the button's id and its words."""
    block = html.split('id="next-step"', 1)[1].split("</form>", 1)[0]
    found = re.search(r'<button class="btn" type="submit" id="([\w-]+)"[^>]*>([^<]+)</button>', block)
    assert found, block
    return found.group(1), found.group(2).strip()


def _pair_event(format: str, pairs: int, **kwargs: Any) -> tuple[Event, Any]:
    club, director = club_with_director(slug=f"pairs-{format.replace('_', '-')}")
    event = event_create(club=club, name="Partners", date=datetime.date(2026, 11, 22),
                         format=format, deals_per_round=1, **kwargs)
    for n in range(pairs):
        pair_register(event=event, players=[PlayerFactory(club=club), PlayerFactory(club=club)],
                      name=f"Team {n + 1}", seed=n + 1)
    return event, director


# --- a round in one step ------------------------------------------------------------------------
def test_an_individual_event_closes_and_seats_the_next_round_in_one_step(client: Client) -> None:
    club, director = club_with_director(slug="night")
    event = event_with_players(club=club, players=8, rounds_planned=2, deals_per_round=1)
    client.force_login(director)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("seat-round", "Seat round 1")
    first = round_create(event=event, actor=director)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("start-round", "Start round 1")
    round_set_status(round_=first, status=Round.Status.PLAYING)
    _play_round(first)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("advance-round", "Close round 1 and seat round 2")

    url = reverse("round-advance", args=[event.pk, 1])
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse(
        "event-detail", args=[event.pk])
    rounds = list(event.rounds.order_by("number").values_list("number", "status"))
    assert rounds == [(1, "closed"), (2, "playing")]
    assert EventLog.objects.filter(event=event, action="round_advanced",
                                   details__closed=1, details__seated=2).count() == 1
    # A second click (or a retry) changes nothing: round 2 stays the open round.
    assert client.post(url).status_code == 302
    assert list(event.rounds.order_by("number").values_list("number", "status")) == rounds

    # The last round: its games unfinished are listed first, and the step asks to go on.
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("advance-round", "Close round 2")
    asked = client.post(reverse("round-advance", args=[event.pk, 2]))
    assert asked.status_code == 409
    html = asked.content.decode()
    assert "Table 1: playing" in html and "Close round 2 anyway" in html
    assert event.rounds.get(number=2).status == Round.Status.PLAYING
    done = client.post(reverse("round-advance", args=[event.pk, 2]), {"close_unfinished": "1"})
    assert done.status_code == 302 and done["Location"] == reverse("event-finish", args=[event.pk])
    assert list(event.rounds.order_by("number").values_list("number", "status")) == [
        (1, "closed"), (2, "closed")]
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("finish-event", "Finish the event")


def test_a_pair_event_advances_in_one_step_with_partners_together() -> None:
    event, director = _pair_event("swiss", pairs=6, rounds_planned=3)
    first = round_create(event=event, actor=director)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    _play_round(first)
    second = round_advance(event=event, number=1, actor=director)
    assert second is not None and second.number == 2 and second.status == Round.Status.PLAYING
    for table in second.tables.all():
        pair_of = {s.position: s.entry.pair_id for s in table.seats.select_related("entry")}
        assert pair_of["N"] == pair_of["S"] and pair_of["E"] == pair_of["W"]
    # Swiss: the winners of round 1 meet in round 2.
    winners = {s.entry.pair_id for g in Game.objects.filter(table__round=first)
               for s in g.table.seats.select_related("entry") if s.position in ("E", "W")}
    top = {s.entry.pair_id for s in second.tables.get(number=1).seats.select_related("entry")}
    assert top <= winners


def test_a_bracket_event_advances_to_its_final_then_to_the_finish(client: Client) -> None:
    event, director = _pair_event("single_elimination", pairs=4)
    client.force_login(director)
    first = round_create(event=event, actor=director)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    _play_round(first)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("advance-round", "Close round 1 and seat round 2")
    assert client.post(reverse("round-advance", args=[event.pk, 1])).status_code == 302
    final = event.rounds.get(number=2)
    assert final.status == Round.Status.PLAYING and final.tables.count() == 1
    winners = {s.entry.pair_id for s in final.tables.get().seats.select_related("entry")}
    assert winners == {s.entry.pair_id for t in first.tables.all()
                       for s in t.seats.select_related("entry") if s.position in ("E", "W")}
    _play_round(final)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("advance-round", "Close round 2")
    done = client.post(reverse("round-advance", args=[event.pk, 2]))
    assert done["Location"] == reverse("event-finish", args=[event.pk])
    assert event.rounds.count() == 2

    # Finish shows the places first and writes nothing...
    preview = client.get(reverse("event-finish", args=[event.pk]))
    html = preview.content.decode()
    champion = final.tables.get().seats.get(position="E").entry.pair
    rows = re.findall(r"<tr data-entry=\"\d+\"><td class=\"num\">(\d+)</td><td>([^<]+)</td>", html)
    assert rows[0] == ("1", str(champion)) and len(rows) == 4
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    # ... then the confirmed finish writes them, the podium shows, and the results sheet
    # carries the final's score.
    client.post(reverse("event-finish", args=[event.pk]), {"confirm": "1"})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    podium = page.split('id="podium"', 1)[1].split("</section>", 1)[0]
    assert "1st" in podium and str(champion) in podium
    sheet = client.get(reverse("event-results", args=[event.pk])).content.decode()
    games = sheet.split('id="stage-games"', 1)[1].split("</section>", 1)[0]
    assert "Bracket games" in sheet and "Round 2" in games and "Round 1" in games
    final_row = games.split('data-round="2"', 1)[1].split("</table>", 1)[0]
    assert str(champion) in final_row and ">55<" in final_row and ">51<" in final_row
    assert final_row.count("won</span>") == 1


def test_a_cut_is_named_by_the_format_and_the_final_scores_reach_the_results_sheet(
        client: Client) -> None:
    club, director = club_with_director(slug="npa")
    event = progressive_event(8, club=club, rounds_planned=2, deals_per_round=1,
                              format_settings={"cut": 4, "final_rule": "single_game"})
    client.force_login(director)
    for number in (1, 2):
        round_ = event.rounds.filter(number=number).first() or round_create(event=event)
        Event.objects.filter(pk=event.pk).update(advance_held=True)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        _play_round(round_)
        if number == 1:
            client.post(reverse("round-advance", args=[event.pk, 1]))
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == ("advance-round", "Close game 2 and make the cut: seat the final")
    assert "<h2>Game 2 <span" in page and ">Games</h2>" in page and "Round 2" not in page
    client.post(reverse("round-advance", args=[event.pk, 2]))
    final = event.rounds.get(number=3)
    assert final.stage == Round.Stage.FINAL and final.status == Round.Status.PLAYING
    round_page = client.get(reverse("round-detail", args=[event.pk, 3])).content.decode()
    assert "<h1>Final <span" in round_page
    director_page = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert "Final (game 3 of 3)" in director_page
    _play_round(final)
    client.post(reverse("round-advance", args=[event.pk, 3]))
    client.post(reverse("event-finish", args=[event.pk]), {"confirm": "1"})
    sheet = client.get(reverse("event-results", args=[event.pk])).content.decode()
    games = sheet.split('id="stage-games"', 1)[1].split("</section>", 1)[0]
    assert "Final games" in sheet and "<h3>Final</h3>" in games
    names = [s.entry.player.name for s in final.tables.get().seats.select_related("entry__player")]
    assert all(name in games for name in names) and ">55<" in games


def test_advancing_is_for_directors_only(client: Client) -> None:
    club, _ = club_with_director(slug="night")
    event = event_with_players(club=club, players=8)
    round_create(event=event)
    other, stranger = club_with_director(slug="elsewhere")
    client.force_login(stranger)
    assert client.post(reverse("round-advance", args=[event.pk, 1])).status_code == 403
    assert client.get(reverse("event-finish", args=[event.pk])).status_code == 403
    assert event.rounds.get().status == Round.Status.SEATED


# --- call time ----------------------------------------------------------------------------------
def test_call_time_with_a_table_without_hands_asks_first_and_the_clock_stops(
        client: Client) -> None:
    club, director = club_with_director(slug="timed")
    event = progressive_event(8, club=club, format_settings={"game_minutes": 30, "cut": 4})
    first = round_create(event=event)
    wall = client.get(reverse("event-wall-movement", args=[event.pk])).content.decode()
    assert "data-deadline=" in wall
    client.force_login(director)
    url = reverse("event-director-time", args=[event.pk])
    asked = client.post(url)
    assert asked.status_code == 409
    html = asked.content.decode()
    assert "No hand has been entered at any table (tables 1, 2)" in html
    assert 'id="call-time-anyway"' in html and "data-auto-refresh" not in html
    assert set(Game.objects.filter(table__round=first).values_list("status", flat=True)) == {
        "playing"}
    hand_submit(game=first.tables.get(number=1).game, number=1, values=values())
    asked = client.post(url)
    assert asked.status_code == 409 and "at table 2: calling time now ends its game 0-0" in \
        asked.content.decode()
    api = APIClient()
    api.force_authenticate(director)
    refused = api.post(reverse("api-round-time", args=[event.pk, 1]), {}, format="json")
    assert refused.status_code == 400 and "confirm" in refused.content.decode()
    done = client.post(url, {"confirm": "1"})
    assert done.status_code == 302
    assert set(Game.objects.filter(table__round=first).values_list("status", flat=True)) == {
        "finished"}
    wall = client.get(reverse("event-wall-movement", args=[event.pk])).content.decode()
    assert "data-deadline=" not in wall and 'id="game-clock"' in wall and "called" in wall


# --- finish, podium -----------------------------------------------------------------------------
def test_finish_previews_the_placings_and_writes_them_only_when_confirmed(client: Client) -> None:
    club, director = club_with_director(slug="night")
    event = event_with_players(club=club, players=8, rounds_planned=1, deals_per_round=1)
    first = round_create(event=event)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    client.force_login(director)
    refused = client.get(reverse("event-finish", args=[event.pk])).content.decode()
    assert "Round 1 is still open" in refused and 'id="confirm-finish"' not in refused
    _play_round(first)
    round_set_status(round_=first, status=Round.Status.CLOSED)
    preview = client.get(reverse("event-finish", args=[event.pk]))
    html = preview.content.decode()
    rows = re.findall(r"<tr data-entry=\"(\d+)\"><td class=\"num\">(\d+)</td>", html)
    assert len(rows) == 8 and rows[0][1] == "1" and 'id="confirm-finish"' in html
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    assert snapshot is None or not snapshot.placements
    unconfirmed = client.post(reverse("event-finish", args=[event.pk]))
    assert unconfirmed.status_code == 400 and "Nothing was written" in unconfirmed.content.decode()
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    client.post(reverse("event-finish", args=[event.pk]), {"confirm": "1"})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    written = StandingsSnapshot.objects.get(event=event).placements
    assert [(str(p["entry_id"]), str(p["place"])) for p in written] == rows
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    podium = page.split('id="podium"', 1)[1].split("</section>", 1)[0]
    first_name = written[0]["name"]
    assert "1st" in podium and first_name in podium and 'id="next-step"' not in page
    # Everyone sees the podium, not only the director.
    assert 'id="podium"' in Client().get(reverse("event-detail", args=[event.pk])).content.decode()


# --- the director screen ------------------------------------------------------------------------
def test_the_director_tile_counts_deals_not_misdeals_and_the_redraw_says_what_it_loses(
        client: Client) -> None:
    club, director = club_with_director(slug="night")
    event = event_with_players(club=club, players=8, deals_per_round=4)
    first = round_create(event=event)
    client.force_login(director)
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    warning = re.search(r'data-confirm="(Re-draw round 1\?[^"]+)"', html)
    assert warning and "with the next draw of the event&#x27;s seed: the seats change" in \
        warning.group(1)
    assert "swaps are undone" in warning.group(1) and "your reason are logged" in warning.group(1)
    play(first.tables.get(number=1), MISDEAL, {}, {}, {}, {})
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    tile = html.split('id="table-1"', 1)[1].split("</li>", 1)[0]
    hands = re.search(r'<span class="dtile-hands"[^>]*>(.*?)</span>\s*<span class="dtile-mins"',
                      tile, re.S)
    assert hands and hands.group(1).startswith("4/4") and "+1 misdeal" in hands.group(1)
    assert "5/4" not in tile


def test_the_api_advances_in_one_step_and_names_what_is_unfinished() -> None:
    club, director = club_with_director(slug="api-night")
    event = event_with_players(club=club, players=8, rounds_planned=2, deals_per_round=1)
    first = round_create(event=event)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    api = APIClient()
    api.force_authenticate(director)
    url = reverse("api-round-advance", args=[event.pk, 1])
    refused = api.post(url, {}, format="json")
    assert refused.status_code == 400 and "close_unfinished" in refused.content.decode()
    assert event.rounds.get(number=1).status == Round.Status.PLAYING and event.rounds.count() == 1
    seated = api.post(url, {"close_unfinished": True, "start": False}, format="json")
    assert seated.status_code == 200, seated.content
    body = seated.json()
    assert body["closed"] == 1 and body["round"]["number"] == 2
    assert body["round"]["status"] == "seated" and len(body["round"]["tables"]) == 2
    last = api.post(reverse("api-round-advance", args=[event.pk, 2]),
                    {"close_unfinished": True}, format="json")
    assert last.status_code == 200 and last.json() == {"closed": 2, "round": None}


def _level(round_: Round, director: Any) -> None:
    """The round's one game ends level (an adjusted result of equal points)."""
    from scoring.services import game_adjust

    game_adjust(game=round_.tables.get().game, kind="points", points={"NS": 50, "EW": 50},
                reason="the room closed", actor=director)


def _seed_whose_cut_goes_to(side: str, round_number: int) -> str:
    """An event seed whose system cut of table 1 of that round goes to ``side``."""
    import random

    return next(str(n) for n in range(1, 100)
                if random.Random(f"cut:{n}:{round_number}:1").choice(["NS", "EW"]) == side)


@pytest.mark.parametrize("cut_to", ["champion", "challenger"])
def test_a_level_grand_final_offers_finish_when_the_cut_decides_the_bracket(
        client: Client, cut_to: str) -> None:
    """A double elimination's grand final that ended level: the system's cut decides it when
    the next step is taken. Won by the winners' bracket champion, the bracket is over and the
    next step is Finish (it offered "Seat round 3", which was refused: the bracket is
    complete); won by the challenger, the reset match is seated."""
    event, director = _pair_event("double_elimination", pairs=2)
    client.force_login(director)
    first = round_create(event=event, actor=director)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    _play_round(first)  # E-W win
    round_set_status(round_=first, status=Round.Status.CLOSED)
    final = round_create(event=event, actor=director)
    round_set_status(round_=final, status=Round.Status.PLAYING)
    sides = {s.position: s.entry.pair_id for s in final.tables.get().seats.select_related("entry")}
    champion = next(s.entry.pair_id for s in first.tables.get().seats.select_related("entry")
                    if s.position == "E")
    champion_side = "NS" if sides["N"] == champion else "EW"
    other_side = "EW" if champion_side == "NS" else "NS"
    Event.objects.filter(pk=event.pk).update(seed=_seed_whose_cut_goes_to(
        champion_side if cut_to == "champion" else other_side, final.number))
    event.refresh_from_db()
    _level(final, director)
    expected = ("advance-round", "Close round 2") if cut_to == "champion" else \
        ("advance-round", "Close round 2 and seat round 3")
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert _next_step(page) == expected
    round_set_status(round_=final, status=Round.Status.CLOSED)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    if cut_to == "challenger":
        assert _next_step(page) == ("seat-round", "Seat round 3")
        assert round_create(event=event, actor=director).number == 3
        return
    assert _next_step(page) == ("finish-event", "Finish the event")
    client.post(reverse("event-finish", args=[event.pk]), {"confirm": "1"})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED and event.rounds.count() == 2
    places = StandingsSnapshot.objects.get(event=event).placements
    assert min(places, key=lambda p: p["place"])["pair_id"] == champion

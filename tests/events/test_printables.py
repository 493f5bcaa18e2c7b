"""Printables for the day: the day-long table cards and where they lead, the players'
scorecards, and the results sheet with placements and prizes."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

import pytest
from django.urls import reverse

from common.errors import DomainError
from draw.cards import table_cards_ensure
from draw.selectors import final_results
from draw.services import event_status_set, round_create, round_set_status
from scoring.models import SeatResult
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import member, values
from tournaments.models import Event, Round, Table, TableCard
from tournaments.services import entry_check_in, event_create, event_hold_advance

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
PRIZES = {"currency": "$",
          "payouts": [{"place": 1, "amount": "300"}, {"place": 2, "amount": "150"},
                      {"place": 3, "amount": "75"}],
          "side": [{"kind": "high_game", "label": "High game", "amount": "25"}]}
# The final's one hand: EW meld big, so the final's EW side has the day's high game.
FINAL_HAND = values(meld={"NS": 24, "EW": 80})


@pytest.fixture
def day() -> dict[str, Any]:
    """An 8-player progressive day: 2 qualifying games of 1 deal at 2 tables, then straight to
    a one-game final table (cut 4), with prizes."""
    club, director = club_with_director(slug="npa-club")
    event = event_create(
        club=club, name="NPA Saturday", date=DAY, format=Event.Format.INDIVIDUAL_PROGRESSIVE,
        rounds_planned=2, deals_per_round=1, prizes=PRIZES,
        format_settings={"cut": 4, "final_rule": "single_game"},
    )
    for i in range(8):
        entry_check_in(event=event, player=PlayerFactory(club=club, name=f"Player {i + 1}"))
    return {"club": club, "director": director, "event": event}


def _play(round_: Round, capture, hand: dict[str, Any] | None = None) -> None:
    """Every table of the round plays its one hand (EW win unless told) and is confirmed."""
    round_set_status(round_=round_, status="playing")
    with capture(execute=True):
        for table in round_.tables.order_by("number"):
            hand_submit(game=table.game, number=1, values=hand or values())
            game_confirm(game=table.game, position="N")


def _table(event: Event, number: int, table: int) -> Table:
    return Table.objects.get(round__event=event, round__number=number, number=table)


def _entry_url(table: Table) -> str:
    return reverse("table-entry", args=[table.token])


# --- day table cards -----------------------------------------------------------------------------
def test_table_cards_ensure_is_idempotent_and_keeps_printed_tokens(day) -> None:
    event = day["event"]
    first = table_cards_ensure(event=event, count=3)
    assert [c.number for c in first] == [1, 2, 3]
    again = table_cards_ensure(event=event, count=3)
    assert [(c.pk, c.token) for c in again] == [(c.pk, c.token) for c in first]
    more = table_cards_ensure(event=event, count=5)
    assert [c.token for c in more[:3]] == [c.token for c in first]
    assert TableCard.objects.filter(event=event).count() == 5
    fewer = table_cards_ensure(event=event, count=2)
    assert [c.number for c in fewer] == [1, 2]
    assert TableCard.objects.filter(event=event).count() == 5  # printed cards stay valid
    assert event.log.filter(action="table_cards_created").count() == 2
    for bad in (0, 201):
        with pytest.raises(DomainError) as info:
            table_cards_ensure(event=event, count=bad)
        assert info.value.field == "tables"


def test_the_day_cards_page_prints_a_card_per_table_with_its_qr_link(day, client) -> None:
    event = day["event"]
    client.force_login(day["director"])
    url = reverse("event-table-cards", args=[event.pk])
    response = client.get(url)  # before the first game: a table per four players
    assert response.status_code == 200
    cards = TableCard.objects.filter(event=event).order_by("number")
    assert [c.number for c in cards] == [1, 2]
    body = response.content.decode()
    assert body.count("<svg") == 2
    for card in cards:
        assert f"http://testserver/c/{card.token}/" in body
    assert "Scan to enter scores — valid all day" in body and "NPA Saturday" in body
    assert client.get(url).content.decode().count("<svg") == 2  # the same cards again
    assert TableCard.objects.filter(event=event).count() == 2
    assert client.get(url, {"tables": "4"}).content.decode().count("<svg") == 4
    assert client.get(url, {"tables": "500"}).status_code == 400
    assert TableCard.objects.filter(event=event).count() == 4


def test_a_day_card_follows_the_game_played_at_its_table(day, client,
                                                         django_capture_on_commit_callbacks) -> None:
    event = day["event"]
    one, two = table_cards_ensure(event=event, count=2)
    card_url = reverse("table-card", args=[one.token])

    idle = client.get(card_url)  # nothing seated yet
    assert idle.status_code == 200
    assert "No game at table 1 right now" in idle.content.decode()
    assert "the first game is not seated yet" in idle.content.decode()

    first = round_create(event=event)
    response = client.get(card_url)
    assert response.status_code == 302
    assert response["Location"] == _entry_url(_table(event, 1, 1))
    assert client.get(reverse("table-card", args=[two.token]))["Location"] == \
        _entry_url(_table(event, 1, 2))

    _play(first, django_capture_on_commit_callbacks)  # game 2 seats itself
    second = event.rounds.get(number=2)
    assert second.status != Round.Status.CLOSED
    response = client.get(card_url)  # the same card, now game 2's table 1
    assert response.status_code == 302
    assert response["Location"] == _entry_url(_table(event, 2, 1))
    assert response["Location"] != _entry_url(_table(event, 1, 1))
    assert client.get(response["Location"]).status_code == 200

    event_hold_advance(event=event, held=True)
    _play(second, django_capture_on_commit_callbacks)  # closed; the final waits
    idle = client.get(card_url)
    assert idle.status_code == 200
    assert "No game at table 1 right now" in idle.content.decode()
    assert "Game 2 is closed; the next game is not seated yet" in idle.content.decode()

    final = round_create(event=event)
    assert final.stage == Round.Stage.FINAL
    assert client.get(card_url)["Location"] == _entry_url(_table(event, 3, 1))
    idle = client.get(reverse("table-card", args=[two.token]))  # the final uses table 1 only
    assert idle.status_code == 200
    body = idle.content.decode()
    assert "No game at table 2 right now" in body and "Final is played at table 1 only" in body

    _play(final, django_capture_on_commit_callbacks, FINAL_HAND)
    event_status_set(event=event, status="finished")
    over = client.get(card_url).content.decode()
    assert "The event is over" in over and reverse("event-results", args=[event.pk]) in over
    assert client.get(reverse("table-card", args=["no-such-token"])).status_code == 404


# --- scorecards ----------------------------------------------------------------------------------
def test_a_scorecard_shows_the_games_played_and_blank_rows_for_the_rest(
    day, client, django_capture_on_commit_callbacks,
) -> None:
    event = day["event"]
    first = round_create(event=event)
    _play(first, django_capture_on_commit_callbacks)  # EW win 55 to 51 at every table
    seat = _table(event, 1, 1).seats.select_related("entry__player").get(position="E")
    entry = seat.entry
    names = {s.position: s.entry.player.name
             for s in _table(event, 1, 1).seats.select_related("entry__player")}
    second_seat = event.rounds.get(number=2).tables.get(seats__entry=entry).seats.get(entry=entry)
    second_names = {s.position: s.entry.player.name
                    for s in second_seat.table.seats.select_related("entry__player")}

    client.force_login(day["director"])
    response = client.get(reverse("event-scorecard", args=[event.pk, entry.pk]))
    assert response.status_code == 200
    (card,) = response.context["cards"]
    rows = card["rows"]
    assert [r["label"] for r in rows] == ["Game 1", "Game 2", "Final"]
    game1, game2, final = rows
    assert (game1["table"], game1["seat"], game1["partner"]) == (1, "E", names["W"])
    assert game1["opponents"] == [names["N"], names["S"]]
    assert (game1["ours"], game1["theirs"], game1["running"]) == (55, 51, 55)
    # game 2 is seated, not played: who sits where, no scores
    partner = {"N": "S", "S": "N", "E": "W", "W": "E"}[second_seat.position]
    assert (game2["table"], game2["seat"], game2["partner"]) == (
        second_seat.table.number, second_seat.position, second_names[partner])
    assert (game2["ours"], game2["theirs"], game2["running"]) == (None, None, None)
    assert (final["table"], final["partner"], final["ours"], final["running"]) == (None, "", None,
                                                                                    None)
    body = response.content.decode()
    assert entry.player.name in body and "NPA Saturday" in body and "Final" in body
    game1_html = re.search(r'<tr data-round="1".*?</tr>', body, re.S).group(0)
    assert names["W"] in game1_html and ">55<" in game1_html and ">51<" in game1_html

    # game 2 played: the running total adds up; losers of game 1 at the other table too
    _play(event.rounds.get(number=2), django_capture_on_commit_callbacks)
    response = client.get(reverse("event-scorecards", args=[event.pk]))
    assert response.status_code == 200
    cards = {c["entry"].pk: c["rows"] for c in response.context["cards"]}
    assert len(cards) == 8
    for entry_id, (g1, g2, _final) in cards.items():
        points = dict(SeatResult.objects.filter(entry_id=entry_id)
                      .values_list("round_number", "points"))
        assert (g1["ours"], g2["ours"]) == (points[1], points[2])
        assert g2["running"] == points[1] + points[2]
    body = response.content.decode()
    assert body.count('class="scorecard') == 8 and body.count('scorecard break-after"') == 3


def test_director_printables_are_for_the_events_directors_only(day, client) -> None:
    event = day["event"]
    entry = event.entries.first()
    urls = [reverse("event-table-cards", args=[event.pk]),
            reverse("event-scorecards", args=[event.pk]),
            reverse("event-scorecard", args=[event.pk, entry.pk])]
    for url in urls:
        assert client.get(url).status_code == 302  # to the login page
    _other_club, other_director = club_with_director(slug="other-club")
    client.force_login(other_director)
    for url in urls:
        assert client.get(url).status_code in (403, 404)
    assert not TableCard.objects.filter(event=event).exists()
    client.force_login(member(day["club"], "scorer", "a-scorer"))
    assert client.get(urls[0]).status_code == 403
    client.force_login(day["director"])
    assert client.get(reverse("event-scorecard", args=[event.pk, 10**8])).status_code == 404


# --- results -------------------------------------------------------------------------------------
def test_the_results_sheet_lists_the_placements_with_their_prizes(
    day, client, django_capture_on_commit_callbacks,
) -> None:
    event = day["event"]
    first = round_create(event=event)
    _play(first, django_capture_on_commit_callbacks)
    url = reverse("event-results", args=[event.pk])
    provisional = client.get(url)
    assert provisional.status_code == 200
    body = provisional.content.decode()
    assert 'id="provisional"' in body and 'id="placements"' not in body
    assert "1st $300.00 · 2nd $150.00 · 3rd $75.00 · High game $25.00" in body
    assert len(provisional.context["rows"]) == 8  # the qualifying standings so far

    _play(event.rounds.get(number=2), django_capture_on_commit_callbacks)
    final = event.rounds.get(number=3)
    assert final.stage == Round.Stage.FINAL
    _play(final, django_capture_on_commit_callbacks, FINAL_HAND)
    # the finish page shows every prize the finish will award: places and the high game
    client.force_login(day["director"])
    preview = client.get(reverse("event-finish", args=[event.pk])).content.decode()
    assert "$300.00" in preview
    side_preview = re.search(r'<table class="data" id="finish-side-prizes">.*?</table>',
                             preview, re.S)
    assert side_preview and "High game" in side_preview.group(0)
    assert f"${Decimal('25') / 2:.2f} each" in side_preview.group(0)
    client.logout()
    event_status_set(event=event, status="finished")
    # the wall's podium says the money with its currency
    wall = client.get(reverse("event-standings-wall", args=[event.pk])).content.decode()
    podium = re.search(r'<section class="wall-podium".*?</section>', wall, re.S).group(0)
    assert "$300.00" in podium and "$150.00" in podium

    response = client.get(url)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Provisional" not in body
    placements = final_results(event)["placements"]
    shown = re.findall(r'<tr data-entry="(\d+)">\s*<td class="num place">=?(\d+)</td>\s*'
                       r'<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*<td class="num prize">([^<]*)</td>',
                       body)
    assert [int(e) for e, *_ in shown] == [p["entry_id"] for p in placements]
    assert [int(place) for _, place, *_ in shown] == sorted(p["place"] for p in placements)
    assert [(place, stage, prize) for _, place, _, stage, prize in shown[:4]] == [
        ("1", "Final", "$300.00"), ("2", "Final", "$150.00"), ("3", "Final", "$75.00"),
        ("4", "Final", ""),
    ]
    assert {stage for *_, stage, _ in shown[4:]} == {"Qualifying"}
    # the final's winning side (EW) took first and second
    final_table = final.tables.get()
    ew = {s.entry.player.name for s in final_table.seats.select_related("entry__player")
          if s.position in "EW"}
    assert {name for _, _, name, _, _ in shown[:2]} == ew
    # the high game: the final's EW pair, sharing the side prize
    best = max(SeatResult.objects.filter(event=event).values_list("points", flat=True))
    side = re.search(r'<table class="data" id="side-prizes">.*?</table>', body, re.S).group(0)
    assert all(name in side for name in ew)
    assert f">{best}<" in side and f"${Decimal('25') / 2:.2f} each" in side
    # the rules in force and the qualifying standings below
    assert "The top 4 qualifiers go straight to the final table." in body
    assert "Qualifying standings" in body and len(response.context["rows"]) == 8
    # the standings page shows the placings that won something, with the prizes
    standings = client.get(reverse("event-standings", args=[event.pk])).content.decode()
    placings = re.search(r'<section class="card" id="final-placings">.*?</section>', standings,
                         re.S).group(0)
    winners = re.findall(r'<li value="(\d+)">([^<]*?) · final table(?: · <strong>([^<]*))?',
                         placings)
    assert winners == [(place, name, prize) for _, place, name, _, prize in shown[:4]]


def test_the_event_page_links_the_printables(day, client) -> None:
    event = day["event"]
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert reverse("event-results", args=[event.pk]) in page
    assert reverse("event-table-cards", args=[event.pk]) not in page
    client.force_login(day["director"])
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert reverse("event-table-cards", args=[event.pk]) in page
    assert reverse("event-scorecards", args=[event.pk]) in page


def test_a_private_events_results_are_for_its_club_only(client) -> None:
    club, director = club_with_director(slug="private-club")
    event = event_create(club=club, name="Members' day", date=DAY, is_public=False,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE)
    url = reverse("event-results", args=[event.pk])
    assert client.get(url).status_code == 404
    _other, other_director = club_with_director(slug="outsiders")
    client.force_login(other_director)
    assert client.get(url).status_code == 404
    client.force_login(director)
    assert client.get(url).status_code == 200


def test_a_club_nights_results_place_by_its_standings(client) -> None:
    club, director = club_with_director(slug="night-club")
    event = event_create(club=club, name="Tuesday night", date=DAY, rounds_planned=1,
                         deals_per_round=1, prizes={"currency": "EUR",
                                                    "payouts": [{"place": 1, "amount": "20"}]})
    for _ in range(4):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    table = round_.tables.get()
    hand_submit(game=table.game, number=1, values=values())
    game_confirm(game=table.game, position="N")
    round_set_status(round_=round_, status="closed")
    event_status_set(event=event, status="finished")
    body = client.get(reverse("event-results", args=[event.pk])).content.decode()
    winners = [s.entry.player.name for s in table.seats.select_related("entry__player")
               if s.position in "EW"]
    shown = re.findall(r'<tr data-entry="(\d+)">\s*<td class="num place">(=?\d+)</td>\s*'
                       r'<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*<td class="num prize">([^<]*)</td>',
                       body)
    # the two winners share first place and split the first prize (there is no second prize)
    assert sorted((place, name, prize) for _, place, name, _, prize in shown[:2]) == sorted(
        ("=1", name, "10.00 EUR") for name in winners)
    assert [(place, prize) for _, place, _, _, prize in shown[2:]] == [("=3", ""), ("=3", "")]
    assert {stage for *_, stage, _ in shown} == {"Qualifying"}
    assert "<h2 style=\"margin-top:0\">Standings</h2>" in body


def test_a_club_nights_round_cards_keep_working_all_evening(client) -> None:
    """Cards printed from round 1's "Table cards (QR)" page open round 2's tables, say when the
    next round is not seated, and stop leading to entry once the night is finished."""
    club, director = club_with_director(slug="nights")
    event = event_create(club=club, name="Tuesday", date=datetime.date(2026, 11, 24),
                         rounds_planned=2, deals_per_round=2)
    for _ in range(8):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    client.force_login(director)
    round_create(event=event)
    printed = client.get(reverse("round-cards", args=[event.pk, 1])).content.decode()
    links = re.findall(r"/c/([\w-]+)/", printed)
    assert len(set(links)) == 2
    first_card = TableCard.objects.get(event=event, token=links[0])
    card_url = reverse("table-card", args=[first_card.token])
    assert client.get(card_url)["Location"] == _entry_url(_table(event, 1, first_card.number))

    round_set_status(round_=event.rounds.get(number=1), status="playing")
    round_set_status(round_=event.rounds.get(number=1), status="closed", close_unfinished=True)
    idle = client.get(card_url).content.decode()
    assert "Round 1 is closed; the next round is not seated yet" in idle

    round_create(event=event)
    assert client.get(card_url)["Location"] == _entry_url(_table(event, 2, first_card.number))
    again = client.get(reverse("round-cards", args=[event.pk, 2])).content.decode()
    assert set(re.findall(r"/c/([\w-]+)/", again)) == set(links)  # the same cards

    round_set_status(round_=event.rounds.get(number=2), status="playing")
    round_set_status(round_=event.rounds.get(number=2), status="closed", close_unfinished=True)
    event_status_set(event=event, status="finished")
    assert "The event is over" in client.get(card_url).content.decode()

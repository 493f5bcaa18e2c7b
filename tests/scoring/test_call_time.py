"""Calling time on a round whose game ends in a misdeal.

Time called ends every game still playing after the deals entered. A misdeal is not a played
deal: one entered after the last deal (the cards were being redealt when time was called) adds
nothing and must not stop the round being called, through the service, the director's screen
or the API.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Game, HandRevision, SeatResult
from scoring.services import event_settings_update, hand_correct, hand_submit, round_call_time
from tests.clubs.factories import club_with_director
from tests.scoring.factories import DEALERS, seated_table, values
from tournaments.models import EventLog, Table

pytestmark = pytest.mark.django_db

MISDEAL = {"outcome": "misdeal"}


def play(table: Table, *hands: dict[str, Any]) -> Game:
    """Enter ``hands`` at ``table`` in order (the dealer passing clockwise); NS 51, EW 55 each
    unless a hand says otherwise."""
    for number, over in enumerate(hands, start=1):
        dealer = DEALERS[(number - 1) % 4]
        hand = {"dealer": dealer, **over} if over.get("outcome") == "misdeal" else values(
            dealer=dealer, **over)
        hand_submit(game=table.game, number=number, values=hand)
    return Game.objects.get(pk=table.game.pk)


def ended_after_two_deals(game: Game) -> None:
    """Two deals of NS 51, EW 55 then a misdeal: EW won on time, the misdeal kept, scoring 0."""
    game.refresh_from_db()
    assert (game.status, game.winner, game.finish_reason) == ("finished", "EW", "time")
    assert game.totals == {"NS": 102, "EW": 110}
    assert game.hands_count == 3 and game.time_called
    results = {r.position: r for r in SeatResult.objects.filter(game=game)}
    assert {p: (r.points, r.opponents_points, r.won, r.finished) for p, r in results.items()} == {
        "N": (102, 110, False, True), "S": (102, 110, False, True),
        "E": (110, 102, True, True), "W": (110, 102, True, True),
    }
    assert HandRevision.objects.get(hand__game=game, hand__number=3, is_live=True).outcome \
        == "misdeal"


def test_time_called_on_a_game_whose_last_hand_is_a_misdeal_ends_it_after_the_deals() -> None:
    table = seated_table()  # four deals a round
    only_misdeals = seated_table(event=table.round.event, table_number=2)
    game = play(table, {}, {}, MISDEAL)
    play(only_misdeals, MISDEAL, MISDEAL)
    assert game.status == "playing"
    assert round_call_time(round_=table.round) == [1, 2]
    ended_after_two_deals(game)
    level = Game.objects.get(table=only_misdeals)
    assert (level.status, level.winner, level.finish_reason, level.totals) == (
        "finished", "", "time", {"NS": 0, "EW": 0})
    assert EventLog.objects.filter(event=table.round.event, action="time_called").count() == 1


def test_misdeals_between_the_deals_and_after_them_are_all_not_counted() -> None:
    table = seated_table(deals_per_round=3)
    # three deals would end the game; with two misdeals among five hands only two were played
    game = play(table, MISDEAL, {}, MISDEAL, {}, MISDEAL)
    round_call_time(round_=table.round)
    game.refresh_from_db()
    assert (game.status, game.winner, game.finish_reason, game.totals, game.hands_count) == (
        "finished", "EW", "time", {"NS": 102, "EW": 110}, 5)


def test_a_called_games_last_deal_corrected_to_a_misdeal_ends_it_after_the_deal_before() -> None:
    table = seated_table()
    game = play(table, {}, {})
    round_call_time(round_=table.round)
    live = HandRevision.objects.get(hand__game=game, hand__number=2, is_live=True)
    hand_correct(hand=live.hand, values={"outcome": "misdeal", "dealer": "W"},
                 expected_revision=live.revision, as_director=True, note="it was a misdeal")
    game.refresh_from_db()
    assert (game.status, game.winner, game.finish_reason, game.totals) == (
        "finished", "EW", "time", {"NS": 51, "EW": 55})


def test_changing_the_deal_count_re_derives_a_called_game_ending_in_a_misdeal() -> None:
    table = seated_table()
    game = play(table, {}, {}, MISDEAL)
    round_call_time(round_=table.round)
    event = table.round.event
    event_settings_update(event=event, name=event.name, date=event.date,
                          ruleset_preset=event.ruleset_preset, rounds_planned=event.rounds_planned,
                          deals_per_round=6, bye_scoring=event.bye_scoring,
                          bye_points=event.bye_points, tie_breaks=event.tie_breaks,
                          is_public=event.is_public)
    ended_after_two_deals(game)


def test_the_director_screen_calls_time_on_a_game_ending_in_a_misdeal(client) -> None:
    club, director = club_with_director(slug="timed")
    table = seated_table(club=club)
    game = play(table, {}, {}, MISDEAL)
    client.force_login(director)
    response = client.post(reverse("event-director-time", args=[table.round.event_id]),
                           follow=True)
    assert response.status_code == 200
    assert "Time called: games ended at table(s) 1" in response.content.decode()
    ended_after_two_deals(game)


def test_the_api_calls_time_on_a_game_ending_in_a_misdeal() -> None:
    club, director = club_with_director(slug="timed-api")
    table = seated_table(club=club)
    game = play(table, {}, {}, MISDEAL)
    api = APIClient()
    api.force_authenticate(director)
    response = api.post(reverse("api-round-time", args=[table.round.event_id, 1]))
    assert response.status_code == 200, response.content
    ended_after_two_deals(game)

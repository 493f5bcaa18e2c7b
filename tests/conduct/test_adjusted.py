"""Adjusted results: a game that cannot be played out is decided by the director (both sides'
points, the round's average, or a forfeit where the format has forfeits), with a reason; it is
confirmed at once and the automatic advance goes on as after a confirmation."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import DomainError
from scoring.models import Game, SeatResult
from scoring.services import game_adjust, hand_submit
from tests.conduct.helpers import (
    WINS,
    game,
    pair_at,
    pair_event,
    play,
    progressive_day,
    seat_first,
    snapshot_rows,
)
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db


def test_an_adjusted_game_decides_its_table_and_the_progressive_day_advances(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="adjust-club")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW", skip=2)
    assert not event.rounds.filter(number=2).exists()  # table 2 is still playing
    ill = game(event, 1, 2)
    with django_capture_on_commit_callbacks(execute=True):
        done = game_adjust(game=ill, kind="points", points={"NS": 60, "EW": 40},
                           reason="E taken ill after the deal", actor=director)
    assert (done.status, done.winner, done.finish_reason, done.totals) == (
        "confirmed", "NS", "adjusted", {"NS": 60, "EW": 40})
    assert done.adjusted == {"kind": "points", "points": {"NS": 60, "EW": 40},
                             "reason": "E taken ill after the deal"}
    # the advance seated game 2 as after the last confirmation
    assert event.rounds.filter(number=2).exists()
    assert {(r.side, r.points, r.won) for r in SeatResult.objects.filter(game=done)} == {
        ("NS", 60, True), ("EW", 40, False)}
    log = EventLog.objects.get(event=event, action="game_adjusted")
    assert log.details["reason"] == "E taken ill after the deal" and log.actor == director
    # it takes no more hands
    with pytest.raises(DomainError) as refused:
        hand_submit(game=done, number=1, values=WINS["NS"], as_director=True, note="late")
    assert refused.value.code == "adjusted"
    # the standings count the adjusted points
    points = {int(r["entry_id"]): r["points"] for r in snapshot_rows(event)}
    assert sorted(points.values()) == [40, 40, 51, 51, 55, 55, 60, 60]


def test_the_rounds_average_is_the_mean_of_the_other_games_side_totals(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="average-club")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="NS", skip=2)
    played = game(event, 1, 1)
    sides = list(played.totals.values())
    expected = round(sum(sides) / len(sides))  # (67 + 33) / 2 = 50, computed here
    with django_capture_on_commit_callbacks(execute=True):
        done = game_adjust(game=game(event, 1, 2), kind="average",
                           reason="The deck was fouled twice", actor=director)
    assert done.totals == {"NS": expected, "EW": expected} and done.winner == ""
    assert done.status == "confirmed"
    # a level game in a format that needs winners: the advance settles it by a cut
    assert event.rounds.filter(number=2).exists()
    assert Game.objects.get(pk=done.pk).cut_winner in ("NS", "EW")


def test_adjusting_needs_a_reason_valid_points_and_a_running_event(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="adjust-refusals")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW")
    confirmed = game(event, 1, 1)
    cases = [
        ({"kind": "points", "points": {"NS": 60, "EW": 40}, "reason": "  "}, "reason"),
        ({"kind": "points", "points": {"NS": 60}, "reason": "r"}, "points.EW"),
        ({"kind": "points", "points": {"NS": "lots", "EW": 1}, "reason": "r"}, "points.NS"),
        ({"kind": "points", "points": {"NS": 10**7, "EW": 1}, "reason": "r"}, "points.NS"),
        ({"kind": "points", "points": {"NS": 1, "XX": 1}, "reason": "r"}, "points.XX"),
        ({"kind": "split", "reason": "r"}, "kind"),
        # an individual format has no forfeits: points or the average only
        ({"kind": "forfeit", "side": "NS", "reason": "r"}, "kind"),
        # round 2 is seated from this game's result: the winner may not change now
        ({"kind": "points", "points": {"NS": 90, "EW": 10}, "reason": "r"}, "points"),
    ]
    for arguments, field in cases:
        with pytest.raises(DomainError) as refused:
            game_adjust(game=confirmed, actor=director, **arguments)
        assert refused.value.field == field, arguments
    unchanged = Game.objects.get(pk=confirmed.pk)
    assert unchanged.adjusted is None and unchanged.totals == {"NS": 51, "EW": 55}
    # a confirmed game may be adjusted with a reason, keeping its winner
    done = game_adjust(game=confirmed, kind="points", points={"NS": 30, "EW": 70},
                       reason="Score sheet misread", actor=director)
    assert done.totals == {"NS": 30, "EW": 70} and done.winner == "EW"
    # a finished event's results are final
    Event.objects.filter(pk=event.pk).update(status="finished")
    with pytest.raises(DomainError) as refused:
        game_adjust(game=game(event, 1, 2), kind="points", points={"NS": 1, "EW": 2},
                    reason="after the end", actor=director)
    assert refused.value.code == "event_final"


def test_a_forfeit_is_an_adjusted_result_in_a_pair_event(
        django_capture_on_commit_callbacks: Any) -> None:
    setup = pair_event(slug="adjust-pairs")
    event, director = setup["event"], setup["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="NS", skip=2)
    gone = pair_at(event, 1, 2, "EW")
    with django_capture_on_commit_callbacks(execute=True):
        done = game_adjust(game=game(event, 1, 2), kind="forfeit", side="EW",
                           reason="The pair had to leave", actor=director)
    assert (done.forfeit, done.winner, done.status) == ("EW", "NS", "confirmed")
    assert Game.objects.get(pk=done.pk).adjusted["kind"] == "forfeit"
    assert event.rounds.filter(number=2).exists()  # the Swiss paired round 2
    wins = {int(r["pair_id"]): r["wins"] for r in snapshot_rows(event)}
    assert wins[gone.pk] == 0 and wins[pair_at(event, 1, 2, "NS").pk] == 1


def test_an_average_follows_the_games_it_averages_until_the_round_closes() -> None:
    """Given when 1 of the 4 other games had finished, the average is that game's mean; as the
    others finish it becomes their mean, and the game's standings follow; the round closed, it
    stays (and the rebuild gives the same)."""
    from django.core.management import call_command

    from draw.services import round_create, round_set_status
    from tests.clubs.factories import club_with_director
    from tests.scoring.factories import values
    from tests.tournaments.factories import event_with_players

    club, director = club_with_director(slug="following-average")
    event = event_with_players(club=club, players=20, deals_per_round=1)
    first = round_create(event=event, actor=director)
    round_set_status(round_=first, status="playing")
    tables = list(first.tables.order_by("number"))
    # table 1: NS 24+27 = 51, EW 32+23 = 55 (made)
    hand_submit(game=tables[0].game, number=1, values=values())
    done = game_adjust(game=tables[4].game, kind="average", reason="A fouled deck",
                       actor=director)
    assert done.totals == {"NS": 53, "EW": 53}
    assert (done.adjusted["games"], done.adjusted["of"]) == (1, 4)
    # the others finish, with other scores: the average follows (computed here from the games)
    big = values(bid=60, bidder="E", meld={"NS": 40, "EW": 60}, counters={"NS": 10, "EW": 40})
    for table in tables[1:4]:
        hand_submit(game=table.game, number=1, values=big)
    sides = [v for t in tables[:4] for v in Game.objects.get(table=t).totals.values()]
    mean = int(sum(sides) / len(sides) + 0.5)
    followed = Game.objects.get(pk=done.pk)
    assert mean != 53 and followed.totals == {"NS": mean, "EW": mean}
    assert (followed.adjusted["games"], followed.adjusted["of"]) == (4, 4)
    assert {r.points for r in SeatResult.objects.filter(game=followed)} == {mean}
    assert followed.status == "confirmed"
    # the round closed: the average stays what it was, and a rebuild keeps it
    round_set_status(round_=first, status="closed", close_unfinished=True)
    call_command("rebuild_standings", str(event.pk), verbosity=0)
    assert Game.objects.get(pk=done.pk).totals == {"NS": mean, "EW": mean}

"""Penalties count in the standings and the placements by the event's rule (the penalised player
alone in an individual event, the pair in a pair event), the full computation and the
incremental one agree, and withdrawing a penalty restores what it took. Expected standings are
computed here from the seat results, independently of the standings code."""

from __future__ import annotations

from typing import Any

import pytest

from common.errors import DomainError
from conduct.models import Penalty
from conduct.selectors import penalty_table
from conduct.services import penalty_record, penalty_table_set, penalty_withdraw
from draw.selectors import event_placements
from draw.services import event_status_set
from standings.incremental import forget, standings_rows_incremental
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from tests.conduct.helpers import (
    game_points,
    pair_at,
    pair_event,
    play,
    progressive_day,
    seat_first,
    seat_of,
    snapshot_rows,
)
from tournaments.models import EventLog, Seat

pytestmark = pytest.mark.django_db


def _points(rows: list[dict[str, Any]]) -> dict[int, int]:
    return {int(r["entry_id"]): int(r["points"]) for r in rows}


def _rank(rows: list[dict[str, Any]], key: str, target: int) -> int:
    return next(int(r["rank"]) for r in rows if int(r[key]) == target)


def test_a_penalty_in_a_progressive_day_costs_the_player_alone_and_the_final_table(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day()
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW")
    # An E-W winner of table 1 talks across the table: 200 points off, him alone.
    talker = seat_of(event, 1, "E").entry
    partner = seat_of(event, 1, "W").entry
    with django_capture_on_commit_callbacks(execute=True):
        penalty = penalty_record(event=event, round_number=1, table=1, kind="table_talk",
                                 points=200, reason="Told his partner to lead trumps",
                                 entry_id=talker.pk, actor=director)
    assert (penalty.entry_id, penalty.pair_id, penalty.points, penalty.game.table.number) == (
        talker.pk, None, 200, 1)
    expected = game_points(event)
    expected[talker.pk] -= 200
    rows = snapshot_rows(event)
    assert _points(rows) == {e: expected.get(e, 0) for e in _points(rows)}
    assert _points(rows)[partner.pk] == 55  # the partner keeps his points
    talker_row = next(r for r in rows if r["entry_id"] == talker.pk)
    assert talker_row["penalty_points"] == 200
    # ranked alone at the bottom: every other player has more points
    assert _rank(rows, "entry_id", talker.pk) == 8
    # the full computation and the incremental one agree
    forget()
    snapshot = StandingsSnapshot.objects.get(event=event)
    incremental = standings_rows_incremental(event=event, snapshot_id=snapshot.pk)
    assert incremental is not None and incremental[0] == standings_compute(event=event).rows
    # the second qualifying game; the final table is seated by the advance from the order
    # with the penalty
    second = event.rounds.get(number=2)
    play(second, django_capture_on_commit_callbacks, winner="NS")
    final = event.rounds.get(number=3)
    finalists = set(Seat.objects.filter(round=final).values_list("entry_id", flat=True))
    totals = game_points(event)
    qualifying = {e: p for e, p in totals.items()}
    # (the final was seated before its own results: the points above are the qualifying ones)
    qualifying[talker.pk] -= 200
    ordered = sorted(qualifying.values(), reverse=True)
    fifth = ordered[4]
    assert talker.pk not in finalists
    assert {e for e, p in qualifying.items() if p > fifth} <= finalists
    assert len(finalists) == 4
    # the incremental path and the full one still agree after further play
    forget()
    snapshot = StandingsSnapshot.objects.get(event=event)
    incremental = standings_rows_incremental(event=event, snapshot_id=snapshot.pk)
    assert incremental is not None and incremental[0] == standings_compute(event=event).rows


def test_withdrawing_a_penalty_restores_points_and_rank_and_keeps_its_history(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="withdraw-club")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW")
    late = seat_of(event, 1, "N", table=2).entry
    before = snapshot_rows(event)
    version = event.__class__.objects.get(pk=event.pk).hands_version
    with django_capture_on_commit_callbacks(execute=True):
        penalty = penalty_record(event=event, round_number=1, kind="tardiness", reason="Late",
                                 entry_id=late.pk, actor=director)
    # the table's default for tardiness (the club preset: this ruleset is no NPA one)
    assert penalty.points == penalty_table(event)["points"]["tardiness"] == 10
    assert event.__class__.objects.get(pk=event.pk).hands_version > version
    assert _points(snapshot_rows(event))[late.pk] == 51 - 10
    with django_capture_on_commit_callbacks(execute=True):
        penalty_withdraw(penalty=penalty, reason="He was at the desk on time", actor=director)
    after = snapshot_rows(event)
    assert _points(after) == _points(before)
    assert [(r["entry_id"], r["rank"]) for r in after] == [(r["entry_id"], r["rank"])
                                                           for r in before]
    kept = Penalty.objects.get(pk=penalty.pk)
    assert kept.withdrawn and kept.withdrawn_reason == "He was at the desk on time"
    assert kept.withdrawn_by == director
    actions = list(EventLog.objects.filter(event=event, action__startswith="penalty")
                   .order_by("pk").values_list("action", flat=True))
    assert actions == ["penalty_recorded", "penalty_withdrawn"]


def test_a_penalty_in_a_pair_event_counts_against_the_pair(
        django_capture_on_commit_callbacks: Any) -> None:
    setup = pair_event()
    event, director = setup["event"], setup["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    # both tables: N-S win 67 to 33; the last confirmation seats round 2 (not needed here)
    play(first, django_capture_on_commit_callbacks, winner="NS")
    winners = [pair_at(event, 1, t, "NS") for t in (1, 2)]
    offender = winners[0].members.order_by("pk").first()
    assert offender is not None
    with django_capture_on_commit_callbacks(execute=True):
        penalty_record(event=event, round_number=1, kind="slow_play", points=20,
                       reason="Took ten minutes over a lead", entry_id=offender.pk,
                       actor=director)
    rows = snapshot_rows(event)
    by_pair = {int(r["pair_id"]): r for r in rows}
    # computed here: the pair's game points less the penalty; wins first, then points
    assert by_pair[winners[0].pk]["points"] == 67 - 20
    assert by_pair[winners[0].pk]["penalty_points"] == 20
    assert by_pair[winners[1].pk]["points"] == 67
    assert _rank(rows, "pair_id", winners[1].pk) == 1
    assert _rank(rows, "pair_id", winners[0].pk) == 2
    # the penalty names the player and counts against the pair
    stored = Penalty.objects.get(event=event)
    assert (stored.entry_id, stored.pair_id) == (offender.pk, winners[0].pk)
    # a penalty naming the pair only counts the same way
    with django_capture_on_commit_callbacks(execute=True):
        penalty_record(event=event, round_number=1, kind="misconduct", points=50,
                       reason="Argued with the director", pair_id=winners[1].pk,
                       actor=director)
    rows = snapshot_rows(event)
    by_pair = {int(r["pair_id"]): r for r in rows}
    assert by_pair[winners[1].pk]["points"] == 67 - 50
    assert _rank(rows, "pair_id", winners[0].pk) == 1
    assert rows == standings_compute(event=event).rows


def test_a_pair_event_places_by_the_penalised_totals(
        django_capture_on_commit_callbacks: Any) -> None:
    setup = pair_event(slug="pairs-places", pairs=2)
    event, director = setup["event"], setup["director"]
    event.rounds_planned = 1
    event.save(update_fields=["rounds_planned"])
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="NS")
    winner, loser = pair_at(event, 1, 1, "NS"), pair_at(event, 1, 1, "EW")
    with django_capture_on_commit_callbacks(execute=True):
        penalty_record(event=event, round_number=1, kind="other", points=1000,
                       reason="Marked cards", pair_id=winner.pk, actor=director)
    # wins come first in a pair event: the winner keeps first place, with fewer points
    with django_capture_on_commit_callbacks(execute=True):
        event_status_set(event=event, status="finished", actor=director)
    places = {p.get("pair_id"): p["place"] for p in event_placements(event)}
    assert places[winner.pk] == 1 and places[loser.pk] == 2
    row = next(r for r in snapshot_rows(event) if r["pair_id"] == winner.pk)
    assert row["points"] == 67 - 1000


def test_the_penalty_table_starts_from_the_ruleset_familys_preset_and_can_be_edited(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="npa-table", ruleset_preset="npa_double_deck")
    event, director = day["event"], day["director"]
    table = penalty_table(event)
    assert table["preset"] == "tournament" and table["points"]["misconduct"] == 100
    penalty_table_set(event=event, points={"misconduct": 150}, actor=director)
    table = penalty_table(event)
    assert table["points"]["misconduct"] == 150 and table["edited"]
    assert table["points"]["table_talk"] == 50  # the rest from the preset
    for bad, field in (({"misconduct": -5}, "points.misconduct"),
                       ({"misconduct": 5000}, "points.misconduct"),
                       ({"cheating": 10}, "points.cheating")):
        with pytest.raises(DomainError) as refused:
            penalty_table_set(event=event, points=bad, actor=director)
        assert refused.value.field == field
    with pytest.raises(DomainError) as refused:
        penalty_table_set(event=event, preset="harsh", actor=director)
    assert refused.value.field == "preset"
    assert penalty_table(event)["points"]["misconduct"] == 150


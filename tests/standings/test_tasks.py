"""Celery tasks (run inline here; tests/integration runs them through the real worker) and the
``rebuild_standings`` command."""

from __future__ import annotations

import io
import json
import time

import pytest
from django.core.management import CommandError, call_command

from draw.services import round_create
from scoring.models import Game, SeatResult
from scoring.services import hand_submit
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from standings.tasks import compute_standings, reconcile_standings
from tests.tournaments.factories import event_with_players
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def hand(number: int, ns_counters: int = 30) -> dict[str, object]:
    return {"dealer": "NESW"[(number - 1) % 4], "bidder": "N", "bid": 50, "trump": "H",
            "meld": {"NS": 24, "EW": 20}, "counters": {"NS": ns_counters, "EW": 50 - ns_counters},
            "outcome": "played"}


def played_event(players: int = 9) -> Event:
    event = event_with_players(players=players, deals_per_round=4)
    round_create(event=event)
    for number in range(1, 5):
        for game in Game.objects.filter(table__round__event=event):
            hand_submit(game=game, number=number, values=hand(number, 20 + game.table.number))
    return event


def test_hands_reach_the_snapshot_through_the_task_eagerly(django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=8, deals_per_round=4)
    round_create(event=event)
    game = Game.objects.filter(table__round__event=event).first()
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(game=game, number=1, values=hand(1))
    snapshot = StandingsSnapshot.objects.get(event=event)
    event.refresh_from_db()
    assert snapshot.source_version == event.hands_version
    assert snapshot.rows == standings_compute(event=event).rows
    assert any(r["points"] for r in snapshot.rows)


def test_compute_task_twice_changes_nothing() -> None:
    event = played_event()
    first = compute_standings.apply(args=(event.pk,)).get()
    before = StandingsSnapshot.objects.get(event=event)
    second = compute_standings.apply(args=(event.pk,)).get()
    after = StandingsSnapshot.objects.get(event=event)
    assert first == second == after.version
    assert after.computed_at == before.computed_at and after.rows == before.rows


def test_full_rebuild_recomputes_seat_results_from_the_hands() -> None:
    event = played_event()
    compute_standings.apply(args=(event.pk,)).get()
    good = StandingsSnapshot.objects.get(event=event).rows
    # Derived rows damaged (a bug, a manual edit): the hands are the truth.
    SeatResult.objects.filter(event=event).update(points=0, won=False)
    SeatResult.objects.filter(event=event).first().delete()
    damaged = compute_standings.apply(args=(event.pk,)).get()
    assert StandingsSnapshot.objects.get(event=event).rows != good
    repaired = compute_standings.apply(args=(event.pk,), kwargs={"full": True}).get()
    assert repaired == damaged + 1
    assert StandingsSnapshot.objects.get(event=event).rows == good


def test_reconcile_task_rebuilds_events_behind_their_hands() -> None:
    event = played_event()
    StandingsSnapshot.objects.filter(event=event).delete()
    assert reconcile_standings.apply().get() == [event.pk]
    assert reconcile_standings.apply().get() == []


def test_rebuild_command_by_id_and_all() -> None:
    event = played_event()
    SeatResult.objects.filter(event=event).delete()
    out = io.StringIO()
    call_command("rebuild_standings", str(event.pk), stdout=out)
    assert f"event {event.pk}" in out.getvalue() and "games recomputed" in out.getvalue()
    assert SeatResult.objects.filter(event=event).count() == 8
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.rows == standings_compute(event=event).rows
    out = io.StringIO()
    call_command("rebuild_standings", "--all", stdout=out)
    assert "(unchanged)" in out.getvalue()
    assert StandingsSnapshot.objects.get(event=event).version == snapshot.version


def test_rebuild_command_errors() -> None:
    with pytest.raises(CommandError, match="event ids, or --all"):
        call_command("rebuild_standings")
    with pytest.raises(CommandError, match="No event with id 424242"):
        call_command("rebuild_standings", "424242")


def test_the_run_that_stores_a_snapshot_publishes_it_itself(
        settings, django_capture_on_commit_callbacks) -> None:
    """With push on, the standings run tells the open pages (a message on the event's channel,
    through the real Redis) as its snapshot commits: no second task is queued for it."""
    from unittest import mock

    from common.tasks import standings_request_update
    from standings.push import _redis, channel
    from standings.tasks import compute_pending_standings

    settings.PUSH_URL = "/push/"
    event = played_event()
    listener = _redis().pubsub(ignore_subscribe_messages=True)
    listener.subscribe(channel(event.pk))
    try:
        with mock.patch("standings.tasks.publish_standings.apply_async") as second, \
                mock.patch("standings.tasks.compute_pending_standings.apply_async"), \
                django_capture_on_commit_callbacks(execute=True):
            standings_request_update(event_id=event.pk)
        with django_capture_on_commit_callbacks(execute=True):
            assert compute_pending_standings.apply().get() == [event.pk]
        assert second.call_count == 0
        deadline = time.monotonic() + 5
        message = None
        while message is None and time.monotonic() < deadline:
            message = listener.get_message(timeout=1)  # (None for the subscription itself)
        assert message is not None
        body = json.loads(message["data"])
        snapshot = StandingsSnapshot.objects.get(event=event)
        assert (body["event"], body["version"]) == (event.pk, snapshot.version)
    finally:
        listener.close()

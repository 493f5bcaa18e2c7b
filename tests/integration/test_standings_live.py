"""Standings through the real worker and Redis (`make test` starts them).

Hands are entered through the score-entry service exactly as the phones do; the standings
snapshot must reach exactly what the hands say, through the worker, whatever happens to the
worker or to Redis on the way. Every test restarts what it stopped (try/finally).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache

from scoring.models import Game, Hand
from scoring.services import hand_submit
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from standings.services import games_recompute, rebuild_count
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.tournaments.factories import EntryFactory, EventFactory
from tournaments.models import Event, Round, Seat, Table

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

CATCH_UP_SECONDS = 45


def build_event(*, players: int, deals: int = 4) -> tuple[Event, list[Game]]:
    """An event with one round seated (tables of four in entry order), through the models."""
    club = ClubFactory()
    event = EventFactory(club=club, deals_per_round=deals, status=Event.Status.RUNNING)
    entries = [EntryFactory(event=event, player=PlayerFactory(club=club)) for _ in range(players)]
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.PLAYING)
    games = []
    for t in range(players // 4):
        table = Table.objects.create(round=round_, number=t + 1)
        games.append(Game.objects.create(table=table))
        for position, entry in zip("NESW", entries[4 * t: 4 * t + 4], strict=True):
            Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    return event, games


def hand_values(table: int, number: int) -> dict[str, Any]:
    """A legal pagat hand; varied so tables end with different totals."""
    ns_meld = 20 + 2 * ((table * 7 + number * 3) % 15)
    ns_counters = 14 + (table * 5 + number * 11) % 23
    return {
        "dealer": "NESW"[(number - 1) % 4], "bidder": "NE"[(table + number) % 2],
        "bid": 50 + (table + number) % 9, "trump": "SHDC"[number % 4],
        "meld": {"NS": ns_meld, "EW": 24}, "counters": {"NS": ns_counters, "EW": 50 - ns_counters},
        "outcome": "played",
    }


def enter(game: Game, number: int) -> None:
    hand_submit(game=game, number=number, values=hand_values(game.table.number, number))


def snapshot(event: Event) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(event=event).first()


def wait_until(condition: Callable[[], bool], *, timeout: float = CATCH_UP_SECONDS) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.2)
    return condition()


def caught_up(event: Event) -> bool:
    snap = snapshot(event)
    hands_version = Event.objects.values_list("hands_version", flat=True).get(pk=event.pk)
    return snap is not None and snap.source_version >= hands_version


def assert_exactly_right(event: Event) -> StandingsSnapshot:
    """The worker's snapshot equals standings computed here from the hands themselves."""
    assert wait_until(lambda: caught_up(event)), "the snapshot did not catch up with the hands"
    snap = snapshot(event)
    assert snap is not None
    games_recompute(event=Event.objects.get(pk=event.pk))  # seat results again, from the hands
    expected = standings_compute(event=Event.objects.get(pk=event.pk))
    assert snap.rows == expected.rows
    assert sum(r["points"] for r in snap.rows) == sum(
        2 * sum(g.totals.values()) for g in Game.objects.filter(table__round__event=event)
    )
    return snap


def publish(fun: Callable[[], Any], *, attempts: int = 20) -> Any:
    """Publish, retrying while the broker connection comes back after a Redis restart."""
    for attempt in range(attempts):
        try:
            return fun()
        except Exception:
            if attempt == attempts - 1:
                raise
            time.sleep(0.5)
    return None


@pytest.fixture(autouse=True)
def _fresh_cache(servers):
    cache.clear()
    yield


def test_hands_entered_through_the_service_reach_the_snapshot(celery_app_live) -> None:
    event, games = build_event(players=8)
    for number in range(1, 5):
        for game in games:
            enter(game, number)
    snap = assert_exactly_right(event)
    assert snap.version >= 1
    assert [r["games"] for r in snap.rows] == [1] * 8  # 4 deals: every game finished


def test_worker_stopped_and_restarted_midway_loses_nothing(servers, celery_app_live) -> None:
    event, games = build_event(players=12)
    for game in games:
        enter(game, 1)
        enter(game, 2)
    assert wait_until(lambda: caught_up(event))
    servers.stop_worker()
    try:
        for game in games:
            enter(game, 3)
            enter(game, 4)
        time.sleep(1.5)
        assert not caught_up(event), "nothing should update the snapshot without a worker"
    finally:
        servers.start_worker()
    assert_exactly_right(event)


def test_redis_outage_saves_hands_and_standings_catch_up(servers, celery_app_live) -> None:
    from standings.tasks import reconcile_standings

    event, games = build_event(players=8)
    for game in games:
        enter(game, 1)
    assert wait_until(lambda: caught_up(event))
    servers.stop_redis()
    try:
        timings = []
        for game in games:
            for number in (2, 3):
                started = time.monotonic()
                enter(game, number)
                timings.append(time.monotonic() - started)
        assert Hand.objects.filter(game__table__round__event=event).count() == 6
        assert max(timings) < 1.5, f"a submission waited on the missing broker: {timings}"
        assert not caught_up(event)
    finally:
        servers.start_redis()
    # Redis is back (empty: the test Redis keeps nothing). The beat's reconcile task finds the
    # event behind its hands and rebuilds it through the worker.
    publish(lambda: reconcile_standings.apply_async(ignore_result=True))
    assert_exactly_right(event)
    # And the next entry goes the normal way again.
    for game in games:
        enter(game, 4)
    assert_exactly_right(event)


def test_the_same_task_twice_changes_nothing(celery_app_live) -> None:
    from standings.tasks import compute_standings

    event, games = build_event(players=8)
    for game in games:
        enter(game, 1)
    assert_exactly_right(event)
    first = compute_standings.apply_async((event.pk,)).get(timeout=30)
    before = snapshot(event)
    second = compute_standings.apply_async((event.pk,)).get(timeout=30)
    after = snapshot(event)
    assert first == second == before.version == after.version
    assert after.computed_at == before.computed_at  # not even rewritten
    assert after.rows == before.rows


def test_a_burst_of_fifty_hands_causes_bounded_work(celery_app_live) -> None:
    event, games = build_event(players=28, deals=8)  # 7 tables x 8 deals
    started = time.monotonic()
    entered = 0
    for number in range(1, 9):
        for game in games:
            if entered == 50:
                break
            enter(game, number)
            entered += 1
    elapsed = time.monotonic() - started
    snap = assert_exactly_right(event)
    rebuilds = rebuild_count(event_id=event.pk)
    # One run per debounce window (1 s) while entries arrive, plus the trailing one.
    bound = int(elapsed) + 3
    assert 1 <= rebuilds <= bound, (rebuilds, elapsed)
    assert snap.version <= rebuilds
    assert rebuilds < entered / 5


def test_the_hands_of_several_events_share_the_worker_s_runs(celery_app_live) -> None:
    """Four small events entering hands at once: each snapshot is exact, and the worker's runs
    serve the events together (one run per debounce window for all of them, not one each)."""
    from standings.services import run_count

    rooms = [build_event(players=8) for _ in range(4)]
    runs_before = run_count()
    for number in range(1, 5):
        for _, games in rooms:
            for game in games:
                enter(game, number)
    for event, _ in rooms:
        assert_exactly_right(event)
    runs = run_count() - runs_before
    rebuilds = sum(rebuild_count(event_id=event.pk) for event, _ in rooms)
    assert runs >= 1 and rebuilds >= 4
    assert 2 * runs <= rebuilds, (runs, rebuilds)  # most runs served several events

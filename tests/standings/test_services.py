"""Standings snapshots from seat results: the GROUP BY, versioning, debounce, reconcile."""

from __future__ import annotations

import contextlib
from unittest import mock

import pytest
from django.core.cache import cache
from django.db.models import F

from common import tasks as queueing
from common.cache import RedisCache
from common.tasks import standings_request_update
from ranking.standings import Result, compute_standings, tie_breaks_in_force
from scoring.models import SeatResult
from standings import services as standings_module
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from standings.services import events_behind, standings_rebuild, standings_reconcile
from tests.scoring.factories import game_with_results
from tests.tournaments.factories import EntryFactory, EventFactory, bye_for
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db


def two_round_event(**event_kwargs: object) -> tuple[Event, list[Entry]]:
    """Nine players, two rounds of two tables, one bye per round."""
    event = EventFactory(**event_kwargs)
    e = [EntryFactory(event=event, player__name=f"P{i}") for i in range(9)]
    game_with_results(event=event, round_number=1, table_number=1, seats=e[0:4], ns=520, ew=300,
                      declared={"N": (2, 2, 0), "E": (1, 0, 1)})
    game_with_results(event=event, round_number=1, table_number=2, seats=e[4:8], ns=410, ew=505)
    bye_for(event=event, round_number=1, entry=e[8])
    game_with_results(event=event, round_number=2, table_number=1, seats=[e[8], e[0], e[5], e[2]],
                      ns=330, ew=510)
    game_with_results(event=event, round_number=2, table_number=2, seats=[e[1], e[3], e[6], e[7]],
                      ns=200, ew=150, finished=False)
    bye_for(event=event, round_number=2, entry=e[4])
    return event, e


def reference(event: Event) -> list[dict]:
    """The same standings from raw rows through the pure reference implementation."""
    results = [
        Result(*row) for row in SeatResult.objects.filter(event=event).values_list(
            "entry_id", "round_number", "game_id", "side", "points", "opponents_points", "won",
            "finished", "hands_declared", "hands_made", "hands_set",
        )
    ]
    entries = [(en.pk, en.player.name, en.status == "active") for en in event.entries.all()]
    from tournaments.models import Bye

    byes = list(Bye.objects.filter(round__event=event).values_list("round__number", "entry_id"))
    rows = compute_standings(
        entries=entries, results=results, byes=byes,
        tie_breaks=tie_breaks_in_force(event.tie_breaks, partnership=event.partnership),
        bye_scoring=event.bye_scoring, bye_points=event.bye_points,
    )
    return [r.to_dict() for r in rows]


@pytest.mark.parametrize("bye_scoring", ["zero", "fixed", "average_winning", "average_all"])
def test_group_by_aggregate_matches_the_reference(bye_scoring: str) -> None:
    event, _ = two_round_event(bye_scoring=bye_scoring, bye_points=275)
    computed = standings_compute(event=event)
    assert computed.rows == reference(event)
    assert [t["name"] for t in computed.tie_breaks] == ["points", "wins", "head_to_head",
                                                        "highest_game"]


def test_row_contents() -> None:
    event, e = two_round_event(bye_scoring="average_winning")
    rows = {r["name"]: r for r in standings_compute(event=event).rows}
    p0 = rows["P0"]  # N at table 1 in round 1 (won 520), E at table 1 in round 2 (won 510)
    assert (p0["points"], p0["games"], p0["wins"], p0["highest_game"]) == (1030, 2, 2, 520)
    assert (p0["hands_declared"], p0["hands_made"], p0["hands_set"]) == (2, 2, 0)
    assert p0["per_round"] == {"1": 520, "2": 510}
    p8 = rows["P8"]  # bye in round 1: average of 520 and 505 = 512.5 -> 513
    assert (p8["byes"], p8["bye_points"], p8["per_round"]) == (1, 513, {"1": 513, "2": 330})
    p4 = rows["P4"]  # bye in round 2: only one finished game (510)
    assert p4["per_round"] == {"1": 410, "2": 510}
    p1 = rows["P1"]  # unfinished game in round 2: points count, the game does not
    assert (p1["points"], p1["games"], p1["wins"]) == (300 + 200, 1, 0)


def test_partnership_event_defaults_to_wins_then_points() -> None:
    event, _ = two_round_event(partnership="fixed", tie_breaks=[])
    computed = standings_compute(event=event)
    assert [t["name"] for t in computed.tie_breaks] == ["wins", "points"]
    wins = [r["wins"] for r in computed.rows]
    assert wins == sorted(wins, reverse=True)


def test_rebuild_versions_and_idempotence() -> None:
    event, _ = two_round_event()
    Event.objects.filter(pk=event.pk).update(hands_version=7)
    first = standings_rebuild(event_id=event.pk)
    assert (first.version, first.source_version) == (1, 7)
    assert first.rows == reference(event)
    second = standings_rebuild(event_id=event.pk)
    assert (second.version, second.source_version) == (1, 7)
    assert second.computed_at == first.computed_at  # nothing written
    # A new result moves the version once.
    SeatResult.objects.filter(event=event, round_number=2, finished=False).update(points=F("points") + 50)
    Event.objects.filter(pk=event.pk).update(hands_version=8)
    third = standings_rebuild(event_id=event.pk)
    assert (third.version, third.source_version) == (2, 8)
    assert standings_rebuild(event_id=event.pk).version == 2


def test_newer_hands_with_same_totals_catch_up_without_a_new_version() -> None:
    event, _ = two_round_event()
    standings_rebuild(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(hands_version=F("hands_version") + 3)
    snapshot = standings_rebuild(event_id=event.pk)
    assert snapshot.version == 1
    assert snapshot.source_version == Event.objects.get(pk=event.pk).hands_version


def test_events_behind_and_reconcile() -> None:
    event, _ = two_round_event()
    quiet = EventFactory()  # no rounds, no snapshot: nothing to do
    assert events_behind() == [event.pk]
    assert standings_reconcile() == [event.pk]
    assert events_behind() == []
    Event.objects.filter(pk=event.pk).update(hands_version=F("hands_version") + 1)
    assert events_behind() == [event.pk]
    assert standings_reconcile() == [event.pk]
    assert standings_reconcile() == []
    assert not StandingsSnapshot.objects.filter(event=quiet).exists()


def test_a_burst_of_entries_of_many_events_queues_one_run(
        django_capture_on_commit_callbacks) -> None:
    events = [two_round_event()[0] for _ in range(3)]
    with mock.patch("standings.tasks.compute_pending_standings.apply_async") as queued, \
            mock.patch("standings.tasks.compute_standings.apply_async") as alone:
        for _ in range(20):
            for event in events:
                with django_capture_on_commit_callbacks(execute=True):
                    standings_request_update(event_id=event.pk)
        assert queued.call_count == 1 and alone.call_count == 0
        args, kwargs = queued.call_args
        assert args == ((),)
        assert kwargs["countdown"] > 0  # the debounce window
        # The run takes the events waiting as it starts, oldest first; the next entry queues
        # the next run, for its own event only.
        assert queueing.standings_pending_take() == [event.pk for event in events]
        with django_capture_on_commit_callbacks(execute=True):
            standings_request_update(event_id=events[1].pk)
        assert queued.call_count == 2
        assert queueing.standings_pending_take() == [events[1].pk]
        assert queueing.standings_pending_take() == []


def test_one_run_serves_every_event_waiting(django_capture_on_commit_callbacks) -> None:
    from standings.tasks import compute_pending_standings

    events = [two_round_event()[0] for _ in range(2)]
    with mock.patch("standings.tasks.compute_pending_standings.apply_async"):
        # (an event deleted after its hand asked is skipped)
        for pk in (events[0].pk, 999_999, events[1].pk):
            with django_capture_on_commit_callbacks(execute=True):
                standings_request_update(event_id=pk)
    assert not StandingsSnapshot.objects.filter(event__in=events).exists()
    with django_capture_on_commit_callbacks(execute=True):
        served = compute_pending_standings.apply().get()
    assert served == [events[0].pk, events[1].pk]
    for event in events:
        snapshot = StandingsSnapshot.objects.get(event=event)
        assert snapshot.rows == standings_compute(event=event).rows and snapshot.version == 1
    assert compute_pending_standings.apply().get() == []  # nothing waits any more


def test_a_run_out_of_time_puts_the_rest_back_with_a_run_of_their_own(
        django_capture_on_commit_callbacks) -> None:
    events = [two_round_event()[0] for _ in range(3)]
    with mock.patch("standings.tasks.compute_pending_standings.apply_async") as queued:
        with django_capture_on_commit_callbacks(execute=True):
            served = standings_module.standings_update_pending(
                event_ids=[event.pk for event in events], seconds=0)
        assert served == [events[0].pk]  # the first is always served
        assert queued.call_count == 1 and queued.call_args.kwargs["countdown"] == 0
    assert queueing.standings_pending_take() == [events[1].pk, events[2].pk]
    assert StandingsSnapshot.objects.filter(event__in=events).count() == 1


def test_a_run_with_the_database_away_puts_every_event_back_and_raises(
        django_capture_on_commit_callbacks) -> None:
    from django.db import OperationalError

    events = [two_round_event()[0] for _ in range(2)]
    down = mock.patch.object(standings_module, "standings_rebuild",
                             side_effect=OperationalError("server closed the connection"))
    with down, mock.patch("standings.tasks.compute_pending_standings.apply_async") as queued, \
            pytest.raises(OperationalError):
        standings_module.standings_update_pending(event_ids=[e.pk for e in events], seconds=5)
    assert queued.call_count == 0  # the task's own retry takes them, after its backoff
    assert queueing.standings_pending_take() == [e.pk for e in events]


@pytest.mark.parametrize("where", ["memory", "redis away"])
def test_without_a_shared_set_each_event_is_queued_on_its_own(
        where, settings, django_capture_on_commit_callbacks) -> None:
    """The embedded default's memory cache, and Redis away: one run per event, as before."""
    event, _ = two_round_event()
    if where == "memory":
        settings.CACHES = {"default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
        no_set = contextlib.nullcontext()
    else:
        no_set = mock.patch.object(RedisCache, "pending_add", side_effect=ConnectionError("down"))
    with no_set, mock.patch("standings.tasks.compute_standings.apply_async") as alone, \
            mock.patch("standings.tasks.compute_pending_standings.apply_async") as shared, \
            django_capture_on_commit_callbacks(execute=True):
        standings_request_update(event_id=event.pk)
    assert alone.call_count == 1 and alone.call_args.args == ((event.pk,),)
    assert shared.call_count == 0


def test_a_burst_runs_bounded_rebuilds_eagerly(django_capture_on_commit_callbacks) -> None:
    """Eager mode (embedded default): each entry runs the task inline; counted per event."""
    event, _ = two_round_event()
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            standings_request_update(event_id=event.pk)
    assert standings_module.rebuild_count(event_id=event.pk) == 5
    assert StandingsSnapshot.objects.get(event=event).version == 1  # unchanged rows: one version


def test_broker_outage_never_raises(django_capture_on_commit_callbacks) -> None:
    event, _ = two_round_event()
    boom = mock.patch("standings.tasks.compute_pending_standings.apply_async",
                      side_effect=ConnectionError("broker down"))
    with boom, django_capture_on_commit_callbacks(execute=True):
        standings_request_update(event_id=event.pk)
    # The run's pending mark was released so the next entry tries again.
    assert cache.get(queueing.STANDINGS_PENDING_RUN_KEY) is None


def test_cache_outage_still_queues(django_capture_on_commit_callbacks) -> None:
    event, _ = two_round_event()
    with mock.patch.object(standings_module.cache, "add", side_effect=ConnectionError("down")), \
            mock.patch("standings.tasks.compute_pending_standings.apply_async") as queued, \
            django_capture_on_commit_callbacks(execute=True):
        standings_request_update(event_id=event.pk)
    assert queued.call_count == 1


def test_head_to_head_reads_only_tied_entries() -> None:
    event = EventFactory(tie_breaks=["points", "head_to_head"])
    e = [EntryFactory(event=event, player__name=f"P{i}") for i in range(8)]
    game_with_results(event=event, round_number=1, table_number=1, seats=[e[0], e[2], e[1], e[3]],
                      ns=300, ew=250)
    game_with_results(event=event, round_number=1, table_number=2, seats=e[4:8], ns=100, ew=90)
    game_with_results(event=event, round_number=2, table_number=1, seats=[e[2], e[4], e[5], e[6]],
                      ns=300, ew=250)
    game_with_results(event=event, round_number=2, table_number=2, seats=[e[0], e[7], e[1], e[3]],
                      ns=250, ew=260)
    rows = standings_compute(event=event).rows
    top = [(r["name"], r["rank"], r["points"]) for r in rows[:3]]
    # P0, P1 and P2 all have 550; P0 and P1 (partners) beat P2 when they met; P0 and P1 never
    # sat against each other, so they stay level and share first place.
    assert top == [("P0", 1, 550), ("P1", 1, 550), ("P2", 3, 550)]


def test_deleted_event_task_is_a_no_op() -> None:
    from standings.tasks import compute_standings

    assert compute_standings.apply(args=(999999,)).get() is None

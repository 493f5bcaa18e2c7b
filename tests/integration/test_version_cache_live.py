"""The standings poll from the cache, with the real worker and Redis: hands entered by the
phones and snapshots stored by the worker reach the cached answer, which then equals the
database's without a query."""

from __future__ import annotations

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from standings.fragments import PUSHED_VIEWS, body_cached
from standings.status import status_cached
from tests.integration.test_standings_live import build_event, enter, snapshot, wait_until
from tournaments.models import Event

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _truth(event: Event) -> dict[str, object]:
    snap = snapshot(event)
    hands_version = Event.objects.values_list("hands_version", flat=True).get(pk=event.pk)
    version, source = (snap.version, snap.source_version) if snap else (0, 0)
    return {"version": version, "source_version": source, "hands_version": hands_version,
            "behind": source < hands_version}


def test_the_worker_publishes_each_snapshot_to_the_cached_poll(
        client, settings, celery_app_live) -> None:
    # The poll's own fills live long here: only the writers (this process entering hands, the
    # worker storing snapshots) can move the cached answer during the test.
    settings.STANDINGS_STATUS_CACHE_SECONDS = 600
    event, games = build_event(players=8)
    url = reverse("event-standings-version", args=[event.pk])
    assert client.get(url).json()["version"] == 0  # fills the cache from the database
    for number in (1, 2):
        for game in games:
            enter(game, number)

    def published() -> bool:
        cached = status_cached(event_id=event.pk)
        truth = _truth(event)
        return (cached is not None and truth["version"] > 0 and not truth["behind"]
                and {k: cached[k] for k in truth} == truth)

    assert wait_until(published), (status_cached(event_id=event.pk), _truth(event))
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(url).json()
    assert len(queries) == 0
    assert {k: answer[k] for k in ("version", "source_version", "hands_version", "behind")} \
        == _truth(event)


def test_every_version_the_poll_shows_has_its_regions_ready(client, celery_app_live) -> None:
    """The worker renders what a public event's room fetches before it announces a version:
    whenever the cached poll shows a version, its phone and wall regions are in the cache."""
    event, games = build_event(players=8)
    assert Event.objects.get(pk=event.pk).is_public
    url = reverse("event-standings-version", args=[event.pk])
    client.get(url)
    seen: set[int] = set()
    for number in (1, 2, 3):
        for game in games:
            enter(game, number)
        hands_version = _truth(event)["hands_version"]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            cached = status_cached(event_id=event.pk)
            if cached and cached["version"] > 0:
                if cached["version"] not in seen:
                    seen.add(cached["version"])
                    for view in PUSHED_VIEWS:
                        assert body_cached(event_id=event.pk, version=cached["version"],
                                           view=view, gzip=False) is not None, (cached, view)
                if cached["source_version"] >= hands_version:
                    break
            time.sleep(0.02)
    assert seen, "the poll never showed a snapshot"

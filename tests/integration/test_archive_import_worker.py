"""A large archive is imported by the real worker, never in the web request: the upload is
answered at once (202, the job queued), the director's status polls and a public event's
standings poll keep answering quickly while the worker imports, and the job ends imported."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from rest_framework.authtoken.models import Token

from archive.models import ImportJob
from archive.selectors import event_archive
from clubs.models import Club
from config.celery import app
from tests.archive.play import club_night, director_of
from tests.integration.test_standings_live import wait_until
from tournaments.models import Event

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _get(url: str, token: str = "") -> tuple[int, float, Any]:
    request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"}
                                     if token else {})
    started = time.monotonic()
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
        body = json.loads(response.read() or b"null")
        return response.status, time.monotonic() - started, body


def test_the_worker_imports_while_the_site_answers(live_server: Any, celery_app_live: Any,
                                                   settings: Any,
                                                   django_capture_on_commit_callbacks: Any
                                                   ) -> None:
    app.conf.task_always_eager = True  # the source event is played here, inline
    settings.CELERY_TASK_ALWAYS_EAGER = True
    try:
        played = club_night(django_capture_on_commit_callbacks, players=16, rounds=3, deals=4)
    finally:
        app.conf.task_always_eager = False
        settings.CELERY_TASK_ALWAYS_EAGER = False
    raw = json.dumps(event_archive(event=played)).encode()
    settings.ARCHIVE_INLINE_MAX_BYTES = 1000  # this archive is "large": the worker's
    club = Club.objects.create(name="Target", slug="target")
    token = Token.objects.create(user=director_of(club, "target-director")).key
    poll = f"{live_server.url}/events/{played.pk}/standings/version/"

    # The worker's import waits until the director's status poll has answered once while the
    # job is unfinished: a table lock on the events (the import adds one; the upload, the polls
    # and the standings only read them), released by that answer. Otherwise a quick import
    # could end before the first poll, and there would be nothing to answer meanwhile.
    held = connections.create_connection(DEFAULT_DB_ALIAS)
    held.set_autocommit(False)
    with held.cursor() as cursor:
        cursor.execute("LOCK TABLE tournaments_event IN SHARE ROW EXCLUSIVE MODE")

    upload = urllib.request.Request(
        f"{live_server.url}/api/clubs/{club.slug}/events/import/", data=raw, method="POST",
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"})
    started = time.monotonic()
    with urllib.request.urlopen(upload, timeout=30) as response:  # noqa: S310
        answered_in = time.monotonic() - started
        assert response.status == 202
        job = json.loads(response.read())
        status_url = live_server.url + response.headers["Location"]
    assert job["status"] in ("queued", "running")
    assert answered_in < 5.0, answered_in

    seen: list[tuple[str, float]] = []
    slowest_poll = [0.0]
    stop = threading.Event()

    def standings_polls() -> None:  # a phone's poll, meanwhile
        while not stop.is_set():
            code, took, _ = _get(poll)
            assert code == 200
            slowest_poll[0] = max(slowest_poll[0], took)
            time.sleep(0.1)

    phone = threading.Thread(target=standings_polls)
    phone.start()
    try:
        def finished() -> bool:
            code, took, body = _get(status_url, token)
            assert code == 200
            seen.append((body["status"], took))
            if held.connection is not None:
                held.commit()  # answered while unfinished: the import goes on
                held.close()
            return bool(body["status"] in ("done", "refused"))

        assert wait_until(finished, timeout=120), seen[-3:]
    finally:
        stop.set()
        phone.join()
        held.close()
    assert seen[-1][0] == "done", ImportJob.objects.get().problems
    assert any(state in ("queued", "running") for state, _ in seen[:-1])  # answered meanwhile
    assert max(took for _, took in seen) < 2.0, seen
    assert slowest_poll[0] < 2.0, slowest_poll
    imported = Event.objects.get(club=club)
    assert imported.name == played.name
    assert ImportJob.objects.get().event_id == imported.pk

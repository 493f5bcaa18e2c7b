"""What one import may cost is bounded before the file is parsed: its size (from the request,
before the upload is read: 413 naming ``file`` and the limit) and its hands (counted in the
file's bytes, stopping at the limit: 400 naming ``file``). A large archive is imported by the
worker as a job, never in the web request, with a status page the director can follow."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client

from archive.models import ImportJob
from archive.selectors import event_archive
from archive.services import archive_count_hands
from clubs.models import Club
from tests.archive.play import club_night, director_of, row_counts
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def setting(django_capture_on_commit_callbacks: Any) -> tuple[bytes, Client, Club]:
    event = club_night(django_capture_on_commit_callbacks, rounds=2, deals=1)
    raw = json.dumps(event_archive(event=event)).encode()
    club = Club.objects.create(name="Target", slug="target")
    client = Client()
    client.force_login(director_of(club, "target-director"))
    return raw, client, club


def _page(client: Client, club: Club, raw: bytes) -> Any:
    return client.post(f"/clubs/{club.slug}/events/import/",
                       {"file": SimpleUploadedFile("a.json", raw)})


def _api(client: Client, club: Club, raw: bytes) -> Any:
    return client.post(f"/api/clubs/{club.slug}/events/import/", raw,
                       content_type="application/json")


def test_a_file_over_the_size_limit_is_a_413_naming_the_field_and_the_limit(
        setting: tuple[bytes, Client, Club], settings: Any) -> None:
    raw, client, club = setting
    settings.ARCHIVE_MAX_BYTES = 1024 * 1024
    big = raw + b" " * (2 * 1024 * 1024)  # valid JSON still: the size alone refuses it
    before = row_counts()
    for answer in (_api(client, club, big),
                   client.post(f"/api/clubs/{club.slug}/events/import/",
                               {"file": SimpleUploadedFile("a.json", big)})):
        assert answer.status_code == 413, answer.content[:300]
        error = answer.json()["errors"][0]
        assert (error["field"], error["code"]) == ("file", "too_large")
        assert "at most 1 MB" in error["message"]
    page = _page(client, club, big)
    assert page.status_code == 413 and "at most 1 MB" in page.content.decode()
    assert row_counts() == before
    # a body past anything the site reads is refused before any view runs
    settings.REQUEST_MAX_BYTES = 1024 * 1024
    answer = client.post("/clubs/new/", {"name": "x" * (2 * 1024 * 1024)})
    assert answer.status_code == 413 and answer.json()["errors"][0]["field"] == "file"


def test_hands_are_counted_before_parsing_and_stop_at_the_limit(
        setting: tuple[bytes, Client, Club], settings: Any, tmp_path: Path) -> None:
    raw, client, club = setting
    hands = len(json.loads(raw)["hands"])
    assert archive_count_hands(raw) == hands
    assert archive_count_hands(raw, stop_after=2) == 3  # stops one past the limit
    settings.ARCHIVE_MAX_HANDS = hands - 1
    before = row_counts()
    answer = _api(client, club, raw)
    assert answer.status_code == 400
    error = answer.json()["errors"][0]
    assert (error["field"], error["code"]) == ("file", "too_many_hands")
    assert f"at most {hands - 1}" in error["message"]
    page = _page(client, club, raw)
    assert page.status_code == 400 and "too_many_hands" not in page.content.decode()
    assert f"at most {hands - 1}" in page.content.decode()
    path = tmp_path / "many.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(path), "--club", club.slug, stdout=io.StringIO())
    assert f"at most {hands - 1}" in str(info.value)
    # a file that hides the key from the count is refused by the count of its parsed hands
    hidden = raw.replace(b'"revisions"', b'"revi\\u0073ions"')
    assert archive_count_hands(hidden) == 0
    answer = _api(client, club, hidden)
    assert answer.status_code == 400 and answer.json()["errors"][0]["code"] == "too_many_hands"
    assert row_counts() == before
    settings.ARCHIVE_MAX_HANDS = hands
    assert _api(client, club, raw).status_code == 201


def test_a_large_archive_is_a_job_for_the_worker_with_a_status_page(
        setting: tuple[bytes, Client, Club], settings: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    raw, client, club = setting
    settings.ARCHIVE_INLINE_MAX_BYTES = 1000
    with django_capture_on_commit_callbacks(execute=False) as queued:
        page = _page(client, club, raw)
    job = ImportJob.objects.get()
    assert page.status_code == 302
    assert page["Location"] == f"/clubs/{club.slug}/events/import/{job.pk}/"
    # nothing was imported in the request: the job waits for the worker
    assert job.status == "queued" and bytes(job.data) == raw and job.hands > 0
    assert not Event.objects.filter(club=club).exists()
    waiting = client.get(page["Location"])
    assert waiting.status_code == 200 and "Waiting for the worker" in waiting.content.decode()
    assert 'data-poll-url="' in waiting.content.decode()
    for callback in queued:  # the worker runs the job
        callback()
    job.refresh_from_db()
    assert job.status == "done" and job.data is None and job.progress == 100
    event = Event.objects.get(club=club)
    done = client.get(page["Location"] + "?fragment=1")
    assert "Open the event" in done.content.decode() and f"/events/{event.pk}/" in \
        done.content.decode()
    assert "data-poll-url" not in done.content.decode()  # the page stops polling
    # the API: 202 with the job, its status at Location; others may not see it
    bad = json.loads(raw)
    bad["version"] = 999
    bad["padding"] = "x" * 2000
    with django_capture_on_commit_callbacks(execute=True):
        answer = _api(client, club, json.dumps(bad).encode())
    assert answer.status_code == 202, answer.content
    status = client.get(answer["Location"]).json()
    assert status["status"] == "refused" and status["problems"][0]["field"] == "version"
    outsider = Client()
    outsider.force_login(director_of(Club.objects.create(name="Other", slug="other"), "o"))
    assert outsider.get(answer["Location"]).status_code == 403
    assert outsider.get(page["Location"]).status_code == 403
    refused = client.get(f"/clubs/{club.slug}/events/import/{status['id']}/")
    assert "Not imported" in refused.content.decode() and "newer" in refused.content.decode()

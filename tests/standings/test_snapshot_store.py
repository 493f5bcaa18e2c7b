"""How a snapshot is stored: the rows as ``json`` text (not ``jsonb``), lz4 compressed,
written by one statement."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.db import connection

from draw.services import round_create
from scoring.models import Game
from scoring.services import hand_submit
from standings.models import StandingsSnapshot
from standings.services import standings_compute, standings_rebuild
from standings.tasks import compute_standings
from tests.standings.test_tasks import hand, played_event
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def stored_text(snapshot_id: int) -> tuple[str, str]:
    """The rows column as PostgreSQL holds it, and its type."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT rows::text, pg_typeof(rows)::text FROM scoring_standingssnapshot "
                       "WHERE id = %s", [snapshot_id])
        text, kind = cursor.fetchone()
    return text, kind


def test_rows_are_stored_as_the_text_the_task_wrote() -> None:
    """PostgreSQL keeps the rows as written (``json``: no jsonb re-ordering or spacing), the
    column is lz4 compressed, and the model reads back the same rows; the digest is that of the
    stored text with the tie-breaks."""
    event = played_event()
    version = compute_standings(event.pk)
    snapshot = StandingsSnapshot.objects.get(event=event)
    full = standings_compute(event=event)
    text, kind = stored_text(snapshot.pk)
    assert kind == "json"
    assert text == compact(full.rows)
    assert snapshot.rows == full.rows and snapshot.version == version
    assert snapshot.digest == hashlib.sha256(
        compact([full.rows, full.tie_breaks]).encode()).hexdigest()
    assert StandingsSnapshot.objects.filter(pk=snapshot.pk).values_list(
        "rows", flat=True).get() == full.rows
    with connection.cursor() as cursor:
        cursor.execute("SELECT attcompression FROM pg_attribute WHERE attrelid = "
                       "'scoring_standingssnapshot'::regclass AND attname = 'rows'")
        assert cursor.fetchone()[0] == "l"


def test_the_model_writes_and_reads_rows_through_the_orm() -> None:
    """Other writers (an archive import, a test) go through the ORM: create, update and read
    give back what was written, unicode and nesting included."""
    event = event_with_players(players=4)
    rows = [{"entry_id": 1, "name": "Zoë \"Ace\" O'Neil", "per_round": {"1": 250}, "rank": 1}]
    snapshot = StandingsSnapshot.objects.create(event=event, rows=rows)
    snapshot.refresh_from_db()
    assert snapshot.rows == rows
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(rows=[])
    snapshot.refresh_from_db()
    assert snapshot.rows == []
    snapshot.rows = rows * 2
    snapshot.save()
    assert StandingsSnapshot.objects.get(pk=snapshot.pk).rows == rows * 2
    assert stored_text(snapshot.pk) == (json.dumps(rows * 2), "json")


def test_rebuild_from_an_empty_snapshot_and_back() -> None:
    """A rebuild stores rows, a cleared snapshot (rows written as ``[]`` by the ORM) is found
    different and rebuilt, and the incremental task agrees with the full one."""
    event = event_with_players(players=8, deals_per_round=2)
    round_create(event=event)
    for game in Game.objects.filter(table__round__event=event):
        hand_submit(game=game, number=1, values=hand(1))
    snapshot = standings_rebuild(event_id=event.pk)
    assert snapshot.rows and stored_text(snapshot.pk)[0] == compact(snapshot.rows)
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(rows=[], digest="")
    again = standings_rebuild(event_id=event.pk, incremental=True)
    assert again.version == snapshot.version + 1
    assert StandingsSnapshot.objects.get(pk=snapshot.pk).rows == snapshot.rows

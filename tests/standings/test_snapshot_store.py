"""How the standings task stores a snapshot: the rows as ``json`` text (not ``jsonb``), lz4
compressed, written by one statement; the rows' text kept between runs and only the changed
rows serialised again."""

from __future__ import annotations

import hashlib
import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from draw.services import round_create
from ranking import Row
from scoring.models import Game
from scoring.services import hand_submit
from standings import incremental
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from standings.services import standings_rebuild
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


def statements(queries: CaptureQueriesContext) -> list[str]:
    """The first word of each statement, savepoints (the test's own transaction) left out."""
    words = [q["sql"].split()[0] for q in queries.captured_queries]
    return [w for w in words if w not in ("SAVEPOINT", "RELEASE")]


def test_the_task_after_a_hand_costs_seven_statements() -> None:
    """Lock, the event (read once the lock is granted), fingerprints, the changed game's
    results, entries, byes, one UPDATE; a run with nothing new writes nothing."""
    event = event_with_players(players=9, deals_per_round=4)
    round_create(event=event)
    games = list(Game.objects.filter(table__round__event=event))
    for number in range(1, 4):
        for game in games:
            hand_submit(game=game, number=number, values=hand(number, 20 + game.table.number))
    compute_standings(event.pk)
    hand_submit(game=games[0], number=4, values=hand(4, 40))
    with CaptureQueriesContext(connection) as queries:
        compute_standings(event.pk)
    assert statements(queries) == ["SELECT"] * 6 + ["UPDATE"], queries.captured_queries
    assert any(f"game_id IN ({games[0].pk})" in q["sql"] for q in queries.captured_queries)
    assert StandingsSnapshot.objects.get(event=event).rows == standings_compute(event=event).rows
    with CaptureQueriesContext(connection) as queries:
        compute_standings(event.pk)
    assert statements(queries) == ["SELECT"] * 5


def row(entry_id: int, points: int, rank: int, tied: bool = False) -> Row:
    return Row(entry_id=entry_id, name=f"P{entry_id}", points=points, games=2, wins=1,
               highest_game=points // 2, rank=rank, tied=tied, per_round={1: points // 2,
                                                                         2: points - points // 2})


def test_rows_text_reuses_unchanged_rows_around_their_new_rank() -> None:
    """A row that only moved in rank keeps its text around the new rank; the text always
    equals ``json.dumps`` of the rows, and callers changing the rows they got change nothing
    kept."""
    state = incremental.EventState(snapshot_id=1)
    first = [row(1, 500, 1), row(2, 400, 2), row(3, 300, 3)]
    dicts, text = incremental._rows_out(state, first)
    assert dicts == [r.to_dict() for r in first] and text == compact(dicts)
    kept = {pk: parts for pk, (_, _, parts) in state.texts.items()}
    dicts[0]["points"] = 0
    dicts[1]["per_round"]["1"] = 0
    # Entry 3 passes the two others, who tie: ranks and tie flags move, their results do not.
    second = [row(3, 900, 1), row(1, 500, 2, True), row(2, 500, 2, True)]
    second[2].per_round = {1: 250, 2: 250}
    dicts, text = incremental._rows_out(state, second)
    assert dicts == [r.to_dict() for r in second] and text == compact(dicts)
    assert state.texts[1][2] is kept[1]  # only moved: its text kept
    assert state.texts[2][2] is not kept[2] and state.texts[3][2] is not kept[3]
    third = [row(3, 900, 1), row(1, 500, 2, True), row(2, 500, 2, True)]
    third[2].per_round = {1: 250, 2: 250}
    assert incremental._rows_out(state, third) == (dicts, text)


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

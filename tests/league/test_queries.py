"""The season leaderboard reads a fixed handful of queries whatever the number of nights: a
club of 5 and of 40 weekly nights (bulk-built as ``bench/profile.py`` builds them; the times at
five years of nights are ``make bench-pages``'s)."""

from __future__ import annotations

import datetime
import random
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from bench.profile import build
from league import selectors
from league.models import Season
from standings.models import StandingsSnapshot
from tests.clubs.factories import ClubFactory
from tests.tournaments.factories import EntryFactory, EventFactory

pytestmark = pytest.mark.django_db

# the club, the season, its events, their entries' players, their snapshots, the names, the
# ratings, the club's seasons (for the season menu)
SEASON_QUERIES = 9


def test_the_season_page_costs_the_same_queries_for_5_and_40_nights(client) -> None:
    counts = []
    for nights in (5, 40):
        subject = build(random.Random(nights), events=nights, rounds=2, deals=1, tables=2)
        club = subject.club_links.get().club
        season = Season.objects.create(club=club, name="Ten years",
                                       starts_on=datetime.date(2024, 1, 1),
                                       ends_on=datetime.date(2033, 12, 31), events="all")
        url = reverse("season-detail", args=[club.slug, season.pk])
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        board = response.context["board"]
        assert board["events"] == nights
        assert next(r for r in board["ranked"] if r["player_id"] == subject.pk)["nights"] == nights
        counts.append(len(queries))
    assert counts[0] == counts[1] <= SEASON_QUERIES, counts


def _snapshot(event: Any, rows: list[dict[str, Any]],
              placements: list[dict[str, Any]] | None = None) -> None:
    StandingsSnapshot.objects.update_or_create(
        event=event, defaults={"rows": rows, "placements": placements or []})


def test_postgresql_reads_the_snapshots_as_the_decoded_rows_read_them() -> None:
    """The season's reading of the standings snapshots in SQL (PostgreSQL) gives what the
    plain Python reading of the decoded rows gives (SQLite's way), for individual and pair
    events, with and without final places, numbers written as floats and keys missing."""
    if connection.vendor != "postgresql":
        pytest.fail("the test suite runs on PostgreSQL (scripts/test.sh)")
    club = ClubFactory()
    alone = EventFactory(club=club)
    a, b, c = (EntryFactory(event=alone) for _ in range(3))
    _snapshot(alone, [
        {"entry_id": a.pk, "name": "A", "points": 412, "wins": 3, "rank": 1,
         "per_round": {"1": 200, "2": 212}},
        {"entry_id": b.pk, "name": "B", "points": 398.0, "wins": 2.0, "rank": 2},
        {"entry_id": c.pk, "name": "C", "points": -12, "rank": 3},  # no wins written
    ])
    placed = EventFactory(club=club)
    d, e = EntryFactory(event=placed), EntryFactory(event=placed)
    _snapshot(placed, [{"entry_id": d.pk, "points": 300, "wins": 1, "rank": 1},
                       {"entry_id": e.pk, "points": 250, "wins": 0, "rank": 2}],
              [{"place": 1, "entry_id": e.pk, "name": "E"},
               {"place": 2, "entry_id": d.pk, "name": "D"}])
    pairs = EventFactory(club=club)
    members = [EntryFactory(event=pairs) for _ in range(4)]
    _snapshot(pairs, [
        {"pair_id": 71, "entry_id": members[0].pk,
         "entry_ids": [members[0].pk, members[1].pk], "points": 180, "wins": 2, "rank": 1},
        {"pair_id": 72, "entry_id": members[2].pk,
         "entry_ids": [members[2].pk, members[3].pk], "points": 150, "wins": 1, "rank": 2},
    ], [{"place": 1, "pair_id": 72, "name": "Two"}, {"place": 2, "pair_id": 71}])
    empty = EventFactory(club=club)
    _snapshot(empty, [])
    ids = [alone.pk, placed.pk, pairs.pk, empty.pk]

    in_sql = selectors._season_snapshots_sql(ids)
    decoded = selectors._season_snapshots_decoded(ids)
    assert in_sql[0] == decoded[0]
    assert in_sql[1] == decoded[1]
    assert decoded[1][alone.pk].rows[1] == (b.pk, None, None, 398, 2, 2)
    assert decoded[1][alone.pk].rows[2][4] == 0  # no wins written: none
    assert decoded[1][pairs.pk].placed and decoded[1][pairs.pk].firsts == [
        {"place": 1, "pair_id": 72, "name": "Two"}]
    nights = selectors._nights(ids)
    firsts = {player: [n.first for n in played] for player, played in nights.items()}
    assert firsts[a.player_id] == [True] and firsts[e.player_id] == [True]
    assert firsts[d.player_id] == [False]
    assert firsts[members[2].player_id] == firsts[members[3].player_id] == [True]
    assert firsts[members[0].player_id] == [False]
    assert [n.points for n in nights[b.player_id]] == [398]

"""Series standings against an independent computation: a championship week (a club night and a
pairs event) played through the services, the series created through the API, its standings
compared with a table computed here from the placements the events' API answers. Then best N
and the minimum, a reopened event, the side pots, and a bounded number of queries."""

from __future__ import annotations

import datetime
from collections import defaultdict
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from draw.services import event_status_set
from series.models import Series
from series.selectors import series_standings
from series.services import series_create
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.series.builders import one_table_night, played_night, played_pairs

pytestmark = pytest.mark.django_db

D = datetime.date
POINTS = [25, 18, 15, 12, 10, 8, 6, 4]


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:600])
    return response.json()


def test_a_championship_week_matches_a_table_computed_from_the_placements() -> None:
    club, director = club_with_director(slug="harbour")
    people = [PlayerFactory(club=club, name=f"Player {n}") for n in range(8)]
    friday = played_night(club, people, date=D(2026, 6, 5), rounds=2, seed=3)
    saturday = played_pairs(club, [people[0:2], people[2:4], people[4:6], people[6:8]],
                            date=D(2026, 6, 6), rounds=2)
    api = APIClient()
    api.force_authenticate(director)
    created = _ok(api.post("/api/series/", {
        "name": "Harbour week", "club": "harbour", "events": [friday.pk, saturday.pk],
        "points": POINTS, "best_of": None, "min_events": None}, format="json"), 201)
    assert created["events"] == [friday.pk, saturday.pk]

    # The expected table, from what the events' API says: places and who played for whom.
    expected: dict[int, dict[int, int]] = defaultdict(dict)  # player -> event -> points
    places: dict[int, dict[int, int]] = defaultdict(dict)
    for event in (friday, saturday):
        placements = _ok(api.get(f"/api/events/{event.pk}/"))["placements"]
        entries = _ok(api.get(f"/api/events/{event.pk}/entries/"))
        assert placements and len(entries) == 8
        for placed in placements:
            if placed.get("pair_id") is not None:
                players = [e["player_id"] for e in entries if e["pair_id"] == placed["pair_id"]]
                assert len(players) == 2
            else:
                players = [e["player_id"] for e in entries if e["id"] == placed["entry_id"]]
            place = placed["place"]
            for player in players:
                expected[player][event.pk] = POINTS[place - 1] if place <= len(POINTS) else 0
                places[player][event.pk] = place
    totals = {p: sum(by_event.values()) for p, by_event in expected.items()}
    assert len(totals) == 8 and len(set(totals.values())) > 1  # not everyone level

    def key(p: int) -> tuple[int, int, int]:
        return (-totals[p], -sum(1 for x in places[p].values() if x == 1), min(places[p].values()))

    ranks = {p: 1 + sum(1 for q in totals if key(q) < key(p)) for p in totals}

    board = _ok(api.get(f"/api/series/{created['id']}/standings/"))
    assert [e["id"] for e in board["events"]] == [friday.pk, saturday.pk]
    got = {line["player"]["id"]: line for line in board["lines"]}
    assert set(got) == set(expected)
    for player, line in got.items():
        assert line["total"] == totals[player], line
        assert line["rank"] == ranks[player], line
        cells = {c["event_id"]: c for c in line["events"]}
        assert {e: c["points"] for e, c in cells.items()} == expected[player]
        assert all(c["counted"] for c in cells.values())
        assert cells[friday.pk]["results_url"].startswith(f"/events/{friday.pk}/players/")
        assert cells[saturday.pk]["results_url"].startswith(f"/events/{saturday.pk}/pairs/")
    # the lines are in rank order
    assert [line["rank"] for line in board["lines"]] == sorted(ranks.values())


def test_best_n_and_the_minimum_of_events() -> None:
    club, _ = club_with_director(slug="harbour")
    a, b, c, d, e = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Di", "Ed"))
    # three nights of Ann, Bob, Cy, Di; Ed stands in for Di on the last one
    nights = [one_table_night(club, [a, b, c, d], ns_wins=True, date=D(2026, 6, 1)),
              one_table_night(club, [a, b, c, d], ns_wins=False, date=D(2026, 6, 2)),
              one_table_night(club, [a, b, c, e], ns_wins=True, date=D(2026, 6, 3))]
    series = series_create(club=club, name="Tour", events=[n.pk for n in nights],
                           points=[10, 6, 4], best_of=2, min_events=2)
    board = series_standings(series=series, user=None)
    lines = {line["name"]: line for line in board["lines"]}
    # N-S (Ann, Cy) share 1st: 10; E-W (Bob, Di/Ed) share 3rd: 4
    assert [c["points"] for c in lines["Ann"]["events"]] == [10, 4, 10]
    assert [c["counted"] for c in lines["Ann"]["events"]] == [True, False, True]
    assert lines["Ann"]["total"] == 20 and lines["Ann"]["dropped"] == 1
    assert [c["points"] for c in lines["Bob"]["events"]] == [4, 10, 4]
    assert [c["counted"] for c in lines["Bob"]["events"]] == [True, True, False]
    assert lines["Bob"]["total"] == 14
    assert lines["Di"]["total"] == 14 and lines["Di"]["played"] == 2
    # Ed played one night: listed after the ranked players, without a rank
    assert [ln["name"] for ln in board["lines"]] == ["Ann", "Cy", "Bob", "Di", "Ed"]
    assert [ln["rank"] for ln in board["lines"]] == [1, 1, 3, 3, None]
    assert lines["Ed"]["qualified"] is False and lines["Ed"]["total"] == 4
    # without best N every night counts
    series.best_of = None
    series.save()
    lines = {ln["name"]: ln for ln in series_standings(series=series, user=None)["lines"]}
    assert (lines["Ann"]["total"], lines["Bob"]["total"]) == (24, 18)


def test_a_reopened_event_leaves_the_standings_until_it_finishes_again() -> None:
    club, _ = club_with_director(slug="harbour")
    a, b, c, d = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Di"))
    first = one_table_night(club, [a, b, c, d], ns_wins=True, date=D(2026, 6, 1))
    second = one_table_night(club, [a, b, c, d], ns_wins=False, date=D(2026, 6, 2))
    series = series_create(club=club, name="Week", events=[first.pk, second.pk],
                           points=[10, 6, 4])

    def totals() -> dict[str, int]:
        return {ln["name"]: ln["total"] for ln in series_standings(series=series,
                                                                   user=None)["lines"]}

    assert totals() == {"Ann": 14, "Bob": 14, "Cy": 14, "Di": 14}
    event_status_set(event=second, status="running", reason="a hand was wrong")
    assert totals() == {"Ann": 10, "Cy": 10, "Bob": 4, "Di": 4}
    event_status_set(event=second, status="finished")
    assert totals() == {"Ann": 14, "Bob": 14, "Cy": 14, "Di": 14}


def test_prizes_and_side_pots_over_the_series() -> None:
    club, _ = club_with_director(slug="harbour")
    a, b, c, d = (PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Di"))
    first = one_table_night(club, [a, b, c, d], ns_wins=True, date=D(2026, 6, 1))
    second = one_table_night(club, [b, a, d, c], ns_wins=False, date=D(2026, 6, 2))
    series = series_create(
        club=club, name="Week", events=[first.pk, second.pk], points=[10, 6, 4],
        prizes={"currency": "$", "payouts": [{"place": 1, "amount": "100"},
                                             {"place": 2, "amount": "50"}],
                "side": [{"kind": "high_game", "label": "High game of the week",
                          "amount": "30"},
                         {"kind": "high_hand", "amount": "20"}]})
    board = series_standings(series=series, user=None)
    # night 1: Ann & Cy (N-S) win 59-47; night 2: E-W (Ann at E, Cy at W) win 55-51.
    # Ann and Cy: 20 points, first shared: they split 1st and 2nd's 150.
    lines = {ln["name"]: ln for ln in board["lines"]}
    assert (lines["Ann"]["rank"], lines["Cy"]["rank"]) == (1, 1)
    assert lines["Ann"]["prize"] == lines["Cy"]["prize"] == "75.00"
    assert lines["Bob"]["prize"] is None
    high_game, high_hand = board["side_pots"]
    # the best game of the week: 59, by Ann and Cy on the first night
    assert (high_game["label"], high_game["score"]) == ("High game of the week", 59)
    assert [(w["name"], w["event_id"]) for w in high_game["winners"]] == [
        ("Ann", first.pk), ("Cy", first.pk)]
    assert high_game["share"] == "15.00"
    assert (high_hand["label"], high_hand["score"], high_hand["share"]) == ("High hand", 59,
                                                                           "10.00")
    assert {w["name"] for w in high_hand["winners"]} == {"Ann", "Cy"}


def test_the_standings_cost_the_same_queries_for_two_events_or_six() -> None:
    club, _ = club_with_director(slug="harbour")
    people = [PlayerFactory(club=club, name=f"P{n}") for n in range(6)]
    nights = [one_table_night(club, people[n % 3:n % 3 + 4], ns_wins=n % 2 == 0,
                              date=D(2026, 6, 1 + n)) for n in range(6)]
    side = {"currency": "$", "payouts": [{"place": 1, "amount": "10"}],
            "side": [{"kind": "high_game", "amount": "5"}, {"kind": "high_hand", "amount": "5"}]}
    small = series_create(club=club, name="Two", events=[n.pk for n in nights[:2]],
                          points=[10, 6, 4], prizes=side)
    large = series_create(club=club, name="Six", events=[n.pk for n in nights],
                          points=[10, 6, 4], prizes=side, best_of=3)
    api = APIClient()
    counts = []
    for series in (small, large):
        fresh = Series.objects.get(pk=series.pk)
        with CaptureQueriesContext(connection) as captured:
            board = series_standings(series=fresh, user=None)
        counts.append(len(captured))
        assert len(board["events"]) in (2, 6) and board["lines"]
        with CaptureQueriesContext(connection) as captured:
            _ok(api.get(f"/api/series/{series.pk}/standings/"))
        counts.append(len(captured))
        with CaptureQueriesContext(connection) as captured:
            assert api.get(f"/series/{series.pk}/").status_code == 200
        counts.append(len(captured))
    assert counts[:3] == counts[3:], counts
    assert counts[0] <= 10, counts

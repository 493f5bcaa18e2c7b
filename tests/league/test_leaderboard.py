"""Season leaderboards against figures recomputed here from the hands entered: total points,
average per night and best N nights, the nights needed to be ranked, shared ranks, which events
count, and the pages and API that show them."""

from __future__ import annotations

import datetime
import random
from collections import defaultdict
from fractions import Fraction
from typing import Any

import pytest
from rest_framework.test import APIClient

from draw.services import event_status_set
from league.models import Season
from league.selectors import season_leaderboard
from league.services import season_create
from scoring.models import HandRevision
from standings.models import StandingsSnapshot
from standings.services import standings_rebuild
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.league.builders import club_night, seat
from tests.scoring.factories import values
from tests.shared import module_data
from tournaments.models import Event, Round, Seat

pytestmark = pytest.mark.django_db

D = datetime.date
SEASON = (D(2026, 3, 1), D(2026, 6, 30))
MELDS = (20, 24, 30, 32, 40, 44, 52)


def _hand(rng: random.Random) -> dict[str, Any]:
    counters = rng.randint(18, 32)
    return values(bid=50, meld={"NS": rng.choice(MELDS), "EW": rng.choice(MELDS)},
                  counters={"NS": counters, "EW": 50 - counters})


def _night(club: Any, date: D, players: list[Any], rng: random.Random, *,
           finish: bool = True, **event_kwargs: Any) -> Event:
    """Two rounds at two tables of the eight ``players``, drawn afresh each round, except that
    ``players[0]`` and ``players[1]`` (twins) always partner each other at table 1. Two hands a
    game."""
    from scoring.services import game_confirm, hand_submit

    event = club_night(club, date=date, **event_kwargs)
    Event.objects.filter(pk=event.pk).update(deals_per_round=2)
    event.refresh_from_db()
    twins, others = players[:2], players[2:]
    for round_number in (1, 2):
        drawn = rng.sample(others, len(others))
        line_ups = [[twins[0], drawn[0], twins[1], drawn[1]], drawn[2:6]]
        for table_number, line_up in enumerate(line_ups, start=1):
            game = seat(event, line_up, round_number=round_number, table_number=table_number)
            for number in (1, 2):
                hand_submit(game=game, number=number, values=_hand(rng))
            game_confirm(game=game, position="E")
    Round.objects.filter(event=event).update(status="closed")
    if finish and event.format == Event.Format.CLUB_NIGHT:
        event_status_set(event=event, status="finished")
    elif finish:
        Event.objects.filter(pk=event.pk).update(status="finished")
        standings_rebuild(event_id=event.pk)
    return event


def _expected(season: Season, events: list[Event]) -> list[tuple[Any, ...]]:
    """The leaderboard recomputed from the live hands (points, games won) and the events'
    final standings (firsts), ranked here: (rank, player_id, nights, points, wins, firsts,
    best, average)."""
    nightly: dict[int, list[int]] = defaultdict(list)
    wins: dict[int, int] = defaultdict(int)
    firsts: dict[int, int] = defaultdict(int)
    for event in events:
        sides: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for game_id, points in HandRevision.objects.filter(
                is_live=True, hand__game__table__round__event=event).values_list(
                "hand__game_id", "points"):
            for side, value in points.items():
                sides[game_id][side] += value
        night: dict[int, int] = defaultdict(int)
        for game_id, position, player_id in Seat.objects.filter(
                table__round__event=event).values_list("table__game__id", "position",
                                                      "entry__player_id"):
            mine = "NS" if position in "NS" else "EW"
            theirs = "EW" if mine == "NS" else "NS"
            night[player_id] += sides[game_id][mine]
            wins[player_id] += sides[game_id][mine] > sides[game_id][theirs]
        for player_id, points in night.items():
            nightly[player_id].append(points)
        snapshot = StandingsSnapshot.objects.get(event=event)
        entries = dict(event.entries.values_list("pk", "player_id"))
        for row in snapshot.rows:
            firsts[entries[row["entry_id"]]] += row["rank"] == 1
    rows = []
    for player_id, points in nightly.items():
        if season.counting == "average":
            score = Fraction(sum(points), len(points))
        elif season.counting == "best_n":
            score = Fraction(sum(sorted(points)[::-1][:season.best_n]))
        else:
            score = Fraction(sum(points))
        rows.append([score, wins[player_id], player_id, len(points), sum(points),
                     firsts[player_id], int(score) if season.counting == "best_n" else None,
                     round(sum(points) / len(points), 2)])
    qualified = [r for r in rows if r[3] >= season.min_nights]
    qualified.sort(key=lambda r: (-r[0], -r[1]))
    result = []
    for r in qualified:
        rank = 1 + sum(1 for o in qualified if (o[0], o[1]) > (r[0], r[1]))
        result.append((rank, r[2], r[3], r[4], r[1], r[5], r[6], r[7]))
    unqualified = sorted((r for r in rows if r[3] < season.min_nights),
                         key=lambda r: (-r[0], -r[1]))
    result += [(None, r[2], r[3], r[4], r[1], r[5], r[6], r[7]) for r in unqualified]
    return result


def _shown(board: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [(r["rank"], r["player_id"], r["nights"], r["points"], r["wins"], r["firsts"],
             r["best"], r["average"]) for r in board["ranked"] + board["unqualified"]]


def _same_up_to_name_order(shown: list[tuple[Any, ...]], expected: list[tuple[Any, ...]]) -> None:
    """Equal rows, in the same order except among rows that tie (listed by name)."""
    assert sorted(shown, key=repr) == sorted(expected, key=repr)
    assert [r[0] for r in shown] == [r[0] for r in expected]


@module_data
def league() -> dict[str, Any]:
    club, director = club_with_director(slug="league")
    rng = random.Random(7)
    players = [PlayerFactory(club=club) for _ in range(10)]

    def present(*absent: int) -> list[Any]:
        return [p for i, p in enumerate(players) if i not in absent]

    # players 7, 8 and 9 come to two of the counted nights, 5 and 6 to three, the rest to all
    counted = [_night(club, date, present(*absent), rng) for date, absent in
               ((SEASON[0], (7, 9)), (D(2026, 4, 2), (8, 9)), (D(2026, 5, 7), (6, 7)),
                (SEASON[1], (5, 8)))]
    # never counted: outside the dates, hidden from the public, still running
    _night(club, SEASON[0] - datetime.timedelta(days=1), present(2, 3), rng)
    _night(club, SEASON[1] + datetime.timedelta(days=1), present(4, 5), rng)
    _night(club, D(2026, 4, 9), present(7, 8), rng, is_public=False)
    _night(club, D(2026, 4, 16), present(8, 9), rng, finish=False)
    # counted only by a season counting every event
    tournament = _night(club, D(2026, 4, 23), present(2, 9), rng,
                        format=Event.Format.INDIVIDUAL_PROGRESSIVE)
    return {"club": club, "director": director, "players": players, "counted": counted,
            "tournament": tournament}


@pytest.mark.parametrize(("counting", "best_n", "min_nights"), [
    ("total", None, 1), ("total", None, 4), ("average", None, 3), ("best_n", 2, 1),
    ("best_n", 3, 3),
])
def test_the_leaderboard_matches_the_hands(league: dict[str, Any], counting: str,
                                           best_n: int | None, min_nights: int) -> None:
    season = season_create(club=league["club"], name="Spring", starts_on=SEASON[0],
                           ends_on=SEASON[1], counting=counting, best_n=best_n,
                           min_nights=min_nights)
    board = season_leaderboard(season=season)
    assert board["events"] == 4
    expected = _expected(season, league["counted"])
    _same_up_to_name_order(_shown(board), expected)
    assert len(board["ranked"]) == sum(1 for r in expected if r[0] is not None)
    short = {p.pk for p, nights in zip(league["players"], (4, 4, 4, 4, 4, 3, 3, 2, 2, 2),
                                       strict=True) if nights < min_nights}
    assert {r["player_id"] for r in board["unqualified"]} == short
    assert all(r["rank"] is None for r in board["unqualified"])


def test_partners_on_every_night_share_a_rank(league: dict[str, Any]) -> None:
    season = season_create(club=league["club"], name="Spring", starts_on=SEASON[0],
                           ends_on=SEASON[1])
    board = season_leaderboard(season=season)
    twins = [r for r in board["ranked"] if r["player_id"] in {p.pk for p in league["players"][:2]}]
    assert len(twins) == 2 and twins[0]["rank"] == twins[1]["rank"]
    assert (twins[0]["points"], twins[0]["wins"]) == (twins[1]["points"], twins[1]["wins"])
    # the next player down is ranked past both
    after = [r for r in board["ranked"] if r["rank"] > twins[0]["rank"]]
    if after:
        assert after[0]["rank"] == twins[0]["rank"] + 2


def test_a_season_counting_every_event_counts_the_tournament(league: dict[str, Any]) -> None:
    season = season_create(club=league["club"], name="All", starts_on=SEASON[0],
                           ends_on=SEASON[1], events="all")
    board = season_leaderboard(season=season)
    assert board["events"] == 5
    expected = _expected(season, [*league["counted"], league["tournament"]])
    _same_up_to_name_order(_shown(board), expected)


def test_the_season_page_and_api_show_the_leaderboard(client, league: dict[str, Any]) -> None:
    season = season_create(club=league["club"], name="Spring", starts_on=SEASON[0],
                           ends_on=SEASON[1], counting="best_n", best_n=2, min_nights=3)
    board = season_leaderboard(season=season)
    page = client.get(f"/clubs/{league['club'].slug}/seasons/{season.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index('id="season-leaderboard"') < html.index("season-facts")  # table first
    assert "Best 2" in html and "Not yet qualified" in html
    for row in board["ranked"] + board["unqualified"]:
        assert row["name"] in html
    api = APIClient().get(f"/api/clubs/{league['club'].slug}/seasons/{season.pk}/leaderboard/")
    assert api.status_code == 200
    body = api.json()
    assert [(r["player_id"], r["rank"], r["best"]) for r in body["ranked"]] == [
        (r["player_id"], r["rank"], r["best"]) for r in board["ranked"]]
    assert [r["player_id"] for r in body["unqualified"]] == [
        r["player_id"] for r in board["unqualified"]]
    # the club page shows the same season's top rows and links to the full board
    club_page = client.get(f"/clubs/{league['club'].slug}/", {"season": season.pk})
    assert club_page.context["season"] == season
    assert f"/clubs/{league['club'].slug}/seasons/{season.pk}/".encode() in club_page.content


def test_the_leaderboard_shows_ratings_once_games_are_rated(
        league: dict[str, Any]) -> None:
    from league.ratings import ratings_rebuild

    season = season_create(club=league["club"], name="Spring", starts_on=SEASON[0],
                           ends_on=SEASON[1])
    assert all(r["rating"] is None for r in season_leaderboard(season=season)["ranked"])
    ratings_rebuild()
    rows = season_leaderboard(season=season)["ranked"]
    assert all(r["rating"]["games"] > 0 for r in rows)
    assert all(r["rating"]["ordinal"] == pytest.approx(
        r["rating"]["mu"] - 3 * r["rating"]["sigma"]) for r in rows)

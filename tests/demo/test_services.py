"""The demo data `make run` loads: every page has something to show, and loading twice adds
nothing."""

from __future__ import annotations

import pytest
from django.test import TestCase

from clubs.models import Club, Player
from demo.services import load_demo
from league.models import PlayerRating, RatingChange, Season
from league.selectors import season_leaderboard
from scoring.models import Game, HandRevision
from series.models import Series
from series.selectors import series_standings
from standings.models import StandingsSnapshot
from tests.shared import module_data
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db


@module_data
def demo() -> bool:
    """The demo, loaded once for the module (with what it queues on commit run, as after a
    commit): whether the load wrote it."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return load_demo()


def test_demo_data_is_complete_and_loads_once(demo: bool) -> None:
    assert demo is True
    counts = (Club.objects.count(), Player.objects.count(), Event.objects.count(),
              HandRevision.objects.count())
    assert load_demo() is False
    assert (Club.objects.count(), Player.objects.count(), Event.objects.count(),
            HandRevision.objects.count()) == counts
    assert Player.objects.count() == 24
    past = list(Event.objects.filter(status=Event.Status.FINISHED).order_by("date"))
    assert len(past) == 5
    finished = past[-1]
    running = Event.objects.get(status=Event.Status.RUNNING, format=Event.Format.CLUB_NIGHT)
    assert not finished.rounds.exclude(status=Round.Status.CLOSED).exists()
    current = running.rounds.get(status=Round.Status.PLAYING)
    assert current.number == 2 and running.rounds_planned == 4
    statuses = set(Game.objects.filter(table__round=current).values_list("status", flat=True))
    assert statuses == {Game.Status.PLAYING, Game.Status.FINISHED}
    # the partners' bracket: the first wave confirmed, the second being played
    bracket = Event.objects.get(format=Event.Format.DOUBLE_ELIMINATION)
    assert bracket.pairs.count() == 8
    assert list(bracket.rounds.values_list("number", "status")) == [
        (1, Round.Status.CLOSED), (2, Round.Status.PLAYING)]
    assert set(bracket.rounds.get(number=2).tables.values_list("match", flat=True)) == {
        "W2-1", "W2-2", "L1-1", "L1-2"}
    for event in (*past, running, bracket):
        snapshot = StandingsSnapshot.objects.get(event=event)
        assert snapshot.source_version == Event.objects.get(pk=event.pk).hands_version
        assert any(row["points"] for row in snapshot.rows)
    # the season's leaderboard, and a rating for everyone who played a confirmed game
    season = Season.objects.get(club__slug="riverside")
    board = season_leaderboard(season=season)
    assert board["ranked"] and all(row["nights"] >= season.min_nights for row in board["ranked"])
    # the tour: the five finished nights, a player's best three counting
    tour = Series.objects.get(club__slug="riverside")
    standings = series_standings(series=tour, user=None)
    assert len(standings["events"]) == 5 and standings["lines"][0]["rank"] == 1
    assert any(line["dropped"] for line in standings["lines"])
    assert standings["side_pots"][0]["winners"]
    rated = set(RatingChange.objects.values_list("player_id", flat=True))
    confirmed_players = set(Game.objects.filter(status=Game.Status.CONFIRMED)
                            .values_list("table__seats__entry__player_id", flat=True))
    assert rated == confirmed_players == set(PlayerRating.objects.values_list("player_id",
                                                                            flat=True))


def test_every_finished_demo_night_stores_its_placements(demo: bool) -> None:
    """The demo finishes its nights through the one status service, which writes the final
    places into the standings snapshot (the league and the players' pages read them)."""
    assert demo is True
    finished = list(Event.objects.filter(status=Event.Status.FINISHED))
    assert len(finished) == 5
    for event in finished:
        snapshot = StandingsSnapshot.objects.get(event=event)
        ranked = [row for row in snapshot.rows if row.get("rank")]
        assert ranked
        assert len(snapshot.placements) == len(ranked), event.date
        assert sorted(p["entry_id"] for p in snapshot.placements) == sorted(
            int(row["entry_id"]) for row in ranked)
        assert [p["place"] for p in snapshot.placements] == sorted(
            int(row["rank"]) for row in ranked)
        assert event.log.filter(action="status", details__status="finished").exists()

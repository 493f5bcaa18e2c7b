"""A season of club nights through the real services: regulars meet new partners from week to
week. The nights are created in one club and series, the players checked in, every round seated
by the format, played and closed, each night finished before the next; the repeats are counted
here from the seats, by player, independently of ``pairing.season``."""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Sequence

import pytest
from django.urls import reverse

from clubs.models import Club, Player
from draw.season import SEASON_WEEKS, season_events, season_partnerships
from draw.services import event_status_set, round_create, round_set_status
from series.services import series_create
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.e2e.walls import play_round
from tournaments.models import Event, Round, Seat
from tournaments.services import entry_check_in, event_create

pytestmark = pytest.mark.django_db

D = datetime.date


def _night(club: Club, date: datetime.date, *, seed: int, rounds: int = 3) -> Event:
    return event_create(club=club, name=f"Club night {date}", date=date, deals_per_round=1,
                        rounds_planned=rounds, seed=seed)


def _play(event: Event, players: Sequence[Player]) -> None:
    """Check the players in, seat, play and close every planned round, finish the night."""
    for player in players:
        entry_check_in(event=event, player=player)
    for _ in range(event.rounds_planned):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        play_round(round_)
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    event_status_set(event=event, status=Event.Status.FINISHED)


def _partners_by_player(event: Event) -> list[frozenset[int]]:
    """Every partnership of the night (N-S, E-W of each table of each round), by player."""
    tables: dict[int, dict[str, int]] = {}
    for table_id, position, player_id in Seat.objects.filter(round__event=event).values_list(
            "table_id", "position", "entry__player_id"):
        tables.setdefault(table_id, {})[position] = player_id
    return [frozenset((t[a], t[b])) for t in tables.values() for a, b in (("N", "S"), ("E", "W"))]


def test_sixteen_regulars_over_four_weekly_nights_repeat_at_most_one_partnership_in_ten(
        client) -> None:
    club, director = club_with_director(slug="riverside")
    regulars = [PlayerFactory(club=club, name=f"Regular {n:02}") for n in range(16)]
    nights = [_night(club, D(2026, 9, 3) + datetime.timedelta(weeks=k), seed=11 + k)
              for k in range(4)]
    series = series_create(club=club, name="Autumn season", events=[n.pk for n in nights],
                           points=[10, 8, 6], actor=director)
    together: Counter[frozenset[int]] = Counter()
    for number, night in enumerate(nights):
        if number:  # the night knows the nights before it, and only those
            assert season_events(night) == nights[:number]
        _play(night, regulars)
        partners = _partners_by_player(night)
        assert len(partners) == 3 * 8
        assert len(set(partners)) == len(partners), "a partner repeated within the evening"
        together.update(partners)
    partnerships = sum(together.values())
    repeats = sum(c - 1 for c in together.values())
    assert partnerships == 96
    assert repeats * 10 <= partnerships, f"{repeats} of {partnerships} partnerships repeated"

    # The series page says so (the counting bound: 12 partners of 15 possible, 0 repeats).
    client.force_login(director)
    page = client.get(reverse("series-detail", args=[series.pk])).content.decode()
    assert f"Partnerships repeated: {repeats} of 96 (best achievable ≈0)" in page


def test_a_night_of_a_series_remembers_the_series_only() -> None:
    club, director = club_with_director(slug="harbour")
    four = [PlayerFactory(club=club) for _ in range(4)]
    earlier = _night(club, D(2026, 1, 8), seed=1, rounds=1)
    _play(earlier, four)
    other = _night(club, D(2026, 9, 3), seed=2, rounds=1)  # last week, not of the series
    _play(other, four)
    tonight = _night(club, D(2026, 9, 10), seed=3, rounds=1)
    series_create(club=club, name="Season", events=[earlier.pk, tonight.pk], points=[3],
                  actor=director)
    assert season_events(tonight) == [earlier]
    for player in four:
        entry_check_in(event=tonight, player=player)
    history = season_partnerships(tonight)
    entries = dict(tonight.entries.values_list("player_id", "pk"))
    seats = dict(Seat.objects.filter(round__event=earlier).values_list("position",
                                                                       "entry__player_id"))
    assert history == {
        frozenset((entries[seats["N"]], entries[seats["S"]])): (1,),
        frozenset((entries[seats["E"]], entries[seats["W"]])): (1,),
    }


def test_without_a_series_the_club_s_last_weeks_of_finished_club_nights_count() -> None:
    club, _ = club_with_director(slug="bayside")
    elsewhere, _ = club_with_director(slug="elsewhere")
    tonight_date = D(2026, 9, 10)
    too_old = _night(club, tonight_date - datetime.timedelta(weeks=SEASON_WEEKS, days=1), seed=1)
    _play(too_old, [PlayerFactory(club=club) for _ in range(4)])
    recent = _night(club, tonight_date - datetime.timedelta(weeks=2), seed=2)
    _play(recent, [PlayerFactory(club=club) for _ in range(4)])
    last_week = _night(club, tonight_date - datetime.timedelta(weeks=1), seed=3)
    _play(last_week, [PlayerFactory(club=club) for _ in range(4)])
    _night(club, tonight_date - datetime.timedelta(days=3), seed=4)  # never played
    away = _night(elsewhere, tonight_date - datetime.timedelta(weeks=1), seed=5)
    _play(away, [PlayerFactory(club=elsewhere) for _ in range(4)])
    tonight = _night(club, tonight_date, seed=6)
    assert season_events(tonight) == [recent, last_week]
    assert season_partnerships(tonight) == {}  # none of them is here tonight


def test_a_later_night_seats_differently_only_because_of_its_season() -> None:
    """Tonight without a season is seated by the evening's design as before; with last week's
    partnerships it is seated by the search and avoids them."""
    club, _ = club_with_director(slug="lakeside")
    regulars = [PlayerFactory(club=club) for _ in range(8)]
    lonely = _night(club, D(2026, 9, 3), seed=7, rounds=1)
    for player in regulars:
        entry_check_in(event=lonely, player=player)
    assert round_create(event=lonely).event.log.filter(
        action="round_seated", details__method="whist_design").exists()

    last_week = _night(club, D(2026, 9, 3), seed=8, rounds=1)
    _play(last_week, regulars)
    tonight = _night(club, D(2026, 9, 10), seed=8, rounds=1)
    for player in regulars:
        entry_check_in(event=tonight, player=player)
    round_create(event=tonight)
    assert tonight.log.filter(action="round_seated", details__method="season").exists()
    assert not set(_partners_by_player(tonight)) & set(_partners_by_player(last_week))

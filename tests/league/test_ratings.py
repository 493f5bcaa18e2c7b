"""Ratings from confirmed games, through the real scoring path: who goes up and down, the task
queued on confirmation, and the one invariant that matters: whatever order games are confirmed
or corrected in, the ratings equal a rebuild from scratch."""

from __future__ import annotations

import contextlib
import datetime
import threading
from collections.abc import Iterator
from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from rest_framework.test import APIClient

from clubs.services import player_merge
from common.tasks import ratings_pending_return
from league.models import PlayerRating, RatingChange
from league.ratings import SETTINGS, _lock, rated_games, ratings_game_update, ratings_rebuild
from league.selectors import club_ratings, rating_history, ratings_for
from league.tasks import rate_game, rate_pending
from ranking.ratings import DEFAULT_MU, DEFAULT_SIGMA
from scoring.models import Game, HandRevision, SeatResult
from scoring.services import game_confirm, hand_correct
from tests.clubs.factories import ClubFactory, PlayerFactory, club_with_director
from tests.league.builders import EW_WINS, NS_WINS, club_night, play, seat
from tests.scoring.factories import values
from tests.tournaments.factories import EventFactory
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db

D = datetime.date


def state() -> tuple[list[Any], list[Any]]:
    """Everything the ratings store, in a comparable form."""
    return (
        sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games")),
        sorted(RatingChange.objects.values_list(
            "player_id", "game_id", "event_id", "order_key", "inputs", "at", "mu_before",
            "sigma_before", "mu_after", "sigma_after")),
    )


def rebuilt() -> tuple[list[Any], list[Any]]:
    ratings_rebuild()
    return state()


def mu(player: Any) -> float:
    return PlayerRating.objects.get(player=player).mu


@pytest.fixture
def club_players() -> tuple[Any, list[Any]]:
    club = ClubFactory()
    return club, [PlayerFactory(club=club) for _ in range(8)]


# --- one game -----------------------------------------------------------------------------------
def test_a_confirmed_game_raises_the_winners_and_lowers_the_losers(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    game = seat(club_night(club), p[:4])
    with django_capture_on_commit_callbacks(execute=True):
        play(game, ns_wins=True, confirm=False)
    assert not RatingChange.objects.exists()  # finished, not confirmed: not rated
    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=game, position="E")
    n, e, s, w = p[:4]
    assert mu(n) > DEFAULT_MU and mu(s) > DEFAULT_MU
    assert mu(e) < DEFAULT_MU and mu(w) < DEFAULT_MU
    assert mu(n) == mu(s) and mu(e) == mu(w)  # partners share the result
    for player in p[:4]:
        rating = PlayerRating.objects.get(player=player)
        assert rating.sigma < DEFAULT_SIGMA and rating.games == 1
    assert not PlayerRating.objects.filter(player__in=p[4:]).exists()
    history = rating_history(player_id=n.pk)
    game.refresh_from_db()
    assert history == [{
        "at": game.confirmed_at, "game_id": game.pk, "event_id": game.table.round.event_id,
        "event_name": game.table.round.event.name, "mu": mu(n),
        "sigma": PlayerRating.objects.get(player=n).sigma,
        "ordinal": mu(n) - 3 * PlayerRating.objects.get(player=n).sigma,
    }]
    assert ratings_for(player_ids=[n.pk, p[5].pk]) == {n.pk: {
        "mu": mu(n), "sigma": history[0]["sigma"], "ordinal": history[0]["ordinal"],
        "games": 1}}


def test_confirming_through_the_table_api_queues_the_rating(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    game = seat(club_night(club), p[:4])
    play(game, ns_wins=False, confirm=False)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = APIClient().post(f"/api/tables/{game.table.token}/confirm/",
                                    {"position": "N"}, format="json")
    assert response.status_code == 200, response.json()
    assert callbacks  # the rating ran on commit, not inside the request's transaction
    assert RatingChange.objects.filter(game=game).count() == 4
    assert mu(p[1]) > DEFAULT_MU > mu(p[0])


def test_the_task_and_a_second_confirmation_count_a_game_once(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    game = seat(club_night(club), p[:4])
    with django_capture_on_commit_callbacks(execute=True):
        play(game, ns_wins=True)
    before = state()
    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=game, position="W")  # already confirmed: nothing happens
    assert rate_game.apply(args=(game.pk,)).get() == "unchanged"
    assert rate_game.apply(args=(game.pk,)).get() == "unchanged"
    assert state() == before
    assert PlayerRating.objects.get(player=p[0]).games == 1


# --- partners and opponents ------------------------------------------------------------------------
def _win_against(club: Any, winners: list[Any], losers: list[Any], date: D) -> None:
    """winners[0] and winners[1] (N, S) beat losers[0] and losers[1] (E, W)."""
    game = seat(club_night(club, date=date), [winners[0], losers[0], winners[1], losers[1]])
    play(game, ns_wins=True)


def test_a_win_beside_a_strong_partner_counts_for_less(
        django_capture_on_commit_callbacks: Any) -> None:
    club = ClubFactory()
    strong, weak, me_a, me_b, filler = ([PlayerFactory(club=club) for _ in range(2)]
                                        for _ in range(5))
    others = [PlayerFactory(club=club) for _ in range(8)]
    with django_capture_on_commit_callbacks(execute=True):
        # strong[0] wins three games (with fresh partners), weak[0] loses three
        for day, (a, b, c) in enumerate([(0, 1, 2), (3, 4, 5), (6, 7, 0)], start=1):
            _win_against(club, [strong[0], others[a]], [others[b], others[c]], D(2026, 1, day))
            _win_against(club, [others[b], others[c]], [weak[0], others[a]], D(2026, 1, day))
        # then two newcomers each beat the same pair of newcomers: one beside the strong
        # player, one beside the weak player
        _win_against(club, [me_a[0], strong[0]], [filler[0], filler[1]], D(2026, 2, 1))
        _win_against(club, [me_b[0], weak[0]], [me_a[1], me_b[1]], D(2026, 2, 1))
    assert mu(strong[0]) > mu(weak[0])
    gain_beside_strong = mu(me_a[0]) - DEFAULT_MU
    gain_beside_weak = mu(me_b[0]) - DEFAULT_MU
    assert 0 < gain_beside_strong < gain_beside_weak


def test_beating_strong_opponents_counts_for_more(
        django_capture_on_commit_callbacks: Any) -> None:
    club = ClubFactory()
    strong = [PlayerFactory(club=club) for _ in range(2)]
    weak = [PlayerFactory(club=club) for _ in range(2)]
    others = [PlayerFactory(club=club) for _ in range(4)]
    me = [PlayerFactory(club=club) for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        for day in range(1, 4):
            _win_against(club, strong, others[:2], D(2026, 1, day))
            _win_against(club, others[2:], weak, D(2026, 1, day))
        _win_against(club, me[:2], strong, D(2026, 2, 1))
        _win_against(club, me[2:], weak, D(2026, 2, 1))
    assert mu(me[0]) - DEFAULT_MU > mu(me[2]) - DEFAULT_MU > 0
    # and losing to the weak costs more than losing to the strong did
    history = {p.pk: rating_history(player_id=p.pk) for p in strong + weak}
    strong_loss = history[strong[0].pk][-2]["mu"] - history[strong[0].pk][-1]["mu"]
    weak_loss = history[weak[0].pk][-2]["mu"] - history[weak[0].pk][-1]["mu"]
    assert strong_loss > 0 and weak_loss > 0
    assert strong_loss > weak_loss  # the strong were expected to win: a bigger surprise


# --- incremental == rebuild ------------------------------------------------------------------------
def _two_nights(club: Any, p: list[Any]) -> list[Game]:
    """Two nights of two rounds at two tables, every game finished and not yet confirmed, in
    playing order."""
    games = []
    first, second = club_night(club, date=D(2026, 3, 5)), club_night(club, date=D(2026, 3, 12))
    line_ups = [[0, 1, 2, 3], [4, 5, 6, 7], [0, 4, 1, 5], [2, 6, 3, 7]]
    for event in (first, second):
        for round_number in (1, 2):
            for table_number in (1, 2):
                order = line_ups[(round_number - 1) * 2 + table_number - 1]
                if event == second:
                    order = order[::-1]
                game = seat(event, [p[i] for i in order], round_number=round_number,
                            table_number=table_number)
                play(game, ns_wins=(round_number + table_number + event.pk) % 2 == 0,
                     confirm=False)
                games.append(game)
    return games


def _confirm(games: list[Game], capture: Any) -> None:
    for game in games:
        with capture(execute=True):
            game_confirm(game=game, position="E")


def test_games_confirmed_out_of_order_end_as_a_rebuild(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    games = _two_nights(club, p)
    _confirm([games[5], games[7], games[0], games[6], games[2], games[1], games[4], games[3]],
             django_capture_on_commit_callbacks)
    incremental = state()
    assert len(incremental[1]) == 32
    assert rebuilt() == incremental
    # the history is in playing order, not confirmation order
    keys = [r["game_id"] for r in rating_history(player_id=p[0].pk)]
    assert keys == [g.pk for g in games if SeatResult.objects.filter(
        game=g, entry__player=p[0]).exists()]
    # and in playing order, each game starts from the ratings the previous one left
    previous: dict[int, tuple[float, float]] = {}
    for change in RatingChange.objects.order_by("order_key"):
        expected = previous.get(change.player_id, (SETTINGS.mu, SETTINGS.sigma))
        assert (change.mu_before, change.sigma_before) == expected
        previous[change.player_id] = (change.mu_after, change.sigma_after)


def test_a_correction_after_confirmation_ends_as_a_rebuild(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    director_club, director = club_with_director(slug="directors")
    games = _two_nights(club, p)
    _confirm(games, django_capture_on_commit_callbacks)
    first = games[0]
    old_winner = Game.objects.get(pk=first.pk).winner
    before = state()
    hand = first.hands.get(number=1)
    flipped = EW_WINS if old_winner == "NS" else NS_WINS
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(hand=hand, values=values(**flipped), expected_revision=1,
                     author=director, note="the sides were swapped", as_director=True)
    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED and first.winner != old_winner
    # no longer confirmed: its rating changes are gone, and every later game was replayed
    assert not RatingChange.objects.filter(game=first).exists()
    corrected = state()
    assert corrected != before
    assert rebuilt() == corrected
    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=first, position="E")
    assert RatingChange.objects.filter(game=first).count() == 4
    reconfirmed = state()
    assert rebuilt() == reconfirmed
    # the first game now went the other way for its players
    n = Seat.objects.get(table=first.table, position="N").entry.player
    change = RatingChange.objects.get(game=first, player=n)
    assert (change.mu_after > change.mu_before) == (first.winner == "NS")


def test_a_game_dated_earlier_and_confirmed_last_replays_the_later_games(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    games = _two_nights(club, p)
    _confirm(games[2:], django_capture_on_commit_callbacks)
    later = RatingChange.objects.get(game=games[-1], player=p[7])
    _confirm(games[:2], django_capture_on_commit_callbacks)
    replayed = RatingChange.objects.get(game=games[-1], player=p[7])
    assert replayed.mu_before != later.mu_before  # the earlier games now count before it
    assert rebuilt() == state()


def test_the_games_from_a_key_on_are_those_whose_key_is_not_smaller(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A replay reads the games from its key's round on (not its whole date), whatever the key
    names: a date, an event, a round or one game; two events share a date here."""
    club, p = club_players
    games = _two_nights(club, p)
    same_day = club_night(club, date=D(2026, 3, 5))
    for round_number in (1, 2):
        game = seat(same_day, p[:4], round_number=round_number, table_number=1)
        play(game, ns_wins=round_number == 1, confirm=False)
        games.append(game)
    _confirm(games, django_capture_on_commit_callbacks)
    every = rated_games()
    assert len(every) == len(games)
    keys = {g.order_key for g in every}
    for key in sorted(keys):
        date, event, round_number, _table, _game = key.split("/")
        for since in (f"{date}", f"{date}/{event}/", f"{date}/{event}/{round_number}/", key,
                      f"{date}/{event}/{int(round_number) + 1:05d}/", "2026-03-06"):
            assert [g.game_id for g in rated_games(since=since)] == [
                g.game_id for g in every if g.order_key >= since], since
    assert rated_games(since="2027-01-01") == []


def test_a_round_end_s_confirmations_in_a_burst_queue_one_run_that_rates_them_all(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A night's round end confirms a game at every table of many events within seconds: one
    run is queued for all of them (after the debounce window), and it rates every game of
    their rounds, in one replay."""
    club, p = club_players
    games = _two_nights(club, p)
    with mock.patch("league.tasks.rate_pending.apply_async") as queued:
        _confirm(games[:4], django_capture_on_commit_callbacks)  # rounds 1 and 2, two tables each
    assert [call.args[0] for call in queued.call_args_list] == [()]
    assert queued.call_args_list[0].kwargs["countdown"] > 0
    assert not RatingChange.objects.exists()
    assert rate_pending.apply().get() == "rated"
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {
        g.pk for g in games[:4]}
    assert rebuilt() == state()
    assert rate_pending.apply().get() == "nothing"  # the run took every game waiting
    # the run cleared its mark: the next confirmation queues a run of its own
    with mock.patch("league.tasks.rate_pending.apply_async") as queued:
        _confirm(games[4:5], django_capture_on_commit_callbacks)
    assert [call.args[0] for call in queued.call_args_list] == [()]
    assert rate_pending.apply().get() == "rated"
    assert RatingChange.objects.filter(game=games[4]).exists()


def test_the_command_rebuilds_what_the_tasks_built(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    _confirm(_two_nights(club, p), django_capture_on_commit_callbacks)
    built = state()
    PlayerRating.objects.filter(player=p[0]).update(mu=99.0, games=0)
    RatingChange.objects.filter(player=p[1]).delete()
    call_command("rebuild_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert state() == built
    RatingChange.objects.filter(order_key__gte="2026-03-12").update(mu_after=0.0)
    call_command("rebuild_ratings", since="2026-03-12", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert state() == built


def test_a_merge_of_two_players_rebuilds_the_ratings(
        django_capture_on_commit_callbacks: Any) -> None:
    club = ClubFactory()
    p = [PlayerFactory(club=club) for _ in range(6)]
    duplicate = PlayerFactory(club=club)
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club, date=D(2026, 3, 5)), p[:4]), ns_wins=True)
        play(seat(club_night(club, date=D(2026, 3, 12)), [duplicate, p[1], p[4], p[5]]),
             ns_wins=True)
    with django_capture_on_commit_callbacks(execute=True):
        player_merge(club=club, keep=p[0], duplicate=duplicate)
    assert PlayerRating.objects.get(player=p[0]).games == 2
    merged = state()
    assert rebuilt() == merged


# --- three sides, private events ------------------------------------------------------------------
def test_a_three_handed_game_rates_each_player_as_their_own_side() -> None:
    club = ClubFactory()
    players = [PlayerFactory(club=club) for _ in range(3)]
    event = EventFactory(club=club, ruleset_preset="cutthroat", status="running")
    round_ = Round.objects.create(event=event, number=1, status="playing")
    table = Table.objects.create(round=round_, number=1)
    game = Game.objects.create(table=table, status="confirmed", winner="E",
                               totals={"N": 700, "E": 1010, "S": 420})
    for position, player, points in zip("NES", players, (700, 1010, 420), strict=True):
        entry = event.entries.create(player=player)
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
        SeatResult.objects.create(game=game, event=event, entry=entry, round_number=1,
                                  position=position, side=position, points=points,
                                  opponents_points=2130 - points, won=position == "E",
                                  finished=True)
    assert ratings_game_update(game_id=game.pk) == "rated"
    second, first, third = (mu(p) for p in players)
    assert first > DEFAULT_MU > third
    assert first > second > third  # the runner-up is placed by points
    assert RatingChange.objects.filter(game=game).count() == 3


def test_history_through_the_api_leaves_out_what_the_viewer_may_not_see(
        django_capture_on_commit_callbacks: Any) -> None:
    club, director = club_with_director(slug="open")
    hidden_club, hidden_director = club_with_director(slug="hidden", is_public=False)
    p = [PlayerFactory(club=club) for _ in range(4)]
    for player in p:
        hidden_club.roster.create(player=player)
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club, date=D(2026, 3, 5)), p), ns_wins=True)
        play(seat(club_night(hidden_club, date=D(2026, 3, 6)), p), ns_wins=False)
        play(seat(club_night(club, date=D(2026, 3, 7), is_public=False), p), ns_wins=True)
    public = APIClient().get(f"/api/players/{p[0].pk}/ratings/")
    assert public.status_code == 200
    body = public.json()
    assert [h["event_name"] for h in body["history"]] == [
        RatingChange.objects.filter(player=p[0]).order_by("order_key").first().event.name]
    # the rating counts only what anyone may see (the hidden club's and event's games are not
    # rated), and so does its history, whoever asks
    assert body["rating"]["games"] == 1
    assert body["rating"]["mu"] == pytest.approx(mu(p[0]))
    member = APIClient()
    member.force_authenticate(hidden_director)
    assert member.get(f"/api/players/{p[0].pk}/ratings/").json() == body
    insider = APIClient()
    insider.force_authenticate(director)
    assert insider.get(f"/api/players/{p[0].pk}/ratings/").json() == body
    # a player only on a private club's roster is 404 for outsiders
    stranger = PlayerFactory(club=hidden_club)
    assert APIClient().get(f"/api/players/{stranger.pk}/ratings/").status_code == 404
    assert member.get(f"/api/players/{stranger.pk}/ratings/").status_code == 200
    assert APIClient().get("/api/players/999999/ratings/").status_code == 404


def test_the_club_ratings_page_and_api(client, django_capture_on_commit_callbacks: Any) -> None:
    club, _ = club_with_director(slug="rated")
    p = [PlayerFactory(club=club) for _ in range(4)]
    unrated = PlayerFactory(club=club, name="Zed Newcomer")
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club), p), ns_wins=True)
    rows = club_ratings(club=club)
    assert [r["player_id"] for r in rows][:2] == sorted([p[0].pk, p[2].pk])
    assert [r["rank"] for r in rows] == [1, 1, 3, 3]  # partners share their rating and rank
    page = client.get(f"/clubs/{club.slug}/ratings/")
    assert page.status_code == 200
    assert p[0].name.encode() in page.content and unrated.name.encode() not in page.content
    api = APIClient().get(f"/api/clubs/{club.slug}/ratings/").json()
    assert [(r["player_id"], r["rank"], r["games"]) for r in api] == [
        (r["player_id"], r["rank"], 1) for r in rows]


def test_a_live_revision_change_outside_confirmation_is_not_rated(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    """A finished game that is never confirmed does not count, even if the task is asked."""
    club, p = club_players
    game = seat(club_night(club), p[:4])
    play(game, ns_wins=True, confirm=False)
    assert HandRevision.objects.filter(hand__game=game).count() == 1
    assert ratings_game_update(game_id=game.pk) == "skipped"
    assert not RatingChange.objects.exists() and not PlayerRating.objects.exists()


# --- an event's changes re-rate without rebuild_ratings ----------------------------------------------
def test_an_events_new_date_re_rates_as_a_rebuild_would(
        club_players: Any, django_capture_on_commit_callbacks: Any) -> None:
    club, p = club_players
    games = _two_nights(club, p)
    _confirm(games, django_capture_on_commit_callbacks)
    first = games[0].table.round.event
    before = state()
    # the first night moves after the second: its games are now rated last
    with django_capture_on_commit_callbacks(execute=True):
        first.date = D(2026, 3, 19)
        first.save()
    moved = state()
    assert moved != before
    assert rebuilt() == moved
    keys = [r["game_id"] for r in rating_history(player_id=p[0].pk)]
    assert keys[0] in {g.pk for g in games[4:]}  # the second night's games come first now


def test_one_replay_rates_the_round_s_games_confirmed_while_it_waited(
        club_players: Any) -> None:
    """A round's confirmations arrive together: the first call that takes the lock rates
    every confirmed game of its round, and the calls for the others then find nothing to do."""
    club, p = club_players
    games = _two_nights(club, p)
    first_night = games[:4]  # two rounds of two tables
    Game.objects.filter(pk__in=[g.pk for g in first_night]).update(status="confirmed")
    assert ratings_game_update(game_id=first_night[3].pk) == "rated"
    assert set(RatingChange.objects.values_list("game_id", flat=True)) == {
        g.pk for g in first_night[2:]}  # its round's other game too, not the round before
    assert ratings_game_update(game_id=first_night[0].pk) == "rated"  # from round 1 on
    for game in first_night:
        assert ratings_game_update(game_id=game.pk) == "unchanged"
    together = state()
    assert rebuilt() == together  # the same as rating them one by one, in playing order


@contextlib.contextmanager
def another_replay_holding_the_lock() -> Iterator[None]:
    """Another worker process's replay holds the ratings' lock (in its own transaction) for the
    duration of the block."""
    holding, release = threading.Event(), threading.Event()

    def other_replay() -> None:
        try:
            with transaction.atomic():
                assert _lock(wait=False)
                holding.set()
                release.wait(20)
        finally:
            connection.close()

    thread = threading.Thread(target=other_replay)
    thread.start()
    try:
        assert holding.wait(20)
        yield
    finally:
        release.set()
        thread.join(20)


@pytest.mark.django_db(transaction=True)
def test_while_another_replay_holds_the_lock_a_call_that_may_not_wait_is_busy(
        club_players: Any) -> None:
    club, p = club_players
    game = seat(club_night(club), p[:4])
    play(game, ns_wins=True, confirm=False)
    Game.objects.filter(pk=game.pk).update(status="confirmed")
    with another_replay_holding_the_lock():
        assert ratings_game_update(game_id=game.pk, wait=False) == "busy"
        assert not RatingChange.objects.exists()  # nothing written meanwhile
    assert ratings_game_update(game_id=game.pk, wait=False) == "rated"
    assert RatingChange.objects.filter(game=game).count() == 4


@pytest.mark.django_db(transaction=True)
def test_a_pending_run_that_finds_the_lock_taken_puts_its_games_back(
        club_players: Any) -> None:
    """The run for every game waiting does not wait for another replay (it would hold a worker
    process the standings need): its games go back among those waiting, with a run queued a
    second later, which rates them."""
    club, p = club_players
    game = seat(club_night(club), p[:4])
    play(game, ns_wins=True, confirm=False)
    Game.objects.filter(pk=game.pk).update(status="confirmed")
    with mock.patch("league.tasks.rate_pending.apply_async"):
        assert ratings_pending_return(game_ids=[game.pk], countdown=0)  # waiting
    with another_replay_holding_the_lock():
        with mock.patch("league.tasks.rate_pending.apply_async") as queued:
            assert rate_pending.apply().get() == "busy"
        assert [call.kwargs["countdown"] for call in queued.call_args_list] == [1.0]
        assert not RatingChange.objects.exists()
    assert rate_pending.apply().get() == "rated"  # what the run queued a second later does
    assert RatingChange.objects.filter(game=game).count() == 4

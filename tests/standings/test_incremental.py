"""The incremental standings equal a full recompute after every step of random play.

Each walk plays an event through the services as the tables and the director would, choosing
its next step at random: a hand entered (a misdeal now and then), a hand corrected (also in
closed rounds and confirmed games), the last hand deleted, a game confirmed, time called, a
level game settled by a cut, a player withdrawing, a player renamed, the event's tie-breaks or
bye scoring changed, the round closed and the next one seated (qualifying games, semi-finals and
the final of a progressive day; pairs in a Swiss event). After every step the rows the standings
task computes incrementally (its state kept from the step before) are compared with
``standings_compute`` re-aggregating everything, and now and then the task itself runs and its
snapshot is compared too.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from clubs.models import Club, Player
from common.errors import DomainError
from draw.services import entry_withdraw, round_create, round_set_status
from ranking import TIE_BREAKS
from scoring.models import Game, Hand, HandRevision, SeatResult
from scoring.services import (
    game_confirm,
    game_settle_tie,
    hand_correct,
    hand_delete_last,
    hand_submit,
    round_call_time,
)
from standings import incremental
from standings.models import StandingsSnapshot
from standings.selectors import standings_compute
from standings.tasks import compute_standings
from tests.clubs.factories import PlayerFactory
from tests.events.test_api_progressive import _random_hand
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Entry, Event, Round
from tournaments.services import entries_create_many, event_create, pair_register

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 11, 20)
Capture = Callable[..., Any]


def assert_incremental_equals_full(event_id: int) -> None:
    event = Event.objects.get(pk=event_id)
    snapshot, _ = StandingsSnapshot.objects.get_or_create(event=event)
    fast = incremental.standings_rows_incremental(event=event, snapshot_id=snapshot.pk)
    full = standings_compute(event=event)
    if fast is None:  # a pair event: computed in full by the task
        assert event.is_pairs
        return
    rows, labels, text = fast
    assert rows == full.rows
    assert labels == full.tie_breaks
    assert text == json.dumps(full.rows, separators=(",", ":"), sort_keys=True)


class Walk:
    """Random steps on one event, checking the standings after each."""

    def __init__(self, event: Event, rng: random.Random, capture: Capture) -> None:
        self.event, self.rng, self.capture = event, rng, capture
        self.steps: list[str] = []

    # --- what there is to act on --------------------------------------------------------------
    def open_round(self) -> Round | None:
        return self.event.rounds.exclude(status=Round.Status.CLOSED).order_by("number").last()

    def games(self, *, any_round: bool = False) -> list[Game]:
        games = Game.objects.filter(table__round__event=self.event).select_related("table__round")
        if not any_round:
            games = games.exclude(table__round__status=Round.Status.CLOSED)
        return list(games.order_by("pk"))

    def values(self, number: int) -> dict[str, Any]:
        dealer = "NESW"[(number - 1) % 4]
        if self.rng.random() < 0.1:
            return {"outcome": "misdeal", "dealer": dealer}
        return {**_random_hand(self.rng), "dealer": dealer}

    # --- the steps ----------------------------------------------------------------------------
    def submit(self) -> None:
        playing = [g for g in self.games() if g.status == Game.Status.PLAYING]
        if playing:
            game = self.rng.choice(playing)
            hand_submit(game=game, number=game.hands_count + 1, values=self.values(
                game.hands_count + 1), as_director=True, note="entered by the director")

    def correct(self) -> None:
        live = list(HandRevision.objects.filter(
            hand__game__table__round__event=self.event, is_live=True).select_related("hand"))
        if live:
            revision = self.rng.choice(live)
            hand_correct(hand=revision.hand, values=self.values(revision.hand.number),
                         expected_revision=revision.revision, as_director=True,
                         note="score sheet misread")

    def delete_last(self) -> None:
        games = [g for g in self.games(any_round=True) if g.hands_count]
        if games:
            game = self.rng.choice(games)
            live = HandRevision.objects.get(hand__game=game, hand__number=game.hands_count,
                                            is_live=True)
            hand_delete_last(game=game, number=game.hands_count, expected_revision=live.revision,
                             note="wrong table", as_director=True)

    def confirm(self) -> None:
        finished = [g for g in self.games() if g.status == Game.Status.FINISHED]
        if finished:
            with self.capture(execute=True):
                game_confirm(game=self.rng.choice(finished), position="E")

    def call_time(self) -> None:
        round_ = self.open_round()
        if round_ is None:
            return
        # Half the time a table was redealing when time was called: its last hand is a misdeal,
        # and the game ends after the deals before it (a misdeal is not a deal).
        playing = [g for g in self.games() if g.status == Game.Status.PLAYING
                   and g.table.round_id == round_.pk and g.hands_count]
        if playing and self.rng.random() < 0.5:
            game = self.rng.choice(playing)
            hand_submit(game=game, number=game.hands_count + 1, values={
                "outcome": "misdeal", "dealer": "NESW"[game.hands_count % 4]},
                as_director=True, note="redealing when time was called")
        if HandRevision.objects.filter(
                hand__game__table__round=round_, hand__game__status=Game.Status.PLAYING,
                hand__number=F("hand__game__hands_count"), is_live=True,
                outcome="misdeal").exists():
            self.steps.append("call_time after a misdeal")
        round_call_time(round_=round_, confirm_empty=True)

    def settle_tie(self) -> None:
        level = [g for g in self.games(any_round=True)
                 if g.status != Game.Status.PLAYING and not g.winner and not g.cut_winner]
        if level:
            game_settle_tie(game=self.rng.choice(level), winner=self.rng.choice(["NS", "EW"]))

    def reseat(self) -> None:
        """Time called on a round before any hand (its games end 0-0 and get seat results),
        then, once in a while, the round seated again: those games and results vanish."""
        round_ = self.open_round()
        if round_ is None or Hand.objects.filter(game__table__round=round_).exists():
            return
        if not round_.tables.filter(game__status=Game.Status.FINISHED).exists():
            round_call_time(round_=round_, confirm_empty=True)
            return
        round_create(event=self.event, reseat=True, reason="a late arrival")

    def withdraw(self) -> None:
        active = list(Entry.objects.filter(event=self.event, status=Entry.Status.ACTIVE))
        if len(active) > 8:
            entry_withdraw(entry=self.rng.choice(active))

    def rename(self) -> None:
        entry = self.rng.choice(list(Entry.objects.filter(event=self.event)))
        Player.objects.filter(pk=entry.player_id).update(name=f"Renamed {self.rng.randrange(99)}")

    def settings(self) -> None:
        names = list(TIE_BREAKS)
        self.rng.shuffle(names)
        Event.objects.filter(pk=self.event.pk).update(
            tie_breaks=names[: self.rng.randint(1, len(names))],
            bye_scoring=self.rng.choice(list(Event.ByeScoring.values)),
            bye_points=self.rng.randint(0, 300),
        )

    def finish_round(self) -> None:
        """Every game of the open round played out and confirmed; the round closed and, unless the
        format seats itself, the next one seated."""
        round_ = self.open_round()
        if round_ is None:
            return
        for game in self.games():
            while Game.objects.get(pk=game.pk).status == Game.Status.PLAYING:
                self.submit_to(Game.objects.get(pk=game.pk))
                assert_incremental_equals_full(self.event.pk)
        with self.capture(execute=True):
            for game in Game.objects.filter(table__round=round_, status=Game.Status.FINISHED):
                if not game.winner:
                    game_settle_tie(game=game, winner="NS")
                game_confirm(game=game, position="E")
        round_.refresh_from_db()
        if self.event.is_pairs or self.event.format == Event.Format.INDIVIDUAL_PROGRESSIVE:
            return  # the advance seated the next round on commit
        round_set_status(round_=round_, status=Round.Status.CLOSED, close_unfinished=True)
        if self.event.rounds.count() < self.event.rounds_planned:
            round_create(event=self.event)

    def submit_to(self, game: Game) -> None:
        hand_submit(game=game, number=game.hands_count + 1,
                    values=self.values(game.hands_count + 1), as_director=True, note="entered")

    STEPS: dict[str, int] = {
        "submit": 40, "correct": 12, "delete_last": 8, "confirm": 6, "call_time": 1,
        "settle_tie": 2, "reseat": 2, "withdraw": 2, "rename": 2, "settings": 2, "finish_round": 5,
    }

    def run(self, steps: int) -> None:
        names, weights = zip(*self.STEPS.items(), strict=True)
        assert_incremental_equals_full(self.event.pk)
        for number in range(steps):
            name = self.rng.choices(names, weights)[0]
            self.steps.append(name)
            try:
                getattr(self, name)()
            except DomainError:  # refused (e.g. a correction ending the game early)
                self.steps.append(f"{name} refused")
            assert_incremental_equals_full(self.event.pk)
            if number % 10 == 0:
                self.task_equals_full()

    def task_equals_full(self) -> None:
        compute_standings(self.event.pk)  # the task: incremental
        snapshot = StandingsSnapshot.objects.get(event=self.event)
        full = standings_compute(event=Event.objects.get(pk=self.event.pk))
        assert (snapshot.rows, snapshot.tie_breaks) == (full.rows, full.tie_breaks)
        payload = json.dumps([full.rows, full.tie_breaks], separators=(",", ":"), sort_keys=True)
        assert snapshot.digest == hashlib.sha256(payload.encode()).hexdigest()


def club(seed: int) -> Club:
    return Club.objects.create(name=f"Club {seed}", slug=f"club-{seed}")


def players(club_: Club, n: int) -> list[Player]:
    return [PlayerFactory(club=club_, name=f"Player {i:02d}") for i in range(n)]


@pytest.mark.parametrize("seed", range(4))
def test_club_night_walk(seed: int, django_capture_on_commit_callbacks: Capture) -> None:
    """Nine to eleven players (byes every round), rotating partners, random settings."""
    rng = random.Random(seed)
    c = club(seed)
    event = event_create(club=c, name="Night", date=DAY, rounds_planned=5, deals_per_round=3,
                         bye_scoring=rng.choice(list(Event.ByeScoring.values)),
                         bye_points=rng.choice([0, 150, 275]))
    entries_create_many(event=event, players=players(c, 9 + seed % 3))
    round_create(event=event)
    walk = Walk(event, rng, django_capture_on_commit_callbacks)
    walk.run(100)
    assert walk.steps.count("submit") > 20


@pytest.mark.parametrize("seed", range(2))
def test_progressive_day_walk(seed: int, django_capture_on_commit_callbacks: Capture) -> None:
    """Qualifying games, then the semi-finals and the final of a progressive day, with
    alternates and withdrawals (each stage's rows are part of the snapshot)."""
    rng = random.Random(100 + seed)
    c = club(100 + seed)
    event = event_create(club=c, name="NPA day", date=DAY,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=3,
                         deals_per_round=2, format_settings={"cut": 8, "final_rule":
                                                             "single_game"})
    entries_create_many(event=event, players=players(c, 18))
    round_create(event=event)
    walk = Walk(event, rng, django_capture_on_commit_callbacks)
    walk.run(160)
    stages = set(event.rounds.values_list("stage", flat=True))
    assert Round.Stage.QUALIFYING in stages and len(stages) > 1, walk.steps


def test_pair_event_walk(django_capture_on_commit_callbacks: Capture) -> None:
    """A Swiss pair event (five pairs: a bye each round): the task's snapshot equals the full
    compute (pair events are computed in full)."""
    rng = random.Random(7)
    c = club(7)
    event = event_create(club=c, name="Pairs", date=DAY, format=Event.Format.SWISS,
                         deals_per_round=2)
    for n in range(5):
        a, b = (PlayerFactory(club=c, name=f"Partner {n}{x}") for x in "ab")
        pair_register(event=event, players=[a, b], seed=n + 1)
    round_create(event=event)
    walk = Walk(event, rng, django_capture_on_commit_callbacks)
    walk.STEPS = {**Walk.STEPS, "withdraw": 0}
    walk.run(60)
    assert event.is_pairs


def test_state_follows_only_the_changed_game(django_capture_on_commit_callbacks: Capture) -> None:
    """After one hand only that game's seat results are read again and only its four players'
    totals are rebuilt; a cold state (a new worker process) reads everything and agrees."""
    rng = random.Random(3)
    c = club(3)
    event = event_create(club=c, name="Night", date=DAY, rounds_planned=3, deals_per_round=3)
    entries_create_many(event=event, players=players(c, 12))
    walk = Walk(event, rng, django_capture_on_commit_callbacks)
    round_create(event=event)
    walk.finish_round()
    snapshot, _ = StandingsSnapshot.objects.get_or_create(event=event)
    incremental.standings_rows_incremental(event=event, snapshot_id=snapshot.pk)
    state = incremental._STATES[event.pk]
    kept = dict(state.totals)
    game = walk.games()[0]
    walk.submit_to(game)
    with CaptureQueriesContext(connection) as queries:
        rows, *_ = incremental.standings_rows_incremental(event=event, snapshot_id=snapshot.pk)
    read_again = [q["sql"] for q in queries.captured_queries
                  if "scoring_seatresult" in q["sql"] and "game_id IN (" in q["sql"]]
    assert len(read_again) == 1 and f"game_id IN ({game.pk})" in read_again[0]
    seated = set(game.table.seats.values_list("entry_id", flat=True))
    state = incremental._STATES[event.pk]
    rebuilt = {pk for pk, totals in state.totals.items() if totals is not kept[pk]}
    assert rebuilt == seated
    assert len(queries) <= 5  # fingerprints, that game's rows, entries, byes (no GROUP BY of all)
    assert rows == standings_compute(event=event).rows
    incremental.forget(event.pk)
    assert incremental.standings_rows_incremental(
        event=event, snapshot_id=snapshot.pk)[0] == rows  # type: ignore[index]


def test_games_that_vanish_leave_the_totals(django_capture_on_commit_callbacks: Capture) -> None:
    """A round whose games ended 0-0 when time was called before any hand, then seated again:
    the old games' results are gone from the incremental totals as from the full compute."""
    rng = random.Random(6)
    c = club(6)
    event = event_create(club=c, name="Night", date=DAY, rounds_planned=2, deals_per_round=2)
    entries_create_many(event=event, players=players(c, 8))
    first = round_create(event=event)
    round_call_time(round_=first, confirm_empty=True)  # the director confirmed the 0-0s
    assert_incremental_equals_full(event.pk)
    rows = incremental.standings_rows_incremental(
        event=event, snapshot_id=StandingsSnapshot.objects.get(event=event).pk)
    assert rows is not None and all(r["games"] == 1 for r in rows[0])
    round_create(event=event, reseat=True, reason="time was called by mistake")
    assert_incremental_equals_full(event.pk)
    rows = incremental.standings_rows_incremental(
        event=event, snapshot_id=StandingsSnapshot.objects.get(event=event).pk)
    assert rows is not None and all(r["games"] == 0 for r in rows[0])
    assert not incremental._STATES[event.pk].games
    Walk(event, rng, django_capture_on_commit_callbacks).run(10)


def test_a_state_is_never_reused_for_another_snapshot(
        django_capture_on_commit_callbacks: Capture) -> None:
    """A state kept for another snapshot row (an event deleted and its id reused) is dropped."""
    rng = random.Random(4)
    c = club(4)
    event = event_create(club=c, name="Night", date=DAY, rounds_planned=2, deals_per_round=2)
    entries_create_many(event=event, players=players(c, 8))
    round_create(event=event)
    walk = Walk(event, rng, django_capture_on_commit_callbacks)
    walk.finish_round()
    snapshot, _ = StandingsSnapshot.objects.get_or_create(event=event)
    stale = incremental.EventState(snapshot_id=snapshot.pk + 1000)
    stale.totals = {pk: incremental.EntryTotals(entry_id=pk, name="stale", points=10**6)
                    for pk in event.entries.values_list("pk", flat=True)}
    stale.games = {g.pk: ((10**9, 4), ()) for g in walk.games(any_round=True)}
    incremental._STATES[event.pk] = stale
    rows, *_ = incremental.standings_rows_incremental(  # type: ignore[misc]
        event=event, snapshot_id=snapshot.pk)
    assert rows == standings_compute(event=event).rows
    assert all(r["name"] != "stale" for r in rows)


def test_full_task_and_reconcile_still_recompute_everything(
        django_capture_on_commit_callbacks: Capture) -> None:
    """``full=True`` re-derives the games from the hands and re-aggregates; with a wrong kept
    state (never produced by the code, simulated here) the full path still gives the truth."""
    rng = random.Random(5)
    c = club(5)
    event = event_create(club=c, name="Night", date=DAY, rounds_planned=2, deals_per_round=2)
    entries_create_many(event=event, players=players(c, 8))
    round_create(event=event)
    walk = Walk(event, rng, django_capture_on_commit_callbacks)
    walk.finish_round()
    compute_standings(event.pk)
    state = incremental._STATES[event.pk]
    entry_id = next(iter(state.totals))
    state.totals[entry_id] = incremental.EntryTotals(entry_id=entry_id, name="wrong",
                                                     points=10**6)
    compute_standings(event.pk, full=True)
    snapshot = StandingsSnapshot.objects.get(event=event)
    assert snapshot.rows == standings_compute(event=event).rows
    assert all(r["name"] != "wrong" for r in snapshot.rows)
    assert Hand.objects.filter(game__table__round__event=event).exists()


def test_the_automatic_advance_keeps_the_task_equal_to_a_full_rebuild(
        django_capture_on_commit_callbacks: Capture) -> None:
    """A progressive day's game ends, the worker seats the next game by itself (eagerly here),
    and the snapshot the task keeps incrementally equals the one a full rebuild from the hands
    writes: a game just seated and not yet scored has no seat results either way, so neither
    shows a column of 0 for its round before a hand of it is entered; once one is, both show it."""
    event = progressive_event(12, deals_per_round=1, format_settings={"cut": 4})
    first = round_create(event=event)
    for table in first.tables.order_by("number"):
        with django_capture_on_commit_callbacks(execute=True):
            hand_submit(game=table.game, number=1, values=values())
        with django_capture_on_commit_callbacks(execute=True):
            game_confirm(game=table.game, position="N")
    second = event.rounds.get(number=2)  # seated by the automatic advance
    assert Round.objects.get(pk=first.pk).status == Round.Status.CLOSED

    def both() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        compute_standings(event.pk)
        fast = StandingsSnapshot.objects.get(event=event).rows
        compute_standings(event.pk, full=True)
        return fast, StandingsSnapshot.objects.get(event=event).rows

    fast, full = both()
    assert fast == full
    assert {tuple(r["per_round"]) for r in full} == {("1",)}
    assert sum(r["points"] for r in full) > 0
    assert not SeatResult.objects.filter(game__table__round=second).exists()
    # The round's first hand: its table's players get the round's column, in both.
    game = second.tables.order_by("number").first().game
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(game=game, number=1, values=values())
    fast, full = both()
    assert fast == full
    assert sum(1 for r in full if "2" in r["per_round"]) == 4

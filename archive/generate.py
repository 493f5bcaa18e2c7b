"""A random event played to the end through the real services, and its archive: the input of
the conformance corpus (``bench/conformance.py``), which runs the verifier on each.

``generate_event(format_name=…, players=…, seed=…)`` makes a club of its own (a fresh slug, its
owner directing), checks players in (pairs register together in a pair format) and drives the
event by the director's one next step (``draw.flow.next_step``: seat, start, play and close,
finish) until it is over, with, at random (all from one ``random.Random(seed)``):

* **late arrivals** checked in between rounds (not in a format whose field is closed) and
  players checked in as **alternates** (a format with alternates);
* **withdrawals** between rounds (a player, or a pair), an alternate taking the seat where the
  format says so, a bracket's walkovers;
* **re-draws** of a seated round (with a reason) and **seat swaps** (two players, or two pairs);
* **byes**, whatever the field's size leaves over;
* hands dealt from a shuffled deck with their meld counted by the rules engine (a misdeal now
  and then), a hand **corrected** by the director before the game is confirmed;
* **forfeits** (a format with forfeits), **adjusted results** (points, or the round's average),
  **penalties** (one withdrawn now and then);
* at the end a **reopen** by the club's owner, a correction of a hand of the last round, and a
  **re-finish**.

A refusal of the services (a withdrawal the format does not allow at that moment, an average
of a round without other games) is part of the play: the step is skipped. Everything the event
decides comes from the seed, so the same seed plays the same event (the times of day and the
database's ids aside, neither of which an archive's results depend on); the event's draw seed
is drawn from it too. The archive is ``archive.selectors.event_archive_bytes``.

Rules: ``pagat_double_deck`` (tables of four, two partnerships), which every format plays.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from django.contrib.auth import get_user_model
from django.db import transaction

import formats
from archive.selectors import event_archive_bytes
from clubs.models import Club, Player
from clubs.services import club_create, player_create
from common.errors import DomainError
from common.rulesets import event_ruleset
from conduct.models import Penalty
from conduct.services import penalty_record, penalty_withdraw
from draw.flow import next_step
from draw.services import (
    entry_withdraw,
    event_status_set,
    round_create,
    round_set_status,
)
from draw.swaps import seat_swap
from formats import Format, FormatError
from rules_engine import Ruleset, count_meld
from scoring.models import Game, Hand
from scoring.services import game_adjust, game_confirm, game_forfeit, hand_correct, hand_submit
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat
from tournaments.services import entry_check_in, event_create, pair_register, pair_withdraw

RULESET = "pagat_double_deck"
T = TypeVar("T")  # what a service that may refuse returns
MAX_PLAYERS = 512
DAY = datetime.date(2026, 6, 6)
SUITS = ("S", "H", "D", "C")
# How often each random thing happens (per round, per table or per event).
CHANCE = {"late": 0.3, "alternate": 0.3, "withdraw": 0.25, "redraw": 0.1, "swap": 0.15,
          "misdeal": 0.05, "correct": 0.1, "forfeit": 0.04, "adjust": 0.04, "penalty": 0.3,
          "penalty_withdrawn": 0.3}
MAX_STEPS = 2000  # the director's steps before the generator gives up (a format that never ends)


class GenerateError(Exception):
    """The event cannot be generated as asked (an unknown format, a size out of range)."""


@dataclass(frozen=True)
class Generated:
    """A generated event and its archive's bytes."""

    event: Event
    archive: bytes
    players: int
    rounds: int


def smallest_field(spec: Format) -> int:
    """The fewest players an event of ``spec`` (default settings) seats: whole pairs in a pair
    format, the format's first-round check passed."""
    settings = spec.settings_for(None)
    for players in range(2, MAX_PLAYERS + 1):
        entrants = players // 2 if spec.pairs else players
        if spec.pairs and (players % 2 or entrants < 2):
            continue
        if not spec.pairs and entrants < spec.min_entries:
            continue
        try:
            spec.check_field(settings, entrants)
        except FormatError:
            continue
        return players
    raise GenerateError(f"{spec.label} seats no field of at most {MAX_PLAYERS} players.")


def deal_hand(rng: random.Random, ruleset: Ruleset, dealer: str, *,
              misdeal: bool = True) -> dict[str, object]:
    """A played hand from a shuffled deck: the best melder with a marriage bids a little over
    the meld, the counters fall by chance; a misdeal now and then (unless ``misdeal`` is
    off)."""
    if misdeal and rng.random() < CHANCE["misdeal"]:
        return {"dealer": dealer, "outcome": "misdeal"}
    deck = [rank + suit for suit in SUITS for rank in "ATKQJ" for _ in range(4)]
    rng.shuffle(deck)
    seats, size = ruleset.seats, ruleset.hand_size
    hands = {seat: deck[i * size:(i + 1) * size] for i, seat in enumerate(seats)}
    best: tuple[int, str, str] | None = None
    for seat in seats:
        for trump in SUITS:
            if "K" + trump in hands[seat] and "Q" + trump in hands[seat]:
                total = count_meld(hands[seat], trump, ruleset).total
                if best is None or total > best[0]:
                    best = (total, seat, trump)
    if best is None:
        if not misdeal:
            return deal_hand(rng, ruleset, dealer, misdeal=False)
        return {"dealer": dealer, "outcome": "misdeal"}
    _, bidder, trump = best
    meld = dict.fromkeys(ruleset.sides, 0)
    for seat in seats:
        meld[ruleset.side_of(seat)] += count_meld(hands[seat], trump, ruleset).total
    side = ruleset.side_of(bidder)
    others = [s for s in ruleset.sides if s != side]
    taken = rng.randint(10, ruleset.counters_total - 6)
    counters = {side: taken, **{s: 0 for s in others}}
    counters[others[-1]] = ruleset.counters_total - taken
    bid = max(ruleset.min_bid, meld[side] + rng.randint(10, 30))
    while not ruleset.is_valid_bid(bid):
        bid += 1
    return {"dealer": dealer, "bidder": bidder, "bid": bid, "trump": trump, "meld": meld,
            "counters": counters, "outcome": "played"}


class Play:
    """One generated event under way: the director's steps and the tables' hands."""

    def __init__(self, *, spec: Format, players: int, seed: int,
                 say: Callable[[str], None]) -> None:
        self.spec, self.rng, self.say = spec, random.Random(seed), say
        users = get_user_model()
        taken = Club.objects.filter(slug__startswith=f"generated-{seed}").count()
        slug = f"generated-{seed}-{taken + 1}"
        self.owner = users.objects.create_user(username=slug, email=f"{slug}@example.org")
        self.club = club_create(name=f"Generated {seed} ({taken + 1})", slug=slug,
                                owner=self.owner, ruleset_preset=RULESET)
        rng = self.rng
        settings: dict[str, object] = {}
        rounds = rng.randint(2, 5) if spec.rounds_used else None
        self.event = event_create(
            club=self.club, name=f"Generated {spec.label}", date=DAY, actor=self.owner,
            format=spec.name, format_settings=settings, rounds_planned=rounds,
            deals_per_round=rng.choice((1, 1, 2)), seed=rng.getrandbits(128),
            bye_scoring=rng.choice(list(Event.ByeScoring.values)),
            bye_points=rng.choice((0, 25, 50)))
        self.ruleset = event_ruleset(self.event)
        people = [player_create(club=self.club, name=f"Player {n:03d}")
                  for n in range(1, players + 1)]
        self.waiting: list[Player] = []  # players who come late
        if spec.pairs:
            for n in range(0, players - 1, 2):
                seeded = n // 2 + 1 if rng.random() < 0.5 else None
                pair_register(event=self.event, players=people[n:n + 2], actor=self.owner,
                              seed=seeded, name=f"Team {n // 2 + 1}" if rng.random() < 0.2
                              else "")
        else:
            # the first round's field stays one the format seats (a cut of 8 needs 8 players
            # who are not alternates): the late and the alternates come from the rest
            spare = players - smallest_field(spec)
            late = 0 if spec.closed_field else rng.randint(0, min(max(players // 8, 1), spare))
            here, self.waiting = people[:players - late], people[players - late:]
            for index, person in enumerate(here):
                entry_check_in(event=self.event, player=person, actor=self.owner,
                               alternate=spec.alternates and index >= players - spare
                               and rng.random() < 0.2)

    # --- the director's steps -----------------------------------------------------------------
    def run(self) -> None:
        for _ in range(MAX_STEPS):
            self.event.refresh_from_db()
            step = next_step(self.event, list(self.event.rounds.order_by("number")))
            if step is None:
                return
            if step.kind == "seat":
                self.seat()
            elif step.kind == "start":
                current = self.event.rounds.get(number=step.number)
                self.maybe_swap(current)
                round_set_status(round_=current, status=Round.Status.PLAYING, actor=self.owner)
            elif step.kind == "advance":
                self.play_round(self.event.rounds.get(number=step.number))
            elif step.kind == "finish":
                event_status_set(event=self.event, status=Event.Status.FINISHED,
                                 actor=self.owner)
            else:  # pragma: no cover - a step this generator does not know
                raise GenerateError(f"unknown step {step.kind!r}")
        raise GenerateError(f"the event was not over after {MAX_STEPS} steps")

    def seat(self) -> None:
        try:
            with transaction.atomic():
                round_create(event=self.event, actor=self.owner)
        except DomainError as exc:
            if not self.event.rounds.exists():
                raise
            # more rounds planned than the format can seat (a movement's pairs would meet
            # again): the director finishes the event with the rounds played
            self.say(f"round {self.event.rounds.count() + 1} refused ({exc.message}): finished")
            event_status_set(event=self.event, status=Event.Status.FINISHED, actor=self.owner)
            return
        if self.rng.random() < CHANCE["redraw"]:
            self.tried(lambda: round_create(event=self.event, actor=self.owner, reseat=True,
                                            reason="the room was set up again"))

    def tried(self, action: Callable[[], T]) -> T | None:
        """Do ``action``; a refusal of the services skips it (in a savepoint)."""
        try:
            with transaction.atomic():
                return action()
        except DomainError:
            return None

    def maybe_swap(self, round_: Round) -> None:
        if self.rng.random() >= CHANCE["swap"]:
            return
        if self.spec.pairs:
            pairs = sorted({pk for pk in Seat.objects.filter(round=round_)
                            .values_list("entry__pair_id", flat=True) if pk}
                           | {pk for pk in Bye.objects.filter(round=round_)
                              .values_list("entry__pair_id", flat=True) if pk})
            if len(pairs) >= 2:
                a, b = self.rng.sample(pairs, 2)
                self.tried(lambda: seat_swap(round_=round_, pair_a=Pair.objects.get(pk=a),
                                             pair_b=Pair.objects.get(pk=b), actor=self.owner))
            return
        placed = sorted(set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
                        | set(Bye.objects.filter(round=round_).values_list("entry_id",
                                                                           flat=True)))
        if len(placed) >= 2:
            a, b = self.rng.sample(placed, 2)
            self.tried(lambda: seat_swap(round_=round_, entry_a=Entry.objects.get(pk=a),
                                         entry_b=Entry.objects.get(pk=b), actor=self.owner))

    # --- a round at the tables ----------------------------------------------------------------
    def play_round(self, round_: Round) -> None:
        games = list(Game.objects.filter(table__round=round_).select_related("table")
                     .order_by("table__number"))
        open_games = [g for g in games if g.status == Game.Status.PLAYING]
        if open_games and self.rng.random() < CHANCE["penalty"]:
            self.penalise(round_)
        for index, game in enumerate(open_games):
            last = index == len(open_games) - 1
            roll = self.rng.random()
            if self.spec.forfeits and roll < CHANCE["forfeit"]:
                if self.forfeit(game):
                    continue
            elif (roll < CHANCE["forfeit"] + CHANCE["adjust"]
                  and self.adjust(game, average=last and len(games) > 1)):
                continue
            self.play_game(game)
        round_.refresh_from_db()
        if round_.status != Round.Status.CLOSED:
            round_set_status(round_=round_, status=Round.Status.CLOSED, actor=self.owner,
                             close_unfinished=True)
        self.between_rounds()

    def forfeit(self, game: Game) -> bool:
        side = self.rng.choice(list(self.ruleset.sides))
        return self.tried(lambda: game_forfeit(game=game, side=side, actor=self.owner,
                                               reason="could not go on")) is not None

    def adjust(self, game: Game, *, average: bool) -> bool:
        if average and self.tried(lambda: game_adjust(
                game=game, kind="average", reason="the table ran out of time",
                actor=self.owner)) is not None:
            return True
        points = {side: self.rng.randrange(0, 300, 10) for side in self.ruleset.sides}
        return self.tried(lambda: game_adjust(game=game, kind="points", points=points,
                                              reason="a fouled deck", actor=self.owner)) \
            is not None

    def play_game(self, game: Game) -> None:
        dealer = self.rng.choice(list(self.ruleset.seats))
        number = 1
        while Game.objects.get(pk=game.pk).status == Game.Status.PLAYING and number < 60:
            hand_submit(game=game, number=number,
                        values=deal_hand(self.rng, self.ruleset, dealer), author=self.owner)
            dealer = self.ruleset.next_dealer(dealer)
            number += 1
        if self.rng.random() < CHANCE["correct"]:
            self.correct(game)
        self.tried(lambda: game_confirm(game=game, position="E"))

    def correct(self, game: Game) -> None:
        hand = Hand.objects.filter(game=game, deleted_at__isnull=True).order_by("-number").first()
        if hand is None:
            return
        live = hand.revisions.filter(is_live=True).first()
        if live is None:
            return
        # a played hand: a correction into a misdeal would reopen a decided game
        values = deal_hand(self.rng, self.ruleset, live.dealer, misdeal=False)
        self.tried(lambda: hand_correct(hand=hand, values=values, author=self.owner,
                                        expected_revision=live.revision, as_director=True,
                                        note="the score sheet was misread"))

    def penalise(self, round_: Round) -> None:
        seats = list(Seat.objects.filter(round=round_).select_related("table", "entry")
                     .order_by("table__number", "position"))
        if not seats:
            return
        seat = self.rng.choice(seats)
        who = ({"pair_id": seat.entry.pair_id} if self.spec.pairs
               else {"entry_id": seat.entry_id})
        kind = self.rng.choice(list(Penalty.Kind.values))
        penalty = self.tried(lambda: penalty_record(
            event=self.event, round_number=round_.number, kind=kind, reason="seen by the floor",
            points=self.rng.choice((5, 10, 25, 50)), table=seat.table.number, actor=self.owner,
            **who))
        if penalty is not None and self.rng.random() < CHANCE["penalty_withdrawn"]:
            self.tried(lambda: penalty_withdraw(penalty=penalty, reason="a misunderstanding",
                                                actor=self.owner))

    def between_rounds(self) -> None:
        """Late arrivals and withdrawals, as they happen between rounds."""
        rng = self.rng
        if self.waiting and rng.random() < CHANCE["late"]:
            person = self.waiting.pop(0)
            self.tried(lambda: entry_check_in(
                event=self.event, player=person, actor=self.owner,
                alternate=self.spec.alternates and rng.random() < CHANCE["alternate"]))
        if rng.random() >= CHANCE["withdraw"]:
            return
        if self.spec.pairs:
            pairs = list(Pair.objects.filter(event=self.event, members__status=Entry.Status.ACTIVE)
                         .distinct().order_by("pk"))
            if len(pairs) > 2:
                pair = rng.choice(pairs)
                self.tried(lambda: pair_withdraw(pair=pair, actor=self.owner))
            return
        active = list(Entry.objects.filter(event=self.event, status=Entry.Status.ACTIVE)
                      .order_by("pk"))
        # a cut still to come keeps its qualifiers (players who are not alternates)
        cut = self.spec.qualifying_cut(self.event.format_settings or {})
        eligible = sum(1 for e in active if not e.alternate)
        if cut is not None and eligible <= cut.size:
            return
        if len(active) > max(self.spec.min_entries, 4) + 1:
            entry = rng.choice(active)
            self.tried(lambda: entry_withdraw(entry=entry, actor=self.owner))

    # --- after the end ------------------------------------------------------------------------
    def reopen(self) -> None:
        """The owner reopens the finished event, corrects a hand of the last round and finishes
        it again (after any match the correction calls for)."""
        self.event.refresh_from_db()
        if self.event.status != Event.Status.FINISHED:
            return
        event_status_set(event=self.event, status=Event.Status.RUNNING, actor=self.owner,
                         reason="a score sheet of the last round was misread")
        last = self.event.rounds.order_by("-number").first()
        played = [g for g in Game.objects.filter(table__round=last).order_by("table__number")
                  if g.hands.filter(deleted_at__isnull=True).exists() and not g.adjusted
                  and not g.forfeit]
        if played:
            game = self.rng.choice(played)
            self.correct(game)
            self.tried(lambda: game_confirm(game=game, position="E"))
        # finished again: the director's next step is the finish, or, where the correction
        # changed who won a bracket's last match (a double elimination's reset), that match
        self.run()


def generate_event(*, format_name: str, players: int, seed: int,
                   say: Callable[[str], None] = lambda line: None) -> Generated:
    """Play a random event of ``format_name`` with ``players`` players (see the module
    docstring) and return it with its archive."""
    try:
        spec = formats.get(format_name)
    except FormatError as exc:
        raise GenerateError(exc.message) from None
    least = smallest_field(spec)
    if not least <= players <= MAX_PLAYERS:
        raise GenerateError(f"{spec.label} is generated with {least} to {MAX_PLAYERS} players, "
                            f"not {players}.")
    play = Play(spec=spec, players=players, seed=seed, say=say)
    play.run()
    play.reopen()
    event = Event.objects.get(pk=play.event.pk)
    return Generated(event=event, archive=event_archive_bytes(event=event), players=players,
                     rounds=event.rounds.count())

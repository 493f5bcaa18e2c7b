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
* where the tables draw partners (a progressive day's ``draw: table``), each table's **cut of
  the cards** for partners, entered by the director before the next game is seated;
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

The **background work** the services queue (the standings, the ratings, a round's confirmation)
runs before each of the director's steps, as a worker behind its debounce would take it
(``common.tasks.tasks_held``): the hands of a round make one standings run, not one each.

**The rules and the settings** are drawn from the seed too (``archive.setups``): a ruleset among every
preset the format seats for that many players (partnerships at four, three-handed, cutthroat
and check pinochle at tables of three or four, or of three only with ``sit_out=none``, two,
five, six or eight at a table where the format plays them: ``formats.Format.settings_for``),
and whatever the format's settings let a director choose (a progressive day's movement,
direction, partner draw, cut, semi-final partners, final and level games; a pair format's
opening draw, groups, level games, bracket options and playoff with its cut, split final and
consolation rounds), the planned rounds (within what the movement seats), the deals per round,
how a bye scores and the tie-breaks. A hand is dealt from the ruleset's pack at the table's
seats (the dealer sitting out at a table of four of a three-handed game, five-handed's called
partner, tricks where the ruleset needs them) and checked by the engine before it is entered.
``generate_event(ruleset=…)`` fixes the preset instead.
"""

from __future__ import annotations

import datetime
import functools
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

import formats
from archive.selectors import event_archive_bytes
from clubs.models import Club
from clubs.services import club_create, player_create
from common.errors import DomainError
from common.rulesets import event_ruleset, table_seats, table_sides
from common.tasks import tasks_held
from conduct.models import Penalty
from conduct.services import penalty_record, penalty_withdraw
from draw.flow import next_step
from draw.managers import table_meetings
from draw.services import (
    entry_withdraw,
    event_status_set,
    round_create,
    round_set_status,
)
from draw.swaps import seat_swap
from formats import Format, FormatError
from rules_engine import RulesError, Ruleset, count_meld, parse_hand
from rules_engine.cards import NINE
from rules_engine.hands import needs_tricks
from scoring.models import Game, Hand
from scoring.services import (
    game_adjust,
    game_confirm,
    game_forfeit,
    game_settle_tie,
    hand_correct,
    hand_submit,
    level_sides,
)
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat
from tournaments.services import entry_check_in, event_create, pair_register, pair_withdraw

from .setups import MAX_PLAYERS, GenerateError, draw_setup, smallest_field

DAY = datetime.date(2026, 6, 6)
SUITS = ("S", "H", "D", "C")
KING, QUEEN = 2, 3  # rank numbers in a card index (suit * 6 + rank)
# How often each random thing happens (per round, per table or per event).
CHANCE = {"late": 0.3, "alternate": 0.3, "withdraw": 0.25, "redraw": 0.1, "swap": 0.15,
          "misdeal": 0.05, "correct": 0.1, "forfeit": 0.04, "adjust": 0.04, "penalty": 0.3,
          "penalty_withdrawn": 0.3}
MAX_STEPS = 2000  # the director's steps before the generator gives up (a format that never ends)
DEAL_TRIES = 60  # deals tried for a hand the engine accepts


@dataclass(frozen=True)
class Generated:
    """A generated event and its archive's bytes."""

    event: Event
    archive: bytes
    players: int
    rounds: int


def _split(rng: random.Random, total: int, unit: int, parts: int) -> list[int]:
    """``total`` cut into ``parts`` shares at random, each a multiple of ``unit``."""
    cuts = sorted(rng.randrange(0, total // unit + 1) for _ in range(parts - 1))
    bounds = [0, *cuts, total // unit]
    return [(bounds[i + 1] - bounds[i]) * unit for i in range(parts)]


def _dealt(rng: random.Random, ruleset: Ruleset, seats: tuple[str, ...],
           dealer: str) -> dict[str, Any] | None:
    """One deal at a table with ``seats``: the best melder holding a marriage bids a little over
    its side's meld in that suit; every seat's meld counted by the engine; the counters (and
    tricks, where the ruleset needs them) split by chance, the declarers' side taking most. None
    when nobody holds a marriage or the engine refuses the values (the caller deals again)."""
    rs = ruleset.for_hand(seats, dealer)  # the seats dealt cards (the dealer may sit out)
    playing = [str(s) for s in rs.seats]
    pack = rs.deck.cards() + [s * 6 + NINE for s in range(4) for _ in range(rs.nines_added // 4)]
    rng.shuffle(pack)
    size = rs.hand_size
    held = {seat: pack[i * size:(i + 1) * size] for i, seat in enumerate(playing)}
    best: tuple[int, str, str] | None = None
    for seat in playing:
        for number, trump in enumerate(SUITS):
            if number * 6 + KING in held[seat] and number * 6 + QUEEN in held[seat]:
                total = count_meld(held[seat], trump, rs).total
                if best is None or total > best[0]:
                    best = (total, seat, trump)
    if best is None:
        return None
    _, bidder, trump = best
    values: dict[str, Any] = {"dealer": dealer, "bidder": bidder, "trump": trump,
                              "outcome": "played"}
    team = {bidder}
    if rs.called_partner:  # five-handed: the bidder calls a partner (maybe themselves)
        values["partner"] = rng.choice(playing)
        team.add(values["partner"])
    sides = list(dict.fromkeys(str(rs.side_of(s)) for s in playing))
    meld = dict.fromkeys(sides, 0)
    for seat in playing:
        meld[str(rs.side_of(seat))] += count_meld(held[seat], trump, rs).total
    declaring = [s for s in sides if set(rs.seats_of(s)) & team]
    others = [s for s in sides if s not in declaring]
    total, unit = rs.counters_total, rs.counter_unit
    taken = rng.randint(total * 36 // 100, total * 88 // 100)
    taken -= taken % unit
    counters = dict(zip(declaring, _split(rng, taken, unit, len(declaring)), strict=True))
    counters.update(zip(others, _split(rng, total - taken, unit, len(others)), strict=True))
    values["meld"] = meld
    values["counters"] = {s: counters[s] for s in sides}
    if needs_tricks(rs):
        tricks = {s: 1 if counters[s] else 0 for s in sides}
        weights = [counters[s] + 1 for s in sides]
        for _ in range(size - sum(tricks.values())):
            tricks[rng.choices(sides, weights)[0]] += 1
        values["tricks"] = tricks
    bid = max(ruleset.min_bid, sum(meld[s] for s in declaring)
              + rng.randint(total // 10, total // 2))
    for _ in range(10_000):
        if ruleset.is_valid_bid(bid):
            break
        bid += 1
    values["bid"] = bid
    try:
        parse_hand(values, ruleset, seats)
    except RulesError:
        return None
    return values


def deal_hand(rng: random.Random, ruleset: Ruleset, dealer: str, *,
              seats: tuple[str, ...] | None = None, misdeal: bool = True) -> dict[str, Any]:
    """A played hand at a table with ``seats`` (default the ruleset's own) from a shuffled
    pack, one the engine accepts (see :func:`_dealt`); a misdeal now and then (unless
    ``misdeal`` is off)."""
    seats = tuple(seats or (str(s) for s in ruleset.seats))
    if misdeal and rng.random() < CHANCE["misdeal"]:
        return {"dealer": dealer, "outcome": "misdeal"}
    for _ in range(DEAL_TRIES):
        values = _dealt(rng, ruleset, seats, dealer)
        if values is not None:
            return values
    raise GenerateError(f"no hand under {ruleset.name} the engine accepts in {DEAL_TRIES} deals")


class Play:
    """One generated event under way: the director's steps and the tables' hands."""

    def __init__(self, *, spec: Format, players: int, seed: int,
                 say: Callable[[str], None], preset: str | None = None) -> None:
        self.spec, self.rng, self.say = spec, random.Random(seed), say
        # runs the background work queued since the last step (common.tasks.tasks_held)
        self.release: Callable[[], int] = lambda: 0
        rng = self.rng
        self.setup = setup = draw_setup(rng, spec, players, preset=preset)
        users = get_user_model()
        taken = Club.objects.filter(slug__startswith=f"generated-{seed}").count()
        slug = f"generated-{seed}-{taken + 1}"
        self.owner = users.objects.create_user(username=slug, email=f"{slug}@example.org")
        self.club = club_create(name=f"Generated {seed} ({taken + 1})", slug=slug,
                                owner=self.owner, ruleset_preset=setup.preset)
        self.event = event_create(
            club=self.club, name=f"Generated {spec.label}", date=DAY, actor=self.owner,
            format=spec.name, format_settings=dict(setup.settings),
            ruleset_preset=setup.preset, ruleset_overrides=dict(setup.overrides),
            rounds_planned=setup.rounds, deals_per_round=setup.deals,
            seed=rng.getrandbits(128), bye_scoring=setup.bye_scoring,
            bye_points=setup.bye_points, tie_breaks=setup.tie_breaks)
        self.ruleset = event_ruleset(self.event)
        people = [player_create(club=self.club, name=f"Player {n:03d}")
                  for n in range(1, players + 1)]
        self.waiting: list[Any] = []  # players who come late
        if spec.pairs:
            size = self.ruleset.side_size  # a side of the game registers together
            for n in range(0, players - size + 1, size):
                number = n // size + 1
                seeded = number if rng.random() < 0.5 else None
                pair_register(event=self.event, players=people[n:n + size], actor=self.owner,
                              seed=seeded, name=f"Team {number}" if rng.random() < 0.2
                              else "")
        else:
            # the first round's field stays one the format seats (a cut of 8 needs 8 players
            # who are not alternates): the late and the alternates come from the rest
            spare = players - smallest_field(spec, setup)
            late = 0 if spec.closed_field else rng.randint(0, min(max(players // 8, 1), spare))
            here, self.waiting = people[:players - late], people[players - late:]
            for index, person in enumerate(here):
                entry_check_in(event=self.event, player=person, actor=self.owner,
                               alternate=spec.alternates and index >= players - spare
                               and rng.random() < 0.2)

    def describe(self) -> str:
        """The rules and settings drawn, in one line (the command prints it)."""
        setup = self.setup
        rules = setup.preset + "".join(f" {k}={v}" for k, v in setup.overrides.items())
        return (f"{rules}; rounds {self.event.rounds_planned}, deals {setup.deals}, bye "
                f"{setup.bye_scoring} ({setup.bye_points}), tie-breaks "
                f"{setup.tie_breaks or 'usual'}; settings {setup.settings or 'default'}")

    def seats_of(self, game: Game) -> tuple[str, ...]:
        """The table's seats, clockwise from North (a table of three or four at three-handed)."""
        return table_seats(self.ruleset, Seat.objects.filter(table_id=game.table_id)
                           .values_list("position", flat=True))

    # --- the director's steps -----------------------------------------------------------------
    def run(self) -> None:
        for _ in range(MAX_STEPS):
            self.release()  # the worker catches up before the director looks at the screen
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
                self.finish()
            else:  # pragma: no cover - a step this generator does not know
                raise GenerateError(f"unknown step {step.kind!r}")
        raise GenerateError(f"the event was not over after {MAX_STEPS} steps")

    def seat(self) -> None:
        try:
            with transaction.atomic():
                round_create(event=self.event, actor=self.owner, table_draw=self.table_draw())
        except DomainError as exc:
            if exc.code == "tie" and self.settle_ties():
                self.seat()  # the table entered its cut: seat again
                return
            if not self.event.rounds.exists():
                raise
            # more rounds planned than the format can seat (a movement's pairs would meet
            # again): the director finishes the event with the rounds played
            self.say(f"round {self.event.rounds.count() + 1} refused ({exc.message}): finished")
            self.finish()
            return
        if self.rng.random() < CHANCE["redraw"]:
            self.tried(lambda: round_create(event=self.event, actor=self.owner, reseat=True,
                                            reason="the room was set up again"))

    def table_draw(self) -> list[list[int]] | None:
        """Where the tables draw partners: each table's cut of the cards, made up from the
        seed (which arrival partners the first stayer); None where the round needs none."""
        meetings = table_meetings(self.event)
        if not meetings:
            return None
        return [[m.stayers[0], self.rng.choice(m.arrivals)] for m in meetings]

    def finish(self) -> None:
        """The director finishes the event (entering the table's cut of a level final first,
        where the event says the table cuts)."""
        try:
            with transaction.atomic():
                event_status_set(event=self.event, status=Event.Status.FINISHED,
                                 actor=self.owner)
        except DomainError as exc:
            if exc.code != "tie" or not self.settle_ties():
                raise
            event_status_set(event=self.event, status=Event.Status.FINISHED, actor=self.owner)

    def settle_ties(self) -> bool:
        """The last round's level games (an average adjusted result is level) have the table's
        cut entered, where the event says the table cuts; whether any was."""
        last = self.event.rounds.order_by("-number").first()
        settled = False
        for game in Game.objects.filter(table__round=last, winner="", cut_winner="").exclude(
                status=Game.Status.PLAYING).order_by("table__number"):
            level = level_sides(game, self.ruleset)
            if level:
                winner = self.rng.choice(level)
                settled |= self.tried(functools.partial(
                    game_settle_tie, game=game, winner=winner, actor=self.owner)) is not None
        return settled

    def tried(self, action: Callable[[], Any]) -> Any:
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
        side = self.rng.choice(list(table_sides(self.ruleset, self.seats_of(game))))
        return self.tried(lambda: game_forfeit(game=game, side=side, actor=self.owner,
                                               reason="could not go on")) is not None

    def adjust(self, game: Game, *, average: bool) -> bool:
        if average and self.tried(lambda: game_adjust(
                game=game, kind="average", reason="the table ran out of time",
                actor=self.owner)) is not None:
            return True
        points = {side: self.rng.randrange(0, 300, 10)
                  for side in table_sides(self.ruleset, self.seats_of(game))}
        return self.tried(lambda: game_adjust(game=game, kind="points", points=points,
                                              reason="a fouled deck", actor=self.owner)) \
            is not None

    def play_game(self, game: Game) -> None:
        seats = self.seats_of(game)
        dealer, number = self.play_hands(game, seats, self.rng.choice(seats), 1)
        if self.rng.random() < CHANCE["correct"]:
            self.correct(game)
            # a corrected hand can undo the game's end (the target no longer reached): the
            # table plays on from the next hand, as it would at the club
            self.play_hands(game, seats, dealer, number)
        self.confirm(game)

    def play_hands(self, game: Game, seats: tuple[str, ...], dealer: str,
                   number: int) -> tuple[str, int]:
        """Hands from ``number`` on while the game is being played (at most 59 in all); the
        next hand's dealer and number."""
        while Game.objects.get(pk=game.pk).status == Game.Status.PLAYING and number < 60:
            hand_submit(game=game, number=number, author=self.owner,
                        values=deal_hand(self.rng, self.ruleset, dealer, seats=seats))
            dealer = self.ruleset.next_dealer(dealer, seats)
            number += 1
        return dealer, number

    def confirm(self, game: Game) -> None:
        """A player of the table confirms the game (the first the service accepts); a game that
        ended level has the table's cut entered first where the event says the table cuts."""
        game.refresh_from_db()
        if (game.status != Game.Status.PLAYING and not game.winner and not game.cut_winner
                and (self.event.format_settings or {}).get("ties") == "table_cut"):
            level = level_sides(game, self.ruleset)
            if level:
                winner = self.rng.choice(level)
                self.tried(lambda: game_settle_tie(game=game, winner=winner, actor=self.owner))
        seats = list(self.seats_of(game))
        self.rng.shuffle(seats)
        for position in seats:
            if self.tried(functools.partial(game_confirm, game=game, position=position)) \
                    is not None:
                return

    def correct(self, game: Game) -> None:
        hand = Hand.objects.filter(game=game, deleted_at__isnull=True).order_by("-number").first()
        if hand is None:
            return
        live = hand.revisions.filter(is_live=True).first()
        if live is None:
            return
        # a played hand: a correction into a misdeal would reopen a decided game
        values = deal_hand(self.rng, self.ruleset, live.dealer, seats=self.seats_of(game),
                           misdeal=False)
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
            # a playoff still to come keeps its pairs (both brackets of a split final)
            playoff = (self.event.format_settings or {}).get("playoff") or {}
            keep = int(playoff.get("cut") or 0) + int(playoff.get("lower") or 0)
            if len(pairs) > max(2, keep):
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
        if len(active) > max(self.spec.min_entries, 4, max(self.ruleset.table_sizes)) + 1:
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
            self.confirm(game)
        # finished again: the director's next step is the finish, or, where the correction
        # changed who won a bracket's last match (a double elimination's reset), that match
        self.run()


def generate_event(*, format_name: str, players: int, seed: int,
                   say: Callable[[str], None] = lambda line: None,
                   ruleset: str | None = None) -> Generated:
    """Play a random event of ``format_name`` with ``players`` players (see the module
    docstring) and return it with its archive; ``say`` hears the rules and settings drawn, then
    anything the director had to decide (a planned round the format refused); ``ruleset``
    fixes the preset."""
    try:
        spec = formats.get(format_name)
    except FormatError as exc:
        raise GenerateError(exc.message) from None
    least = smallest_field(spec)
    if not least <= players <= MAX_PLAYERS:
        raise GenerateError(f"{spec.label} is generated with {least} to {MAX_PLAYERS} players, "
                            f"not {players}.")
    with tasks_held() as release:
        play = Play(spec=spec, players=players, seed=seed, say=say, preset=ruleset)
        play.release = release
        say(play.describe())
        play.run()
        play.reopen()
    event = Event.objects.get(pk=play.event.pk)
    return Generated(event=event, archive=event_archive_bytes(event=event), players=players,
                     rounds=event.rounds.count())


__all__ = ["MAX_PLAYERS", "GenerateError", "Generated", "generate_event", "smallest_field"]

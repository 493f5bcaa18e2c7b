"""Demo data: a club with 24 players, a finished club night and one in progress.

Hands are dealt from a shuffled double deck and their meld counted by the rules engine, so every
number on the demo pages is one the engine would accept from a real table. Everything is written
through the services, exactly as a director and the tables would.
"""

from __future__ import annotations

import datetime
import random
from typing import Protocol

from django.contrib.auth import get_user_model
from django.db import transaction

from clubs.models import Club, Membership, Player
from clubs.services import club_create, player_create
from common.rulesets import event_ruleset
from draw import services as draw
from league.models import Season
from league.services import season_create
from rules_engine import Ruleset, count_meld
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from series.services import series_create
from tournaments import services as events
from tournaments.models import Event

DEMO_SLUG = "riverside"
NAMES = [
    "Ada Brooks", "Ben Carter", "Carla Diaz", "Dan Evans", "Edith Fox", "Frank Gomez",
    "Gina Hall", "Hank Irwin", "Iris Jones", "Jack Klein", "Kay Lopez", "Lou Martin",
    "Mae Nolan", "Ned Ortiz", "Olive Park", "Pete Quinn", "Rita Ross", "Sam Stone",
    "Tess Turner", "Uma Vance", "Vic Walsh", "Wes Young", "Yara Zeller", "Zeke Adler",
]
SUITS = ("S", "H", "D", "C")


def demo_hand(rng: random.Random, ruleset: Ruleset, dealer: str) -> dict[str, object]:
    """A plausible played hand: deal 80 cards, the best melder bids, counters split by chance."""
    deck = [rank + suit for suit in SUITS for rank in "ATKQJ" for _ in range(4)]
    rng.shuffle(deck)
    seats, size = ruleset.seats, ruleset.hand_size
    hands = {seat: deck[i * size:(i + 1) * size] for i, seat in enumerate(seats)}
    best: tuple[int, str, str] | None = None
    for seat in seats:
        for trump in SUITS:
            total = count_meld(hands[seat], trump, ruleset).total
            has_marriage = ("K" + trump) in hands[seat] and ("Q" + trump) in hands[seat]
            if has_marriage and (best is None or total > best[0]):
                best = (total, seat, trump)
    if best is None:
        return {"dealer": dealer, "outcome": "misdeal", "meld": dict.fromkeys(ruleset.sides, 0)}
    _, bidder, trump = best
    meld = dict.fromkeys(ruleset.sides, 0)
    for seat in seats:
        meld[ruleset.side_of(seat)] += count_meld(hands[seat], trump, ruleset).total
    side = ruleset.side_of(bidder)
    others = [s for s in ruleset.sides if s != side]
    taken = rng.randint(18, 44)
    # the declaring side's counters; the others share the rest
    counters = {side: taken, **{s: 0 for s in others}}
    counters[others[-1]] = ruleset.counters_total - taken
    target = meld[side] + rng.randint(14, 30)
    bid = ruleset.min_bid
    while not ruleset.is_valid_bid(bid) or bid < target:
        bid += 1
        if bid > 250:
            break
    while not ruleset.is_valid_bid(bid):
        bid -= 1
    return {"dealer": dealer, "bidder": bidder, "bid": bid, "trump": trump, "meld": meld,
            "counters": counters, "outcome": "played"}


def play_table(game: Game, rng: random.Random, ruleset: Ruleset, hands: int) -> None:
    dealer: str = rng.choice(ruleset.seats)
    for number in range(1, hands + 1):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        hand_submit(game=game, number=number, values=demo_hand(rng, ruleset, dealer))
        dealer = ruleset.next_dealer(dealer)


@transaction.atomic
class _Writes(Protocol):
    def write(self, text: str, /) -> object: ...


def load_demo(*, stdout: _Writes | None = None) -> bool:
    """Create the demo club and its nights. Returns False when they already exist."""
    if Club.objects.filter(slug=DEMO_SLUG).exists():
        return False
    users = get_user_model()
    admin = users.objects.filter(username="admin").first()
    if admin is None:
        admin = users.objects.create_superuser("admin", "admin@example.org", "admin-pass")
    director = users.objects.filter(username="director").first()
    if director is None:
        director = users.objects.create_user("director", "director@example.org", "director-pass")
    club = club_create(name="Riverside Pinochle Club", slug=DEMO_SLUG, owner=admin,
                       time_zone="America/Chicago", ruleset_preset="pagat_double_deck")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    players: list[Player] = [player_create(club=club, name=name) for name in NAMES]
    rng = random.Random(2026)
    today = datetime.date.today()

    finished = events.event_create(
        club=club, name=f"{today - datetime.timedelta(days=7):%A} club night",
        date=today - datetime.timedelta(days=7),
        actor=director, rounds_planned=3, deals_per_round=4, seed=7,
    )
    events.entries_create_many(event=finished, players=players, actor=director)
    ruleset = event_ruleset(finished)

    def full_round(event: Event) -> None:
        """Seat, play every table to the end, confirm, close."""
        round_ = draw.round_create(event=event, actor=director)
        draw.round_set_status(round_=round_, status="playing", actor=director)
        for table in round_.tables.all():
            play_table(table.game, rng, ruleset, 4)
            game_confirm(game=Game.objects.get(table=table), position="E")
        draw.round_set_status(round_=round_, status="closed", actor=director)

    for _ in range(3):
        full_round(finished)
    draw.event_status_set(event=finished, status="finished", actor=director)

    # Earlier nights of the season, with whoever came: the leaderboard, the players' profiles
    # and their ratings have a few weeks to show.
    nights = [finished]
    for weeks in (5, 4, 3, 2):
        night = events.event_create(
            club=club, name=f"{today - datetime.timedelta(weeks=weeks):%A} club night",
            date=today - datetime.timedelta(weeks=weeks),
            actor=director, rounds_planned=2, deals_per_round=4, seed=weeks,
        )
        came = rng.sample(players, 12 + 2 * (weeks % 3))
        events.entries_create_many(event=night, players=came, actor=director)
        for _ in range(2):
            full_round(night)
        draw.event_status_set(event=night, status="finished", actor=director)
        nights.append(night)
    # The same nights as a tour: points by place, a player's best 3 count, prizes and a pot.
    series_create(club=club, name="Spring tour", events=[n.pk for n in nights],
                  points=[25, 18, 15, 12, 10, 8, 6, 4, 2, 1], best_of=3, min_events=2,
                  prizes={"currency": "$", "payouts": [{"place": 1, "amount": "60"},
                                                       {"place": 2, "amount": "30"}],
                          "side": [{"kind": "high_game", "label": "High game of the tour",
                                    "amount": "20"}]}, actor=director)
    season_create(club=club, name=f"Season {today.year}", starts_on=today - datetime.timedelta(
        weeks=8), ends_on=today + datetime.timedelta(weeks=8), counting=Season.Counting.BEST_N,
        best_n=4, min_nights=2, actor=director)

    running = events.event_create(
        club=club, name="Tonight's club night", date=today, actor=director,
        rounds_planned=4, deals_per_round=4, seed=11,
    )
    events.entries_create_many(event=running, players=players[:22], actor=director)
    full_round(running)
    events.entry_check_in(event=running, player=players[22], actor=director)  # a late arrival
    round2 = draw.round_create(event=running, actor=director)
    draw.round_set_status(round_=round2, status="playing", actor=director)
    for index, table in enumerate(round2.tables.order_by("number")):
        if index % 2 == 0:
            play_table(table.game, rng, ruleset, 4)  # finished tables
        else:
            play_table(table.game, rng, ruleset, 2)  # still playing
    bracket = events.event_create(
        club=club, name="Saturday partners' bracket", date=today, actor=director,
        format="double_elimination", format_settings={"consolation": [1]},
        deals_per_round=4, seed=5,
    )
    for n in range(8):
        events.pair_register(event=bracket, players=players[2 * n:2 * n + 2], seed=n + 1,
                             actor=director)
    full_round(bracket)  # the first wave of matches; the second is being played
    wave = draw.round_create(event=bracket, actor=director)
    for index, table in enumerate(wave.tables.order_by("number")):
        play_table(table.game, rng, ruleset, 4 if index % 2 == 0 else 2)
    if stdout is not None:
        stdout.write(f"Demo club {club.name}: {len(players)} players, 6 nights of a season (5 of "
                     "them a tour) and a partners' bracket.\n")
    return True

"""Events played through the real services for the profile tests, and a ledger of what was
entered, so the tests can recompute every figure without reading the profile's code.

Each game is a table of four players entering hands with ``scoring.services.hand_submit``
(corrections with ``hand_correct``, deletions with ``hand_delete_last``) until its deal count is
played; the ledger keeps the live values of every hand (a corrected hand its last values, a
deleted hand nothing) and the rules engine's score for them.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass, field
from typing import Any

from clubs.models import Club, Player
from common.errors import DomainError
from rules_engine import get_ruleset, parse_hand, score_hand
from scoring.models import Game, Hand
from scoring.services import game_confirm, hand_correct, hand_delete_last, hand_submit
from standings.services import standings_rebuild
from tournaments.models import Entry, Event, Pair, Round, Seat, Table

BIDS = [50, 51, 52, 53, 55, 57, 59, 60, 65, 70]
OUTCOMES = ["played"] * 10 + ["no_marriage", "surrender", "renege", "misdeal"]


@dataclass
class LedgerHand:
    game_id: int
    values: dict[str, Any]
    result: str
    made: bool | None
    points: dict[str, int]


@dataclass
class LedgerGame:
    event_id: int
    game_id: int
    seats: dict[str, int]  # position -> player id
    hands: list[LedgerHand] = field(default_factory=list)
    deals: int = 4

    @property
    def finished(self) -> bool:
        return sum(1 for h in self.hands if h.values["outcome"] != "misdeal") >= self.deals

    def totals(self) -> dict[str, int]:
        out = {"NS": 0, "EW": 0}
        for hand in self.hands:
            for side in out:
                out[side] += hand.points.get(side, 0)
        return out

    @property
    def winner(self) -> str:
        if not self.finished:
            return ""
        totals = self.totals()
        return "" if totals["NS"] == totals["EW"] else max(totals, key=lambda s: totals[s])


@dataclass
class Ledger:
    games: dict[int, LedgerGame] = field(default_factory=dict)
    events: dict[int, Event] = field(default_factory=dict)


SINGLE_DECK = "single_deck_partnership"


def random_values(rng: random.Random, dealer: str, *, bidder: str | None = None,
                  outcome: str | None = None, preset: str = "pagat_double_deck"
                  ) -> dict[str, Any]:
    """A random hand of the preset (pagat's scale, or the single deck's ten times larger)."""
    outcome = outcome or rng.choice(OUTCOMES)
    if outcome == "misdeal":
        return {"dealer": dealer, "outcome": "misdeal"}
    single = preset == SINGLE_DECK
    values: dict[str, Any] = {
        "dealer": dealer, "bidder": bidder or rng.choice("NESW"),
        "bid": rng.choice(range(150, 260, 10)) if single else rng.choice(BIDS),
        "trump": rng.choice("SHDC"), "outcome": outcome,
        "meld": {side: 20 * rng.randint(2, 6) if single else 2 * rng.randint(10, 20)
                 for side in ("NS", "EW")},
    }
    if outcome in ("played", "renege"):
        total = 250 if single else 50
        ns = rng.randint(total // 10, total - total // 10)
        ns -= ns % 10 if single else 0  # single-deck counters come in tens
        values["counters"] = {"NS": ns, "EW": total - ns}
    if outcome == "renege":
        values["renege_seat"] = rng.choice("NESW")
    return values


def scored(values: dict[str, Any], preset: str = "pagat_double_deck") -> tuple[str, bool | None,
                                                                               dict[str, int]]:
    ruleset = get_ruleset(preset)
    score = score_hand(parse_hand(values, ruleset), ruleset)
    return str(score.result), score.made, {k: int(v) for k, v in score.points.items()}


NEXT = {"N": "E", "E": "S", "S": "W", "W": "N"}


def _dealer_after(game: LedgerGame) -> str:
    if not game.hands:
        return "N"
    last = game.hands[-1].values
    return last["dealer"] if last["outcome"] == "misdeal" else NEXT[last["dealer"]]


def enter(ledger: Ledger, game: Game, rng: random.Random, **fixed: Any) -> Any:
    """Enter the game's next hand (random legal values, ``fixed`` ones imposed)."""
    record = ledger.games[game.pk]
    preset = ledger.events[record.event_id].ruleset_preset
    dealer = _dealer_after(record)
    for _ in range(50):
        values = random_values(rng, dealer, bidder=fixed.get("bidder"),
                               outcome=fixed.get("outcome"), preset=preset)
        values.update({k: v for k, v in fixed.items() if k not in ("bidder", "outcome")})
        try:
            revision = hand_submit(game=game, number=len(record.hands) + 1, values=values)
        except DomainError:
            continue  # the rules engine refused these values: draw others
        result, made, points = scored(values, preset)
        record.hands.append(LedgerHand(game.pk, values, result, made, points))
        return revision
    raise AssertionError("no legal hand found")


def correct(ledger: Ledger, game: Game, number: int, values: dict[str, Any]) -> None:
    """Correct hand ``number`` of the game (a new live revision) with ``values``."""
    hand = Hand.objects.get(game=game, number=number, deleted_at__isnull=True)
    live = hand.revisions.get(is_live=True)
    hand_correct(hand=hand, values=values, expected_revision=live.revision, note="typo",
                 as_director=True)
    result, made, points = scored(values)
    ledger.games[game.pk].hands[number - 1] = LedgerHand(game.pk, values, result, made, points)


def delete_last(ledger: Ledger, game: Game) -> None:
    record = ledger.games[game.pk]
    hand = Hand.objects.get(game=game, number=len(record.hands), deleted_at__isnull=True)
    live = hand.revisions.get(is_live=True)
    hand_delete_last(game=game, number=hand.number, expected_revision=live.revision,
                     note="entered twice", as_director=True)
    record.hands.pop()


def new_event(club: Club, name: str, date: datetime.date, *, pairs: bool = False,
              deals: int = 4, preset: str = "pagat_double_deck") -> Event:
    return Event.objects.create(
        club=club, name=name, date=date, status=Event.Status.RUNNING, deals_per_round=deals,
        format=Event.Format.SWISS if pairs else Event.Format.CLUB_NIGHT,
        partnership=Event.Partnership.FIXED if pairs else Event.Partnership.ROTATING,
        ruleset_preset=preset, tie_breaks=[] if pairs else ["points", "wins"],
    )


def entries_for(event: Event, players: list[Player],
                pairs: list[tuple[int, int]] | None = None) -> dict[int, Entry]:
    """An entry per player (in a pair event, each pair of indexes in ``pairs`` is a pair)."""
    entries: dict[int, Entry] = {}
    if pairs:
        for a, b in pairs:
            pair = Pair.objects.create(event=event)
            for index in (a, b):
                entries[players[index].pk] = Entry.objects.create(
                    event=event, player=players[index], pair=pair)
    else:
        for player in players:
            entries[player.pk] = Entry.objects.create(event=event, player=player)
    return entries


def seat_round(ledger: Ledger, event: Event, number: int, entries: dict[int, Entry],
               tables: list[list[Player]]) -> list[Game]:
    """Round ``number`` with one table per list of four players (N, E, S, W)."""
    round_ = Round.objects.create(event=event, number=number, status=Round.Status.SEATED)
    games = []
    for table_number, seated in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=table_number)
        game = Game.objects.create(table=table)
        for position, player in zip("NESW", seated, strict=True):
            Seat.objects.create(table=table, round=round_, position=position,
                                entry=entries[player.pk])
        ledger.games[game.pk] = LedgerGame(
            event.pk, game.pk, {p: pl.pk for p, pl in zip("NESW", seated, strict=True)},
            deals=event.deals_per_round or 4)
        ledger.events[event.pk] = event
        games.append(game)
    return games


def play_out(ledger: Ledger, game: Game, rng: random.Random) -> None:
    """Enter random hands until the game's deals are played."""
    while not ledger.games[game.pk].finished:
        enter(ledger, game, rng)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def rebuild(event: Event) -> None:
    standings_rebuild(event_id=event.pk)


def season(ledger: Ledger, club: Club, subject: Player, others: list[Player], *, events: int,
           rng: random.Random, first: datetime.date = datetime.date(2026, 1, 8),
           rounds: int = 2, deals: int = 4, confirm: bool = True) -> list[Event]:
    """``events`` weekly club nights of ``club``: each ``rounds`` rounds at one table, the
    subject and three of ``others`` (rotating), every game played out (and confirmed, which
    rates it when on-commit tasks run), the standings built."""
    played = []
    for number in range(events):
        event = new_event(club, f"Night {number + 1}", first + datetime.timedelta(weeks=number),
                          deals=deals)
        entries = entries_for(event, [subject, *others])
        for round_number in range(1, rounds + 1):
            three = rng.sample(others, 3)
            seated = [subject, *three]
            rng.shuffle(seated)
            (game,) = seat_round(ledger, event, round_number, entries, [seated])
            play_out(ledger, game, rng)
            if confirm:
                game_confirm(game=game, position="E")
            Round.objects.filter(pk=game.table.round_id).update(status=Round.Status.CLOSED)
        rebuild(event)
        played.append(event)
    return played

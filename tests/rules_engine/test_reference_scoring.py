"""The engine against an independent reference (reference/scoring.py, written from the rule
texts) on random deals of every preset: a shuffled deck dealt out, meld counted from the cards,
tricks and counters from the cards, every outcome; the two must agree on points, made, the
verdict and, under check pinochle, the checks."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import (
    PRESET_NAMES,
    count_meld,
    get_ruleset,
    parse_hand,
    score_game,
    score_hand,
)
from rules_engine.bids import check_bid
from rules_engine.cards import ACE, JACK, KING, NINE, QUEEN, TEN, card_str

from .reference.game import decide
from .reference.scoring import score as reference_score

# the option overrides tried beside each preset's own values: the policies the texts name
VARIANTS: list[dict[str, Any]] = [
    {},
    {"set_policy": "opponents_gain_bid"},
    {"set_policy": "double_bid", "set_keeps_meld": False},
    {"set_keeps_meld": True},
    {"all_tricks": "bonus"},
    {"all_tricks": "wins_game"},
    {"surrender_policy": "nothing", "board_set_opponents": "meld"},
]

# The presets the reference is written for: three and four at a table. The presets for tables
# of two, five, six and eight have their own cases from the texts (test_big_tables.py).
REFERENCED = tuple(name for name in PRESET_NAMES
                   if get_ruleset(name).table_sizes[0] in (3, 4))


def check_melds_of(counts: list[int], trump: int) -> list[str]:
    """What a player holding these cards may claim checks for."""
    names: list[str] = []
    t = trump * 6
    runs = min(counts[t + r] for r in (ACE, TEN, KING, QUEEN, JACK))
    if runs:
        names.append("double_run" if runs >= 2 else "run")
    for rank, word in ((ACE, "aces"), (KING, "kings"), (QUEEN, "queens"), (JACK, "jacks")):
        around = min(counts[s * 6 + rank] for s in range(4))
        if around >= 2:
            names.append(f"double_{word}")
        elif around == 1 and word == "aces":
            names.append("aces")
    if all(counts[s * 6 + KING] and counts[s * 6 + QUEEN] for s in range(4)):
        names.append("roundtable")
    for s in range(4):
        if counts[s * 6 + KING] >= 2 and counts[s * 6 + QUEEN] >= 2:
            names.append("double_marriage")
    if counts[0 * 6 + QUEEN] >= 2 and counts[2 * 6 + JACK] >= 2:
        names.append("double_pinochle")
    if sum(counts[s * 6 + NINE] for s in range(4)) >= 7:
        names.append("seven_nines")
    return names


def deal(
    rng: random.Random, name: str, over: dict[str, Any], at: list[str] | None | bool = True
) -> tuple[Any, dict[str, Any], Any]:
    """A random hand as a scorer would enter it, dealt and played from a shuffled deck; ``at``
    the table's seats (True: a table of four now and then where the dealer may sit out)."""
    rs = get_ruleset(name, over)
    seats = None if at is True or at is False else at
    if at is True and rs.sit_out == "dealer" and rng.random() < 0.3:
        seats = list(rs.seats_for(rs.players + 1))
    table = seats or list(rs.seats)
    dealer = rng.choice(table)
    view = rs.for_hand(seats, dealer) if seats else rs
    playing = list(view.seats)
    cards = rs.deck.cards()
    rng.shuffle(cards)
    size = rs.hand_size
    held = {s: cards[i * size : (i + 1) * size] for i, s in enumerate(playing)}
    widow = cards[len(playing) * size : len(playing) * size + rs.widow]
    bidder = rng.choice(playing)
    trump = rng.randrange(4)
    melding = {s: held[s] + (widow if s == bidder else []) for s in playing}
    meld = dict.fromkeys(view.sides, 0)
    for s in playing:
        meld[view.side_of(s)] += count_meld(melding[s], trump, rs).total
    # the declarer discards as many cards as the widow held; they count for the declarer
    pool = list(melding[bidder])
    rng.shuffle(pool)
    discards, held[bidder] = pool[: rs.widow], pool[rs.widow :]
    value = rs.counter_values
    in_play = [c for s in playing for c in held[s]]
    rng.shuffle(in_play)
    tricks = dict.fromkeys(view.sides, 0)
    counters = dict.fromkeys(view.sides, 0)
    sweep = rng.choice(playing) if rng.random() < 0.15 else None
    d_side = view.side_of(bidder)
    counters[d_side] += sum(value[c % 6] for c in discards)
    for i in range(size):
        trick = in_play[i * len(playing) : (i + 1) * len(playing)]
        winner = view.side_of(sweep or rng.choice(playing))
        tricks[winner] += 1
        counters[winner] += sum(value[c % 6] for c in trick) + (rs.last_trick if i == size - 1 else 0)
    total = rs.counters_total
    target = meld[d_side] + rng.randint(0, total) + rng.choice([0, 0, 0, total])
    bid = view.next_bids(max(target, rs.min_bid) - 1, 1)[0]
    if check_bid(bid, rs) is not None:
        bid = rs.min_bid
    outcomes = ["played"] * 6 + ["surrender", "renege", "renege", "misdeal"]
    if rs.trump_marriage_required:
        outcomes.append("no_marriage")
    if rs.misdeal_rule != "none":
        outcomes.append("technical_misdeal")
    outcome = rng.choice(outcomes)
    data: dict[str, Any] = {"dealer": dealer, "outcome": outcome}
    if outcome == "misdeal":
        return rs, data, seats
    if outcome == "technical_misdeal":
        data["misdeal_seat"] = rng.choice(playing)
        return rs, data, seats
    data.update(bidder=bidder, bid=bid, trump="SHDC"[trump], meld=meld)
    if outcome in ("played", "renege"):
        data["counters"] = counters
    if outcome == "played" and (rs.meld_needs_trick or rs.all_tricks != "nothing"):
        data["tricks"] = tricks
    if outcome == "renege":
        data["renege_seat"] = rng.choice(playing)
    if outcome == "surrender" and rs.widow and bid == rs.min_bid and rng.random() < 0.5:
        data["widow_seen"] = False
    if rs.checks:
        claims: dict[str, list[str]] = {}
        for s in playing:
            counts = [0] * 24
            for c in melding[s]:
                counts[c] += 1
            names = check_melds_of(counts, trump)
            claims[s] = [n for n in names if rs.check_values.get(_option(n), 0)]
        data["check_melds"] = claims
    return rs, data, seats


def _option(name: str) -> str:
    return "double_around" if name[7:] in ("aces", "kings", "queens", "jacks") else name


def compare(rs: Any, data: dict[str, Any], seats: Any) -> None:
    hand = parse_hand(data, rs, seats)
    got = score_hand(hand, rs)
    points, made, result, checks = reference_score(
        hand.to_dict(), rs.options, rs.players, seats
    )
    engine = ({str(k): v for k, v in got.points.items()}, got.made, str(got.result))
    assert engine == (points, made, result), (data, got.reason)
    assert {str(k): v for k, v in got.checks.items()} == checks, (data, got.reason)


@settings(max_examples=400, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(REFERENCED),
    st.sampled_from(VARIANTS),
)
def test_the_engine_scores_as_the_texts_say(
    rng: random.Random, name: str, over: dict[str, Any]
) -> None:
    if over.get("set_keeps_meld") and get_ruleset(name).set_policy == "subtract_bid_and_meld":
        over = {}
    rs, data, seats = deal(rng, name, over)
    compare(rs, data, seats)


def test_the_generator_reaches_every_outcome_and_verdict() -> None:
    """The random deals are worth comparing: every preset, outcome and verdict comes up."""
    rng = random.Random(7)
    seen: set[tuple[str, str]] = set()
    verdicts: set[str] = set()
    for _ in range(600):
        name = rng.choice(REFERENCED)
        rs, data, seats = deal(rng, name, {})
        seen.add((name, data["outcome"]))
        verdicts.add(str(score_hand(parse_hand(data, rs, seats), rs).result))
    for name in REFERENCED:
        assert {o for n, o in seen if n == name} >= {"played", "surrender", "renege", "misdeal"}
    assert verdicts >= {"made", "set", "surrendered", "renege", "misdeal", "board_set"}


def test_a_real_check_pinochle_deal_never_fails_its_own_check_melds() -> None:
    rng = random.Random(11)
    claimed = 0
    for _ in range(300):
        rs, data, seats = deal(rng, "check_pinochle", {})
        parse_hand(data, rs, seats)  # the claims come from the cards: never meld_too_low
        claimed += sum(len(v) for v in data.get("check_melds", {}).values())
    assert claimed > 50
    assert card_str(0) == "AS"


# games short enough to end: low targets, and the game-end options the texts name
GAME_VARIANTS: list[dict[str, Any]] = [
    {},
    {"tie_rule": "highest_score"},
    {"tie_rule": "overtime"},
    {"target_exceed": True},
    {"all_tricks": "wins_game"},
    {"max_deals": 4},
]


@settings(max_examples=200, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(REFERENCED),
    st.sampled_from(GAME_VARIANTS),
    st.booleans(),
)
def test_games_end_as_the_texts_say(
    rng: random.Random, name: str, over: dict[str, Any], four: bool
) -> None:
    base = get_ruleset(name)
    target = base.min_bid * 2
    over = {**over, "game_target": target, "overtime_step": base.min_bid}
    if base.out_rule == "bid_out":
        over = {**over, "slide_out": rng.random() < 0.5}
    rs = get_ruleset(name, over)
    seats = list(rs.seats_for(rs.players + 1)) if four and rs.sit_out == "dealer" else None
    hands = []
    for _ in range(12):
        _, data, _ = deal(rng, name, over, seats)
        if rs.quadruple_run_wins and data.get("bid") and rng.random() < 0.05:
            data["quadruple_run"] = data["bidder"]
        hands.append(parse_hand(data, rs, seats))
    sides = [str(s) for s in rs.sides_for(len(seats or rs.seats))]
    facts = []
    for h in hands:
        points, made, result, _ = reference_score(h.to_dict(), rs.options, rs.players, seats)
        declaring = None if h.bidder is None else str(rs.side_of(h.bidder))
        tricks = h.tricks or {}
        sweep = next((str(s) for s, n in tricks.items() if n == rs.hand_size), None)
        facts.append(
            {
                "points": points,
                "declaring": declaring,
                "made": made,
                "misdeal": result == "misdeal",
                "sweep": sweep if result in ("made", "set") else None,
                "quadruple": None if h.quadruple_run is None else str(h.quadruple_run),
                "sitting_out": h.dealer if seats else None,
            }
        )
    winner, reason, after = decide(facts, rs.options, sides)
    if after is not None:
        hands = hands[:after]
    got = score_game(hands, rs, seats=seats)
    assert (got.winner, got.reason, got.finished_after) == (winner, reason, after), facts

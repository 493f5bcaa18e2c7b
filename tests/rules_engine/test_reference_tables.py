"""The engine against the independent reference (reference/meld.py, reference/scoring.py,
reference/game.py, written from the rule texts) on random deals of the games for tables of two,
five, six and eight and of check pinochle: a shuffled pack dealt out, each player's meld counted
by the reference from the cards, tricks and counters from the cards, every outcome. Engine and
reference must agree on the meld, the points, made, the verdict, the game's end and, under check
pinochle, the checks and their settlement; in-process and through the command line
(``python -m rules_engine``), a few hundred deals per preset, each from a fixed seed."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules_engine import count_meld, get_ruleset, parse_hand, score_game, score_hand
from rules_engine.bids import check_bid
from rules_engine.cards import NINE, card_str

from .conftest import run_cli
from .reference.game import check_tally, decide
from .reference.meld import meld as reference_meld
from .reference.scoring import score_table
from .test_reference_scoring import deal as deal_three

TABLE_PRESETS = (
    "two_handed",
    "five_handed",
    "six_handed_triple_deck",
    "racehorse",
    "eight_handed_double_deck",
)
# the options the texts name beside each preset's own choices
TABLE_VARIANTS: dict[str, list[dict[str, Any]]] = {
    "two_handed": [{}, {"meld.round_house": 10}, {"set_policy": "opponents_gain_bid"}],
    "five_handed": [{}, {"partner_scores": "nothing"}],
    "six_handed_triple_deck": [{}, {"set_keeps_meld": True}],
    "racehorse": [{}, {"min_counters_declarer": True}, {"pass_cards": 3}],
    "eight_handed_double_deck": [{}, {"meld.quadruple_pinochle": 1000}],
}
DEALS = 300


def pack(rs: Any) -> list[int]:
    """Every card dealt: the pack and any nines added to it (racehorse: one of each suit)."""
    return rs.deck.cards() + [s * 6 + NINE for s in range(4) for _ in range(rs.nines_added // 4)]


def deal(rng: random.Random, name: str, over: dict[str, Any]) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """A random hand as a scorer would enter it, and what the deal was (``facts``: each seat's
    cards as melded and the reference's meld for them)."""
    rs = get_ruleset(name, over)
    seats = list(rs.seats)
    cards = pack(rs)
    rng.shuffle(cards)
    size = rs.hand_size
    n = len(seats)
    held = {s: cards[i * size : (i + 1) * size] for i, s in enumerate(seats)}
    widow = cards[n * size : n * size + rs.widow]
    stock = cards[n * size + rs.widow :]
    dealer = rng.choice(seats)
    bidder = rng.choice(seats)
    trump = rng.randrange(4)
    suit = "SHDC"[trump]
    melding = {s: held[s] + (widow if s == bidder else []) for s in seats}
    meld_of: dict[str, int] = {}
    game_of: dict[str, bool] = {}
    for s in seats:
        meld_of[s], game_of[s] = reference_meld(
            [card_str(c) for c in melding[s]], suit, name, rs.options
        )
    partner = rng.choice(seats) if rs.called_partner else None
    view = rs.for_partner(bidder, partner) if partner is not None else rs

    def side(seat: str) -> str:
        return str(view.side_of(seat))

    value = rs.counter_values
    counters = dict.fromkeys(seats, 0)  # per seat, added up per side below
    # the declarer discards as many cards as the widow held; they count for the declarer
    pool = list(melding[bidder])
    rng.shuffle(pool)
    discards, held[bidder] = pool[: rs.widow], pool[rs.widow :]
    counters[bidder] += sum(value[c % 6] for c in discards)
    # two-handed: the 24 cards not in the hands are the players' discard piles, which count
    for i, c in enumerate(stock):
        counters[seats[i % n]] += value[c % 6]
    in_play = [c for s in seats for c in held[s]]
    rng.shuffle(in_play)
    tricks = dict.fromkeys(seats, 0)
    sweep = rng.choice(seats) if rng.random() < 0.1 else None
    for i in range(size):
        trick = in_play[i * n : (i + 1) * n]
        winner = sweep or rng.choice(seats)
        tricks[winner] += 1
        counters[winner] += sum(value[c % 6] for c in trick) + (rs.last_trick if i == size - 1 else 0)
    total = rs.counters_total
    team_meld = sum(meld_of[s] for s in seats if side(s) == side(bidder))
    target = team_meld + rng.randint(0, total) + rng.choice([0, 0, 0, total])
    bid = rs.next_bids(max(target, rs.min_bid) - 1, 1)[0]
    if check_bid(bid, rs) is not None:
        bid = rs.min_bid
    outcomes = ["played"] * 6 + ["surrender", "renege", "renege", "misdeal"]
    if rs.trump_marriage_required:
        outcomes.append("no_marriage")
    if rs.misdeal_rule != "none":
        outcomes.append("technical_misdeal")
    outcome = rng.choice(outcomes)
    facts = {"melding": melding, "meld": meld_of, "trump": suit, "game": game_of}
    data: dict[str, Any] = {"dealer": dealer, "outcome": outcome}
    if outcome == "misdeal":
        return rs, data, facts
    if outcome == "technical_misdeal":
        data["misdeal_seat"] = rng.choice(seats)
        return rs, data, facts

    def entered(values: dict[str, int]) -> dict[str, int]:
        """Per seat (five-handed, and now and then a team's seats), else per side."""
        if rs.individual or rs.called_partner or rng.random() < 0.3:
            return dict(values)
        out: dict[str, int] = {}
        for s, v in values.items():
            out[side(s)] = out.get(side(s), 0) + v
        return out

    data.update(bidder=bidder, bid=bid, trump=suit, meld=entered(meld_of))
    if partner is not None:
        data["partner"] = partner
    if outcome in ("played", "renege"):
        by_side: dict[str, int] = {}
        for s, v in counters.items():
            key = s if rs.called_partner else side(s)
            by_side[key] = by_side.get(key, 0) + v
        data["counters"] = by_side
    if outcome == "renege":
        data["renege_seat"] = rng.choice(seats)
    winners = [s for s in seats if game_of[s]]
    if winners and rs.quadruple_run_wins:
        data["quadruple_run"] = winners[0]
    return rs, data, facts


def reference_of(rs: Any, data: dict[str, Any]) -> tuple[dict[str, int], bool | None, str]:
    hand = parse_hand(data, rs)
    points, made, result, _ = score_table(hand.to_dict(), rs.options, list(rs.seats))
    return points, made, result


def engine_of(rs: Any, data: dict[str, Any]) -> tuple[dict[str, int], bool | None, str]:
    got = score_hand(parse_hand(data, rs), rs)
    return {str(k): v for k, v in got.points.items()}, got.made, str(got.result)


def hands_for(name: str, seed: int, count: int) -> list[tuple[Any, dict[str, Any], dict[str, Any]]]:
    rng = random.Random(seed)
    variants = TABLE_VARIANTS[name]
    return [deal(rng, name, variants[i % len(variants)]) for i in range(count)]


@pytest.mark.parametrize("name", TABLE_PRESETS)
def test_each_players_meld_is_the_texts(name: str) -> None:
    """count_meld on every dealt hand (the declarer's with the widow) equals the reference."""
    games = 0
    for rs, _, facts in hands_for(name, 101, DEALS):
        for seat, cards in facts["melding"].items():
            got = count_meld(cards, facts["trump"], rs)
            assert got.wins_game == facts["game"][seat], (seat, [card_str(c) for c in cards])
            games += got.wins_game
            if not got.wins_game:
                assert got.total == facts["meld"][seat], (seat, [card_str(c) for c in cards])
    assert games < DEALS  # "the game" is a rare hand, not the rule


@pytest.mark.parametrize("name", TABLE_PRESETS)
def test_hands_score_as_the_texts_say(name: str) -> None:
    outcomes: set[str] = set()
    verdicts: set[str] = set()
    for rs, data, _ in hands_for(name, 202, DEALS):
        engine = engine_of(rs, data)
        assert engine == reference_of(rs, data), data
        outcomes.add(data["outcome"])
        verdicts.add(engine[2])
    # the random deals are worth comparing: every outcome and verdict comes up
    assert outcomes >= {"played", "surrender", "renege", "misdeal"}
    assert verdicts >= {"made", "set", "surrendered", "renege", "misdeal"}


@pytest.mark.parametrize("name", TABLE_PRESETS)
def test_the_command_line_scores_as_the_texts_say(name: str) -> None:
    """The same deals through ``python -m rules_engine game`` (one process per preset and
    variant: a target out of reach, so every hand is scored)."""
    batches: dict[str, list[dict[str, Any]]] = {}
    options: dict[str, dict[str, Any]] = {}
    expected: dict[str, list[tuple[dict[str, int], bool | None, str]]] = {}
    for rs, data, _ in hands_for(name, 303, DEALS):
        if "quadruple_run" in data:
            continue  # it ends the game: scored in process above
        key = json.dumps(rs.overrides, sort_keys=True)
        options[key] = rs.overrides
        batches.setdefault(key, []).append(data)
        expected.setdefault(key, []).append(reference_of(rs, data))
    for key, hands in batches.items():
        args = [f"{k}={json.dumps(v)}" for k, v in options[key].items()]
        flags = [x for a in [*args, "game_target=1000000"] for x in ("-o", a)]
        code, out = run_cli("game", "--ruleset", name, *flags, stdin=json.dumps(hands))
        assert code == 0, out
        assert out["finished"] is False
        got = [(h["points"], h["made"], h["result"]) for h in out["hands"]]
        assert got == expected[key]


@pytest.mark.parametrize("name", TABLE_PRESETS)
def test_the_command_line_counts_meld_as_the_texts_say(name: str) -> None:
    for rs, _, facts in hands_for(name, 404, 6):
        seat = rs.seats[0]
        cards = [card_str(c) for c in facts["melding"][seat]]
        code, out = run_cli("meld", "--ruleset", name, "--trump", facts["trump"], *cards)
        assert code == 0, out
        assert bool(out.get("wins_game")) == facts["game"][seat]
        if not facts["game"][seat]:
            assert out["total"] == facts["meld"][seat]


@pytest.mark.parametrize("name", TABLE_PRESETS)
def test_games_end_as_the_texts_say(name: str) -> None:
    """Short games (a low target, or a fixed number of deals) end where the reference says."""
    rng = random.Random(505)
    for round_ in range(40):
        base = get_ruleset(name)
        over: dict[str, Any] = {"game_target": base.min_bid * 2}
        if round_ % 3 == 1:
            over["tie_rule"] = "highest_score"
        if round_ % 3 == 2:
            over = {"game_target": None, "max_deals": 4}
        rs = get_ruleset(name, over)
        hands = [parse_hand(deal(rng, name, over)[1], rs) for _ in range(10)]
        facts = []
        for h in hands:
            points, made, result, _ = score_table(h.to_dict(), rs.options, list(rs.seats))
            declaring = None
            if h.bidder is not None:
                declaring = str(h.bidder) if rs.called_partner else str(rs.side_of(h.bidder))
            facts.append(
                {
                    "points": points,
                    "declaring": declaring,
                    "made": made,
                    "misdeal": result == "misdeal",
                    "sweep": None,
                    "quadruple": None if h.quadruple_run is None else str(h.quadruple_run),
                    "sitting_out": None,
                }
            )
        winner, reason, after = decide(facts, rs.options, [str(s) for s in rs.sides])
        if after is not None:
            hands = hands[:after]
        got = score_game(hands, rs)
        assert (got.winner, got.reason, got.finished_after) == (winner, reason, after), facts


def test_check_pinochle_games_tally_and_settle_checks_as_the_text_says() -> None:
    """Check pinochle: each hand's checks (test_reference_scoring compares them), the game's
    checks to the winner and the settlement, in process and through the command line."""
    rng = random.Random(606)
    decided = 0
    for round_ in range(60):
        over = {"game_target": 600 if round_ % 2 else 1000, "tie_rule": "highest_score"}
        four = round_ % 3 == 0
        rs0 = get_ruleset("check_pinochle", over)
        seats = list(rs0.seats_for(4)) if four else None
        hands = []
        for _ in range(12):
            rs, data, _ = deal_three(rng, "check_pinochle", over, seats)
            hands.append((data, parse_hand(data, rs, seats)))
        for k in range(1, len(hands) + 1):
            used = hands[:k]
            got = score_game([h for _, h in used], rs0, seats=seats)
            if got.finished_after is not None:
                break
        sides = [str(s) for s in rs0.sides_for(len(seats or rs0.seats))]
        per_hand = [{str(k): v for k, v in s.checks.items()} for s in got.scores]
        totals, game, money = check_tally(per_hand, got.winner, rs0.options, sides)
        assert (got.check_totals, got.game_checks, got.check_settlement) == (totals, game, money)
        assert sum(money.values()) == 0
        decided += got.winner is not None
        if round_ % 10 == 0:
            flags = ["-o", f"game_target={over['game_target']}", "-o", "tie_rule=highest_score"]
            if seats:
                flags += ["--seats", ",".join(seats)]
            code, out = run_cli(
                "game", "--ruleset", "check_pinochle", *flags,
                stdin=json.dumps([d for d, _ in used]),
            )  # fmt: skip
            assert code == 0, out
            assert (out["check_totals"], out["game_checks"], out["check_settlement"]) == (
                totals, game, money,
            )  # fmt: skip
    assert decided > 10

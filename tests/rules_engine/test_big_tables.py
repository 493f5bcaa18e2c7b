"""Tables of two, five, six and eight: seat names, teams, labels and the presets that use them."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import (
    ALL_SEATS,
    TABLE_SIZES,
    RulesError,
    browser_rules,
    check_play,
    count_meld,
    fields_for,
    get_ruleset,
    legal_cards,
    max_bid,
    max_side_meld,
    parse_hand,
    score_game,
    score_hand,
    seat_label,
    side_label,
    trick_winner,
    validate_auction,
)
from rules_engine.cards import NINE, Deck, card_str, check_pack, pack_copies
from rules_engine.meld import achievable_hand_totals
from rules_engine.rulesets import OPTION_HELP
from rules_engine.seats import Seat, Side, table_seats, table_sides, table_teams

from .conftest import run_cli


def test_every_seat_name_fits_the_database_column() -> None:
    assert ALL_SEATS == ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    assert all(1 <= len(x) <= 2 for x in ALL_SEATS)
    for n in TABLE_SIZES:
        assert set(table_seats(n)) <= set(ALL_SEATS)
        assert len(set(table_seats(n))) == n


@pytest.mark.parametrize(
    ("n", "seats"),
    [
        (2, ("N", "S")),
        (3, ("N", "E", "S")),
        (4, ("N", "E", "S", "W")),
        (5, ("N", "E", "SE", "SW", "W")),
        (6, ("N", "NE", "SE", "S", "SW", "NW")),
        (8, ("N", "NE", "E", "SE", "S", "SW", "W", "NW")),
    ],
)
def test_seats_per_table_size_clockwise(n: int, seats: tuple[str, ...]) -> None:
    assert table_seats(n) == seats
    # clockwise: the order agrees with the compass order of ALL_SEATS
    assert [ALL_SEATS.index(x) for x in seats] == sorted(ALL_SEATS.index(x) for x in seats)


def test_four_seats_stay_seat_members() -> None:
    assert all(isinstance(x, Seat) for x in table_seats(4))
    assert table_seats(6)[0] is Seat.N and not isinstance(table_seats(6)[1], Seat)


def test_sizes_outside_the_list_are_refused() -> None:
    for n in (0, 1, 7, 9, True):
        with pytest.raises(ValueError, match="tables seat"):
            table_seats(n)
    with pytest.raises(ValueError, match="teams of 4"):
        table_teams(6, 4)


def test_six_sit_in_two_teams_of_three_alternately() -> None:
    assert table_teams(6, 3) == (("N", "SE", "SW"), ("NE", "S", "NW"))
    assert table_sides(6, 3) == ("NSESW", "NESNW")
    seats = table_seats(6)
    team_of = {x: i for i, team in enumerate(table_teams(6, 3)) for x in team}
    for i, x in enumerate(seats):
        left, right = seats[(i + 1) % 6], seats[i - 1]
        assert team_of[left] != team_of[x] and team_of[right] != team_of[x]


def test_eight_sit_in_four_pairs_partners_opposite() -> None:
    assert table_teams(8, 2) == (("N", "S"), ("NE", "SW"), ("E", "W"), ("SE", "NW"))
    sides = table_sides(8, 2)
    assert sides == ("NS", "NESW", "EW", "SENW")
    assert sides[0] is Side.NS and sides[2] is Side.EW
    assert all(len(x) <= 6 for x in sides)


def test_four_keeps_its_partnerships() -> None:
    assert table_sides(4, 2) == (Side.NS, Side.EW)
    assert table_sides(5, 1) == table_seats(5)


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("NE", "North-East"),
        ("SW", "South-West"),
        ("NS", "North–South"),
        ("NESW", "North-East–South-West"),
        ("SENW", "South-East–North-West"),
        ("NSESW", "North, South-East and South-West"),
        ("NESNW", "North-East, South and North-West"),
    ],
)
def test_labels(name: str, words: str) -> None:
    label = seat_label(name) if name in ALL_SEATS else side_label(name)
    assert label == words


# --- the presets -----------------------------------------------------------------------------

TEAM_PRESETS = ["six_handed_triple_deck", "eight_handed_double_deck"]


@pytest.mark.parametrize(
    ("name", "players", "seats", "sides"),
    [
        ("two_handed", 2, ("N", "S"), ("N", "S")),
        ("six_handed_triple_deck", 6, ("N", "NE", "SE", "S", "SW", "NW"), ("NSESW", "NESNW")),
        (
            "eight_handed_double_deck",
            8,
            ("N", "NE", "E", "SE", "S", "SW", "W", "NW"),
            ("NS", "NESW", "EW", "SENW"),
        ),
    ],
)
def test_each_preset_answers_its_table(
    name: str, players: int, seats: tuple[str, ...], sides: tuple[str, ...]
) -> None:
    rs = get_ruleset(name)
    assert rs.table_sizes == (players,)
    assert rs.seats == seats == rs.seats_for(players)
    assert rs.sides == sides == rs.sides_for(players)
    for x in seats:
        assert x in rs.seats_of(rs.side_of(x))
        assert rs.next_dealer(x) == seats[(seats.index(x) + 1) % players]
        assert rs.next_dealer(x, seats) == rs.next_dealer(x)
    assert sorted(x for s in sides for x in rs.seats_of(s)) == sorted(seats)
    with pytest.raises(ValueError):
        rs.seats_for(4)
    d = rs.to_dict()
    assert d["seats"] == list(seats) and d["sides"] == list(sides)
    assert get_ruleset(d["name"], d["overrides"]) == rs
    json.dumps(d)


def test_six_handed_triple_deck_follows_the_text() -> None:
    rs = get_ruleset("six_handed_triple_deck")
    # 120 cards: three packs without nines; 20 each; minimum bid 75; last trick 3
    assert (rs.deck.size, rs.copies, rs.hand_size, rs.min_bid, rs.last_trick) == (
        120, 6, 20, 75, 3,
    )  # fmt: skip
    # 72 counters (aces, tens, kings) and the last trick
    assert rs.counters_total == 75
    assert (rs.individual, rs.side_size) == (False, 3)
    # twenty aces, five of each suit: double aces plus triple aces (100 + 150)
    assert count_meld(["AS", "AH", "AD", "AC"] * 5, "H", rs).total == 250
    # six of each (more than a hand holds, but the table is complete): two triples
    assert rs.around_t[0] == (0, 10, 100, 150, 200, 250, 300)
    # the double-deck values stand up to four
    assert count_meld(["AS", "AH", "AD", "AC"] * 4, "H", rs).total == 200
    assert rs.run_t == (0, 15, 150, 225, 300, 225 + 150, 225 + 225)
    four_runs = ["AH", "TH", "KH", "QH", "JH"] * 4
    assert count_meld(four_runs, "H", rs).total == 300
    assert rs.is_valid_bid(75) and not rs.is_valid_bid(70)


def test_six_handed_hand_scores_for_teams_of_three() -> None:
    rs = get_ruleset("six_handed_triple_deck")
    hand = {
        "dealer": "N", "bidder": "NE", "bid": 100, "trump": "H",
        # a team's meld given per seat: each seat is checked as one hand, then added
        "meld": {"N": 10, "SE": 4, "SW": 0, "NESNW": 60},
        "counters": {"NSESW": 30, "NESNW": 45},
    }  # fmt: skip
    h = parse_hand(hand, rs)
    assert h.meld == {"NSESW": 14, "NESNW": 60}
    s = score_hand(h, rs)
    assert s.points == {"NSESW": 44, "NESNW": 105} and s.made
    set_ = score_hand(parse_hand({**hand, "bid": 110}, rs), rs)
    assert set_.points == {"NSESW": 44, "NESNW": -110} and set_.result == "set"
    # a seat of the other team, or a seat that is not at this table, is refused by name
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "bidder": "E"}, rs)
    assert exc.value.errors[0].field == "bidder"
    assert exc.value.errors[0].code == "bad_seat"
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "counters": {"NSESW": 30, "NESNW": 40}}, rs)
    assert exc.value.errors[0].field == "counters" and exc.value.errors[0].code == "bad_sum"
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "meld": {"NSESW": 14, "NS": 60}}, rs)
    assert exc.value.errors[0].field == "meld.NS" and exc.value.errors[0].code == "bad_side"


def test_a_team_of_three_melds_less_than_its_three_best_hands() -> None:
    rs = get_ruleset("six_handed_triple_deck")
    one = achievable_hand_totals(rs).bit_length() - 1
    # three best hands need more copies than one pack holds: the exact limit is lower
    # (test_team_meld.py)
    assert max_side_meld(rs) == 858 < 3 * one
    assert max_bid(rs) == 858 + 75
    hand = {
        "dealer": "N", "bidder": "NE", "bid": 100, "trump": "H",
        "meld": {"NSESW": 859, "NESNW": 60}, "counters": {"NSESW": 30, "NESNW": 45},
    }  # fmt: skip
    with pytest.raises(RulesError) as exc:
        parse_hand(hand, rs)
    assert exc.value.errors[0].field == "meld.NSESW" and exc.value.errors[0].code == "too_high"
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "meld": {"N": one + 1, "SE": 0, "SW": 0, "NESNW": 60}}, rs)
    assert exc.value.errors[0].field == "meld.N" and exc.value.errors[0].code == "too_high"


def test_two_handed_follows_the_text() -> None:
    rs = get_ruleset("two_handed")
    # twelve cards each and a stock of 24; 240 counters in the cards and 10 for the last trick
    assert (rs.deck.size, rs.hand_size, rs.stock, rs.counters_total) == (48, 12, 24, 250)
    assert (rs.individual, rs.sides) == (True, ("N", "S"))
    hand = {
        "dealer": "N", "bidder": "S", "bid": 250, "trump": "H",
        "meld": {"N": 80, "S": 240}, "counters": {"N": 100, "S": 150},
    }  # fmt: skip
    s = score_hand(parse_hand(hand, rs), rs)
    assert s.points == {"N": 180, "S": 390} and s.made
    s = score_hand(parse_hand({**hand, "bid": 400}, rs), rs)
    assert s.points == {"N": 180, "S": -400} and s.result == "set"
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "counters": {"N": 100, "S": 140}}, rs)
    assert exc.value.errors[0].code == "bad_sum"
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "counters": {"N": 105, "S": 145}}, rs)
    assert exc.value.errors[0].code == "not_multiple"
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "meld": {"NS": 80}}, rs)
    assert exc.value.errors[0].field == "meld.NS"


ROUND_HOUSE = ["KS", "QS", "KH", "QH", "KD", "QD", "KC", "QC"]


def test_the_round_house_bonus_is_an_option() -> None:
    plain = get_ruleset("two_handed")
    bonus = get_ruleset("two_handed", {"meld.round_house": 10})
    # kings and queens of every suit, trump hearts: 3 marriages, a royal marriage, kings and
    # queens around: 240; the bonus makes it 250
    assert count_meld(ROUND_HOUSE, "H", plain).total == 240
    res = count_meld(ROUND_HOUSE, "H", bonus)
    assert res.total == 250 and res.melds[-1].name == "round_house"
    # a second king and queen of spades: a double marriage (40, not 20); one round house
    assert count_meld(ROUND_HOUSE + ROUND_HOUSE[:2], "H", bonus).total == 250 + 20
    # the bonus never makes a real total an error: every total without it still passes
    assert achievable_hand_totals(plain) & ~achievable_hand_totals(bonus) == 0
    hand = {
        "dealer": "N", "bidder": "S", "bid": 250, "trump": "H",
        "meld": {"N": 0, "S": 250}, "counters": {"N": 100, "S": 150},
    }  # fmt: skip
    assert score_hand(parse_hand(hand, bonus), bonus).points == {"N": 100, "S": 400}
    assert "meld.round_house" in OPTION_HELP
    with pytest.raises(RulesError) as exc:
        get_ruleset("two_handed", {"meld.round_house": -1})
    assert exc.value.errors[0].field == "options.meld.round_house"


def test_the_stock_must_leave_an_even_deal() -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("two_handed", {"stock": 23})
    assert exc.value.errors[0].field == "options.stock"
    assert exc.value.errors[0].code == "inconsistent"


def test_eight_handed_follows_the_text() -> None:
    rs = get_ruleset("eight_handed_double_deck")
    # two double decks: 160 cards, 20 each; four-handed rules at ten times the points
    assert (rs.deck.size, rs.copies, rs.hand_size, rs.game_target) == (160, 8, 20, 5000)
    assert (rs.min_bid, rs.last_trick, rs.counters_total) == (500, 20, 980)
    assert rs.is_valid_bid(510) and rs.is_valid_bid(650) and not rs.is_valid_bid(610)
    quad = ["QS", "JD"] * 4
    assert count_meld(quad, "H", rs).total == 900
    optional = get_ruleset("eight_handed_double_deck", {"meld.quadruple_pinochle": 1000})
    assert count_meld(quad, "H", optional).total == 1000
    # more than four of a meld: the quadruple and the rest
    assert count_meld(["AS", "AH", "AD", "AC"] * 5, "H", rs).total == 2000 + 100
    hand = {
        "dealer": "NW", "bidder": "NE", "bid": 500, "trump": "S",
        "meld": {"NS": 100, "NESW": 300, "EW": 0, "SENW": 40},
        "counters": {"NS": 200, "NESW": 300, "EW": 280, "SENW": 200},
    }  # fmt: skip
    s = score_hand(parse_hand(hand, rs), rs)
    assert s.points == {"NS": 300, "NESW": 600, "EW": 280, "SENW": 240}
    assert s.declaring_side == "NESW" and s.made


def test_an_eight_handed_game_goes_to_5000() -> None:
    rs = get_ruleset("eight_handed_double_deck")
    hand = {
        "dealer": "NW", "bidder": "NE", "bid": 500, "trump": "S",
        "meld": {"NS": 100, "NESW": 300, "EW": 0, "SENW": 40},
        "counters": {"NS": 200, "NESW": 300, "EW": 280, "SENW": 200},
    }  # fmt: skip
    hands = [parse_hand(hand, rs) for _ in range(9)]
    res = score_game(hands, rs)
    assert res.winner == "NESW" and res.finished_after == 9 and res.reason == "target"
    assert res.totals[-1]["NESW"] == 5400


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(TEAM_PRESETS))
def test_a_dealt_and_played_team_hand_validates_and_scores(
    rng: random.Random, name: str
) -> None:
    rs = get_ruleset(name)
    cards = rs.deck.cards()
    rng.shuffle(cards)
    size = rs.hand_size
    dealt = {seat: cards[i * size : (i + 1) * size] for i, seat in enumerate(rs.seats)}
    trump = rng.randrange(4)
    remaining = {s: list(h) for s, h in dealt.items()}
    tricks: list[list[str]] = []
    seat = leader = rng.choice(rs.seats)
    while remaining[seat]:
        order = [seat]
        while len(order) < rs.players:
            order.append(rs.next_dealer(order[-1]))
        played: list[int] = []
        for who in order:
            allowed, _ = legal_cards(remaining[who], played, trump, rs.head_rule)
            card = rng.choice(allowed)
            remaining[who].remove(card)
            played.append(card)
        tricks.append([card_str(c) for c in played])
        seat = order[trick_winner(played, trump)]
    hands = {s: [card_str(c) for c in h] for s, h in dealt.items()}
    play = check_play("SHDC"[trump], leader, hands, tricks, rs)
    assert play.legal and play.counters is not None
    assert sum(play.counters.values()) == rs.counters_total
    # meld per seat, as a scorer may enter it: each seat's hand counted from its cards
    meld = {s: count_meld(h, trump, rs).total for s, h in dealt.items()}
    bidder = rng.choice(rs.seats)
    data = {
        "dealer": rng.choice(rs.seats), "bidder": bidder,
        "bid": rng.choice(rs.next_bids(None, 12)), "trump": "SHDC"[trump],
        "meld": meld, "counters": play.counters,
    }  # fmt: skip
    hand = parse_hand(data, rs)
    for side in rs.sides:
        assert hand.meld[side] == sum(meld[x] for x in rs.seats_of(side))
    assert parse_hand(hand.to_dict(), rs) == hand
    score = score_hand(hand, rs)
    assert set(score.points) == set(rs.sides)
    assert score.declaring_side == rs.side_of(bidder)
    d = score.declaring_side
    if score.made:
        assert score.points[d] == hand.meld[d] + play.counters[d]
    else:
        assert hand.bid is not None and score.points[d] == -hand.bid
    for s in rs.sides:
        if s != d:
            assert score.points[s] == hand.meld[s] + play.counters[s]


@settings(max_examples=60, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(["two_handed", "racehorse", *TEAM_PRESETS]),
    st.sampled_from(["played", "surrender", "misdeal"]),
)
def test_entered_hands_sum_and_round_trip(rng: random.Random, name: str, outcome: str) -> None:
    rs = get_ruleset(name)
    unit = rs.counter_unit
    cuts = sorted(rng.randrange(0, rs.counters_total // unit + 1) for _ in rs.sides[1:])
    bounds = [0, *cuts, rs.counters_total // unit]
    counters = {s: (bounds[i + 1] - bounds[i]) * unit for i, s in enumerate(rs.sides)}
    meld = {s: 0 for s in rs.sides}
    data: dict[str, object] = {"dealer": rng.choice(rs.seats), "outcome": outcome}
    if outcome != "misdeal":
        data.update(
            bidder=rng.choice(rs.seats), bid=rng.choice(rs.next_bids(None, 8)), trump="S",
            meld=meld,
        )  # fmt: skip
    if outcome == "played":
        data["counters"] = counters
    hand = parse_hand(data, rs)
    assert parse_hand(hand.to_dict(), rs) == hand
    score = score_hand(hand, rs)
    assert set(score.points) == set(rs.sides)
    if outcome == "played" and score.made:
        kept = sum(c for c in counters.values() if c >= rs.min_counters)
        assert sum(score.points.values()) == kept
    if outcome == "misdeal":
        assert set(score.points.values()) == {0}


@pytest.mark.parametrize("name", ["two_handed", "racehorse", *TEAM_PRESETS])
def test_unknown_and_wrong_options_name_their_field(name: str) -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset(name, {"players": 4})
    assert exc.value.errors[0].field == "options.players"
    with pytest.raises(RulesError) as exc:
        get_ruleset(name, {"meld.run": [1]})
    assert exc.value.errors[0].field == "options.meld.run"
    with pytest.raises(RulesError) as exc:
        get_ruleset(name, {"sit_out": "dealer"})
    assert exc.value.errors[0].field == "options.sit_out"


def test_the_command_line_scores_a_six_handed_hand() -> None:
    hand = {
        "dealer": "N", "bidder": "NE", "bid": 100, "trump": "H",
        "meld": {"NSESW": 30, "NESNW": 60}, "counters": {"NSESW": 30, "NESNW": 45},
    }  # fmt: skip
    code, out = run_cli(
        "score", "--ruleset", "six_handed_triple_deck", stdin=json.dumps(hand)
    )
    assert code == 0 and out["points"] == {"NSESW": 60, "NESNW": 105}
    code, out = run_cli(
        "score", "--ruleset", "six_handed_triple_deck", stdin=json.dumps({**hand, "bidder": "W"})
    )
    assert code != 0 and out["errors"][0]["field"] == "bidder"


def test_the_command_line_scores_two_and_eight_handed_games() -> None:
    two = {
        "dealer": "N", "bidder": "S", "bid": 250, "trump": "H",
        "meld": {"N": 80, "S": 240}, "counters": {"N": 100, "S": 150},
    }  # fmt: skip
    code, out = run_cli("game", "--ruleset", "two_handed", stdin=json.dumps([two] * 3))
    assert code == 0 and out["totals"][-1] == {"N": 540, "S": 1170}
    assert out["winner"] == "S"
    code, out = run_cli("rulesets")
    names = [r["name"] for r in out["rulesets"]]
    assert {"two_handed", *TEAM_PRESETS} <= set(names)
    eight = next(r for r in out["rulesets"] if r["name"] == "eight_handed_double_deck")
    assert eight["sides"] == ["NS", "NESW", "EW", "SENW"]
    code, out = run_cli(
        "meld", "--ruleset", "eight_handed_double_deck", "-o", "meld.quadruple_pinochle=1000",
        "--trump", "H", "QS", "QS", "QS", "QS", "JD", "JD", "JD", "JD",
    )  # fmt: skip
    assert code == 0 and out["total"] == 1000


# --- racehorse --------------------------------------------------------------------------------

RACE = {
    "dealer": "N", "bidder": "NE", "bid": 600, "trump": "H",
    "meld": {"NSESW": 300, "NESNW": 400}, "counters": {"NSESW": 300, "NESNW": 430},
}  # fmt: skip


def test_racehorse_deals_twenty_each_and_a_blind_of_four() -> None:
    rs = get_ruleset("racehorse")
    assert (rs.players, rs.sides, rs.hand_size, rs.widow, rs.deck_size) == (
        6, ("NSESW", "NESNW"), 20, 4, 124,
    )  # fmt: skip
    # kings, tens and aces ten each (72 of them) and ten for the last trick
    assert rs.counters_total == 730 and rs.counter_unit == 10


def test_racehorse_meld_table() -> None:
    rs = get_ruleset("racehorse")

    def total(cards: str, trump: str = "H") -> int:
        return count_meld(cards.split(), trump, rs).total

    around = "AS AH AD AC"
    assert total(around) == 100 and total(f"{around} {around}") == 1000
    assert total("KS KH KD KC") == 80  # kings around and no marriage
    assert total("QS QH QD QC KS KH KD KC KS KH KD KC QS QH QD QC") == 800 + 600 + 300 + 120
    # marriages: 20 outside trump, 40 in trump; double and more only in trump
    assert total("KS QS") == 20 and total("KH QH") == 40
    assert total("KS QS KS QS") == 40 and total("KH QH KH QH") == 300
    assert total("KH QH KH QH KH QH") == 900
    # pinochle 40, double 300, triple 900
    assert total("QS JD", "C") == 40 and total("QS JD QS JD", "C") == 300
    assert total("QS JD QS JD QS JD", "C") == 900
    # runs in trump only: 150, 300, 900 (a run's marriages are part of it)
    run = "AH TH KH QH JH"
    assert total(run) == 150 and total(f"{run} {run}") == 300
    assert total(f"{run} {run} {run}") == 900
    # a quadruple is "the game"
    for cards, trump in (
        (f"{run} {run} {run} {run}", "H"),
        ("KH QH KH QH KH QH KH QH", "H"),
        ("QS JD QS JD QS JD QS JD", "C"),
    ):
        res = count_meld(cards.split(), trump, rs)
        assert res.wins_game, cards
    four_spade_marriages = ["KS", "QS"] * 4
    assert not count_meld(four_spade_marriages, "H", rs).wins_game


def test_racehorse_opening_is_forced_at_500() -> None:
    rs = get_ruleset("racehorse")
    # everybody passes: the dealer's left holds the forced 500
    res = validate_auction("N", ["pass"] * 5, rs)
    assert (res.declarer, res.bid, res.complete) == ("NE", 500, True)
    assert res.calls[0].forced and res.calls[0].seat == "NE"
    res = validate_auction("SW", ["510", "pass", "pass", "pass", "pass", "pass"], rs)
    assert (res.declarer, res.bid) == ("N", 510)
    assert res.calls[0].seat == "NW" and res.calls[0].bid == 500
    with pytest.raises(RulesError) as exc:
        validate_auction("N", ["500"], rs)
    assert exc.value.errors[0].field == "calls[0]" and exc.value.errors[0].code == "not_higher"
    with pytest.raises(RulesError) as exc:
        parse_hand({**RACE, "bid": 490}, rs)
    assert exc.value.errors[0].field == "bid"
    with pytest.raises(RulesError) as exc:
        get_ruleset("racehorse", {"dealer_stuck": 500})
    assert exc.value.errors[0].field == "options.forced_opening"


def test_racehorse_scoring_and_sets() -> None:
    rs = get_ruleset("racehorse")
    made = score_hand(parse_hand(RACE, rs), rs)
    assert made.points == {"NSESW": 600, "NESNW": 830} and made.made
    # short of the bid: set, the bid comes off and the count is thrown away
    set_ = score_hand(parse_hand({**RACE, "bid": 900}, rs), rs)
    assert set_.points == {"NSESW": 600, "NESNW": -900} and set_.result == "set"
    # the other team keeps meld and count only with at least 10 in the count
    low = {**RACE, "counters": {"NSESW": 0, "NESNW": 730}}
    assert score_hand(parse_hand(low, rs), rs).points == {"NSESW": 0, "NESNW": 1130}
    ten = {**RACE, "counters": {"NSESW": 10, "NESNW": 720}}
    assert score_hand(parse_hand(ten, rs), rs).points == {"NSESW": 310, "NESNW": 1120}


def test_racehorse_quadruple_is_the_game() -> None:
    rs = get_ruleset("racehorse")
    hand = parse_hand({**RACE, "quadruple_run": "SE"}, rs)
    assert hand.quadruple_run == "NSESW"
    res = score_game([hand], rs)
    assert (res.winner, res.reason, res.finished_after) == ("NSESW", "quadruple_run", 1)


def test_racehorse_options_for_the_open_choices() -> None:
    for name in ("nines_added", "forced_opening", "pass_cards", "quadruple_melds_win"):
        assert OPTION_HELP[name]
    rs = get_ruleset("racehorse", {"pass_cards": 3})
    assert rs.pass_cards == 3 and rs.options["pass_cards"] == 3
    with pytest.raises(RulesError) as exc:
        get_ruleset("racehorse", {"nines_added": 3})
    assert exc.value.errors[0].field == "options.nines_added"
    with pytest.raises(RulesError) as exc:
        get_ruleset("racehorse", {"quadruple_run_wins": False})
    assert exc.value.errors[0].field == "options.quadruple_melds_win"



# --- racehorse: the play with the four added nines ---------------------------------------------

# two cards each: N holds the nine of hearts; spades are trump
RACE_SMALL = {
    "N": ["9H", "AS"], "NE": ["KH", "KS"], "SE": ["QH", "AD"],
    "S": ["JH", "TD"], "SW": ["AH", "KD"], "NW": ["TH", "QD"],
}  # fmt: skip


def test_racehorse_play_takes_the_added_nines() -> None:
    rs = get_ruleset("racehorse")
    # N leads the nine; SW's ace takes 30, then N trumps the diamonds and takes 50 and the last 10
    tricks = [["9H", "KH", "QH", "JH", "AH", "TH"], ["KD", "QD", "AS", "KS", "AD", "TD"]]
    res = check_play("S", "N", RACE_SMALL, tricks, rs)
    assert res.legal and res.winners == ("SW", "N")
    assert res.counters == {"NSESW": 90, "NESNW": 0}
    # a nine binds its holder like any card: N holds 9H and must follow hearts
    res = check_play("S", "SW", RACE_SMALL, [["AH", "TH", "AS"]], rs)
    assert not res.legal and res.renege is not None
    assert (res.renege.trick, res.renege.seat, res.renege.card, res.renege.rule) == (
        1, "N", "AS", "follow_suit",
    )  # fmt: skip
    assert "could play 9H" in res.renege.message
    code, out = run_cli(
        "play", "--ruleset", "racehorse",
        stdin=json.dumps({"trump": "S", "leader": "N", "hands": RACE_SMALL, "tricks": tricks}),
    )  # fmt: skip
    assert code == 0 and out["legal"] is True and out["counters"] == {"NSESW": 90, "NESNW": 0}


def test_racehorse_holds_one_added_nine_of_each_suit_in_play() -> None:
    rs = get_ruleset("racehorse")
    assert pack_copies(Deck.TRIPLE, 4) == [1 if c % 6 == NINE else 6 for c in range(24)]
    assert pack_copies(Deck.TRIPLE) == [0 if c % 6 == NINE else 6 for c in range(24)]
    two_nines = {**RACE_SMALL, "NE": ["9H", "KS"]}
    with pytest.raises(RulesError) as exc:
        check_play("S", "N", two_nines, [], rs)
    err = exc.value.errors[0]
    assert (err.field, err.code) == ("hands", "too_many_copies")
    assert err.message == "2 copies of 9H, but only 1 nine of each suit is added to the pack"
    with pytest.raises(RulesError) as exc:
        check_play("S", "N", {**RACE_SMALL, "N": ["9H", "9H"]}, [], rs)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("hands.N", "too_many_copies")
    # seven aces of spades: a triple deck has six, nines added or not
    with pytest.raises(RulesError) as exc:
        check_pack([0] * 7, Deck.TRIPLE, 4)
    assert exc.value.errors[0].message == "7 copies of AS, but a triple deck has only 6"
    # the six-handed triple deck adds no nines: a nine is no card of its pack, held or played
    six = get_ruleset("six_handed_triple_deck")
    with pytest.raises(RulesError) as exc:
        check_play("S", "N", RACE_SMALL, [], six)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("hands.N[0]", "not_in_deck")
    with pytest.raises(RulesError) as exc:
        check_play("S", "N", {**RACE_SMALL, "N": ["AC", "AS"]}, [["9H"]], six)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("tricks[0][0]", "not_in_deck")


def _race_deal(
    rng: random.Random, renege_at: int | None = None
) -> tuple[int, str, dict[str, list[int]], list[list[str]], tuple[int, str] | None]:
    """A racehorse deal played out: 124 cards (the triple deck and a nine of each suit), 20 each
    and a blind of 4 the bidder takes, burying 4 that are no nine, so all four nines are played;
    with ``renege_at``, the first illegal card open at or after that play is played."""
    rs = get_ruleset("racehorse")
    nines = [s * 6 + NINE for s in range(4)]
    rest = Deck.TRIPLE.cards()
    rng.shuffle(rest)
    blind, cards = rest[:4], rest[4:] + nines
    rng.shuffle(cards)
    dealt = {seat: cards[i * 20 : (i + 1) * 20] for i, seat in enumerate(rs.seats)}
    bidder = rng.choice(rs.seats)
    pool = dealt[bidder] + blind
    buried = rng.sample([c for c in pool if c % 6 != NINE], 4)
    for c in buried:
        pool.remove(c)
    dealt[bidder] = pool
    trump = rng.randrange(4)
    remaining = {s: list(h) for s, h in dealt.items()}
    tricks: list[list[str]] = []
    made: tuple[int, str] | None = None
    step = 0
    seat = bidder
    while remaining[seat]:
        order = [seat]
        while len(order) < rs.players:
            order.append(rs.next_dealer(order[-1]))
        played: list[int] = []
        for who in order:
            allowed, _ = legal_cards(remaining[who], played, trump, rs.head_rule)
            illegal = [x for x in remaining[who] if x not in allowed]
            if renege_at is not None and made is None and step >= renege_at and illegal:
                card = rng.choice(illegal)
                made = (len(tricks) + 1, who)
            else:
                card = rng.choice(allowed)
            step += 1
            remaining[who].remove(card)
            played.append(card)
        tricks.append([card_str(c) for c in played])
        seat = order[trick_winner(played, trump)]
    return trump, bidder, dealt, tricks, made


@pytest.mark.parametrize("seed", range(12))
def test_a_racehorse_deal_plays_out_with_its_nines(seed: int) -> None:
    rs = get_ruleset("racehorse")
    trump, bidder, dealt, tricks, _ = _race_deal(random.Random(seed))
    assert sorted(card_str(c) for h in dealt.values() for c in h if c % 6 == NINE) == [
        "9C", "9D", "9H", "9S",
    ]  # fmt: skip
    hands = {s: [card_str(c) for c in h] for s, h in dealt.items()}
    res = check_play("SHDC"[trump], bidder, hands, tricks, rs)
    assert res.legal and len(res.winners) == 20 and res.counters is not None
    # every counter in the hands is taken, and the last trick's ten
    value = rs.counter_values
    held = sum(value[c % 6] for h in dealt.values() for c in h)
    assert sum(res.counters.values()) == held + rs.last_trick
    assert sum(res.counters.values()) <= rs.counters_total


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 119))
def test_an_injected_racehorse_renege_is_found(rng: random.Random, at: int) -> None:
    rs = get_ruleset("racehorse")
    trump, bidder, dealt, tricks, made = _race_deal(rng, renege_at=at)
    hands = {s: [card_str(c) for c in h] for s, h in dealt.items()}
    res = check_play("SHDC"[trump], bidder, hands, tricks, rs)
    if made is None:
        assert res.legal
    else:
        assert res.renege is not None and (res.renege.trick, res.renege.seat) == made

def test_the_command_line_runs_a_racehorse_auction_and_hand() -> None:
    code, out = run_cli("auction", "--ruleset", "racehorse", "--dealer", "N", *["pass"] * 5)
    assert code == 0 and out["declarer"] == "NE" and out["bid"] == 500
    code, out = run_cli("score", "--ruleset", "racehorse", stdin=json.dumps(RACE))
    assert code == 0 and out["points"] == {"NSESW": 600, "NESNW": 830}


# --- five-handed: a called partner -------------------------------------------------------------

FIVE = {
    "dealer": "W", "bidder": "N", "partner": "SE", "bid": 60, "trump": "H",
    "meld": {"N": 20, "E": 10, "SE": 15, "SW": 4, "W": 0},
    "counters": {"N": 10, "E": 10, "SE": 20, "SW": 5, "W": 5},
}  # fmt: skip


def test_five_handed_deals_the_double_deck_evenly() -> None:
    rs = get_ruleset("five_handed")
    assert (rs.seats, rs.sides) == (("N", "E", "SE", "SW", "W"),) * 2
    assert (rs.deck.size, rs.hand_size, rs.widow, rs.counters_total) == (80, 16, 0, 50)
    assert rs.called_partner and "partner" in fields_for("played", rs)
    assert "partner" not in fields_for("misdeal", rs)
    # the bidder and partner together can meld two best hands
    assert max_side_meld(rs) == 2 * (achievable_hand_totals(rs).bit_length() - 1)


def test_the_called_partner_plays_with_the_bidder() -> None:
    rs = get_ruleset("five_handed")
    hand = parse_hand(FIVE, rs)
    # per player as entered, added up for the team when scored
    assert hand.partner == "SE" and hand.meld["SE"] == 15 and hand.counters is not None
    s = score_hand(hand, rs)
    # N and SE: 35 meld + 30 counters = 65 >= 60; the others score their own
    assert s.points == {"N": 65, "E": 20, "SE": 65, "SW": 9, "W": 5}
    assert s.declaring_side == "N" and s.made and "N with SE" in s.reason
    assert parse_hand(hand.to_dict(), rs) == hand
    # set: both lose the bid
    s = score_hand(parse_hand({**FIVE, "bid": 70}, rs), rs)
    assert s.points == {"N": -70, "E": 20, "SE": -70, "SW": 9, "W": 5} and not s.made
    # the partner scores nothing under partner_scores=nothing
    alone = get_ruleset("five_handed", {"partner_scores": "nothing"})
    s = score_hand(parse_hand(FIVE, alone), alone)
    assert s.points == {"N": 65, "E": 20, "SE": 0, "SW": 9, "W": 5}


def test_a_bidder_holding_the_called_card_plays_alone() -> None:
    rs = get_ruleset("five_handed")
    s = score_hand(parse_hand({**FIVE, "partner": "N"}, rs), rs)
    # N alone: 20 meld + 10 counters is short of 60; SE scores for itself
    assert s.points == {"N": -60, "E": 20, "SE": 35, "SW": 9, "W": 5} and not s.made


def test_the_partner_is_required_and_checked() -> None:
    rs = get_ruleset("five_handed")
    missing = {k: v for k, v in FIVE.items() if k != "partner"}
    with pytest.raises(RulesError) as exc:
        parse_hand(missing, rs)
    assert [(e.field, e.code) for e in exc.value.errors] == [("partner", "required")]
    with pytest.raises(RulesError) as exc:
        parse_hand({**FIVE, "partner": "S"}, rs)
    assert [(e.field, e.code) for e in exc.value.errors] == [("partner", "bad_seat")]
    # fixed-side games have no called partner
    with pytest.raises(RulesError) as exc:
        parse_hand({**FIVE, "partner": "S"}, get_ruleset("pagat_double_deck"))
    assert ("partner", "not_in_ruleset") in [(e.field, e.code) for e in exc.value.errors]
    # meld is per player: one player's meld is checked as one hand
    top = achievable_hand_totals(rs).bit_length() - 1
    with pytest.raises(RulesError) as exc:
        parse_hand({**FIVE, "meld": {**FIVE["meld"], "SE": top + 1}}, rs)  # type: ignore[dict-item]
    assert exc.value.errors[0].field == "meld.SE" and exc.value.errors[0].code == "too_high"
    with pytest.raises(RulesError) as exc:
        get_ruleset("six_handed_triple_deck", {"called_partner": True})
    assert exc.value.errors[0].field == "options.called_partner"


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_five_handed_points_follow_the_called_team(rng: random.Random) -> None:
    rs = get_ruleset("five_handed")
    cuts = sorted(rng.randrange(0, 51) for _ in range(4))
    bounds = [0, *cuts, 50]
    counters = {s: bounds[i + 1] - bounds[i] for i, s in enumerate(rs.seats)}
    meld = {s: rng.choice([0, 4, 10, 15, 24]) for s in rs.seats}
    bidder, partner = rng.choice(rs.seats), rng.choice(rs.seats)
    data = {
        "dealer": rng.choice(rs.seats), "bidder": bidder, "partner": partner,
        "bid": rng.choice(rs.next_bids(None, 10)), "trump": "C", "meld": meld,
        "counters": counters,
    }  # fmt: skip
    hand = parse_hand(data, rs)
    assert parse_hand(hand.to_dict(), rs) == hand
    s = score_hand(hand, rs)
    assert set(s.points) == set(rs.seats) and s.declaring_side == bidder
    team = {bidder, partner}
    got = sum(meld[x] + counters[x] for x in team)
    assert s.made == (got >= data["bid"])  # type: ignore[operator]
    assert s.points[bidder] == s.points[partner] == (got if s.made else -data["bid"])  # type: ignore[operator]
    for x in rs.seats:
        if x not in team:
            assert s.points[x] == meld[x] + counters[x]
    game = score_game([hand], rs)
    assert game.totals[-1] == s.points


def test_the_command_line_scores_a_five_handed_hand() -> None:
    code, out = run_cli("score", "--ruleset", "five_handed", stdin=json.dumps(FIVE))
    assert code == 0 and out["points"] == {"N": 65, "E": 20, "SE": 65, "SW": 9, "W": 5}


def test_the_browser_port_leaves_called_partner_hands_to_the_server() -> None:
    assert browser_rules(get_ruleset("five_handed"))["called_partner"] is True
    for name in ("two_handed", "racehorse", *TEAM_PRESETS):
        rules = browser_rules(get_ruleset(name))
        assert rules["called_partner"] is False
        assert rules["sides"] == list(get_ruleset(name).sides)

"""Cases written from the rule texts for the games of tables of two, five, six and eight (the
encyclopedia's "Two-handed", "Five-handed and larger", "Triple-deck, six-handed", "Racehorse",
"Double-deck for eight players"): meld tables, minimum bids, the last trick, sets and reneges,
the forced racehorse opening and the called partner."""

from __future__ import annotations

from typing import Any

import pytest

from rules_engine import (
    RulesError,
    count_meld,
    get_ruleset,
    parse_hand,
    score_game,
    score_hand,
    validate_auction,
)

from .conftest import run_cli


def total(name: str, cards: str, trump: str = "H", over: dict[str, Any] | None = None) -> int:
    return count_meld(cards.split(), trump, get_ruleset(name, over)).total


# --- two-handed ---------------------------------------------------------------------------------


def test_two_handed_melds_the_single_deck_table() -> None:
    run = "AH TH KH QH JH"
    assert total("two_handed", run) == 150
    assert total("two_handed", f"{run} {run}") == 1500
    assert total("two_handed", "KH QH") == 40 and total("two_handed", "KS QS") == 20
    assert total("two_handed", "9H") == 10 and total("two_handed", "9S") == 0
    assert total("two_handed", "AS AH AD AC") == 100
    assert total("two_handed", "AS AH AD AC AS AH AD AC") == 1000
    assert total("two_handed", "JS JH JD JC JS JH JD JC") == 400
    assert total("two_handed", "QS JD", "C") == 40 and total("two_handed", "QS JD QS JD", "C") == 300
    # "Round house": kings and queens of each suit, 240, and a bonus of 10 where played
    house = "KS QS KH QH KD QD KC QC"
    assert total("two_handed", house) == 240
    assert total("two_handed", house, over={"meld.round_house": 10}) == 250


def test_two_handed_counts_240_and_10_for_the_last_trick() -> None:
    rs = get_ruleset("two_handed")
    assert (rs.counters_total, rs.last_trick, rs.hand_size, rs.stock) == (250, 10, 12, 24)
    assert rs.min_bid == 150 and not rs.is_valid_bid(140) and rs.is_valid_bid(160)


def test_two_handed_set_and_renege() -> None:
    rs = get_ruleset("two_handed")
    hand = {
        "dealer": "N", "bidder": "S", "bid": 300, "trump": "H",
        "meld": {"N": 40, "S": 150}, "counters": {"N": 150, "S": 100},
    }  # fmt: skip
    s = score_hand(parse_hand(hand, rs), rs)
    assert s.points == {"N": 190, "S": -300} and s.result == "set"
    # the bidder reneges: a double set, the other player counts meld
    s = score_hand(parse_hand({**hand, "outcome": "renege", "renege_seat": "S"}, rs), rs)
    assert s.points == {"N": 40, "S": -600}
    # the other player reneges: the bidder scores bid and meld, the offender loses the bid
    s = score_hand(parse_hand({**hand, "outcome": "renege", "renege_seat": "N"}, rs), rs)
    assert s.points == {"N": -300, "S": 450} and s.made


# --- five-handed --------------------------------------------------------------------------------


def test_five_handed_bidder_and_called_partner_against_everyone_else() -> None:
    rs = get_ruleset("five_handed")
    assert (rs.players, rs.hand_size, rs.min_bid, rs.counters_total) == (5, 16, 50, 50)
    hand = {
        "dealer": "W", "bidder": "E", "partner": "SW", "bid": 55, "trump": "S",
        "meld": {"N": 0, "E": 24, "SE": 10, "SW": 15, "W": 4},
        "counters": {"N": 12, "E": 8, "SE": 10, "SW": 6, "W": 14},
    }  # fmt: skip
    s = score_hand(parse_hand(hand, rs), rs)
    # E and SW: 39 meld + 14 counters = 53 < 55: both set; the others score alone
    assert s.points == {"N": 12, "E": -55, "SE": 20, "SW": -55, "W": 18}
    assert s.result == "set" and s.declaring_side == "E"
    game = score_game([parse_hand(hand, rs)], rs)
    assert game.totals[-1] == s.points


# --- six-handed triple deck ---------------------------------------------------------------------


def test_six_handed_extra_melds_of_the_triple_pack_count_no_extra() -> None:
    rs = get_ruleset("six_handed_triple_deck")
    assert (rs.deck.size, rs.hand_size, rs.min_bid, rs.last_trick) == (120, 20, 75, 3)
    # twenty aces, five of each suit: double aces and triple aces, 100 + 150
    assert total("six_handed_triple_deck", " ".join(["AS AH AD AC"] * 5)) == 250
    # pagat's double-deck values up to four: triple and quadruple pinochle
    assert total("six_handed_triple_deck", " ".join(["QS JD"] * 3), "C") == 60
    assert total("six_handed_triple_deck", " ".join(["QS JD"] * 4), "C") == 90
    # five: a double and a triple (30 + 60); six: two triples
    assert total("six_handed_triple_deck", " ".join(["QS JD"] * 5), "C") == 90
    assert total("six_handed_triple_deck", " ".join(["QS JD"] * 6), "C") == 120
    assert total("six_handed_triple_deck", " ".join(["AH TH KH QH JH"] * 3)) == 225


def test_six_handed_set_and_renege_follow_double_deck() -> None:
    rs = get_ruleset("six_handed_triple_deck")
    hand = {
        "dealer": "N", "bidder": "NE", "bid": 120, "trump": "H",
        "meld": {"NSESW": 30, "NESNW": 60}, "counters": {"NSESW": 30, "NESNW": 45},
    }  # fmt: skip
    s = score_hand(parse_hand(hand, rs), rs)
    assert s.points == {"NSESW": 60, "NESNW": -120} and s.result == "set"
    # a defender reneges: the declaring team scores its bid, the offenders lose theirs
    s = score_hand(parse_hand({**hand, "outcome": "renege", "renege_seat": "SE"}, rs), rs)
    assert s.points == {"NSESW": -120, "NESNW": 120} and s.made
    # no marriage in trump: board set, nobody scores meld
    s = score_hand(parse_hand({**hand, "outcome": "no_marriage", "counters": None}, rs), rs)
    assert s.points == {"NSESW": 0, "NESNW": -120} and s.result == "board_set"


# --- racehorse ----------------------------------------------------------------------------------


def test_racehorse_meld_table_as_the_text_gives_it() -> None:
    aces = "AS AH AD AC"
    assert total("racehorse", aces) == 100
    assert total("racehorse", f"{aces} {aces}") == 1000
    # "4 of a kind" is 1000 too: an around is worth no more beyond twice
    assert total("racehorse", f"{aces} {aces} {aces}") == 1000
    assert total("racehorse", " ".join([aces] * 4)) == 1000
    assert total("racehorse", " ".join(["KS KH KD KC"] * 3)) == 800
    # tens and nines meld nothing; the four nines added to the pack are cards of the hand
    assert total("racehorse", "TS TH TD TC 9S 9H 9D 9C") == 0
    assert total("racehorse", "9H KH QH") == 40  # no dix
    # marriages outside trump one by one, in trump 40 / 300 / 900 / the game
    assert total("racehorse", "KS QS KS QS KS QS") == 60
    assert total("racehorse", "KH QH KH QH KH QH") == 900
    rs = get_ruleset("racehorse")
    assert count_meld(["KH", "QH", "KH", "QH", "KH", "QH", "KH", "QH"], "H", rs).wins_game
    # a run's king and queen serve the run: three runs and a marriage are no quadruple
    three_runs = ("AH TH KH QH JH " * 3 + "KH QH").split()
    res = count_meld(three_runs, "H", rs)
    assert not res.wins_game and res.total == 900 + 40


def test_racehorse_holds_one_nine_of_each_suit() -> None:
    rs = get_ruleset("racehorse")
    with pytest.raises(RulesError) as exc:
        count_meld(["9S", "9S"], "H", rs)
    assert exc.value.errors[0].code == "too_many_copies"
    # other triple packs have no nines at all
    with pytest.raises(RulesError) as exc:
        count_meld(["9S"], "H", get_ruleset("six_handed_triple_deck"))
    assert exc.value.errors[0].code == "not_in_deck"
    code, out = run_cli("meld", "--ruleset", "racehorse", "--trump", "H", "9H", "KH", "QH")
    assert code == 0 and out["total"] == 40


def test_racehorse_opening_is_500_and_bids_go_up_in_tens() -> None:
    rs = get_ruleset("racehorse")
    res = validate_auction("SE", ["pass"] * 5, rs)
    assert (res.declarer, res.bid) == ("S", 500) and res.calls[0].forced
    assert rs.is_valid_bid(510) and not rs.is_valid_bid(505)


RACE = {
    "dealer": "N", "bidder": "NE", "bid": 600, "trump": "H",
    "meld": {"NSESW": 300, "NESNW": 700}, "counters": {"NSESW": 730, "NESNW": 0},
}  # fmt: skip


def test_racehorse_only_the_other_team_needs_ten_in_the_count() -> None:
    rs = get_ruleset("racehorse")
    # the bidding team took no count, but its meld alone reaches the bid: made
    s = score_hand(parse_hand(RACE, rs), rs)
    assert s.points == {"NSESW": 1030, "NESNW": 700} and s.made
    # the other team keeps meld and count only with at least 10 in the count
    s = score_hand(parse_hand({**RACE, "counters": {"NSESW": 0, "NESNW": 730}}, rs), rs)
    assert s.points == {"NSESW": 0, "NESNW": 1430}
    # set: the bid comes off and the team's count is thrown away
    s = score_hand(parse_hand({**RACE, "bid": 800}, rs), rs)
    assert s.points == {"NSESW": 1030, "NESNW": -800} and s.result == "set"
    # a club holding the bidding team to the 10 too
    strict = get_ruleset("racehorse", {"min_counters_declarer": True})
    s = score_hand(parse_hand(RACE, strict), strict)
    assert s.points == {"NSESW": 1030, "NESNW": -600}


# --- eight-handed -------------------------------------------------------------------------------


def test_eight_handed_quadruple_pinochle_may_be_worth_1000() -> None:
    four = " ".join(["QS JD"] * 4)
    five = " ".join(["QS JD"] * 5)
    eight = " ".join(["QS JD"] * 8)
    assert total("eight_handed_double_deck", four, "C") == 900
    assert total("eight_handed_double_deck", five, "C") == 900 + 40
    thousand: dict[str, Any] = {"meld.quadruple_pinochle": 1000}
    assert total("eight_handed_double_deck", four, "C", thousand) == 1000
    # more than four: the quadruple (1000) and the rest, never less than four alone
    assert total("eight_handed_double_deck", five, "C", thousand) == 1000 + 40
    assert total("eight_handed_double_deck", eight, "C", thousand) == 2000


def test_eight_handed_plays_four_teams_to_5000() -> None:
    rs = get_ruleset("eight_handed_double_deck")
    assert (rs.players, len(rs.sides), rs.game_target, rs.min_bid) == (8, 4, 5000, 500)
    hand = {
        "dealer": "N", "bidder": "E", "bid": 700, "trump": "D",
        "meld": {"NS": 100, "NESW": 200, "EW": 300, "SENW": 0},
        "counters": {"NS": 300, "NESW": 200, "EW": 300, "SENW": 180},
    }  # fmt: skip
    s = score_hand(parse_hand(hand, rs), rs)
    assert s.points == {"NS": 400, "NESW": 400, "EW": -700, "SENW": 180}

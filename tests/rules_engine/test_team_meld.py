"""The most meld a team of three can show (six-handed triple deck, racehorse): found exactly
by enumeration (rules_engine.meld.team_meld_witness), reached by three real hands, and the
limit an entered team meld is held to."""

from __future__ import annotations

import pytest

from rules_engine import RulesError, get_ruleset, max_side_meld, parse_hand
from rules_engine.bids import max_bid
from rules_engine.meld import achievable_hand_totals, meld_total, team_meld_witness

# the most each team meld can be, from the enumeration (meld._meld_data_tables.TEAM_MAX)
LIMITS = {"six_handed_triple_deck": 858, "racehorse": 8400}


@pytest.mark.parametrize(("name", "limit"), LIMITS.items())
def test_three_real_hands_from_one_pack_reach_the_limit(name: str, limit: int) -> None:
    rs = get_ruleset(name)
    witness = team_meld_witness(rs)
    assert witness is not None
    best, trump, hands = witness
    assert best == limit == max_side_meld(rs)
    # real hands: the declarer's with the widow, the partners' without, from one pack
    assert [sum(h) for h in hands] == [rs.hand_size + rs.widow, rs.hand_size, rs.hand_size]
    assert all(sum(h[c] for h in hands) <= rs.copies for c in range(24))
    assert sum(meld_total(h, trump, rs) for h in hands) == limit
    # less than three best hands added up: they would need more copies than the pack holds
    one = achievable_hand_totals(rs).bit_length() - 1
    assert limit < 3 * one


def test_a_team_meld_over_the_limit_is_refused_by_name() -> None:
    rs = get_ruleset("six_handed_triple_deck")
    hand = {
        "dealer": "N", "bidder": "NE", "bid": 100, "trump": "H",
        "meld": {"NSESW": 858, "NESNW": 60}, "counters": {"NSESW": 30, "NESNW": 45},
    }  # fmt: skip
    assert parse_hand(hand, rs).meld["NSESW"] == 858
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "meld": {"NSESW": 859, "NESNW": 60}}, rs)
    err = exc.value.errors[0]
    assert (err.field, err.code) == ("meld.NSESW", "too_high")
    assert "858" in err.message
    # the highest bid: the team's most meld and every counter
    assert max_bid(rs) == 858 + 75
    with pytest.raises(RulesError) as exc:
        parse_hand({**hand, "bid": 940}, rs)
    assert exc.value.errors[0].field == "bid"


def test_other_tables_have_no_team_of_three() -> None:
    for name in ("two_handed", "five_handed", "eight_handed_double_deck", "pagat_double_deck"):
        assert team_meld_witness(get_ruleset(name)) is None

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import (
    Deck,
    RulesError,
    check_meld_total,
    count_meld,
    get_ruleset,
    max_side_meld,
    meld_total,
)
from rules_engine.cards import counts_of
from rules_engine.meld import achievable_hand_totals, side_meld_witness

from .conftest import load_cases

PAGAT = get_ruleset("pagat_double_deck")
CLUB = get_ruleset("club_double_deck")
SINGLE = get_ruleset("single_deck_partnership")


@pytest.mark.parametrize("case", load_cases("meld_examples.json"), ids=lambda c: c["note"][:40])
def test_published_meld_examples(case: dict[str, Any]) -> None:
    result = count_meld(case["cards"], case["trump"], get_ruleset(case["preset"]))
    assert result.total == case["total"]
    assert result.total == sum(m.points for m in result.melds)


def _lines(cards: str, trump: str, rs: Any = PAGAT) -> dict[tuple[str, str | None], int]:
    res = count_meld(cards.split(), trump, rs)
    return {(m.name, m.suit): m.times for m in res.melds}


def test_pagat_worked_example_breakdown() -> None:
    cards = "AH TH KH KH KH QH QH JH QD QD JD QC QC AS KS KS QS QS JS JS"
    res = count_meld(cards.split(), "H", PAGAT)
    assert res.total == 87
    got = {(m.name, m.cls, m.times, m.points, m.suit) for m in res.melds}
    assert got == {
        ("run", "I", 1, 15, "H"),
        ("royal_marriage", "I", 1, 4, "H"),
        ("marriage", "I", 2, 4, "S"),
        ("pinochle", "II", 1, 4, None),
        ("queens", "III", 2, 60, None),
    }


def test_run_in_non_trump_is_only_a_marriage() -> None:
    assert count_meld(["AD", "TD", "KD", "QD", "JD"], "H", PAGAT).total == 2


def test_a_card_serves_once_per_class() -> None:
    # one king, two queens: one marriage, not two
    assert count_meld(["KC", "QC", "QC"], "H", PAGAT).total == 2
    # the queen of spades in a marriage, a pinochle and an around at once
    res = count_meld(["KS", "QS", "JD", "QH", "QD", "QC"], "H", PAGAT)
    assert {m.name for m in res.melds} == {"marriage", "pinochle", "queens"}
    assert res.total == 2 + 4 + 6


def test_roundhouse_is_a_sum() -> None:
    cards = ["KS", "QS", "KH", "QH", "KD", "QD", "KC", "QC"]
    assert count_meld(cards, "S", PAGAT).total == 24
    # with a run in trump the trump marriage is inside the run: 15 + 8 + 6 + 6 = 35
    assert count_meld([*cards, "AS", "TS", "JS"], "S", PAGAT).total == 35


@pytest.mark.parametrize(
    ("times", "pagat", "club"),
    [(1, 15, 15), (2, 150, 150), (3, 225, 300)],
)
def test_multiple_runs(times: int, pagat: int, club: int) -> None:
    cards = ["AH", "TH", "KH", "QH", "JH"] * times
    assert count_meld(cards, "H", PAGAT).total == pagat
    assert count_meld(cards, "H", CLUB).total == club


def test_quadruple_melds() -> None:
    assert count_meld(["AS", "AH", "AD", "AC"] * 4, "H", PAGAT).total == 200
    assert count_meld(["AS", "AH", "AD", "AC"] * 4, "H", CLUB).total == 300
    assert count_meld(["QS", "JD"] * 4, "H", PAGAT).total == 90
    assert count_meld(["QS", "JD"] * 4, "H", CLUB).total == 300
    assert count_meld(["KS", "QS"] * 4, "S", PAGAT).total == 16
    assert count_meld(["KC", "QC"] * 4, "S", PAGAT).total == 8


def test_club_quadruple_run_wins_the_game() -> None:
    res = count_meld(["AH", "TH", "KH", "QH", "JH"] * 4, "H", CLUB)
    assert res.wins_game
    assert res.melds[0].wins_game and res.to_dict()["wins_game"] is True
    assert not count_meld(["AH", "TH", "KH", "QH", "JH"] * 4, "H", PAGAT).wins_game


def test_club_trump_marriage_is_doubled() -> None:
    assert count_meld(["KH", "QH"], "H", CLUB).total == 4
    assert count_meld(["KH", "QH"], "S", CLUB).total == 2


def test_single_deck_dix_and_scale() -> None:
    assert count_meld(["9S"], "S", SINGLE).total == 10
    assert count_meld(["9S", "9S"], "S", SINGLE).total == 20
    assert count_meld(["9H"], "S", SINGLE).total == 0
    assert count_meld(["AS", "TS", "KS", "QS", "JS", "9S"], "S", SINGLE).total == 160
    assert count_meld(["AS", "TS", "KS", "QS", "JS"] * 2, "S", SINGLE).total == 1500
    assert count_meld(["AS", "AH", "AD", "AC"] * 2, "S", SINGLE).total == 1000
    assert count_meld(["QS", "JD"] * 2, "H", SINGLE).total == 300
    small = get_ruleset("single_deck_partnership", {"scale": 1})
    assert count_meld(["AS", "TS", "KS", "QS", "JS", "9S"], "S", small).total == 16


def test_meld_input_errors() -> None:
    with pytest.raises(RulesError) as exc:
        count_meld(["AS"] * 5, "H", PAGAT)
    assert exc.value.errors[0].code == "too_many_copies"
    with pytest.raises(RulesError) as exc:
        count_meld(["AS"] * 3, "H", SINGLE)
    assert exc.value.errors[0].code == "too_many_copies"
    with pytest.raises(RulesError) as exc:
        count_meld(["9S"], "H", PAGAT)
    assert exc.value.errors[0].code == "not_in_deck"
    with pytest.raises(RulesError) as exc:
        count_meld(["AS", "QQ"], "H", PAGAT)
    assert exc.value.errors[0].field == "cards[1]"
    with pytest.raises(RulesError) as exc:
        count_meld(["AS"], "X", PAGAT)
    assert exc.value.errors[0].field == "trump"
    with pytest.raises(RulesError) as exc:
        count_meld(Deck.DOUBLE.cards()[:21], "H", PAGAT)
    assert exc.value.errors[0].code == "too_many_cards"


# --- achievable totals -------------------------------------------------------------------------


@pytest.mark.parametrize("total", [1, 3, 5, 7, 9, 11, 13])
def test_small_odd_totals_are_typos_under_pagat(total: int) -> None:
    with pytest.raises(RulesError) as exc:
        check_meld_total(total, PAGAT)
    assert exc.value.errors[0].code == "not_achievable"


@pytest.mark.parametrize("total", [0, 2, 4, 6, 8, 10, 12, 14, 15, 17, 19, 21, 24, 87, 150])
def test_ordinary_totals_are_accepted(total: int) -> None:
    check_meld_total(total, PAGAT)
    check_meld_total(total, CLUB)


def test_npa_odd_totals_start_at_the_pinochle() -> None:
    npa = get_ruleset("npa_double_deck")
    with pytest.raises(RulesError):
        check_meld_total(13, npa)
    check_meld_total(15, npa)  # a single pinochle
    check_meld_total(25, npa)  # a run


def test_single_deck_totals_come_in_tens() -> None:
    check_meld_total(40, SINGLE)
    check_meld_total(0, SINGLE)
    with pytest.raises(RulesError):
        check_meld_total(45, SINGLE)


def test_too_high_and_bad_values() -> None:
    top = max_side_meld(PAGAT)
    check_meld_total(top, PAGAT)
    with pytest.raises(RulesError) as exc:
        check_meld_total(top + 1, PAGAT)
    assert exc.value.errors[0].code == "too_high"
    assert 315 * 2 >= top >= 315
    for bad in (-2, "20", 2.5, None, True):
        with pytest.raises(RulesError):
            check_meld_total(bad, PAGAT)


def test_single_hand_maximum_is_a_real_hand() -> None:
    # triple run in diamonds with the fourth jack of diamonds and four queens of spades
    cards = ["AD", "TD", "KD", "QD", "JD"] * 3 + ["JD"] + ["QS"] * 4
    assert count_meld(cards, "D", PAGAT).total == 315
    assert achievable_hand_totals(PAGAT).bit_length() - 1 == 315


def _random_hand(rng: random.Random, deck: Deck, size: int) -> list[int]:
    cards = deck.cards()
    rng.shuffle(cards)
    return cards[:size]


@pytest.mark.parametrize(
    "name",
    [
        "pagat_double_deck",
        "club_double_deck",
        "npa_double_deck",
        "single_deck_partnership",
        "three_handed",
        "cutthroat",
    ],
)
def test_every_dealt_hand_total_is_achievable(name: str) -> None:
    rs = get_ruleset(name)
    bits = achievable_hand_totals(rs)
    rng = random.Random(name)
    for _ in range(400):
        hand = _random_hand(rng, rs.deck, rs.hand_size)
        trump = rng.randrange(4)
        total = meld_total(counts_of(hand), trump, rs)
        assert (bits >> total) & 1, (hand, trump, total)
        assert total == count_meld(hand, trump, rs).total


def test_constructed_hands_hit_many_totals() -> None:
    # every even total up to 40 comes from marriages, arounds and pinochles alone
    bits = achievable_hand_totals(PAGAT)
    assert all((bits >> n) & 1 for n in range(0, 42, 2))


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 79), min_size=0, max_size=19, unique=True),
    st.integers(0, 79),
    st.integers(0, 3),
    st.sampled_from(["pagat_double_deck", "npa_double_deck"]),
)
def test_adding_a_card_never_lowers_meld(
    positions: list[int], extra: int, trump: int, name: str
) -> None:
    rs = get_ruleset(name)
    deck = Deck.DOUBLE.cards()
    if extra in positions:
        return
    hand = [deck[i] for i in positions]
    before = count_meld(hand, trump, rs).total
    after = count_meld([*hand, deck[extra]], trump, rs).total
    assert after >= before


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 3))
def test_a_shuffled_double_deck_deal_always_validates(rng: random.Random, trump: int) -> None:
    cards = Deck.DOUBLE.cards()
    rng.shuffle(cards)
    hands = [cards[i * 20 : (i + 1) * 20] for i in range(4)]
    for rs in (PAGAT, CLUB, get_ruleset("npa_double_deck")):
        totals = [count_meld(h, trump, rs).total for h in hands]
        check_meld_total(totals[0] + totals[2], rs)
        check_meld_total(totals[1] + totals[3], rs)


def _brute_force_totals(rs: Any, trump: int, max_cards: int) -> int:
    """Every hand of at most ``max_cards`` cards, counted one by one."""
    types = [c for c in range(24) if rs.deck.has_card(c)]
    bits = 0
    counts = [0] * 24

    def walk(i: int, left: int) -> None:
        nonlocal bits
        if i == len(types):
            bits |= 1 << meld_total(counts, trump, rs)
            return
        card = types[i]
        for n in range(min(rs.copies, left) + 1):
            counts[card] = n
            walk(i + 1, left - n)
        counts[card] = 0

    walk(0, max_cards)
    return bits


@pytest.mark.parametrize(
    "name", ["pagat_double_deck", "club_double_deck", "single_deck_partnership"]
)
@pytest.mark.parametrize("trump", [0, 1, 2])
def test_achievable_search_matches_brute_force_on_small_hands(name: str, trump: int) -> None:
    from rules_engine.meld import _hand_totals_for_trump

    rs = get_ruleset(name)
    assert _hand_totals_for_trump(rs, trump, 5) == _brute_force_totals(rs, trump, 5)


def test_precomputed_tables_cover_every_preset() -> None:
    from rules_engine.meld import PRECOMPUTED, _hand_totals_for_trump, _table_key
    from rules_engine.rulesets import PRESET_NAMES

    for name in PRESET_NAMES:
        rs = get_ruleset(name)
        assert _table_key(rs, rs.hand_size + rs.widow) in PRECOMPUTED, name
    rs = get_ruleset("three_handed")
    fresh = 0
    for trump in (0, 1, 2):
        fresh |= _hand_totals_for_trump(rs, trump, 18)
    assert fresh == int(PRECOMPUTED[_table_key(rs, 18)], 16)


def test_overridden_meld_table_is_searched() -> None:
    rs = get_ruleset("pagat_double_deck", {"meld.pinochle": "14,30,60,90"})
    check_meld_total(14, rs)
    with pytest.raises(RulesError):
        check_meld_total(1, rs)


def test_a_huge_hand_is_refused_before_its_cards_are_read() -> None:
    start = time.perf_counter()
    with pytest.raises(RulesError) as exc:
        count_meld(["XX"] * 1_000_000, "H", PAGAT)
    assert time.perf_counter() - start < 0.5
    assert [(e.field, e.code) for e in exc.value.errors] == [("cards", "too_many_cards")]


def test_one_players_meld_is_checked_against_one_hand() -> None:
    # both are side totals (two hands added), but no single hand shows them
    for total in (187, 400):
        check_meld_total(total, PAGAT)
        with pytest.raises(RulesError) as exc:
            check_meld_total(total, PAGAT, "meld.N", player=True)
        assert exc.value.errors[0].field == "meld.N"
    assert "one player" in exc.value.errors[0].message
    check_meld_total(315, PAGAT, player=True)
    check_meld_total(15, PAGAT, player=True)


# --- the most a side can meld, from one deck ---------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "scale", "top"),
    [
        ("single_deck_partnership", 10, 2220),
        ("single_deck_partnership", 1, 222),
        ("pagat_double_deck", 1, 572),
        ("npa_double_deck", 1, 572),
        ("club_double_deck", 1, 788),
    ],
)
def test_the_side_maximum_is_reached_by_a_real_deal(preset: str, scale: int, top: int) -> None:
    rs = get_ruleset(preset, {"scale": scale})
    # the precomputed figure the entry check uses, recomputed by the enumeration
    assert max_side_meld(rs) == top
    # the enumeration itself (the check above reads its result, stored in _meld_data.py)
    witness = side_meld_witness(rs)
    assert witness is not None
    best, trump, one, two = witness
    assert best == top
    # two real hands: the right size, no card more often than the deck holds it
    assert sum(one) == sum(two) == rs.hand_size
    assert all(a + b <= rs.copies for a, b in zip(one, two, strict=True))
    assert all(one[c] == two[c] == 0 for c in range(24) if c % 6 == 5 and rs.copies == 4)
    assert all(n <= rs.copies for n in one + two)
    assert meld_total(one, trump, rs) + meld_total(two, trump, rs) == top
    # and the entry check says so
    check_meld_total(top, rs)
    with pytest.raises(RulesError) as exc:
        check_meld_total(top + rs.options["scale"], rs)
    assert f"at most {top}" in exc.value.errors[0].message


def test_twice_one_hands_best_is_not_a_side_total() -> None:
    # one hand's best is 1800 (double run and double pinochle); two of them need one deck twice
    assert achievable_hand_totals(SINGLE).bit_length() - 1 == 1800
    for impossible in (3600, 2230, 2800):
        with pytest.raises(RulesError) as exc:
            check_meld_total(impossible, SINGLE)
        assert exc.value.errors[0].code == "too_high"


@settings(max_examples=60, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(["single_deck_partnership", "pagat_double_deck", "club_double_deck"]),
)
def test_every_dealt_side_is_within_the_maximum(rng: random.Random, name: str) -> None:
    rs = get_ruleset(name)
    cards = rs.deck.cards()
    rng.shuffle(cards)
    size = rs.hand_size
    trump = rng.randrange(4)
    hands = [counts_of(cards[i * size : (i + 1) * size]) for i in range(4)]
    for a, b in ((0, 2), (1, 3)):
        side = meld_total(hands[a], trump, rs) + meld_total(hands[b], trump, rs)
        assert side <= max_side_meld(rs)
        check_meld_total(side, rs)


@settings(max_examples=30, deadline=None)
@given(st.randoms(use_true_random=False))
def test_a_changed_meld_table_is_enumerated_at_once(rng: random.Random) -> None:
    # an override moves the side maximum; the enumeration runs for it and stays exact
    run = rng.choice([100, 150, 250])
    rs = get_ruleset("single_deck_partnership", {"meld.run": [run, 1500], "meld.run_extra": 20})
    witness = side_meld_witness(rs)
    assert witness is not None
    best, trump, one, two = witness
    assert meld_total(one, trump, rs) + meld_total(two, trump, rs) == best == max_side_meld(rs)


# --- an extra king or queen beside a run --------------------------------------------------------


def test_an_extra_king_or_queen_beside_a_run() -> None:
    # the encyclopedia: "an extra king or queen in a run is worth half a trump marriage, 20
    # points. In other versions, it is worth a full marriage, 40 points."
    run_and_king = ["AH", "TH", "KH", "KH", "QH", "JH"]
    assert count_meld(run_and_king, "H", SINGLE).total == 150
    half = get_ruleset("single_deck_partnership", {"meld.run_extra": 20})
    full = get_ruleset("single_deck_partnership", {"meld.run_extra": 40})
    res = count_meld(run_and_king, "H", half)
    assert res.total == 170
    assert [(m.name, m.times, m.points) for m in res.melds] == [
        ("run", 1, 150), ("run_extra", 1, 20)]
    assert count_meld(run_and_king, "H", full).total == 190
    assert count_meld(["AH", "TH", "KH", "QH", "QH", "JH"], "H", half).total == 170
    # an extra king and queen together are a royal marriage, as before
    assert count_meld(["AH", "TH", "KH", "KH", "QH", "QH", "JH"], "H", half).total == 190
    # no run, no extra: a lone king of trump is nothing
    assert count_meld(["TH", "KH", "KH", "QH", "JH"], "H", half).total == 40
    # the fast path agrees, and the entry check knows the new totals
    assert meld_total(counts_of(half.deck.cards()[:0] + [0, 1, 2, 2, 3, 4]), 0, half) == 170
    check_meld_total(170, half, player=True)
    double = get_ruleset("pagat_double_deck", {"meld.run_extra": 2})
    assert count_meld(["AS", "TS", "KS", "KS", "KS", "QS", "JS"], "S", double).total == 15 + 2 * 2

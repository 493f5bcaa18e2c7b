from __future__ import annotations

import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import Deck, RulesError, check_play, get_ruleset, legal_cards, trick_winner
from rules_engine.cards import card_str, parse_card
from rules_engine.play import broken_rule

PAGAT = get_ruleset("pagat_double_deck")


def c(tokens: str) -> list[int]:
    return [parse_card(t) for t in tokens.split()]


def test_trick_winner_first_of_identical_cards() -> None:
    assert trick_winner(c("AH AH KH TH"), trump=0) == 0
    assert trick_winner(c("KH AH AH TH"), trump=0) == 1
    assert trick_winner(c("AH JS QS KH"), trump=0) == 2  # first trump wins, then the higher
    assert trick_winner(c("AH JS AS KH"), trump=0) == 2
    assert trick_winner(c("AH AD AC AS"), trump=2) == 1  # off-suit aces do not count


@pytest.mark.parametrize(
    ("hand", "played", "card", "rule"),
    [
        ("KH QS", "AH", "QS", "follow_suit"),
        ("TH JH", "KH", "JH", "must_head"),
        ("TH JH", "KH", "TH", None),
        ("TH JH", "AH", "JH", None),  # cannot beat the ace: any heart
        ("TH JH", "KH AS", "JH", None),  # trick trumped (spades): any heart
        ("AS QD", "KH", "QD", "must_trump"),
        ("AS JS", "KH QS", "JS", "must_overtrump"),
        ("KS JS", "KH AS", "JS", None),  # cannot beat the trump: any trump
        ("QD QC", "KH", "QC", None),  # no hearts, no trumps: anything
        ("KS JS", "QS", "JS", "must_head"),  # trump led
    ],
)
def test_obligations(hand: str, played: str, card: str, rule: str | None) -> None:
    assert broken_rule(c(hand), c(played), parse_card(card), trump=0) == rule


def test_post_1945_heads_only_when_trump_is_led() -> None:
    assert broken_rule(c("TH JH"), c("KH"), parse_card("JH"), 0, "trump_led") is None
    assert broken_rule(c("AS JS"), c("KH QS"), parse_card("JS"), 0, "trump_led") is None
    assert broken_rule(c("AS QD"), c("KH"), parse_card("QD"), 0, "trump_led") == "must_trump"
    assert broken_rule(c("KS JS"), c("QS"), parse_card("JS"), 0, "trump_led") == "must_head"
    assert broken_rule(c("KH QS"), c("AH"), parse_card("QS"), 0, "trump_led") == "follow_suit"


SMALL = {"N": ["AH", "KS"], "E": ["KH", "QS"], "S": ["TH", "JH"], "W": ["JS", "QH"]}


def test_legal_play_reports_winners_and_counters() -> None:
    res = check_play("H", "N", SMALL, [["AH", "KH", "TH", "QH"], ["KS", "QS", "JH", "JS"]], PAGAT)
    assert res.legal and res.renege is None
    assert res.winners == ("N", "S")
    assert res.counters == {"NS": 6, "EW": 0}


def test_first_renege_is_named() -> None:
    res = check_play("S", "N", SMALL, [["KS", "KH", "TH", "JS"]], PAGAT)
    assert not res.legal and res.renege is not None
    assert (res.renege.trick, res.renege.seat, res.renege.card, res.renege.rule) == (
        1,
        "E",
        "KH",
        "follow_suit",
    )
    out = res.to_dict()
    assert out["renege"]["field"] == "tricks[0][1]"


def test_later_trick_is_led_by_the_winner() -> None:
    hands = {"N": ["AH", "JC"], "E": ["KH", "QC"], "S": ["TH", "AC"], "W": ["QH", "KC"]}
    res = check_play("D", "N", hands, [["AH", "KH", "TH", "QH"], ["JC", "QC", "AC", "KC"]], PAGAT)
    assert res.legal and res.winners == ("N", "S")
    # trick 2 must start with the winner of trick 1 (N): QC is E's card, not N's
    with pytest.raises(RulesError) as exc:
        check_play("D", "N", hands, [["AH", "KH", "TH", "QH"], ["QC", "JC", "AC", "KC"]], PAGAT)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("tricks[1][0]", "not_in_hand")


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"trump": "X"}, "trump", "bad_suit"),
        ({"leader": "Q"}, "leader", "bad_seat"),
        ({"hands": {**SMALL, "N": ["AH"]}}, "hands", "unequal_hands"),
        ({"hands": {**SMALL, "N": ["AH", "ZZ"]}}, "hands.N[1]", "bad_card"),
        ({"hands": {k: v for k, v in SMALL.items() if k != "W"}}, "hands.W", "required"),
        ({"tricks": [["AH", "KH", "TH"], ["KS"]]}, "tricks[0]", "bad_trick"),
        ({"tricks": [["AH", "KH", "TH", "AS"]]}, "tricks[0][3]", "not_in_hand"),
        ({"tricks": [["AH", "KH", "TH", "9H"]]}, "tricks[0][3]", "not_in_deck"),
    ],
)
def test_bad_play_input(data: dict[str, object], field: str, code: str) -> None:
    args: dict[str, object] = {
        "trump": "H",
        "leader": "N",
        "hands": SMALL,
        "tricks": [["AH", "KH", "TH", "QH"]],
    }
    args.update(data)
    with pytest.raises(RulesError) as exc:
        check_play(args["trump"], args["leader"], args["hands"], args["tricks"], PAGAT)  # type: ignore[arg-type]
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == (field, code)


def test_too_many_copies_across_hands() -> None:
    hands = {"N": ["AH", "AH"], "E": ["AH", "AH"], "S": ["AH", "KH"], "W": ["QH", "KH"]}
    with pytest.raises(RulesError) as exc:
        check_play("H", "N", hands, [], PAGAT)
    assert exc.value.errors[0].code == "too_many_copies"


def _simulate(
    rng: random.Random, rs_name: str, renege_at: int | None = None
) -> tuple[str, dict[str, list[str]], list[list[str]], tuple[int, str] | None]:
    rs = get_ruleset(rs_name)
    cards = rs.deck.cards()
    rng.shuffle(cards)
    n = rs.players
    size = rs.hand_size
    dealt = [cards[i * size : (i + 1) * size] for i in range(n)]
    trump = rng.randrange(4)
    remaining = [list(h) for h in dealt]
    leader = 0
    tricks: list[list[str]] = []
    made: tuple[int, str] | None = None
    step = 0
    while remaining[0]:
        played: list[int] = []
        order = [(leader + k) % n for k in range(n)]
        for p in order:
            allowed, _ = legal_cards(remaining[p], played, trump, rs.head_rule)
            illegal = [x for x in remaining[p] if x not in allowed]
            if renege_at is not None and made is None and step >= renege_at and illegal:
                card = rng.choice(illegal)
                made = (len(tricks) + 1, rs.seats[p])
            else:
                card = rng.choice(allowed)
            step += 1
            remaining[p].remove(card)
            played.append(card)
        tricks.append([card_str(x) for x in played])
        leader = order[trick_winner(played, trump)]
    hands = {rs.seats[i]: [card_str(x) for x in dealt[i]] for i in range(n)}
    return "SHDC"[trump], hands, tricks, made


@settings(max_examples=60, deadline=None)
@given(
    st.randoms(use_true_random=False),
    st.sampled_from(["pagat_double_deck", "three_handed", "cutthroat", "single_deck_partnership"]),
)
def test_random_legal_play_validates_and_conserves_counters(rng: random.Random, name: str) -> None:
    rs = get_ruleset(name)
    trump, hands, tricks, _ = _simulate(rng, name)
    res = check_play(trump, rs.seats[0], hands, tricks, rs)
    assert res.legal
    assert res.counters is not None
    total = rs.counters_total
    if rs.widow:  # the widow's counters are the declarer's discards, not in play
        total -= 0
        assert sum(res.counters.values()) <= total
    else:
        assert sum(res.counters.values()) == total


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 60))
def test_an_injected_renege_is_found(rng: random.Random, at: int) -> None:
    trump, hands, tricks, made = _simulate(rng, "pagat_double_deck", renege_at=at)
    res = check_play(trump, "N", hands, tricks, PAGAT)
    if made is None:
        assert res.legal
    else:
        assert res.renege is not None
        assert (res.renege.trick, res.renege.seat) == made


def test_decks_have_enough_cards_for_simulation() -> None:
    assert len(Deck.DOUBLE.cards()) == 80


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({"hands": {**SMALL, "N": ["AH"] * 21}}, "hands.N", "too_many_cards"),
        ({"hands": {**SMALL, "N": ["XX"] * 500_000}}, "hands.N", "too_many_cards"),
        ({"hands": {**SMALL, "n": ["AH", "KS"]}}, "hands.n", "bad_seat"),
        ({"hands": {f"k{i}": [] for i in range(100_000)}}, "hands", "bad_type"),
        ({"tricks": [["AH", "KH", "TH", "QH"]] * 100_000}, "tricks", "too_many_tricks"),
        ({"leader": "N" * 100_000}, "leader", "bad_seat"),
        ({"trump": 7}, "trump", "bad_suit"),
    ],
    ids=["21 cards", "500k cards", "lowercase seat", "many hands", "many tricks", "long", "7"],
)
def test_sizes_are_checked_before_contents(data: dict[str, object], field: str, code: str) -> None:
    args: dict[str, object] = {
        "trump": "H",
        "leader": "N",
        "hands": SMALL,
        "tricks": [["AH", "KH", "TH", "QH"]],
    }
    args.update(data)
    start = time.perf_counter()
    with pytest.raises(RulesError) as exc:
        check_play(args["trump"], args["leader"], args["hands"], args["tricks"], PAGAT)  # type: ignore[arg-type]
    assert time.perf_counter() - start < 0.5
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == (field, code)
    assert len(str(exc.value)) < 1_000


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 23), min_size=1, max_size=8),
    st.lists(st.integers(0, 23), min_size=1, max_size=3),
    st.integers(0, 3),
    st.sampled_from(["always", "trump_led"]),
)
def test_legal_cards_and_broken_rule_agree(
    hand: list[int], played: list[int], trump: int, head_rule: str
) -> None:
    allowed, rule = legal_cards(hand, played, trump, head_rule)
    assert allowed, "some card is always legal"
    for card in hand:
        broken = broken_rule(hand, played, card, trump, head_rule)
        assert (broken is None) == (card in allowed)
        if broken is not None:
            assert rule is not None

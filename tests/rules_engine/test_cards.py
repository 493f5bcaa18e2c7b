from __future__ import annotations

import time

import pytest

from rules_engine import Deck, RulesError, Suit, card_str, parse_card, parse_cards, parse_suit
from rules_engine.errors import MAX_ERRORS


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("AS", "AS"),
        ("TS", "TS"),
        ("10S", "TS"),
        ("10s", "TS"),
        ("ks", "KS"),
        ("Q♠", "QS"),
        ("J♦", "JD"),
        ("9♣", "9C"),
        ("A♥", "AH"),
        (" th ", "TH"),
        ("♠A", "AS"),
        ("S10", "TS"),
    ],
)
def test_card_tokens(token: str, expected: str) -> None:
    assert card_str(parse_card(token)) == expected


@pytest.mark.parametrize("token", ["", "X", "1S", "AX", "11H", "AAS", "ZZ"])
def test_bad_tokens_name_the_field(token: str) -> None:
    with pytest.raises(RulesError) as exc:
        parse_cards(["AS", token])
    assert exc.value.errors[0].field == "cards[1]"
    assert exc.value.errors[0].code == "bad_card"


def test_every_bad_token_is_reported() -> None:
    with pytest.raises(RulesError) as exc:
        parse_cards(["XX", "AS", "YY"])
    assert [e.field for e in exc.value.errors] == ["cards[0]", "cards[2]"]


def test_no_nines_in_a_double_deck() -> None:
    with pytest.raises(RulesError) as exc:
        parse_cards(["9S"], Deck.DOUBLE)
    assert exc.value.errors[0].code == "not_in_deck"
    assert parse_cards(["9S"], Deck.SINGLE) == [5]


def test_copies_are_limited_by_the_deck() -> None:
    parse_cards(["AS"] * 4, Deck.DOUBLE)
    parse_cards(["AS"] * 2, Deck.SINGLE)
    with pytest.raises(RulesError) as exc:
        parse_cards(["AS"] * 5, Deck.DOUBLE)
    assert exc.value.errors[0].code == "too_many_copies"
    assert "only 4" in exc.value.errors[0].message
    with pytest.raises(RulesError):
        parse_cards(["AS"] * 3, Deck.SINGLE)


def test_decks() -> None:
    assert Deck.DOUBLE.size == 80 == len(Deck.DOUBLE.cards())
    assert Deck.SINGLE.size == 48 == len(Deck.SINGLE.cards())


@pytest.mark.parametrize(("raw", "idx"), [("S", 0), ("h", 1), ("♦", 2), ("clubs", 3)])
def test_suits(raw: str, idx: int) -> None:
    assert parse_suit(raw) == idx


def test_bad_suit() -> None:
    with pytest.raises(RulesError) as exc:
        parse_suit("X")
    assert exc.value.errors[0].field == "trump"


def test_a_huge_list_of_bad_cards_fails_fast_with_a_short_answer() -> None:
    tokens = ["XX" * 10] * 500_000  # about 10 MB of text
    start = time.perf_counter()
    with pytest.raises(RulesError) as exc:
        parse_cards(tokens, Deck.DOUBLE)
    assert time.perf_counter() - start < 0.5
    assert len(exc.value.errors) == MAX_ERRORS + 1
    assert exc.value.errors[-1].code == "too_many_errors"
    assert len(str(exc.value)) < 5_000


def test_card_messages_never_echo_a_huge_token() -> None:
    with pytest.raises(RulesError) as exc:
        parse_cards(["A" * 10_000_000, 10**5000])
    assert len(str(exc.value)) < 500


def test_suits_are_an_enum_with_labels() -> None:
    assert [s.label for s in Suit] == ["spades", "hearts", "diamonds", "clubs"]
    assert [parse_suit(s) for s in Suit] == [0, 1, 2, 3]

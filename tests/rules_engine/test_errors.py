"""The one error type, and the helpers that keep its messages short whatever the input."""

from __future__ import annotations

import pytest

from rules_engine import FieldError, RulesError
from rules_engine.errors import MAX_ERRORS
from rules_engine.inputs import HUGE, key_text, read_int_literal, shown, whole_number


def test_errors_are_capped_with_a_note() -> None:
    exc = RulesError(FieldError(f"cards[{i}]", "bad_card", "no") for i in range(1000))
    assert len(exc.errors) == MAX_ERRORS + 1
    assert [e.field for e in exc.errors[:MAX_ERRORS]] == [f"cards[{i}]" for i in range(20)]
    note = exc.errors[-1]
    assert (note.field, note.code) == ("cards[20]", "too_many_errors")
    # prefixing keeps the cap and the note
    again = exc.prefixed("hands[0].")
    assert len(again.errors) == MAX_ERRORS + 1
    assert again.errors[0].field == "hands[0].cards[0]"


def test_a_producer_is_not_read_past_the_cap() -> None:
    def endless():  # type: ignore[no-untyped-def]
        n = 0
        while True:
            yield FieldError(str(n), "x", "x")
            n += 1

    assert len(RulesError(endless()).errors) == MAX_ERRORS + 1


def test_exactly_the_cap_gets_no_note() -> None:
    exc = RulesError(FieldError(str(i), "x", "x") for i in range(MAX_ERRORS))
    assert len(exc.errors) == MAX_ERRORS and exc.errors[-1].code == "x"


def test_no_errors_is_a_programming_error() -> None:
    with pytest.raises(ValueError):
        RulesError([])


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (51, "51"),
        (True, "True"),
        ("AS", "'AS'"),
        (10**5000, "a number with more than 15 digits"),
        (-(10**20), "a number with more than 15 digits"),
        ("x" * 1000, "'" + "x" * 40 + "'… (1,000 characters)"),
        ([10**5000, "y" * 1000], None),
        ({"a": [[[[1]]]]}, None),
    ],
    ids=["int", "bool", "str", "huge", "negative", "long str", "list", "deep"],
)
def test_shown_is_always_short(value: object, text: str | None) -> None:
    out = shown(value)
    assert len(out) < 120
    if text is not None:
        assert out == text


def test_key_text() -> None:
    assert key_text("NS") == "NS"
    assert key_text("k" * 100) == "k" * 40 + "…"
    assert key_text(7) == "7"
    assert key_text("a\nb") == "'a\\nb'"


@pytest.mark.parametrize(
    ("value", "number"),
    [
        (51, 51),
        (51.0, 51),
        (" 51 ", 51),
        ("-5", -5),
        ("+5", 5),
        ("9" * 5000, HUGE),
        ("-" + "9" * 5000, -HUGE),
        (51.5, None),
        (float("nan"), None),
        (float("inf"), None),
        ("²", None),
        ("٣", None),
        ("5 1", None),
        ("", None),
        (True, None),
        (None, None),
        ([51], None),
    ],
    ids=shown,
)
def test_whole_number(value: object, number: int | None) -> None:
    assert whole_number(value) == number


def test_long_json_numbers_are_read_as_huge() -> None:
    assert read_int_literal("123") == 123
    assert read_int_literal("1" * 31) == HUGE
    assert read_int_literal("-" + "1" * 5000) == -HUGE

"""The archive's writer: the same bytes as the standard library's indented JSON, faster."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.format import dumps


def _reference(value: Any) -> bytes:
    return (json.dumps(value, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode()


def test_the_bytes_are_those_of_json_dumps_with_indent() -> None:
    value = {
        "empty": [], "nothing": {}, "text": "é \u2028 \" \\ \n \x00 ♠",
        "numbers": [1, -0.0, 2.5, 1e300, 10**30, True, False, None],
        1: {2.5: [[], [{}]], None: {True: ({"deep": [1, [2, [3]]]},)}},
        "pair": (1, "x"),
    }
    assert dumps(value) == _reference(value)


@pytest.mark.parametrize("bad", [{"x": math.nan}, {"x": math.inf}, {"x": object()},
                                 {(1,): 2}])
def test_what_json_refuses_is_refused(bad: dict[Any, Any]) -> None:
    with pytest.raises((ValueError, TypeError)) as expected:
        _reference(bad)
    with pytest.raises(expected.type):
        dumps(bad)


_plain = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                   st.floats(allow_nan=False, allow_infinity=False))
_keys = st.one_of(st.text(max_size=4), st.integers(-3, 3), st.none(), st.booleans(),
                  st.sampled_from([2.5, -0.0]))
_json = st.recursive(_plain, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.tuples(inner, inner),
    st.dictionaries(_keys, inner, max_size=6)), max_leaves=30)


@given(_json)
@settings(max_examples=300, deadline=None)
def test_any_mix_of_plain_values_and_nesting_gives_the_same_bytes(value: Any) -> None:
    """Runs of plain values go to the C encoder, nested values between them do not: dicts and
    lists mixing both, at any depth, are written as the standard library writes them."""
    assert dumps(value) == _reference(value)


def test_a_row_of_plain_values_then_a_nested_one_then_plain_again() -> None:
    row = {"round": 1, "table": 2, "text": "a,\n b: {c}", "totals": {"NS": 3, "EW": -1},
           "when": None, "meld": [], "points": {"NS": [1, {"x": 2.5}]}, "last": True}
    assert dumps([row, row]) == _reference([row, row])

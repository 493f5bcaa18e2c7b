"""The archive's writer: the same bytes as the standard library's indented JSON, faster."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

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

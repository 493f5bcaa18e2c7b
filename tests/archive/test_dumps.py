"""The archive's writer: one record per line, read back as the standard library wrote it."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from archive.format import dumps


def _reference(value: Any) -> bytes:
    return (json.dumps(value, ensure_ascii=False, allow_nan=False) + "\n").encode()


def _same_value(value: Any) -> None:
    assert json.loads(dumps(value)) == json.loads(_reference(value))


def test_a_section_s_rows_one_per_line_and_the_archive_one_key_per_line() -> None:
    archive = {
        "format": "x", "version": 1, "club": {"slug": "c", "ruleset_overrides": {"b": 1}},
        "players": [{"id": 1, "name": "Zoë \u2028 \"q\""}, {"id": 2, "name": "B"}],
        "hands": [{"round": 1, "revisions": [{"revision": 1, "meld": {"NS": 20}}]}],
        "log": [],
        "standings": {"tie_breaks": ["total"], "rows": [{"place": 1}], "placements": []},
    }
    assert dumps(archive).decode() == (
        '{\n'
        ' "format": "x",\n'
        ' "version": 1,\n'
        ' "club": {"slug": "c", "ruleset_overrides": {"b": 1}},\n'
        ' "players": [\n'
        '  {"id": 1, "name": "Zoë \u2028 \\"q\\""},\n'
        '  {"id": 2, "name": "B"}\n'
        ' ],\n'
        ' "hands": [\n'
        '  {"round": 1, "revisions": [{"revision": 1, "meld": {"NS": 20}}]}\n'
        ' ],\n'
        ' "log": [],\n'
        ' "standings": {\n'
        '  "tie_breaks": ["total"],\n'
        '  "rows": [\n'
        '   {"place": 1}\n'
        '  ],\n'
        '  "placements": []\n'
        ' }\n'
        '}\n')
    _same_value(archive)


def test_keys_and_values_of_every_kind_read_back_as_json_wrote_them() -> None:
    value = {
        "empty": [], "nothing": {}, "text": "é \u2028 \" \\ \n \x00 ♠",
        "numbers": [1, -0.0, 2.5, 1e300, 10**30, True, False, None],
        1: {2.5: [[], [{}]], None: {True: ({"deep": [1, [2, [3]]]},)}},
        "pair": (1, "x"), "rows": ({False: 1}, {-0.0: [{"a": 1}]}),
    }
    _same_value(value)


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
    st.dictionaries(_keys, inner, max_size=6),
    st.lists(st.dictionaries(_keys, inner, max_size=4), min_size=1, max_size=4)), max_leaves=30)


@given(_json)
@settings(max_examples=300, deadline=None)
def test_any_mix_of_rows_objects_and_plain_values_reads_back_the_same(value: Any) -> None:
    """Rows, objects holding rows and everything else, at any depth, read back as what the
    standard library writes; a list of objects has one per line, anything but an object on a
    line of its own."""
    _same_value(value)
    body = dumps(value).decode().split("\n")
    assert body.pop() == ""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, dict) for v in value):
        assert body[0] == "[" and body[-1] == "]"
        assert [json.loads(line.strip().rstrip(",")) for line in body[1:-1]] == [
            json.loads(json.dumps(v)) for v in value]
    elif not isinstance(value, dict):
        assert len(body) == 1

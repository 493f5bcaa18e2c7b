"""Reading untrusted values: whole numbers, field names and values quoted in messages.

Input reaches the engine from phones, scripts and the command line, so any value may be of the
wrong type, absurdly large or megabytes long. The helpers here make sure that reading such a
value gives a field error and that quoting it in a message stays short.
"""

from __future__ import annotations

import re
import reprlib

__all__ = ["HUGE", "MAX_DIGITS", "shown", "named", "key_text", "whole_number", "read_int_literal"]

# No count, bid, score or option in any pinochle game needs more digits than this. Longer
# numerals are read as HUGE (with their sign) instead of being converted: Python refuses to
# convert numerals over 4,300 digits, and every range check rejects HUGE anyway.
MAX_DIGITS = 30
HUGE: int = 10**MAX_DIGITS

_NUMERAL = re.compile(r"[+-]?[0-9]+")
_SHORT = 40


class _Repr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxstring = _SHORT
        self.maxother = _SHORT
        self.maxlist = self.maxtuple = self.maxset = self.maxdict = 6
        self.maxlevel = 2

    def repr_int(self, x: int, level: int) -> str:
        return _int_text(x)


_repr = _Repr()


def _int_text(n: int) -> str:
    # str() of a huge int is slow and may raise (over 4,300 digits), so judge by size alone
    if -(10**15) < n < 10**15:
        return str(n)
    return "a number with more than 15 digits"


def shown(value: object) -> str:
    """``value`` as a message may quote it: a short repr, huge numbers described by size."""
    if isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return _int_text(value)
    if isinstance(value, str) and len(value) > _SHORT:
        return f"{value[:_SHORT]!r}… ({len(value):,} characters)"
    return _repr.repr(value)


def named(noun: str, n: int) -> str:
    """``bid 55``, or ``a bid of more than 15 digits`` when the number is too long to print."""
    if -(10**15) < n < 10**15:
        return f"{noun} {n}"
    return f"a {noun} of more than 15 digits"


def key_text(key: object) -> str:
    """A mapping key as it may appear in a field name (``meld.<key>``): short and printable."""
    if isinstance(key, str) and key[: _SHORT + 1].isprintable():
        return key if len(key) <= _SHORT else key[:_SHORT] + "…"
    return shown(key)


def read_int_literal(text: str) -> int:
    """A JSON integer literal to an int; over-long ones become ``±HUGE`` (see :data:`HUGE`)."""
    if len(text.lstrip("+-")) > MAX_DIGITS:
        return -HUGE if text.startswith("-") else HUGE
    return int(text)


def whole_number(value: object) -> int | None:
    """An int from an int, an integral float or a string of ASCII digits; None otherwise.

    Booleans are not numbers here (``True`` is not a bid of 1).
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        # inf and nan are not integral; 1e300 is, and range checks reject it
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        text = value.strip()
        # \d and str.isdigit() accept digits like "²" that int() then refuses
        if _NUMERAL.fullmatch(text):
            number: int = read_int_literal(text)
            return number
    return None

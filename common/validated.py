"""Reading a serializer's valid data with its types.

A director's action (``tournaments.api_actions.DirectorAction``) hands ``act`` the input
serializer's ``validated_data`` as a mapping of names to values. Its input serializer has
already refused anything of the wrong shape (400, naming the field), so each reader here only
states the type the field gives: a ``BooleanField`` a ``bool``, an ``IntegerField`` an ``int``,
a ``ListField`` of integers a ``list[int]``. A value of another type is a mistake in the code
(an input serializer that does not declare the field), never a client's: ``TypeError``.
"""

from __future__ import annotations

from collections.abc import Mapping


def _wrong(key: str, what: str, value: object) -> TypeError:
    return TypeError(f"valid data: {key!r} is {type(value).__name__}, not {what}")


def flag(data: Mapping[str, object], key: str) -> bool:
    """A ``BooleanField``'s value."""
    value = data[key]
    if not isinstance(value, bool):
        raise _wrong(key, "bool", value)
    return value


def whole(data: Mapping[str, object], key: str) -> int:
    """An ``IntegerField``'s value."""
    value = data[key]
    if not isinstance(value, int) or isinstance(value, bool):
        raise _wrong(key, "int", value)
    return value


def text(data: Mapping[str, object], key: str) -> str:
    """A ``CharField``'s or ``ChoiceField``'s value."""
    value = data[key]
    if not isinstance(value, str):
        raise _wrong(key, "str", value)
    return value


def wholes(data: Mapping[str, object], key: str) -> list[int]:
    """A ``ListField`` of integers."""
    value = data[key]
    if not isinstance(value, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in value):
        raise _wrong(key, "a list of int", value)
    return value


def optional_wholes(data: Mapping[str, object], key: str) -> list[int] | None:
    """A ``ListField`` of integers that may be null."""
    return None if data[key] is None else wholes(data, key)

"""The API's JSON parser: what DRF's accepts, less the bodies that would crash a request later.

DRF's ``JSONParser`` hands on whatever ``json.load`` returns. Three kinds of body got through it
and ended in a 500 instead of a 400:

* nesting deeper than the interpreter's recursion limit (``json`` raises ``RecursionError``, which
  is not a ``ValueError``), and nesting merely very deep, which code walking the data recursively
  trips over later;
* strings that are not valid Unicode: a JSON escape may name half of a surrogate pair
  (``"\\ud800"``), which no UTF-8 encoder (PostgreSQL's, or the JSON renderer echoing an error)
  accepts;
* numbers too large for a float (``1e999`` is infinity), which no JSON column stores;
* the NUL character in a string or key (``"\\u0000"``), which no text or JSON column of
  PostgreSQL stores.

Each is refused here with a 400 in the house error shape, naming the field where it can.
"""

from __future__ import annotations

import codecs
import math
from collections.abc import Mapping
from typing import IO, Any, cast

from django.conf import settings
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser
from rest_framework.settings import api_settings
from rest_framework.utils import json

# Far deeper than any request body of the API (a hand is three levels deep), far shallower than
# anything recursion could trip over.
MAX_DEPTH = 32


def _encoding(parser_context: Mapping[str, object]) -> str:
    """The body's charset, a text codec only (as DRF's parser checks: a bytes-to-bytes codec
    such as ``bz2_codec`` would decompress the body past the upload size limit)."""
    encoding = str(parser_context.get("encoding") or settings.DEFAULT_CHARSET)
    try:
        "".encode(encoding)
    except (LookupError, UnicodeError):
        raise ParseError(f'Unsupported charset "{encoding}" in request Content-Type header.') from None
    return encoding


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:20]} is out of range")
    return value


def _printable(text: str) -> str:
    """``text`` safe to echo in an error: invalid code points become backslash escapes."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_json_value(data: object, *, max_depth: int = MAX_DEPTH) -> None:
    """Raise a 400 (``ValidationError`` naming the field, or ``ParseError``) when ``data`` nests
    deeper than ``max_depth`` or holds a string or key that is not valid Unicode. Iterative, so
    it cannot itself run out of stack."""
    stack: list[tuple[object, str, int]] = [(data, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if isinstance(value, str):
            if not _is_unicode(value):
                raise serializers.ValidationError(
                    {path or "__all__": ["Text must be valid Unicode (this has a lone surrogate "
                                         "code point)."]}
                )
            if "\x00" in value:
                raise serializers.ValidationError(
                    {path or "__all__": ["Null characters are not allowed."]})
        elif isinstance(value, (Mapping, list)):
            if depth >= max_depth:
                raise ParseError(f"JSON nested deeper than {max_depth} levels.")
            if isinstance(value, Mapping):
                for key, item in value.items():
                    name = _printable(str(key))
                    if not _is_unicode(str(key)):
                        raise serializers.ValidationError(
                            {path or "__all__": [f"Key {name!r} is not valid Unicode."]}
                        )
                    if "\x00" in str(key):
                        raise serializers.ValidationError(
                            {path or "__all__": ["Null characters are not allowed in a key."]})
                    stack.append((item, f"{path}.{name}" if path else name, depth + 1))
            else:
                stack.extend((item, path, depth + 1) for item in value)


class SafeJSONParser(JSONParser):
    """DRF's JSON parser, refusing (400) the bodies described in the module docstring."""

    def parse(self, stream: Any, media_type: str | None = None,
              parser_context: Mapping[str, Any] | None = None) -> Any:
        encoding = _encoding(parser_context or {})
        try:
            decoded = cast(IO[str], codecs.getreader(encoding)(stream))
            parse_constant = json.strict_constant if api_settings.STRICT_JSON else None
            data = json.load(decoded, parse_constant=parse_constant, parse_float=_finite_float)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels.") from None
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {_printable(str(exc))}") from None
        check_json_value(data)
        return data

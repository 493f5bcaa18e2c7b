"""What a visitor asked the search for: ``q`` read into words and, where it names one, a date.

A query is text of 2 to :data:`Q_MAX` characters (spaces collapsed). A date in it narrows the
events to that day, month or year: ``2024-05-11``, ``2024-05``, ``May 2024``, ``11 May 2024`` or
a year alone (``2024``); the rest of the text is the name searched for (clubs and players are
found by that text only, so a query that is only a date finds events only). Anything else is
refused with the field ``q`` (``kind`` and ``page`` for the other parameters).
"""

from __future__ import annotations

import calendar
import datetime
import re
from dataclasses import dataclass

from django.utils.translation import gettext

from common.errors import DomainError

Q_MIN = 2
Q_MAX = 100
KINDS = ("clubs", "events", "players")
# Pages past this one are not served: a search is read from the top (page * page size rows of
# each kind are ranked to serve a page).
PAGE_MAX = 50

_MONTHS = {name.lower(): number for number, name in enumerate(calendar.month_name) if name}
_MONTHS |= {name.lower(): number for number, name in enumerate(calendar.month_abbr) if name}
_ISO_DAY = re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")
_ISO_MONTH = re.compile(r"\b(\d{4})-(\d{1,2})\b")
_NAMED = re.compile(r"\b(?:(\d{1,2})\s+)?([A-Za-z]{3,9})\.?\s+(\d{4})\b")
_YEAR = re.compile(r"\b(1[89]\d\d|2\d\d\d)\b")
# A word as the full-text query takes it: letters and digits only (tsquery's syntax never
# reaches the database from a visitor's text).
_WORD = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class Terms:
    """A query read: ``text`` (the name searched for, maybe empty when a date was given),
    ``words`` (its words, for the full-text match) and the dates it names (inclusive)."""

    raw: str
    text: str
    words: tuple[str, ...]
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None

    @property
    def has_date(self) -> bool:
        return self.date_from is not None


def _date(year: int, month: int, day: int | None) -> tuple[datetime.date, datetime.date] | None:
    try:
        if day is not None:
            found = datetime.date(year, month, day)
            return found, found
        last = calendar.monthrange(year, month)[1]
        return datetime.date(year, month, 1), datetime.date(year, month, last)
    except ValueError:
        return None


def _take_date(text: str) -> tuple[str, tuple[datetime.date, datetime.date] | None]:
    """The date ``text`` names (the first one, most precise form first) and the text without it."""
    for pattern in (_ISO_DAY, _NAMED, _ISO_MONTH, _YEAR):
        for match in pattern.finditer(text):
            span: tuple[datetime.date, datetime.date] | None
            if pattern is _ISO_DAY:
                span = _date(int(match[1]), int(match[2]), int(match[3]))
            elif pattern is _ISO_MONTH:
                span = _date(int(match[1]), int(match[2]), None)
            elif pattern is _NAMED:
                month = _MONTHS.get(match[2].lower())
                span = _date(int(match[3]), month, int(match[1]) if match[1] else None) \
                    if month else None
            else:
                year = int(match[1])
                span = datetime.date(year, 1, 1), datetime.date(year, 12, 31)
            if span is not None:
                rest = f"{text[:match.start()]} {text[match.end():]}"
                return " ".join(rest.split()), span
    return text, None


def terms_read(raw: str | None) -> Terms:
    """``q`` as the search takes it, or a refusal naming ``q``."""
    text = " ".join((raw or "").split())
    if not text:
        raise DomainError(gettext("Type something to search for: a club, an event, a player or a date."),
                          field="q", code="required")
    if len(text) < Q_MIN:
        raise DomainError(gettext("Type at least %(q_min)s characters.") % {"q_min": Q_MIN}, field="q", code="min_length")
    if len(text) > Q_MAX:
        raise DomainError(gettext("A search is at most %(q_max)s characters.") % {"q_max": Q_MAX}, field="q",
                          code="max_length")
    rest, span = _take_date(text)
    words = tuple(word.lower() for word in _WORD.findall(rest))
    if span is None and not words:
        raise DomainError(gettext("Search for letters or digits: a name, a place or a date."),
                          field="q", code="invalid")
    name = rest if words else ""
    return Terms(raw=text, text=name, words=words,
                 date_from=span[0] if span else None, date_to=span[1] if span else None)


def kind_read(raw: str | None) -> str:
    """``kind``: one of :data:`KINDS`, or empty for all of them."""
    kind = (raw or "").strip()
    if kind and kind not in KINDS:
        raise DomainError(gettext("A kind is one of: %(values)s (or empty for all).") % {"values": ', '.join(KINDS)},
                          field="kind", code="invalid_choice")
    return kind


def page_read(raw: str | None, *, maximum: int = PAGE_MAX) -> int:
    """``page``: a whole number from 1 to ``maximum`` (empty: 1)."""
    text = (raw or "").strip()
    if not text:
        return 1
    if not (text.isascii() and text.isdigit() and len(text) <= 9) or not 1 <= int(text) <= maximum:
        raise DomainError(gettext("A page is a whole number from 1 to %(maximum)s.") % {"maximum": maximum}, field="page",
                          code="invalid")
    return int(text)

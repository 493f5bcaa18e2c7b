"""Words and choices for the engine's enums, in one place for forms, pages, the API and the
database constraints. Values and labels come from the rules engine's enums; only the short forms
that a phone tile needs are chosen here."""

from __future__ import annotations

from django.utils.translation import gettext

from rules_engine import ALL_SEATS, Outcome, Result, Side, Suit, seat_label
from rules_engine.i18n import Text

# every seat a table may have, clockwise from North (three and four players use the four
# cardinal points)
SEATS: tuple[str, ...] = tuple(ALL_SEATS)
# the partnerships of a four-player table (at other tables each seat is its own side)
SIDES: tuple[str, ...] = tuple(s.value for s in Side)
SUITS: tuple[str, ...] = tuple(s.value for s in Suit)
OUTCOMES: tuple[str, ...] = tuple(o.value for o in Outcome)
RESULTS: tuple[str, ...] = tuple(r.value for r in Result)

SEAT_NAMES = {s: seat_label(s) for s in ALL_SEATS}
SUIT_SYMBOLS = {s.value: s.symbol for s in Suit}
SUIT_NAMES = {s.value: s.label.capitalize() for s in Suit}
# Tiles on a phone are narrow: the no-marriage outcome is shown by its result's name.
OUTCOME_LABELS = {
    o.value: (Result.BOARD_SET.label if o is Outcome.NO_MARRIAGE
              else "Technical misdeal" if o is Outcome.TECHNICAL_MISDEAL else o.label)
    for o in Outcome
}
RESULT_LABELS = {r.value: r.label for r in Result}

SEAT_CHOICES = list(SEAT_NAMES.items())
SUIT_CHOICES = list(SUIT_NAMES.items())
OUTCOME_CHOICES = list(OUTCOME_LABELS.items())


def translated(message: str) -> str:
    """A pure package's text (a refusal's message, a label) in the reader's language: a
    ``rules_engine.i18n.Text`` by its template, its values filled in again; any other text
    looked up as it is (unchanged when the catalog does not have it, e.g. a message a service
    already translated with ``gettext``)."""
    if isinstance(message, Text):
        if not message.params:
            return gettext(message.template)
        # a value that is itself a marked text (a core's refusal quoted in another) too
        params = {k: translated(v) if isinstance(v, Text) else v
                  for k, v in message.params.items()}
        return gettext(message.template) % params
    return gettext(message) if message else message


def translated_errors(errors: list[dict[str, object]]) -> list[dict[str, object]]:
    """The API's error list with each message in the reader's language."""
    return [{**e, "message": translated(message)} if isinstance(message := e.get("message"), str)
            else e for e in errors]

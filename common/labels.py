"""Words and choices for the engine's enums, in one place for forms, pages, the API and the
database constraints. Values and labels come from the rules engine's enums; only the short forms
that a phone tile needs are chosen here."""

from __future__ import annotations

from django.utils.functional import lazy
from django.utils.translation import get_language, gettext, gettext_lazy, ngettext, pgettext

from rules_engine import ALL_SEATS, Outcome, Result, Side, Suit, seat_label
from rules_engine.i18n import Text, gettext_noop

# every seat a table may have, clockwise from North (three and four players use the four
# cardinal points)
SEATS: tuple[str, ...] = tuple(ALL_SEATS)

# the partnerships of a four-player table (at other tables each seat is its own side)
SIDES: tuple[str, ...] = tuple(s.value for s in Side)
SUITS: tuple[str, ...] = tuple(s.value for s in Suit)
OUTCOMES: tuple[str, ...] = tuple(o.value for o in Outcome)
RESULTS: tuple[str, ...] = tuple(r.value for r in Result)


def _capitalized_now(label: str) -> str:
    return gettext(label).capitalize()


_capitalized = lazy(_capitalized_now, str)

# The names people read, in the reader's language (lazy: looked up when shown).
SEAT_NAMES: dict[str, str] = {s: gettext_lazy(seat_label(s)) for s in ALL_SEATS}  # type: ignore[misc]
SUIT_SYMBOLS = {s.value: s.symbol for s in Suit}
SUIT_NAMES: dict[str, str] = {s.value: _capitalized(s.label) for s in Suit}
# Tiles on a phone are narrow: the no-marriage outcome is shown by its result's name.
OUTCOME_LABELS: dict[str, str] = {
    o.value: gettext_lazy(Result.BOARD_SET.label if o is Outcome.NO_MARRIAGE  # type: ignore[misc]
                          else gettext_noop("Technical misdeal")
                          if o is Outcome.TECHNICAL_MISDEAL else o.label)
    for o in Outcome
}
RESULT_LABELS: dict[str, str] = {r.value: gettext_lazy(r.label) for r in Result}  # type: ignore[misc]

SEAT_CHOICES = list(SEAT_NAMES.items())
SUIT_CHOICES = list(SUIT_NAMES.items())
OUTCOME_CHOICES = list(OUTCOME_LABELS.items())


def translated(message: str) -> str:
    """A pure package's text (a refusal's message, a label) in the reader's language: a
    ``rules_engine.i18n.Text`` by its template, its values filled in again; any other text
    looked up as it is (unchanged when the catalog does not have it, e.g. a message a service
    already translated with ``gettext``)."""
    if isinstance(message, Text):
        template = (ngettext(message.template, message.plural, message.number) if message.plural
                    else gettext(message.template) if message.template else "")
        if not message.params:
            return template
        # a value may be a text of its own ("of 4 deals" in "3 rounds of 4 deals")
        params = {k: translated(v) if isinstance(v, Text) else v
                  for k, v in message.params.items()}
        return (template % params).strip()
    return gettext(message) if message else message


def translated_lines(lines: list[str]) -> list[str]:
    """A pure package's sentences (a format's rules, a rulebook's lines) in the reader's
    language."""
    return [translated(line) for line in lines]


def translated_errors(errors: list[dict[str, object]]) -> list[dict[str, object]]:
    """The API's error list with each message in the reader's language."""
    return [{**e, "message": translated(message)} if isinstance(message := e.get("message"), str)
            else e for e in errors]


def sitting_word(sitting: str) -> str:
    """An event's word for one sitting of every table inside a sentence ("round", "game"), in
    the reader's language (German: "Runde", "Partie": both feminine, so a sentence around the
    word reads right for either)."""
    return pgettext("sitting", "game") if sitting == "game" else pgettext("sitting", "round")


def sitting_title(sitting: str) -> str:
    """The word at the start of a label: "Round", "Game"."""
    return pgettext("sitting", "Game") if sitting == "game" else pgettext("sitting", "Round")


def sittings_title(sitting: str) -> str:
    """The heading over all of an event's sittings: "Rounds", "Games"."""
    return pgettext("sitting", "Games") if sitting == "game" else pgettext("sitting", "Rounds")


def lower_in_english(label: object) -> str:
    """A label said inside a sentence: lower-cased in English ("the semi-final", "is
    waitlisted"), as it is in German, where a noun keeps its capital ("Halbfinale",
    "Auf der Warteliste")."""
    return str(label).lower() if reads_english() else str(label)


def reads_english() -> bool:
    """Whether the reader's language is English (whose phrases lower-case a label and put
    "the" before a name: German keeps the noun's capital and needs no article there)."""
    return (get_language() or "en").startswith("en")

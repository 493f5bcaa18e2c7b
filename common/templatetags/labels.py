"""``{{ text|translated }}``: a pure package's text (a ruleset's title, a format's sentence,
marked with ``rules_engine.i18n``) in the reader's language (``common.labels.translated``);
``{{ event.sitting|sitting_word }}`` ("round", "Runde") inside a sentence,
``|sitting_title`` ("Round", "Runde") at the start of a label and ``|sittings_title``
("Rounds", "Runden") as a heading: an event's word for a sitting in the reader's language
(``event.sitting`` itself is the stored English key); ``{{ label|lower_in_english }}``: a label
inside a sentence, lower-cased in English only (German nouns keep their capital)."""

from __future__ import annotations

from django import template

from common import labels

register = template.Library()


@register.filter
def translated(value: object) -> object:
    return labels.translated(value) if isinstance(value, str) else value


@register.filter
def lower_in_english(label: object) -> str:
    """A label said inside a sentence: lower-cased in English ("a table talk penalty"), as it
    is in German, where a noun keeps its capital ("Tischgespräch")."""
    return labels.lower_in_english(label)


@register.filter
def sitting_word(sitting: str) -> str:
    return labels.sitting_word(sitting)


@register.filter
def sitting_title(sitting: str) -> str:
    return labels.sitting_title(sitting)


@register.filter
def sittings_title(sitting: str) -> str:
    return labels.sittings_title(sitting)

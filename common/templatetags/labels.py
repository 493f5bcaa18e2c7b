"""``{{ text|translated }}``: a pure package's text (a ruleset's title, a format's sentence,
marked with ``rules_engine.i18n``) in the reader's language (``common.labels.translated``)."""

from __future__ import annotations

from django import template

from common.labels import translated as translated_text

register = template.Library()


@register.filter
def translated(value: object) -> object:
    return translated_text(value) if isinstance(value, str) else value

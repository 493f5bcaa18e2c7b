"""Figures on the profile page: a share as a percentage, an average to one decimal, and a
dash where there is nothing to show."""

from __future__ import annotations

from decimal import Decimal

from django import template

register = template.Library()


@register.filter
def percent(share: float | Decimal | None) -> str:
    """0.4167 → "42%"; None → "–"."""
    return "–" if share is None else f"{float(share) * 100:.0f}%"


@register.filter
def figure(value: float | Decimal | None) -> str:
    """An average to one decimal (whole numbers as they are); None → "–"."""
    if value is None:
        return "–"
    number = float(value)
    return str(int(number)) if number.is_integer() else f"{number:.1f}"

"""Template filters for ratings: the rating shown, and its uncertainty in words."""

from __future__ import annotations

from collections.abc import Mapping

from django import template

register = template.Library()


@register.filter
def rating_range(rating: Mapping[str, float] | None) -> str:
    """'27.3 ± 4.1': the skill estimate and twice its uncertainty (about 95 % sure)."""
    if not rating:
        return ""
    return f"{rating['mu']:.1f} ± {2 * rating['sigma']:.1f}"

"""The site navigation's questions about the signed-in user."""

from __future__ import annotations

from django import template

from clubs.permissions import directs_any_club

register = template.Library()


@register.simple_tag(takes_context=True)
def directs_a_club(context: template.Context) -> bool:
    """True for a user who directs or owns a club: only they are offered "API" and "API token"
    (a player scores from the table's phone page and has no use for either)."""
    request = context.get("request")
    return directs_any_club(user=getattr(request, "user", None))

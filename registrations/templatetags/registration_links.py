"""The event page's registration links: ``{% registration_open event as open %}``."""

from __future__ import annotations

from django import template
from django.utils import timezone

from tournaments.models import Event

from ..selectors import registration_refusal, registration_settings

register = template.Library()


@register.simple_tag
def registration_open(event: Event) -> bool:
    """Whether the event's registration form takes registrations now."""
    return not registration_refusal(registration_settings(event), now=timezone.now())

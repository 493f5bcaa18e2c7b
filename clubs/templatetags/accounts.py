"""Template helpers for the account pages."""

from __future__ import annotations

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def mail_goes_to_terminal() -> bool:
    """True when e-mails are printed by the server (the embedded default's console backend)
    instead of sent: the pages then say where to find the link."""
    return str(settings.EMAIL_BACKEND).endswith("console.EmailBackend")

"""The club pages' shortcuts to a new event of each format that offers one (the registry's
``shortcut``): "New club night · New progressive tournament · New pairs event"."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.text import slugify

import formats
from clubs.models import Club

register = template.Library()


@register.simple_tag
def new_event_links(club: Club) -> SafeString:
    url = reverse("event-create", args=[club.slug])
    links = [(f"{url}?format={f.name}" if f.name != formats.DEFAULT else url,
              slugify(f.shortcut), f.shortcut)
             for f in formats.REGISTERED if f.shortcut]
    return format_html_join(" · ", '<a href="{}" id="{}">{}</a>', links)

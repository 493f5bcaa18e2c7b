"""``{{ value|grouped }}``: a figure people read (a total, a count of hands) grouped in
thousands as the reader's language writes it (German 1.234, English 1,234), while ids in URLs and
``data-*`` attributes stay plain digits (``USE_THOUSAND_SEPARATOR`` stays off)."""

from __future__ import annotations

from django import template
from django.utils.formats import get_format
from django.utils.numberformat import format as number_format

register = template.Library()


@register.filter
def grouped(value: object) -> object:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    return number_format(value, get_format("DECIMAL_SEPARATOR"),
                         grouping=get_format("NUMBER_GROUPING"),
                         thousand_sep=get_format("THOUSAND_SEPARATOR"), force_grouping=True)

"""``{{ amount|money:currency }}``: a prize as the reader expects it, with its currency
(``ranking.prizes.money_text``: ``$500.00``, ``500.00 EUR``), wherever a page shows one."""

from __future__ import annotations

from django import template

from ranking.prizes import money_text

register = template.Library()


@register.filter
def money(amount: object, currency: str | None = "") -> str:
    return money_text(amount, currency)

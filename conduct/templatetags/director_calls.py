"""``{% table_call table %}``: the table phone's "Call the director" region, drawn from the
table's calls (``conduct.selectors.table_call_state``). The table's page (``scoring``, a lower
layer that never imports this app) loads it by name, as it names other apps' URLs."""

from __future__ import annotations

from django import template

from conduct.selectors import table_call_state
from tournaments.models import Table

register = template.Library()


@register.inclusion_tag("conduct/partials/table_call.html", takes_context=True)
def table_call(context: template.Context, table: Table) -> dict[str, object]:
    return {**table_call_state(table), "csrf_token": context.get("csrf_token"),
            "error": None}

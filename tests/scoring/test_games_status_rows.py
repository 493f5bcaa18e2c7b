"""The games' list rows written in Python (``games_status_rows``) read as the template rows they
replace did, in every state a game can be in, with text that needs escaping."""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import Any

import pytest
from django.template import Context, Template

from scoring.templatetags.games_status import games_status_rows

# The rows as the template wrote them before the tag (the reference).
TEMPLATE_ROWS = Template("""{% load l10n %}{% localize off %}
  {% for game in games %}{% with round_number=game.table.round.number table_number=game.table.number %}
    <tr class="game-{{ game.status }}">
      {% if desk_confirm %}<td>{% if game.status == "finished" %}<input type="checkbox" name="game" value="{{ round_number }}-{{ table_number }}" id="desk-{{ round_number }}-{{ table_number }}" aria-label="Confirm round {{ round_number }}, table {{ table_number }}">{% endif %}</td>{% endif %}
      <td>{{ round_number }}</td>
      <td>{{ table_number }}</td>
      <td>{{ game.players_line }}</td>
      <td class="num">{{ game.hands_count }}</td>
      <td>{% for t in game.totals_list %}{{ t.side }} {{ t.points }}{% if not forloop.last %} – {% endif %}{% empty %}–{% endfor %}</td>
      <td>
        {% if game.adjusted and not game.forfeit %}<span class="badge adjusted">Adjusted</span> <small class="muted">{{ game.adjusted.reason }}</small>
        {% elif game.forfeit %}<span class="badge forfeit">Walkover</span> <small class="muted">{{ game.forfeit }} forfeited, {{ game.winner }} win</small>
        {% elif game.status == "confirmed" %}<span class="badge confirmed">Confirmed</span>{% if game.confirmed_by %} <small class="muted">by {{ game.confirmed_by.player.name }}</small>{% elif game.desk_source %} <small class="muted">at the desk ({{ game.desk_source }})</small>{% endif %}
        {% elif game.status == "finished" %}<span class="badge warn">Finished, not confirmed</span>
        {% else %}<span class="badge playing">Playing</span>{% endif %}
      </td>
      <td><a href="{{ hands_url }}?round={{ round_number }}&amp;table={{ table_number }}">Hands</a></td>
    </tr>
  {% endwith %}{% endfor %}{% endlocalize %}""")


def _game(number: int, status: str, **extra: Any) -> SimpleNamespace:
    totals = extra.pop("totals", {"NS": 120, "EW": -40})
    fields: dict[str, Any] = {
        "status": status, "hands_count": 3, "totals": totals, "winner": "", "forfeit": "",
        "adjusted": None, "confirmed_by": None,
        "table": SimpleNamespace(number=number, round=SimpleNamespace(number=2)),
        "players_line": "Ann <b> & Bo · – · Cy \"C\" · Di",
        "totals_list": [{"side": s, "points": p} for s, p in totals.items()],
    }
    fields.update(extra)
    return SimpleNamespace(**fields)


GAMES = [
    _game(1, "playing", totals={}),
    _game(2, "finished"),
    _game(3, "confirmed",
          confirmed_by=SimpleNamespace(player=SimpleNamespace(name="O'Neil <3"))),
    _game(4, "confirmed", desk_source="signed score sheet & photo"),
    _game(5, "confirmed"),
    _game(6, "confirmed", adjusted={"kind": "points", "reason": "table 6's <sheet> lost"}),
    _game(7, "confirmed", forfeit="NS", winner="EW", adjusted={"kind": "forfeit"}),
    _game(8, "finished", totals={"A": 1, "B": 2.5, "C": 1000}),
    _game(9, "finished", adjusted={"kind": "average"}),
]


def _flat(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r">\s+<", "><", html)).strip()


@pytest.mark.parametrize("desk_confirm", [False, True])
def test_the_rows_read_as_the_template_wrote_them(desk_confirm: bool) -> None:
    url = "/events/5/hands/?x=<1>"
    expected = TEMPLATE_ROWS.render(Context({"games": GAMES, "hands_url": url,
                                             "desk_confirm": desk_confirm}))
    written = games_status_rows(GAMES, url, desk_confirm)
    assert _flat(written) == _flat(expected)
    assert "O&#x27;Neil &lt;3" in written and "<b>" not in written
    assert written.count("<tr ") == len(GAMES)
    assert ('type="checkbox"' in written) is desk_confirm

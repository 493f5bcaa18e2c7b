"""The rows of the games' list (``scoring/partials/games_status.html``), written in Python.

A big day lists some 500 games, a dozen values each: as template nodes that was most of the
event page's and the director screen's time; here it is one pass of string formatting. Each
game is one of ``scoring.selectors.games_for_event`` (``desk_source`` added by the director's
games page); every text is escaped, numbers are printed as they are.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import SimpleNamespace

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_noop

register = template.Library()


def _badge(word: str) -> str:
    """A status word in the reader's language, escaped (``word`` is one marked below)."""
    return escape(gettext(word))


# the badges' words, marked for makemessages (which reads no call inside an f-string)
BADGES = (gettext_noop("Adjusted"), gettext_noop("Walkover"), gettext_noop("Confirmed"),
          gettext_noop("Finished, not confirmed"), gettext_noop("Playing"))


def _status(game: SimpleNamespace) -> str:
    adjusted, forfeit = game.adjusted, game.forfeit
    if adjusted and not forfeit:
        reason = adjusted.get("reason", "") if isinstance(adjusted, dict) else ""
        return (f'<span class="badge adjusted">{_badge("Adjusted")}</span> '
                f'<small class="muted">{escape(reason)}</small>')
    if forfeit:
        said = gettext("%(forfeit)s forfeited, %(winner)s win") % {
            "forfeit": forfeit, "winner": game.winner}
        return (f'<span class="badge forfeit">{_badge("Walkover")}</span> '
                f'<small class="muted">{escape(said)}</small>')
    if game.status == "confirmed":
        out = f'<span class="badge confirmed">{_badge("Confirmed")}</span>'
        source = getattr(game, "desk_source", "")
        if game.confirmed_by:
            said = gettext("by %(name)s") % {"name": game.confirmed_by.player.name}
            out += f' <small class="muted">{escape(said)}</small>'
        elif source:
            said = gettext("at the desk (%(source)s)") % {"source": source}
            out += f' <small class="muted">{escape(said)}</small>'
        return out
    if game.status == "finished":
        return f'<span class="badge warn">{_badge("Finished, not confirmed")}</span>'
    return f'<span class="badge playing">{_badge("Playing")}</span>'


@register.simple_tag
def games_status_rows(games: Iterable[SimpleNamespace], hands_url: str,
                      desk_confirm: bool = False) -> SafeString:
    """One ``<tr>`` per game: (a confirm box on the director's games page,) round, table,
    players, hands, score, status and a link to its hands."""
    rows = []
    link = escape(hands_url)
    hands = escape(gettext("Hands"))
    confirm = gettext("Confirm round %(round)s, table %(table)s")
    for game in games:
        r, t = game.table.round.number, game.table.number
        box = ""
        if desk_confirm:
            box = "<td></td>"
            if game.status == "finished":
                box = (f'<td><input type="checkbox" name="game" value="{r}-{t}" id="desk-{r}-{t}"'
                       f' aria-label="{escape(confirm % {"round": r, "table": t})}"></td>')
        score = " – ".join(f"{escape(s['side'])} {escape(s['points'])}"
                           for s in game.totals_list) or "–"
        rows.append(
            f'<tr class="game-{escape(game.status)}">{box}<td>{r}</td><td>{t}</td>'
            f"<td>{escape(game.players_line)}</td><td class=\"num\">{game.hands_count}</td>"
            f"<td>{score}</td><td>{_status(game)}</td>"
            f'<td><a href="{link}?round={r}&amp;table={t}">{hands}</a></td></tr>\n')
    return mark_safe("".join(rows))  # noqa: S308 - every value above is escaped or a number

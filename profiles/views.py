"""The player profile page (audience: anyone who may see one of the player's events)."""

from __future__ import annotations

import datetime
from typing import Any, TypedDict

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.formats import date_format, number_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

from clubs.models import Club, Player
from common.charts import BarSeries, LinePoint, bar_chart, line_chart
from common.collector import collector_paused
from common.labels import reads_english
from conduct.models import Penalty
from conduct.selectors import (
    ConductSummary,
    conduct_record,
    conduct_summary,
    player_clubs_with_record,
)

from .selectors import PARTNERS_SHOWN, player_profile

RATING_GAMES_DRAWN = 200  # the rating chart draws each game up to this many, else each event
EVENTS_PER_PAGE = 50  # the events table shows this many, newest first; "Older events" the rest

# made / set in play / board set / surrendered: green, orange, red, grey
ENDINGS = (("made", _("Made"), "#0b6e4f"), ("set", _("Set"), "#c2410c"),
           ("board_set", _("Board set"), "#9f1239"),
           ("surrendered", _("Surrendered"), "#8a94a6"))


def _short_date(value: datetime.date) -> str:
    """A chart's tick: "3 Nov 26" (German "3.11.26")."""
    return date_format(value, "j M y") if reads_english() else date_format(value, "j.n.y")


def group_charts(group: dict[str, Any], player_name: str) -> dict[str, Any]:
    """The charts of one ruleset's figures: bids by size (stacked by how they ended) and points
    per game event by event (shaded: one standard error either side)."""
    bids = group["bids"]
    bid_chart = bar_chart(
        title=gettext("%(name)s's bids by size: made, set, board set, surrendered") % {
            "name": player_name},
        categories=[b["label"] for b in bids],
        series=[BarSeries(str(label), [b[key] for b in bids], colour)
                for key, label, colour in ENDINGS],
        unit=gettext("bids"), empty=gettext("No bids of this player's yet."),
    )
    points = [
        LinePoint(
            label=_short_date(row["date"]), value=row["points_per_game"],
            low=None if row["stderr"] is None else row["points_per_game"] - row["stderr"],
            high=None if row["stderr"] is None else row["points_per_game"] + row["stderr"],
            note=ngettext("%(event)s, %(games)s game", "%(event)s, %(games)s games",
                          row["games"]) % {"event": row["name"], "games": row["games"]},
        )
        for row in group["per_event"]
    ]
    ppg_chart = line_chart(
        title=gettext("%(name)s's points per game, event by event") % {"name": player_name},
        points=points, band_label=gettext("shaded: one standard error either side"),
        empty=gettext("No finished games yet."),
    )
    return {"bid_chart": bid_chart, "ppg_chart": ppg_chart}


def rating_chart(rating: dict[str, Any] | None, player_name: str) -> SafeString | None:
    """The rating (mu) after each rated game, shaded two standard deviations either side; past
    ``RATING_GAMES_DRAWN`` games, after each event's last rated game (every event still drawn,
    and a phone is not sent thousands of dots it cannot tell apart)."""
    if rating is None:
        return None
    by_game = len(rating["history"]) <= RATING_GAMES_DRAWN
    points = [
        LinePoint(label=_short_date(rating["event_dates"][row["event_id"]]),
                  value=round(row["mu"], 2),
                  low=round(row["mu"] - 2 * row["sigma"], 2),
                  high=round(row["mu"] + 2 * row["sigma"], 2),
                  note=gettext("%(event)s, rating %(rating)s") % {
                      "event": row.get("event_name") or row["name"],
                      "rating": number_format(row["ordinal"], 1)})
        for row in (rating["history"] if by_game else rating["by_event"][::-1])
    ]
    title = (gettext("%(name)s's skill after each rated game") if by_game
             else gettext("%(name)s's skill after each rated event"))
    return line_chart(title=title % {"name": player_name}, points=points,
                      band_label=gettext("shaded: two standard deviations either side"),
                      empty=gettext("No rated games in the events you can see."))


@require_GET
def profile_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """A player's pinochle across events and clubs: events, partners, opponents, hand figures
    and charts."""
    with collector_paused():  # some 30,000 rows and figures, no cycles (common.collector)
        profile = player_profile(player_id=player_id, user=request.user)
    page, pages = _events_page(request, len(profile.events))
    shown = profile.events[(page - 1) * EVENTS_PER_PAGE:page * EVENTS_PER_PAGE]
    on_page = {e["event_id"] for e in shown}
    # each group's numbers per event: those of the events on this page, newest first
    groups = [{**group, **group_charts(group, profile.player.name),
               "per_event_shown": [row for row in reversed(group["per_event"])
                                   if row["event_id"] in on_page]}
              for group in profile.analytics]
    dates = [e["date"] for e in profile.events]
    return render(request, "profiles/profile.html", {
        "profile": profile, "player": profile.player, "events": shown,
        "event_count": len(profile.events), "page": page, "pages": pages,
        "first_shown": (page - 1) * EVENTS_PER_PAGE + 1,
        "last_shown": (page - 1) * EVENTS_PER_PAGE + len(shown),
        "groups": groups, "rating": profile.rating,
        "rating_chart": rating_chart(profile.rating, profile.player.name),
        "rating_by_game": profile.rating is not None
        and len(profile.rating["history"]) <= RATING_GAMES_DRAWN,
        "first_date": min(dates), "last_date": max(dates),
        "partners": profile.partners[:PARTNERS_SHOWN],
        "opponents": profile.opponents[:PARTNERS_SHOWN],
        "more_partners": max(len(profile.partners) - PARTNERS_SHOWN, 0),
        "more_opponents": max(len(profile.opponents) - PARTNERS_SHOWN, 0),
        "conduct": _own_conduct(request, profile.player),
    })


def _events_page(request: HttpRequest, count: int) -> tuple[int, int]:
    """The page of the events table asked for (``?page=``, 1 the newest) and how many there
    are; 404 naming the field for a page that is not one of them. The figures, partners,
    opponents and charts cover every event whatever the page."""
    pages = max(1, -(-count // EVENTS_PER_PAGE))
    asked = request.GET.get("page", "1")
    if not asked.isdigit() or not 1 <= int(asked) <= pages:
        raise Http404(ngettext("page: there is %(pages)d page of events.",
                               "page: there are %(pages)d pages of events (1 is the newest).",
                               pages) % {"pages": pages})
    return int(asked), pages


class ConductRecord(TypedDict):
    """The player's conduct record in one club, on their own profile."""

    club: Club
    penalties: list[Penalty]
    summary: ConductSummary


def _own_conduct(request: HttpRequest, player: Player) -> list[ConductRecord]:
    """The player's conduct record per club, on their own profile only (nobody else's)."""
    if not request.user.is_authenticated or player.user_id != request.user.pk:
        return []
    records: list[ConductRecord] = []
    for club in player_clubs_with_record(player):
        penalties = conduct_record(club=club, player=player)
        records.append({"club": club, "penalties": penalties,
                        "summary": conduct_summary(penalties)})
    return records

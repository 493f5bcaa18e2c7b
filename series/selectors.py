"""Reads shared by the series pages, the wall, the CSV and the API.

The standings are computed on read from what the events store: the final places written when
an event finishes (``draw.services.event_status_set``, read through
``draw.selectors.events_placements``), so an event finished or reopened changes the series'
standings at its next read, with nothing to keep in step. The number of queries is fixed
whatever the number of events (the series' events, the viewer's memberships, the placements,
the entries; one or two more per kind of side pot).

Visibility follows the events: a viewer sees the series if they may see its owning club (or
belong to a partner club), and its standings are computed from the events *they* may see (a
private event, or an event of a private club, counts only for its club's members), so no
private result reaches anyone through a public series.
"""

from __future__ import annotations

import datetime
import hashlib
from collections import defaultdict
from collections.abc import Mapping
from typing import TypedDict

from django.core.exceptions import PermissionDenied
from django.db.models import Max, Q, QuerySet
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy

import formats
from clubs.models import Club, Membership
from clubs.permissions import has_club_role
from common.types import Actor
from draw.season import nights_teams
from draw.selectors import events_placements
from pairing.season import season_repeats
from ranking.prizes import award_places
from scoring.models import HandRevision, SeatResult
from tournaments.models import Entry, Event

from .models import Series
from .points import EventPlacings, Line, Placing, describe, series_table, split


# --- who may see and manage -----------------------------------------------------------------------
def _club_ids(series: Series) -> list[int]:
    return [series.club_id, *(c.pk for c in series.partner_clubs.all())]


def member_club_ids(*, user: Actor | None, club_ids: list[int]) -> set[int] | None:
    """The clubs of ``club_ids`` the user belongs to (one query); None for a superuser (every
    club)."""
    if user is None or not user.is_authenticated:
        return set()
    if user.is_superuser:
        return None
    return set(Membership.objects.filter(user=user, club_id__in=club_ids)
               .values_list("club_id", flat=True))


def can_view_series(*, user: Actor | None, series: Series) -> bool:
    member = member_club_ids(user=user, club_ids=_club_ids(series))
    return member is None or series.club.is_public or bool(member)


def series_get(*, pk: int, user: Actor | None) -> Series:
    """The series, if the user may see it (else 404)."""
    series = (Series.objects.select_related("club").prefetch_related("partner_clubs")
              .filter(pk=pk).first())
    if series is None or not can_view_series(user=user, series=series):
        raise Http404(gettext("No such series"))
    return series


def can_manage_series(*, user: Actor, series: Series) -> bool:
    """Directors of the owning club or of a partner club manage the series."""
    return any(has_club_role(user=user, club=club, role="director")
               for club in [series.club, *series.partner_clubs.all()])


def check_series_manage(*, user: Actor, series: Series) -> None:
    if not can_manage_series(user=user, series=series):
        raise PermissionDenied(gettext("This needs the director role in one of the series' clubs."))


def is_series_owner(*, user: Actor, series: Series) -> bool:
    """Whether ``user`` directs (or owns) the series' owning club: only they rename the
    series, choose its partner clubs or delete it; a partner club's directors manage the rest
    (events, points, prizes)."""
    return has_club_role(user=user, club=series.club, role="director")


# What only the owning club changes, and the words of its refusal.
OWNER_ONLY = {
    "name": gettext_lazy("Only a director of %(name)s renames this series."),
    "partner_clubs": gettext_lazy("Only a director of %(name)s changes the partner clubs of "
                                  "this series."),
}


def check_series_owner(*, user: Actor, series: Series,
                       changes: Mapping[str, object] | None = None,
                       delete: bool = False) -> None:
    """Refuse (403) a partner club's director who deletes the series or changes what only the
    owning club changes (``changes``: the fields given, with their new values)."""
    if is_series_owner(user=user, series=series):
        return
    if delete:
        raise PermissionDenied(gettext("Only a director of %(name)s deletes this series.") % {"name": series.club.name})
    partners = list(series.partner_clubs.all())
    current = {"name": series.name, "partner_clubs": sorted(c.slug for c in partners)}
    by_key = {key: c.slug for c in partners for key in (c.slug, str(c.pk))}  # slug or id
    for field, words in OWNER_ONLY.items():
        if changes is None or field not in changes:
            continue
        new = changes[field]
        if field == "partner_clubs":
            given = new if isinstance(new, list | tuple) else [new]
            new = sorted(by_key.get(str(v), f"?{v}") for v in given if v not in (None, ""))
        elif isinstance(new, str):
            new = " ".join(new.split())
        if new != current[field]:
            raise PermissionDenied(str(words) % {"name": series.club.name})


def series_of_club(*, club: Club) -> QuerySet[Series]:
    """The series a club owns or is a partner of (of a public club), newest first."""
    return (Series.objects.filter(Q(club=club) | Q(partner_clubs=club, club__is_public=True))
            .distinct()
            .select_related("club").order_by("-created_at", "-pk"))


class ClubSeries(TypedDict):
    """A series on a club's page (:func:`club_series`)."""

    series: Series
    events: int
    starts: datetime.date | None
    ends: datetime.date | None
    partner: bool


def club_series(*, club: Club) -> list[ClubSeries]:
    """The club page's list: each series with its events' count and dates (two queries)."""
    out: list[ClubSeries] = []
    for series in series_of_club(club=club).prefetch_related("events"):
        dates = sorted(e.date for e in series.events.all())
        out.append({"series": series, "events": len(dates),
                    "starts": dates[0] if dates else None, "ends": dates[-1] if dates else None,
                    "partner": series.club_id != club.pk})
    return out


# --- the standings --------------------------------------------------------------------------------
def _visible(event: Event, member: set[int] | None) -> bool:
    if member is None or event.club_id in member:
        return True
    return event.is_public and event.club.is_public


def series_events(*, series: Series, user: Actor | None) -> tuple[list[Event], int]:
    """The series' events the user may see, by date, and how many others there are."""
    events = list(series.events.select_related("club").order_by("date", "pk"))
    member = member_club_ids(user=user, club_ids=sorted({series.club_id,
                                                         *(e.club_id for e in events)}))
    shown = [e for e in events if _visible(e, member)]
    return shown, len(events) - len(shown)


def _placings(finished: list[Event]) -> tuple[list[EventPlacings], dict[int, str]]:
    """Each finished event's places as players (both of a pair), and the players' names."""
    placed = events_placements(finished)
    members: dict[tuple[int, int], list[int]] = defaultdict(list)
    player_of: dict[int, int] = {}
    names: dict[int, str] = {}
    for entry_id, event_id, player_id, name, pair_id in Entry.objects.filter(
            event_id__in=[e.pk for e in finished]).values_list(
            "pk", "event_id", "player_id", "player__name", "pair_id").order_by("pk"):
        player_of[entry_id] = player_id
        names[player_id] = name
        if pair_id is not None:
            members[(event_id, pair_id)].append(player_id)
    out = []
    for event in finished:
        placings = []
        for item in placed.get(event.pk, []):
            if item.get("pair_id") is not None:
                pair = int(item["pair_id"])
                players = tuple(members.get((event.pk, pair), []))
                link = reverse("event-pair", args=[event.pk, pair])
            else:
                entry_id = int(item.get("entry_id") or 0)
                players = (player_of[entry_id],) if entry_id in player_of else ()
                link = reverse("event-player", args=[event.pk, entry_id])
            if players:
                placings.append(Placing(int(item["place"]), players, link))
        out.append(EventPlacings(event.pk, tuple(placings)))
    return out, names


class PotWinner(TypedDict):
    player_id: int
    name: str
    event_id: int
    event_name: str


class SidePot(TypedDict):
    """A side pot over the series' finished events (``SidePotOutput``)."""

    kind: str
    label: str
    amount: str
    score: int | None
    winners: list[PotWinner]
    share: str | None


class Cell(TypedDict):
    """A player's result at one event of the series (``CellOutput``)."""

    event_id: int
    played: bool
    place: int | None
    points: int | None
    counted: bool
    results_url: str


class LineRow(TypedDict):
    """A player's line of the series table (``LineOutput``)."""

    rank: int | None
    tied: bool
    qualified: bool
    player_id: int
    name: str
    total: int
    played: int
    firsts: int
    best_place: int | None
    prize: str | None
    events: list[Cell]
    dropped: int


class Column(TypedDict):
    """An event of the series as a column of the table (``ColumnOutput``)."""

    id: int
    name: str
    date: datetime.date
    status: str
    finished: bool
    club: str
    results_url: str
    event_url: str


class SeriesBoard(TypedDict):
    """The series' standings as a viewer may see them (:func:`series_standings`)."""

    series: Series
    events: list[Column]
    hidden: int
    finished: int
    unranked: int
    lines: list[LineRow]
    currency: str
    payouts: list[dict[str, object]]
    side_pots: list[SidePot]
    rules: list[str]


def _side_pots(series: Series, finished: list[Event]) -> list[SidePot]:
    """The series' side pots over its finished events (those shown): the winners, their score
    and the share each wins. ``high_game``: the most points a player's side scored in one
    finished game; ``high_hand``: the most points one side scored in one hand (games decided
    without their hands left out). Winners who tie share the pot."""
    side = (series.prizes or {}).get("side") or []
    ids = [e.pk for e in finished]
    names = {e.pk: e.name for e in finished}
    out: list[SidePot] = []
    for pot in side:
        winners: list[PotWinner] = []
        score = None
        if ids and pot["kind"] == "high_game":
            results = SeatResult.objects.filter(event_id__in=ids, finished=True)
            score = results.aggregate(best=Max("points"))["best"]
            if score is not None:
                winners = [{"player_id": p, "name": n, "event_id": e, "event_name": names[e]}
                           for p, n, e in results.filter(points=score).values_list(
                               "entry__player_id", "entry__player__name", "event_id")
                           .order_by("entry__player__name", "event_id")]
        elif ids and pot["kind"] == "high_hand":
            best: dict[tuple[int, str], int] = {}
            for game_id, points in HandRevision.objects.filter(
                    is_live=True, hand__deleted_at__isnull=True,
                    hand__game__table__round__event_id__in=ids, hand__game__forfeit="",
                    hand__game__adjusted__isnull=True).values_list("hand__game_id", "points"):
                for side_name, value in (points or {}).items():
                    if isinstance(value, int) and value > best.get((game_id, side_name), -10**9):
                        best[(game_id, side_name)] = value
            score = max(best.values(), default=None)
            if score is not None:
                top = {key for key, value in best.items() if value == score}
                rows = SeatResult.objects.filter(game_id__in={g for g, _ in top}).values_list(
                    "game_id", "side", "entry__player_id", "entry__player__name", "event_id")
                winners = sorted(
                    ({"player_id": p, "name": n, "event_id": e, "event_name": names[e]}
                     for g, s, p, n, e in rows if (g, s) in top),
                    key=lambda w: (w["name"], w["event_id"]))
        distinct = {w["player_id"] for w in winners}
        out.append({"kind": pot["kind"], "label": pot["label"], "amount": pot["amount"],
                    "score": score, "winners": winners,
                    "share": split(pot["amount"], len(distinct)) if distinct else None})
    return out


def _line_dict(line: Line, events: list[Event]) -> LineRow:
    cells: list[Cell] = []
    for event in events:
        score = line.scores.get(event.pk)
        cells.append({"event_id": event.pk, "played": score is not None,
                      "place": score.place if score else None,
                      "points": score.points if score else None,
                      "counted": bool(score and score.counted),
                      "results_url": score.link if score else ""})
    return {"rank": line.rank, "tied": line.tied, "qualified": line.qualified,
            "player_id": line.player_id, "name": line.name, "total": line.total,
            "played": line.played, "firsts": line.firsts, "best_place": line.best_place,
            "prize": line.prize, "events": cells,
            "dropped": sum(1 for c in cells if c["played"] and not c["counted"])}


def series_standings(*, series: Series, user: Actor | None) -> SeriesBoard:
    """The series' standings as ``user`` may see them.

    ``events``: the columns (each with ``finished`` and its ``results_url``); ``hidden``: how
    many of the series' events the user may not see (left out of everything); ``lines``: the
    players, ranked first (``series.points`` gives the rules), each with ``total``, ``played``,
    its ``prize`` and one cell per event (``points``, ``place``, ``counted``, ``results_url``:
    the player's results in that event); ``side_pots``; ``rules``: the rules in sentences."""
    events, hidden = series_events(series=series, user=user)
    finished = [e for e in events if e.status == Event.Status.FINISHED]
    placings, names = _placings(finished)
    lines = series_table(placings, rule=series.points_rule, points=series.points,
                         best_of=series.best_of, min_events=series.min_events, names=names)
    prizes = series.prizes or {}
    won = award_places([(ln.rank, ln.player_id) for ln in lines if ln.rank is not None],
                       prizes) if prizes.get("payouts") else {}
    for line in lines:
        line.prize = won.get(line.player_id)
    columns: list[Column] = [{"id": e.pk, "name": e.name, "date": e.date, "status": e.status,
                "finished": e.status == Event.Status.FINISHED, "club": e.club.name,
                "results_url": reverse("event-standings", args=[e.pk]),
                "event_url": reverse("event-detail", args=[e.pk])} for e in events]
    return {
        "series": series, "events": columns, "hidden": hidden,
        "finished": len(finished),
        "unranked": sum(1 for line in lines if not line.qualified),
        "lines": [_line_dict(line, events) for line in lines],
        "currency": prizes.get("currency", ""), "payouts": prizes.get("payouts", []),
        "side_pots": _side_pots(series, finished),
        "rules": describe(rule=series.points_rule, points=series.points,
                          best_of=series.best_of, min_events=series.min_events),
    }


def series_partner_variety(*, board: SeriesBoard) -> dict[str, int] | None:
    """How varied the partners were over the series' finished club nights the board shows
    (``series_standings``: only the events the viewer may see): the partnerships played, how
    many repeated an earlier one (``pairing.season``: every time beyond a pair's first) and the
    best achievable (the counting bound), or None without a club night of partnerships. Two
    queries."""
    ids = [column["id"] for column in board["events"] if column["finished"]]
    nights = list(Event.objects.filter(pk__in=ids, format__in=formats.names(
        lambda f: f.club_night)).order_by("date", "pk"))
    quality = season_repeats(nights_teams(nights)) if nights else None
    if quality is None or not quality.partnerships:
        return None
    return {"nights": quality.nights, "partnerships": quality.partnerships,
            "repeats": quality.repeats, "best": quality.best}


def series_version(*, series: Series) -> str:
    """A short digest that moves when the standings may have: the series' settings, its events'
    statuses and their standings' versions (one query). The wall polls it."""
    parts = [series.updated_at.isoformat()]
    parts += [f"{pk}:{status}:{public}:{version}" for pk, status, public, version in
              series.events.order_by("pk").values_list("pk", "status", "is_public",
                                                       "standings__version")]
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

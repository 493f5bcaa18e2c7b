"""Reads shared by the league pages, the API and other apps: ratings and their history, seasons
and their leaderboards."""

from __future__ import annotations

import datetime
import json
import zoneinfo
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NotRequired, TypedDict

from django.db import connection
from django.utils import timezone

import formats
from clubs.models import Club, Player
from clubs.permissions import can_view_event, visible_clubs
from common.types import Actor
from ranking.ratings import ordinal
from standings.boards import first_placed
from standings.models import StandingsSnapshot
from tournaments.models import Entry, Event

from .models import PlayerRating, RatingChange, Season


# --- ratings --------------------------------------------------------------------------------------
class Rating(TypedDict):
    """A player's rating (:func:`rating_row`)."""

    mu: float
    sigma: float
    ordinal: float
    games: int


class RatingPoint(TypedDict):
    """The rating after one rated game (:func:`rating_history`)."""

    at: datetime.datetime | None
    game_id: int
    event_id: int
    event_name: str
    mu: float
    sigma: float
    ordinal: float


class ClubRating(Rating):
    """A row of :func:`club_ratings`."""

    player_id: int
    name: str
    rank: NotRequired[int]  # given once the rows are sorted


class LeaderRow(TypedDict):
    """A row of :func:`season_leaderboard`."""

    player_id: int
    name: str
    nights: int
    points: int
    average: float
    best: int | None
    wins: int
    firsts: int
    score: float
    rank: int | None
    rating: Rating | None


class Leaderboard(TypedDict):
    season: Season
    events: int
    ranked: list[LeaderRow]
    unqualified: list[LeaderRow]


def rating_row(mu: float, sigma: float, games: int) -> Rating:
    return {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "games": games}


def ratings_for(*, player_ids: Iterable[int]) -> dict[int, Rating]:
    """Current ratings of the players who have one (confirmed games rated), by player id:
    ``mu``, ``sigma``, ``ordinal`` (what the leaderboards show as the rating: mu - 3 sigma) and
    ``games``. Players never rated are absent."""
    ids = list(player_ids)
    if not ids:
        return {}
    return {
        player_id: rating_row(mu, sigma, games)
        for player_id, mu, sigma, games in PlayerRating.objects.filter(player_id__in=ids)
        .values_list("player_id", "mu", "sigma", "games")
    }


def rating_history(*, player_id: int, user: Actor | None = None) -> list[RatingPoint]:
    """The player's rating after each rated game, oldest first (playing order): ``at`` (when the
    game was confirmed, or when it ended), ``game_id``, ``event_id``, ``event_name``, ``mu``,
    ``sigma``, ``ordinal`` (what the leaderboards show as the rating).

    With ``user`` given, only games of events that user may see are listed (the rating after
    each still counts every game: a rating is one number across clubs). Without ``user``
    nothing is left out (for callers that checked already)."""
    rows = list(
        RatingChange.objects.filter(player_id=player_id).order_by("order_key")
        .values("at", "game_id", "event_id", "event__name", "mu_after", "sigma_after")
    )
    if user is not None:
        events = Event.objects.filter(pk__in={r["event_id"] for r in rows}).select_related("club")
        by_club: dict[int, bool] = {}
        visible = set()
        for event in events:
            if event.is_public and event.club.is_public:
                visible.add(event.pk)
                continue
            if event.club_id not in by_club:  # a hidden event: the viewer's role decides
                by_club[event.club_id] = can_view_event(user=user, event=event)
            if by_club[event.club_id]:
                visible.add(event.pk)
        rows = [r for r in rows if r["event_id"] in visible]
    return [
        {"at": r["at"], "game_id": r["game_id"], "event_id": r["event_id"],
         "event_name": r["event__name"], "mu": r["mu_after"], "sigma": r["sigma_after"],
         "ordinal": ordinal(r["mu_after"], r["sigma_after"])}
        for r in rows
    ]


def rated_player_get(*, player_id: int, user: Actor) -> Player | None:
    """The player whose rating ``user`` may read, or None: a player who played is named to
    those who may see one of their events (a player seen only in a private club's events, or
    in hidden events, is named to that club's members alone, whatever roster they are on); a
    player who never played, to those who may see a club of their roster."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return None
    events = (Event.objects.filter(entries__player_id=player_id).select_related("club")
              .distinct().order_by())
    by_club: dict[int, bool] = {}
    played = False
    for event in events:
        played = True
        if event.is_public and event.club.is_public:
            return player
        if event.club_id not in by_club:  # a hidden event: the viewer's role decides
            by_club[event.club_id] = can_view_event(user=user, event=event)
        if by_club[event.club_id]:
            return player
    if played:
        return None
    return player if Player.objects.filter(
        pk=player_id, club_links__club__in=visible_clubs(user=user)).exists() else None


def club_ratings(*, club: Club) -> list[ClubRating]:
    """The club's roster players who have a rating, best rating first; ratings equal to the
    tenth shown share a rank. Each row: ``player_id``, ``name``, ``rank`` and the rating
    (:func:`rating_row`).

    A list counts only the games its club rates: a private club rates none of its games
    (``league.ratings``), so its list is empty rather than one that games of other clubs
    move (any club that put one of its players on a roster could otherwise move it)."""
    if not club.is_public:
        return []
    rows: list[ClubRating] = [
        {"player_id": player_id, "name": name, **rating_row(mu, sigma, games)}
        for player_id, name, mu, sigma, games in PlayerRating.objects.filter(
            player__club_links__club=club).values_list(
            "player_id", "player__name", "mu", "sigma", "games")
    ]
    rows.sort(key=lambda r: (-r["ordinal"], r["name"], r["player_id"]))
    previous: float | None = None
    rank = 0
    for position, row in enumerate(rows, start=1):
        shown = round(row["ordinal"], 1)  # ratings that read the same share a rank
        if shown != previous:
            rank, previous = position, shown
        row["rank"] = rank
    return rows


# --- seasons --------------------------------------------------------------------------------------
@dataclass
class Night:
    """What one player did at one counted event."""

    event_id: int
    points: int
    wins: int
    first: bool


def club_today(club: Club) -> datetime.date:
    """Today's date where the club plays."""
    try:
        zone = zoneinfo.ZoneInfo(club.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        zone = zoneinfo.ZoneInfo("UTC")
    return timezone.now().astimezone(zone).date()


def club_seasons(*, club: Club) -> list[Season]:
    """The club's seasons, latest first."""
    return list(Season.objects.filter(club=club).order_by("-starts_on", "-pk"))


def current_season(*, club: Club, seasons: list[Season] | None = None,
                   today: datetime.date | None = None) -> Season | None:
    """The season containing today (in the club's time zone); else the latest that has ended;
    else the next to start; None when the club has no seasons."""
    seasons = club_seasons(club=club) if seasons is None else seasons
    today = today or club_today(club)
    for season in seasons:
        if season.starts_on <= today <= season.ends_on:
            return season
    past = [s for s in seasons if s.ends_on < today]
    if past:
        return max(past, key=lambda s: (s.ends_on, s.pk))
    return min(seasons, key=lambda s: (s.starts_on, s.pk)) if seasons else None


def event_years(*, club: Club) -> list[int]:
    """The years in which the club finished a public event, latest first (the club page's
    calendar-year seasons while the club has defined none)."""
    dates = (Event.objects.filter(club=club, status=Event.Status.FINISHED, is_public=True)
             .dates("date", "year", order="DESC"))
    return [d.year for d in dates]


def year_season(*, club: Club, year: int) -> Season:
    """A calendar year as an unsaved season: total points over all the club's events."""
    return Season(club=club, name=str(year), starts_on=datetime.date(year, 1, 1),
                  ends_on=datetime.date(year, 12, 31), counting=Season.Counting.TOTAL,
                  min_nights=1, events=Season.Events.ALL)


def season_event_ids(season: Season) -> list[int]:
    """The events a season counts, by id: the club's finished public events dated within the
    season (club nights only, unless the season counts all events). An event hidden from the
    public never counts: the leaderboard is shown to everyone who may see the club."""
    events = Event.objects.filter(
        club_id=season.club_id, status=Event.Status.FINISHED, is_public=True,
        date__gte=season.starts_on, date__lte=season.ends_on)
    if season.events == Season.Events.CLUB_NIGHTS:
        events = events.filter(format__in=formats.names(lambda f: f.club_night))
    return list(events.order_by("date", "pk").values_list("pk", flat=True))


# What a season reads of its events' standings snapshots, pulled out of the stored JSON by
# PostgreSQL (``json_to_recordset``: one parse per snapshot, in C, next to the data): the whole
# rows (a dozen keys each, per-round scores and names included) are neither sent nor decoded
# here. One row per standings row: its entry, a pair's ``entry_ids`` as JSON text (individual
# rows have none), its pair, points, wins and rank, numbers truncated as ``int()`` truncates a
# JSON number.
_ROWS_SQL = """
SELECT s.event_id, trunc(r.entry_id)::bigint, r.entry_ids::text, trunc(r.pair_id)::bigint,
       trunc(r.points)::bigint, COALESCE(trunc(r.wins)::bigint, 0),
       COALESCE(trunc(r.rank)::bigint, 0)
FROM {snapshot} s
CROSS JOIN LATERAL json_to_recordset(s.rows) AS r(
    entry_id numeric, entry_ids json, pair_id numeric, points numeric, wins numeric,
    rank numeric)
WHERE s.event_id = ANY(%s)
"""
# One row per event: its entries' ids and players (an index scan per event, sent as two arrays
# rather than a row per entry), whether it has final places, and those placed first.
_EVENTS_SQL = """
SELECT s.event_id, e.ids, e.players, f.placed, f.firsts
FROM {snapshot} s
CROSS JOIN LATERAL (
    SELECT array_agg(entry.id) AS ids, array_agg(entry.player_id) AS players
    FROM {entry} entry WHERE entry.event_id = s.event_id
) e
CROSS JOIN LATERAL (
    SELECT count(*) > 0 AS placed,
           (jsonb_agg(p) FILTER (WHERE COALESCE(trunc((p->>'place')::numeric), 0) = 1))::text
               AS firsts
    FROM jsonb_array_elements(
        CASE jsonb_typeof(s.placements) WHEN 'array' THEN s.placements ELSE '[]' END) p
) f
WHERE s.event_id = ANY(%s)
"""


@dataclass
class _Snapshot:
    """What a season reads of one event's standings: its rows as (entry id, entry ids or None,
    pair id or None, points, wins, rank), whether the event has final places and those placed
    first."""

    rows: list[tuple[int | None, list[int] | None, int | None, int, int, int]]
    placed: bool = False
    firsts: list[dict[str, Any]] = field(default_factory=list)


def _ids(value: Iterable[int | str] | None) -> list[int] | None:
    """A row's ``entry_ids`` as ints (None when it has none)."""
    return None if value is None else [int(e) for e in value]


Snapshots = tuple[dict[int, int], dict[int, _Snapshot]]


def _season_snapshots(event_ids: list[int]) -> Snapshots:
    """The events' entries (entry id -> player id) and what a season reads of their standings
    snapshots: in SQL on PostgreSQL, from the decoded rows elsewhere (SQLite, the embedded
    default). Both give the same (tests/league/test_queries.py).

    Two readings, kept on purpose: at five years of weekly nights (261 snapshots) the page
    measured 68–79 ms median, 176–194 ms p95 with the SQL reading against 84–109 / 226–273 ms
    with the Python one alone (``bench/pages.py --reuse --repeat 30 --only season``, two runs
    each): decoding every whole row in the web process costs a fifth of the page and, with the
    objects it makes, most of its tail."""
    if not event_ids:
        return {}, {}
    if connection.vendor == "postgresql":
        return _season_snapshots_sql(event_ids)
    return _season_snapshots_decoded(event_ids)


def _season_snapshots_sql(event_ids: list[int]) -> Snapshots:
    names = {"snapshot": connection.ops.quote_name(StandingsSnapshot._meta.db_table),
             "entry": connection.ops.quote_name(Entry._meta.db_table)}
    entry_players: dict[int, int] = {}
    snapshots: dict[int, _Snapshot] = {}
    with connection.cursor() as cursor:
        cursor.execute(_EVENTS_SQL.format(**names), [event_ids])
        for event_id, ids, players, placed, firsts in cursor.fetchall():
            entry_players.update(zip(ids or [], players or [], strict=True))
            snapshots[event_id] = _Snapshot(rows=[], placed=placed,
                                            firsts=json.loads(firsts) if firsts else [])
        cursor.execute(_ROWS_SQL.format(**names), [event_ids])
        for event_id, entry_id, entry_ids, pair_id, points, wins, rank in cursor.fetchall():
            snapshots[event_id].rows.append((
                entry_id, _ids(None if entry_ids is None else json.loads(entry_ids)),
                pair_id, points, wins, rank))
    return entry_players, snapshots


def _season_snapshots_decoded(event_ids: list[int]) -> Snapshots:
    entry_players = dict(Entry.objects.filter(event_id__in=event_ids)
                         .values_list("pk", "player_id"))
    snapshots: dict[int, _Snapshot] = {}
    for event_id, rows, placements in StandingsSnapshot.objects.filter(
            event_id__in=event_ids).values_list("event_id", "rows", "placements"):
        snapshots[event_id] = _Snapshot(
            rows=[(None if row.get("entry_id") is None else int(row["entry_id"]),
                   _ids(row.get("entry_ids")),
                   None if row.get("pair_id") is None else int(row["pair_id"]),
                   int(row["points"]), int(row.get("wins", 0)), int(row.get("rank", 0)))
                  for row in rows],
            placed=bool(placements),
            firsts=[p for p in placements or [] if int(p.get("place", 0)) == 1])
    return entry_players, snapshots


def _nights(event_ids: list[int]) -> dict[int, list[Night]]:
    """Each player's nights, from the events' standings snapshots (and final places)."""
    entry_players, snapshots = _season_snapshots(event_ids)
    nights: dict[int, list[Night]] = defaultdict(list)
    for event_id, snapshot in snapshots.items():
        pair_entries = {pair_id: entry_ids or [] for _, entry_ids, pair_id, *_ in snapshot.rows
                        if pair_id is not None}
        placed_first = first_placed(snapshot.firsts, pair_entries)
        for entry_id, entry_ids, _, points, wins, rank in snapshot.rows:
            for each in entry_ids or ([] if entry_id is None else [entry_id]):
                player_id = entry_players.get(each)
                if player_id is None:
                    continue
                first = each in placed_first if snapshot.placed else rank == 1
                nights[player_id].append(Night(event_id=event_id, points=points, wins=wins,
                                               first=first))
    return nights


def _measure(season: Season, nights: list[Night]) -> Fraction:
    points = [n.points for n in nights]
    if season.counting == Season.Counting.AVERAGE:
        return Fraction(sum(points), len(points))
    if season.counting == Season.Counting.BEST_N:
        return Fraction(sum(sorted(points, reverse=True)[:season.best_n or len(points)]))
    return Fraction(sum(points))


def season_leaderboard(*, season: Season) -> Leaderboard:
    """The season's leaderboard from the standings of the events it counts.

    Each row: ``player_id``, ``name``, ``nights``, ``points`` (total), ``average`` (points per
    night), ``best`` (the best-N total; with another counting, None), ``wins`` (games won),
    ``firsts`` (events won: first place), ``score`` (what the season ranks by), ``rank`` and the
    player's ``rating`` (``ratings_for``; None when not rated). Players are ranked by the score,
    then by wins; rows equal on both share a rank. Players with fewer than ``min_nights``
    nights are in ``unqualified`` (same order, no rank), after the ranked ones in ``ranked``.
    """
    events = season_event_ids(season)
    nights = _nights(events)
    names = dict(Player.objects.filter(pk__in=list(nights)).values_list("pk", "name"))
    ratings = ratings_for(player_ids=list(nights))
    rows: list[LeaderRow] = []
    keys: dict[int, tuple[Fraction, int]] = {}
    for player_id, played in nights.items():
        points = sum(n.points for n in played)
        score = _measure(season, played)
        wins = sum(n.wins for n in played)
        keys[player_id] = (score, wins)
        rows.append({
            "player_id": player_id, "name": names.get(player_id, ""), "nights": len(played),
            "points": points, "average": round(points / len(played), 2),
            "best": int(score) if season.counting == Season.Counting.BEST_N else None,
            "wins": wins, "firsts": sum(n.first for n in played),
            "score": float(round(score, 2)), "rank": None, "rating": ratings.get(player_id),
        })
    rows.sort(key=lambda r: (-keys[r["player_id"]][0], -r["wins"], r["name"], r["player_id"]))
    ranked = [r for r in rows if r["nights"] >= season.min_nights]
    unqualified = [r for r in rows if r["nights"] < season.min_nights]
    previous: tuple[Fraction, int] | None = None
    rank = 0
    for position, row in enumerate(ranked, start=1):
        key = keys[row["player_id"]]
        if key != previous:
            rank, previous = position, key
        row["rank"] = rank
    return {"season": season, "events": len(events), "ranked": ranked,
            "unqualified": unqualified}

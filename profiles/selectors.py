"""A player's profile across events and clubs: the read shared by the page and the API.

``player_profile`` answers everything in a fixed handful of queries whatever the number of events
(the player; their entries with events and clubs; their seats with rounds and games; everyone
seated at those tables; the live hands of those games; the standings snapshots; the current
rating and, for a rated player, its history), plus one query per club whose private events need
the viewer's role. Only events the viewer may see
(``clubs.permissions.can_view_event``) count anywhere on the profile, and a player with none is
404. The arithmetic is in :mod:`profiles.analytics`.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date as datetime_date
from datetime import datetime
from typing import Any, TypedDict

from django.db.models import F, IntegerField
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast
from django.http import Http404
from django.utils.translation import gettext

from clubs.models import Player
from clubs.permissions import can_view_event
from common.rulesets import event_ruleset
from common.types import Actor
from league.selectors import rating_history, ratings_for
from rules_engine import Ruleset
from scoring.models import Game, HandRevision
from standings.boards import place_of
from standings.models import StandingsSnapshot
from tournaments.models import Entry, Event, Seat

from .analytics import (
    CompanyRow,
    PlayerGame,
    PlayerHand,
    bid_bucket,
    combine_figures,
    company_of,
    event_figures,
    event_row,
    meeting_counts,
)
from .models import EventSummary


class Place(TypedDict):
    """An entry's place in its event (:func:`_place`): ``place`` of ``of`` (None before the
    event has any), ``tied`` when shared, and its ``points`` and ``wins`` (None when the
    snapshot has no row of it)."""

    place: int | None
    of: int | None
    tied: bool
    points: int | None
    wins: int | None


class ClubRef(TypedDict):
    slug: str
    name: str


class ClubCount(ClubRef):
    """A club of the player's events, with how many (the profile's clubs, most events first)."""

    events: int


class ProfileEvent(Place):
    """One of the player's events on the profile, with its place (``Place``)."""

    event: Event
    event_id: int
    name: str
    date: datetime_date
    started_at: datetime | None  # in the club's time zone
    time_zone: str
    started_label: str
    club: ClubRef
    format: str
    format_label: str
    status: str
    status_label: str
    is_pairs: bool
    ruleset: str
    entry_id: int
    pair_id: int | None
    games: int
    points_per_game: float | None


PARTNERS_SHOWN = 10  # the page lists this many partners and opponents; the API all of them


@dataclass
class Profile:
    player: Player
    events: list[ProfileEvent]  # newest first
    partners: list[CompanyRow]
    opponents: list[CompanyRow]
    analytics: list[dict[str, Any]]  # one group per ruleset, most hands first
    clubs: list[ClubCount]
    # {"current": {mu, sigma, ordinal, games}, "history": [...], "by_event": [...]}, or None
    # for a player not rated yet
    rating: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "player": {"id": self.player.pk, "name": self.player.name},
            "clubs": self.clubs,
            "events": [
                {k: v for k, v in e.items() if k not in ("event", "started_label")}
                | {"started_at": e["started_at"].isoformat() if e["started_at"] else None}
                for e in self.events
            ],
            "partners": self.partners, "opponents": self.opponents,
            "analytics": self.analytics,
            "rating": None if self.rating is None else {
                "current": self.rating["current"],
                "history": [row | {"at": row["at"].isoformat() if row["at"] else None}
                            for row in self.rating["history"]],
            },
        }


def _visible_entries(player_id: int, user: Actor) -> list[Entry]:
    """The player's entries in events the viewer may see, newest event first. A non-public
    event is visible by the viewer's role in its club alone, so that is asked once per club."""
    entries = list(
        Entry.objects.filter(player_id=player_id)
        .select_related("event__club", "profile_summary")
        .annotate(standings_version=F("event__standings__version"))
        # documents and times the profile never reads
        .defer("event__format_settings", "event__prizes", "event__tie_breaks",
               "event__created_at", "event__club__ruleset_overrides", "event__club__created_at",
               "profile_summary__computed_at", "checked_in_at")
        .order_by("-event__date", "-event_id")
    )
    by_club: dict[int, bool] = {}
    visible: list[Entry] = []
    for entry in entries:
        event = entry.event
        if event.is_public and event.club.is_public:
            allowed = can_view_event(user=user, event=event)
        else:
            if event.club_id not in by_club:
                by_club[event.club_id] = can_view_event(user=user, event=event)
            allowed = by_club[event.club_id]
        if allowed:
            visible.append(entry)
    return visible


def _side_of(ruleset: Ruleset, position: str) -> str:
    try:
        return ruleset.side_of(position)
    except KeyError:  # a seat the ruleset's table does not have
        return position


def _place(entry: Entry, rows: list[dict[str, Any]],
           placements: list[dict[str, Any]]) -> Place:
    """Place (of how many), points and wins of an entry from its event's snapshot: the final
    places once written (``standings.boards.place_of``: the places every standings view ranks
    by), else the standings' rank; a pair event's row is its pair's."""
    pair_id = entry.pair_id

    def mine(item: dict[str, Any]) -> bool:
        if pair_id is not None and item.get("pair_id") is not None:
            return int(item["pair_id"]) == pair_id
        return int(item.get("entry_id", 0)) == entry.pk

    row = next((r for r in rows if mine(r)), None)
    out: Place = {
        "place": None, "of": None, "tied": False,
        "points": int(row["points"]) if row else None,
        "wins": int(row.get("wins", 0)) if row else None,
    }
    placed = place_of(placements, entry_id=entry.pk, pair_id=pair_id) if placements else None
    if placed is not None:
        out.update({"place": placed[0], "of": placed[1], "tied": placed[2]})
    elif row is not None and not placements:
        out.update({"place": int(row["rank"]), "of": len(rows), "tied": bool(row.get("tied"))})
    return out


def _local(moment: datetime | None, tz_name: str) -> datetime | None:
    if moment is None:
        return None
    try:
        return moment.astimezone(zoneinfo.ZoneInfo(tz_name))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return moment


def _rating(player_id: int, events: dict[int, Event]) -> dict[str, Any] | None:
    """The player's current rating (``league``: one number across clubs) and its history over
    the games of events the viewer may see, oldest first; ``by_event`` is the rating after each
    event's last rated game, newest first (``event_dates``: each event's date, for charts). None
    for a player not rated yet."""
    current = ratings_for(player_ids=[player_id]).get(player_id)
    if current is None:
        return None
    # Every rated game of the player's is in one of their events, and ``events`` are those the
    # viewer may see (``_visible_entries`` asked ``can_view_event``): no second check per event.
    history = [row for row in rating_history(player_id=player_id) if row["event_id"] in events]
    by_event: dict[int, dict[str, Any]] = {}
    for row in history:
        event = events.get(row["event_id"])
        summary = by_event.setdefault(row["event_id"], {
            "event_id": row["event_id"], "name": row["event_name"], "games": 0,
            "date": event.date if event else (row["at"].date() if row["at"] else None)})
        summary.update(games=summary["games"] + 1, mu=row["mu"], sigma=row["sigma"],
                       two_sigma=2 * row["sigma"], ordinal=row["ordinal"])
    return {"current": current | {"two_sigma": 2 * current["sigma"]}, "history": history,
            "by_event": list(by_event.values())[::-1],
            "event_dates": {pk: row["date"] for pk, row in by_event.items()}}


def _live_hands(game_ids: list[int], *, sides: list[str]) -> dict[int, list[tuple[Any, ...]]]:
    """The live values of the games' hands that are not deleted, by game: ``(bidder, bid,
    outcome, result, made, meld, points, renege_seat)``, meld and points as {side: int}. The
    database reads each side's number out of the JSON (thousands of small documents decoded in
    Python cost more than the query)."""
    numbers: dict[str, Any] = {}
    for index, side in enumerate(sides):
        numbers[f"meld_{index}"] = Cast(KeyTextTransform(side, "meld"), IntegerField())
        numbers[f"points_{index}"] = Cast(KeyTextTransform(side, "points"), IntegerField())
    out: dict[int, list[tuple[Any, ...]]] = {}
    for row in (
        HandRevision.objects.filter(is_live=True, hand__deleted_at__isnull=True,
                                    hand__game_id__in=game_ids).order_by()
        .annotate(**numbers)
        .values_list("hand__game_id", "bidder", "bid", "outcome", "result", "made",
                     "renege_seat", *numbers)
    ):
        game_id, bidder, bid, outcome, result, made, renege_seat, *found = row
        meld = {side: found[2 * i] for i, side in enumerate(sides) if found[2 * i] is not None}
        points = {side: found[2 * i + 1] for i, side in enumerate(sides)
                  if found[2 * i + 1] is not None}
        out.setdefault(game_id, []).append(
            (bidder, bid, outcome, result, made, meld, points, renege_seat))
    return out


@dataclass
class EventPart:
    """What the profile takes from one entry's event: when the player's first round started,
    the place (``_place``), the hand figures (``analytics.event_figures``, with ``row``: the
    event's line of the per-event figures) and ``[games, wins, losses]`` per partner and per
    opponent over finished games. Computed live (:func:`event_parts`) or read from the entry's
    ``EventSummary``."""

    started: datetime | None
    place: Place
    figures: dict[str, Any]
    partners: dict[int, list[int]]
    opponents: dict[int, list[int]]

    @classmethod
    def of_summary(cls, summary: EventSummary) -> EventPart:
        data = summary.data
        return cls(started=summary.started_at, place=data["place"], figures=data["figures"],
                   partners={row[0]: row[1:] for row in data["partners"]},
                   opponents={row[0]: row[1:] for row in data["opponents"]})

    def stored(self) -> dict[str, Any]:
        """The summary's ``data``."""
        return {"place": self.place, "figures": self.figures,
                "partners": [[pk, *row] for pk, row in sorted(self.partners.items())],
                "opponents": [[pk, *row] for pk, row in sorted(self.opponents.items())]}


def event_parts(entries: list[Entry]) -> tuple[dict[int, EventPart], dict[int, str]]:
    """Each entry's :class:`EventPart` computed from the seats, the live hands and the standings
    snapshots (``entries``' events loaded), by entry id; and the names of everyone met. A fixed
    handful of queries whatever the number of entries: their seats with rounds and games;
    everyone seated at those tables; the live hands of those games; the standings snapshots."""
    by_entry = {e.pk: e for e in entries}
    events = {e.event_id: e.event for e in entries}
    # No query here needs an order (the models' default orderings would add joins and sorts).
    seats = list(
        Seat.objects.filter(entry_id__in=list(by_entry)).order_by()
        .values_list("table_id", "position", "entry_id", "round__started_at", "table__game__id",
                     "table__game__status", "table__game__winner")
    ) if by_entry else []
    tables = {table_id for table_id, *_ in seats}
    at_table: dict[int, list[tuple[str, int, int, str]]] = {}
    names: dict[int, str] = {}
    for table_id, position, entry_id, player_id, name in (
        Seat.objects.filter(table_id__in=tables).order_by()
        .values_list("table_id", "position", "entry_id", "entry__player_id",
                     "entry__player__name")
    ) if tables else ():
        at_table.setdefault(table_id, []).append((position, entry_id, player_id, name))
    rulesets = {pk: event_ruleset(event) for pk, event in events.items()}
    revisions = _live_hands([game_id for *_, game_id, _, _ in seats if game_id is not None],
                            sides=sorted({side for r in rulesets.values() for side in r.sides}))
    snapshots = {
        event_id: (rows or [], placements or [])
        for event_id, rows, placements in StandingsSnapshot.objects.filter(
            event_id__in=list(events)).order_by().values_list("event_id", "rows", "placements")
    } if events else {}

    started: dict[int, datetime] = {}
    hands_of: dict[int, list[PlayerHand]] = {}
    games_of: dict[int, list[PlayerGame]] = {}
    partner_meetings: dict[int, list[tuple[int, str, bool, str]]] = {}
    opponent_meetings: dict[int, list[tuple[int, str, bool, str]]] = {}
    finished_states = (Game.Status.FINISHED, Game.Status.CONFIRMED)
    for table_id, position, entry_id, round_started, game_id, status, winner in seats:
        event = by_entry[entry_id].event
        if round_started is not None and (entry_id not in started
                                          or round_started < started[entry_id]):
            started[entry_id] = round_started
        if game_id is None:
            continue
        ruleset = rulesets[event.pk]
        side = _side_of(ruleset, position)
        finished = status in finished_states
        games_of.setdefault(entry_id, []).append(PlayerGame(event.pk, game_id, side, finished))
        outcome = "won" if winner == side else "lost" if winner else ""
        for other_position, other_entry, other_id, name in at_table.get(table_id, []):
            if other_entry == entry_id:
                continue
            names[other_id] = name
            meeting = (other_id, name, finished, outcome)
            if _side_of(ruleset, other_position) == side:
                partner_meetings.setdefault(entry_id, []).append(meeting)
            else:
                opponent_meetings.setdefault(entry_id, []).append(meeting)
        for bidder, bid, outcome_, result, made, meld, points, renege_seat in revisions.get(
                game_id, []):
            bucket = None
            if bidder == position and bid is not None:
                bucket = bid_bucket(bid, min_bid=ruleset.min_bid, bid_step=ruleset.bid_step,
                                    bid_steps=ruleset.bid_steps)
            hands_of.setdefault(entry_id, []).append(PlayerHand(
                event_id=event.pk, game_id=game_id, position=position, side=side,
                bidder=bidder, bid=bid, outcome=outcome_, result=result, made=made,
                meld=meld or {}, points=points or {}, renege_seat=renege_seat, bucket=bucket,
            ))

    parts = {}
    for entry in entries:
        figures = event_figures(hands_of.get(entry.pk, []), games_of.get(entry.pk, []))
        figures["row"] = event_row(entry.event_id, figures)
        rows, placements = snapshots.get(entry.event_id, ([], []))
        parts[entry.pk] = EventPart(
            started=started.get(entry.pk), place=_place(entry, rows, placements),
            figures=figures, partners=meeting_counts(partner_meetings.get(entry.pk, [])),
            opponents=meeting_counts(opponent_meetings.get(entry.pk, [])))
    return parts, names


def summary_current(entry: Entry, summary: EventSummary | None,
                    standings_version: int | None) -> bool:
    """Whether ``summary`` (the entry's, or None) still says what :func:`event_parts` would:
    the event is over (finished or cancelled) and neither its hands nor its standings nor its
    ruleset moved since it was written."""
    event = entry.event
    return (summary is not None and event.is_over
            and summary.source_version == event.hands_version
            and summary.standings_version == standings_version
            and summary.ruleset == event.ruleset_preset)


def _parts(entries: list[Entry]) -> tuple[dict[int, EventPart], dict[int, str]]:
    """Each entry's part: from its current summary (the names of everyone it counts read in
    one query), else live (:func:`event_parts`, for the rest at once)."""
    parts: dict[int, EventPart] = {}
    for entry in entries:
        summary = getattr(entry, "profile_summary", None)
        if summary is not None and summary_current(entry, summary,
                                                   getattr(entry, "standings_version", None)):
            parts[entry.pk] = EventPart.of_summary(summary)
    wanted = {pk for part in parts.values() for pk in (*part.partners, *part.opponents)}
    names = dict(Player.objects.filter(pk__in=wanted).values_list("pk", "name")) if wanted else {}
    for entry_id in [pk for pk, part in parts.items()
                     if not names.keys() >= {*part.partners, *part.opponents}]:
        del parts[entry_id]  # someone it counts is gone (merged into another player)
    live, live_names = event_parts([e for e in entries if e.pk not in parts])
    return parts | live, names | live_names


def player_profile(*, player_id: int, user: Actor) -> Profile:
    """The player's events, partners, opponents and hand figures over the events ``user`` may
    see; 404 when there are none (or no such player)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise Http404(gettext("No such player"))
    entries = _visible_entries(player_id, user)
    if not entries:
        raise Http404(gettext("No such player"))
    events = {e.event_id: e.event for e in entries}
    parts, names = _parts(entries)

    shares: dict[str, dict[int, dict[str, Any]]] = {}
    partners: dict[int, list[int]] = {}
    opponents: dict[int, list[int]] = {}
    for entry in entries:
        part = parts[entry.pk]
        if part.figures["seated"]:
            shares.setdefault(entry.event.ruleset_preset, {})[entry.event_id] = part.figures
        for book, counts in ((partners, part.partners), (opponents, part.opponents)):
            for other_id, row in counts.items():
                total = book.setdefault(other_id, [0, 0, 0])
                for i, n in enumerate(row):
                    total[i] += n

    oldest_first = [e.event_id for e in reversed(entries)]
    analytics = []
    for group in sorted(shares):
        figures = combine_figures(shares[group], oldest_first)
        group_events = [e for e in events.values() if e.ruleset_preset == group]
        for row in figures["per_event"]:
            event = events[row["event_id"]]
            row.update(name=event.name, date=event.date)
        analytics.append({"ruleset": group, "title": event_ruleset(group_events[0]).title,
                          "events": len(group_events), **figures})
    analytics.sort(key=lambda a: (-a["hands"], a["ruleset"]))

    per_event_ppg = {row["event_id"]: row for a in analytics for row in a["per_event"]}
    formats_shown = dict(Event._meta.get_field("format").flatchoices)
    statuses_shown = dict(Event.Status.choices)
    event_rows: list[ProfileEvent] = []
    clubs: dict[int, ClubCount] = {}
    for entry in entries:
        event = entry.event
        club = event.club
        part = parts[entry.pk]
        local = _local(part.started, club.time_zone)
        ppg = per_event_ppg.get(event.pk)
        event_rows.append({
            "event": event, "event_id": event.pk, "name": event.name, "date": event.date,
            "started_at": local, "time_zone": club.time_zone,
            "started_label": f"{local:%H:%M} {local.tzname()}" if local else "",
            "club": {"slug": club.slug, "name": club.name},
            "format": event.format,
            "format_label": str(formats_shown.get(event.format, event.format)),
            "status": event.status,
            "status_label": str(statuses_shown.get(event.status, event.status)),
            "is_pairs": event.is_pairs, "ruleset": event.ruleset_preset,
            "entry_id": entry.pk, "pair_id": entry.pair_id,
            **part.place,
            "games": ppg["games"] if ppg else 0,
            "points_per_game": ppg["points_per_game"] if ppg else None,
        })
        info = clubs.setdefault(club.pk, {"slug": club.slug, "name": club.name, "events": 0})
        info["events"] += 1
    return Profile(
        player=player, events=event_rows, partners=company_of(partners, names),
        opponents=company_of(opponents, names), analytics=analytics,
        clubs=sorted(clubs.values(), key=lambda c: (-c["events"], c["name"])),
        rating=_rating(player_id, events),
    )

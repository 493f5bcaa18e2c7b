"""The open data feed: a public club's finished results, a page of events at a time.

An event is in the feed when it is finished and public and its club is public (a private club
has no feed: 404 to everyone, members too; its results stay on its own pages). Each event
carries its date, format, players and final places (``StandingsSnapshot.placements``, written
when it finished: the format's rule). An event's complete archive (``archive/format.py``) is
downloaded by the club's directors only, so the feed links each event's public standings API
instead (docs/open-data.md).

Erased players (``privacy``) read "Withdrawn player" in the places as everywhere, and the feed
gives no id for them.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.http import Http404
from django.utils.translation import gettext

from clubs.models import Club
from standings.models import StandingsSnapshot
from tournaments.models import Entry, Event


def feed_club(*, slug: str) -> Club:
    """The public club named by ``slug``, or 404."""
    club = Club.objects.filter(slug=slug, is_public=True).first()
    if club is None:
        raise Http404(gettext("No such club"))
    return club


def feed_events(*, club: Club) -> QuerySet[Event]:
    """The club's finished public events, the latest first."""
    return (Event.objects.filter(club=club, is_public=True, status=Event.Status.FINISHED)
            .only("id", "name", "date", "format", "partnership", "club_id")
            .order_by("-date", "-id"))


@dataclass
class FeedPlayer:
    player_id: int | None
    name: str
    alternate: bool = False


@dataclass
class FeedEvent:
    event: Event
    players: list[FeedPlayer] = field(default_factory=list)
    placements: list[dict[str, Any]] = field(default_factory=list)


def feed_page(*, events: list[Event]) -> list[FeedEvent]:
    """A page of the feed: each event with its players and places (two queries)."""
    ids = [event.pk for event in events]
    players: dict[int, list[FeedPlayer]] = defaultdict(list)
    by_entry: dict[int, FeedPlayer] = {}
    pair_members: dict[int, list[FeedPlayer]] = defaultdict(list)
    rows = (Entry.objects.filter(event_id__in=ids)
            .values_list("event_id", "id", "pair_id", "alternate", "player_id", "player__name",
                         "player__erased_at")
            .order_by("event_id", "player__name", "id"))
    for event_id, entry_id, pair_id, alternate, player_id, name, erased_at in rows:
        player = FeedPlayer(player_id=None if erased_at else player_id, name=name,
                            alternate=alternate)
        players[event_id].append(player)
        by_entry[entry_id] = player
        if pair_id is not None:
            pair_members[pair_id].append(player)
    placements = dict(StandingsSnapshot.objects.filter(event_id__in=ids)
                      .values_list("event_id", "placements"))
    out = []
    for event in events:
        places = []
        for placed in placements.get(event.pk) or []:
            pair_id = placed.get("pair_id")
            if pair_id is not None:
                members = pair_members.get(int(pair_id), [])
            else:
                one = by_entry.get(int(placed.get("entry_id") or 0))
                members = [one] if one else []
            places.append({
                "place": int(placed["place"]), "name": placed.get("name", ""),
                "stage": placed.get("stage") or "", "prize": placed.get("prize"),
                "pair_id": pair_id, "players": members,
            })
        out.append(FeedEvent(event=event, players=players.get(event.pk, []), placements=places))
    return out

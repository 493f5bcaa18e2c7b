"""A club night's season: the club's earlier nights whose partners the next round avoids after
the evening's own (``pairing.season``), and the partnerships of any set of nights.

Which nights are the season of an event (a format whose spec says ``club_night``):

* **in a series** (``series``: an event may belong to one or more), the finished club nights of
  its series dated before it (or the same day and made earlier);
* **otherwise**, the club's finished club nights of the last ``SEASON_WEEKS`` weeks (8) before
  its date: a club that keeps no series still has its regulars meet new partners every week.

At most ``MAX_NIGHTS`` of them, the latest. A player is the same person from one night to the
next by their ``Player`` row; the builders see tonight's entries, so the history is translated
to the entries of the event being seated. Partnerships are the players of one side at a table
(N–S and E–W; a team at six- or eight-handed); games where each plays alone have none.

Reads only; two queries for the nights (events, then their seats) and one for the entries.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import timedelta

from django.db.models import Q

import formats
from common.rulesets import event_ruleset
from pairing.season import Night, season_history
from tournaments.models import Entry, Event, Seat

# Without a series, a night's season is the club's nights of this many weeks before it.
SEASON_WEEKS = 8
# The most earlier nights a seating reads (a partnership this far back weighs almost nothing).
MAX_NIGHTS = 26


def season_events(event: Event) -> list[Event]:
    """The earlier finished club nights of the event's season, oldest first (see the module
    docstring); empty for an event of another format."""
    if not event.spec.club_night:
        return []
    nights = Event.objects.filter(status=Event.Status.FINISHED,
                                  format__in=formats.names(lambda f: f.club_night))
    earlier = Q(date__lt=event.date) | Q(date=event.date, pk__lt=event.pk)
    series_ids = list(event.series.values_list("pk", flat=True)) if event.pk else []
    if series_ids:
        nights = nights.filter(series__in=series_ids)
    else:
        nights = nights.filter(club_id=event.club_id,
                               date__gte=event.date - timedelta(weeks=SEASON_WEEKS))
    latest = (nights.filter(earlier).exclude(pk=event.pk).distinct()
              .order_by("-date", "-pk")[:MAX_NIGHTS])
    return list(reversed(latest))


def nights_teams(events: Sequence[Event]) -> list[Night]:
    """Each event's rounds as their teams of players (``Player`` ids), in the order given."""
    sides: dict[int, dict[tuple[int, int, str], set[int]]] = {e.pk: {} for e in events}
    rulesets = {e.pk: event_ruleset(e) for e in events}
    seats = (Seat.objects.filter(round__event__in=[e.pk for e in events])
             .values_list("round__event_id", "round__number", "table_id", "position",
                          "entry__player_id"))
    for event_id, number, table_id, position, player_id in seats:
        side = rulesets[event_id].side_of(position)
        sides[event_id].setdefault((number, table_id, side), set()).add(player_id)
    nights: list[Night] = []
    for event in events:
        rounds: dict[int, list[frozenset[int]]] = {}
        for (number, _, _), players in sorted(sides[event.pk].items()):
            rounds.setdefault(number, [])
            if len(players) > 1:
                rounds[number].append(frozenset(players))
        nights.append([rounds[n] for n in sorted(rounds)])
    return nights


def season_partnerships(event: Event, entries: Iterable[int] | None = None
                        ) -> dict[frozenset[int], tuple[int, ...]]:
    """The season history of ``event`` by its entries (``formats.Situation.season_history``):
    each pair of its entries (of ``entries``, when given) who partnered on an earlier night of
    its season, with the nights since each time."""
    events = season_events(event)
    if not events:
        return {}
    by_player = season_history(nights_teams(events))
    rows = Entry.objects.filter(event=event)
    if entries is not None:
        rows = rows.filter(pk__in=list(entries))
    entry_of = dict((player, pk) for pk, player in rows.values_list("pk", "player_id"))
    out: dict[frozenset[int], tuple[int, ...]] = {}
    for pair, agos in by_player.items():
        a, b = tuple(pair)
        if a in entry_of and b in entry_of:
            out[frozenset((entry_of[a], entry_of[b]))] = agos
    return out

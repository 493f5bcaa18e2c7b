"""Writes of the profiles app: the per-entry summaries the profile reads (``profiles.models``).

``event_summaries_write`` is queued by ``profiles.signals`` (an event finished, cancelled or
saved once over; its standings stored) and run for every event by ``manage.py
profile_summaries``. It reads the event's versions *before* the seats, hands and standings, so
a summary can only understate what it contains (then it is behind, and the profile computes
that event live), never overstate it.
"""

from __future__ import annotations

from django.db import transaction

from standings.models import StandingsSnapshot
from tournaments.models import Entry, Event

from .models import EventSummary
from .selectors import event_parts, summary_current


def event_summaries_write(*, event_id: int, force: bool = False) -> int:
    """Write (or rewrite) the summary of every entry of the event, once it is finished or
    cancelled; returns how many were written (0 when the event is in play, gone, or every
    summary is current already, unless ``force``)."""
    event = Event.objects.filter(pk=event_id).first()
    if event is None or not event.is_over:
        return 0
    standings_version = (StandingsSnapshot.objects.filter(event_id=event_id)
                         .values_list("version", flat=True).first())
    entries = list(Entry.objects.filter(event_id=event_id).select_related("profile_summary"))
    for entry in entries:
        entry.event = event
    if not force and all(
            summary_current(e, getattr(e, "profile_summary", None), standings_version)
            for e in entries):
        return 0
    parts, _ = event_parts(entries)
    rows = [
        EventSummary(entry_id=entry.pk, source_version=event.hands_version,
                     standings_version=standings_version, ruleset=event.ruleset_preset,
                     started_at=parts[entry.pk].started, data=parts[entry.pk].stored())
        for entry in entries
    ]
    with transaction.atomic():
        # entries gone meanwhile take their summaries with them (CASCADE): write only the rest
        alive = set(Entry.objects.filter(pk__in=[r.entry_id for r in rows])
                    .values_list("pk", flat=True))
        EventSummary.objects.bulk_create(
            [r for r in rows if r.entry_id in alive], update_conflicts=True,
            unique_fields=["entry"],
            update_fields=["source_version", "standings_version", "ruleset", "started_at",
                           "data", "computed_at"])
    return len(rows)


def event_summaries_backfill(*, force: bool = False) -> tuple[int, int]:
    """Write the summaries of every finished or cancelled event whose summaries are missing or
    behind (every one with ``force``); returns (events written, summaries written)."""
    events = written = 0
    for event_id in (Event.objects.filter(status__in=Event.OVER).order_by("pk")
                     .values_list("pk", flat=True)):
        count = event_summaries_write(event_id=event_id, force=force)
        events += bool(count)
        written += count
    return events, written

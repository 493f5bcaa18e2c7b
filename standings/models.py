"""The standings snapshot: derived, versioned rows that the standings pages show."""

from __future__ import annotations

from django.db import models

from tournaments.models import Event


class StandingsSnapshot(models.Model):
    """Derived: the ranked standings of an event, as shown on the standings pages."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings")
    # Bumped each time the rows change; pages poll it and redraw when it moves.
    version = models.PositiveIntegerField(default=0)
    # The event's hands_version these rows were built from; behind when smaller.
    source_version = models.PositiveIntegerField(default=0)
    rows = models.JSONField(default=list)
    tie_breaks = models.JSONField(default=list)
    # SHA-256 of the rows and tie-breaks as stored: an unchanged result is recognised without
    # loading or comparing the rows.
    digest = models.CharField(max_length=64, blank=True)
    # Final places, written when the event finishes (the format's rule: for a progressive event
    # with a cut, the final table, then the semi-finals, then the qualifying standings) and
    # cleared when it is reopened: [{"place", "entry_id", "name", "stage", "prize"?}].
    placements = models.JSONField(default=list, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The table predates the standings app (it was created by scoring's first migration).
        db_table = "scoring_standingssnapshot"

    def __str__(self) -> str:
        return f"standings of event {self.event_id} v{self.version}"

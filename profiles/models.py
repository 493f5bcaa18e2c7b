"""Derived: what a player's profile needs from one of their events, kept so that the profile of a
player of hundreds of events reads one small row per event instead of every hand.

A summary is written by ``profiles.services.event_summaries_write`` (queued when an event's
standings are stored or the event finishes or is cancelled; ``manage.py profile_summaries``
writes every missing or stale one) and is *current* while the event is finished or cancelled and
its ``hands_version`` (``source_version`` here, as the standings call it) and standings version
are the ones recorded here. The profile computes any other event live (``profiles.selectors``),
so a summary missing or behind is only slower, never wrong.
"""

from __future__ import annotations

from django.db import models

from tournaments.models import Entry


class EventSummary(models.Model):
    """One entry's share of its player's profile (module docstring)."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="profile_summary")
    # What it was computed from: the event's hands_version, its standings snapshot's version
    # (null: the event had none) and ruleset preset (the analytics group).
    source_version = models.PositiveIntegerField()
    standings_version = models.PositiveIntegerField(null=True)
    ruleset = models.CharField(max_length=40)
    # When the player's first round started.
    started_at = models.DateTimeField(null=True)
    # {"place": {place, of, tied, points, wins}, "figures": profiles.analytics.event_figures
    #  (with "row": the event's line of the per-event figures), "partners" and "opponents":
    #  [[player_id, games, wins, losses], ...] over finished games}
    data = models.JSONField(default=dict)
    computed_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"profile summary of entry {self.entry_id}"

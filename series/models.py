"""A series: events of one club (or of several clubs together) under one points table.

A championship week (a Friday mini-event and a Saturday main event) or a season-long tour. Each
finished event's final places earn series points by the series' rule (``series.points``), a
player's best N event scores count, and the series' standings, prizes and side pots are computed
from the events' stored placements and games whenever they are read (nothing derived is stored
here, so an event finished or reopened shows at once).

Words: the *owning club* (``club``) creates the series; *partner clubs* are clubs whose events
may be in the series and whose directors may manage it too.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from tournaments.models import Event

# A series counts at most this many events, and its points table this many places.
MAX_EVENTS = 60
MAX_PLACES = 500
# The most points one place may earn.
MAX_POINTS = 100_000


class Series(models.Model):
    """Events grouped under one points table, with optional best-N and minimum-events rules."""

    class PointsRule(models.TextChoices):
        TABLE = "table", _("Points by place (a table)")
        FIELD = "field", _("Share of the field beaten")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series")
    partner_clubs: models.ManyToManyField[Club, models.Model] = models.ManyToManyField(
        Club, related_name="partner_series", blank=True)
    name = models.CharField(max_length=120)
    description = models.CharField(max_length=300, blank=True)
    events: models.ManyToManyField[Event, models.Model] = models.ManyToManyField(
        Event, related_name="series", blank=True)
    points_rule = models.CharField(max_length=10, choices=PointsRule.choices,
                                   default=PointsRule.TABLE)
    # table: the points of place 1, 2, 3, ... (places further down earn 0);
    # field: one number, what the winner earns (``series.points``).
    points = models.JSONField(default=list)
    # Only a player's best N event scores count (null: every event counts).
    best_of = models.PositiveSmallIntegerField(null=True, blank=True)
    # Players placed in fewer events are listed after the ranked ones (null: one event).
    min_events = models.PositiveSmallIntegerField(null=True, blank=True)
    # The series' payout table and side pots, as ``ranking.prizes`` writes an event's, with
    # the side kinds of ``series.points.SIDE_KINDS``.
    prizes = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["club", "-created_at", "-id"]
        verbose_name_plural = "series"
        constraints = [
            models.CheckConstraint(condition=Q(points_rule__in=["table", "field"]),
                                   name="series_points_rule_valid"),
            models.CheckConstraint(condition=Q(best_of__isnull=True) | Q(best_of__gte=1),
                                   name="series_best_of_positive"),
            models.CheckConstraint(condition=Q(min_events__isnull=True) | Q(min_events__gte=1),
                                   name="series_min_events_positive"),
            models.UniqueConstraint(fields=["club", "name"], name="series_name_once_per_club"),
        ]

    def __str__(self) -> str:
        return self.name

"""Penalties, appeals and each event's penalty table: the director's authority beyond the hands.

Vocabulary:

* a *penalty* is points a director takes off a player (an entry) or a pair in one round (and,
  optionally, one game) for a kind of offence; it counts in the standings by the event's rule
  (the player alone in an individual event, the pair in a pair event) until it is *withdrawn*,
  with a reason; a withdrawn penalty keeps its row (the history);
* the *penalty table* is the event's default points per kind, from a preset (one per ruleset
  family) that the director may edit;
* an *appeal* is a ruling contested (a penalty, or a game's result) and the decision on it;
* a player's *conduct record* is their penalties across the events of a club, seen by that
  club's directors and by the player.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from scoring.models import Game
from tournaments.models import Entry, Event, Pair

# A penalty takes at most this many points (far beyond any table's penalty, a guard against a
# typo's extra zeros).
PENALTY_POINTS_MAX = 1000
# The kinds and decisions as the check constraints list them (the choices below, in order).
PENALTY_KINDS = ["table_talk", "slow_play", "tardiness", "misconduct", "renege", "other"]
DECISIONS = ["upheld", "overturned", "changed"]


class Penalty(models.Model):
    class Kind(models.TextChoices):
        TABLE_TALK = "table_talk", "Table talk"
        SLOW_PLAY = "slow_play", "Slow play"
        TARDINESS = "tardiness", "Tardiness"
        MISCONDUCT = "misconduct", "Misconduct"
        RENEGE = "renege", "Renege (not scored through the hand)"
        OTHER = "other", "Other"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="penalties")
    round_number = models.PositiveSmallIntegerField()
    # The game the offence happened in (optional: tardiness has none).
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="penalties")
    # The player penalised; in a pair event also their pair (which the penalty counts against).
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE,
                              related_name="penalties")
    pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="penalties")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    points = models.PositiveIntegerField()
    reason = models.CharField(max_length=200)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    withdrawn_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["event", "round_number", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=PENALTY_KINDS),
                                   name="penalty_kind_valid"),
            models.CheckConstraint(condition=Q(points__gte=1, points__lte=PENALTY_POINTS_MAX),
                                   name="penalty_points_range"),
            models.CheckConstraint(condition=Q(round_number__gte=1),
                                   name="penalty_round_positive"),
            models.CheckConstraint(condition=Q(entry__isnull=False) | Q(pair__isnull=False),
                                   name="penalty_has_target"),
            models.CheckConstraint(
                condition=Q(withdrawn_at__isnull=True, withdrawn_reason="")
                | (Q(withdrawn_at__isnull=False) & ~Q(withdrawn_reason="")),
                name="penalty_withdrawn_with_reason",
            ),
        ]
        indexes = [
            # standings: the event's penalties in force, summed per entry or pair
            models.Index(fields=["event"], condition=Q(withdrawn_at__isnull=True),
                         name="penalty_event_live_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.points}) in round {self.round_number}"

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class Appeal(models.Model):
    """A ruling contested and the decision on it (logged beside the event's penalties)."""

    class Decision(models.TextChoices):
        UPHELD = "upheld", "Upheld (the ruling stands)"
        OVERTURNED = "overturned", "Overturned"
        CHANGED = "changed", "Changed"

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="appeals")
    penalty = models.ForeignKey(Penalty, null=True, blank=True, on_delete=models.CASCADE,
                                related_name="appeals")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL,
                             related_name="appeals")
    # Who appealed (optional).
    entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    contested = models.CharField(max_length=500)
    decision = models.CharField(max_length=12, choices=Decision.choices)
    note = models.CharField(max_length=500, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "decided_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(decision__in=DECISIONS), name="appeal_decision_valid"),
        ]

    def __str__(self) -> str:
        return f"appeal {self.pk}: {self.decision}"


class PenaltyTable(models.Model):
    """An event's default points per kind of penalty, when the director changed the preset's
    (an event without a row uses its ruleset family's preset: ``conduct.presets``)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="penalty_table")
    preset = models.CharField(max_length=20)
    points = models.JSONField(default=dict)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"penalty table of event {self.event_id}"


if Penalty.Kind.values != PENALTY_KINDS or Appeal.Decision.values != DECISIONS:
    raise RuntimeError("conduct: the constraints' lists must follow the choices")

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
  club's directors and by the player;
* a *call* (``DirectorCall``) is a table asking for a director from its phone: *raised* (with an
  optional reason and a few words), *taken* by a director ("on my way"), *closed* with a note
  (the ruling), which the table's phone shows until it is *dismissed* or the next hand is
  stored. A call is *open* until it is closed; a table has one open call at a time;
* a *correction* (``Correction``) is a change to a result after the players were shown it (a
  confirmed game's hand corrected or deleted, an adjusted result, a forfeit, a penalty given or
  withdrawn, the event reopened and finished again): one row per change, written in the
  change's transaction (``tournaments.corrections`` says why a row of its own), listed in
  public on the event's Corrections page with who (by role), why, what it was, what it became
  and whose standings moved.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models import Game
from tournaments.models import Entry, Event, Pair, Table

# A penalty takes at most this many points (far beyond any table's penalty, a guard against a
# typo's extra zeros).
PENALTY_POINTS_MAX = 1000
# The kinds and decisions as the check constraints list them (the choices below, in order).
PENALTY_KINDS = ["table_talk", "slow_play", "tardiness", "misconduct", "renege", "other"]
DECISIONS = ["upheld", "overturned", "changed"]
CALL_REASONS = ["", "renege", "misdeal", "dispute", "other"]
CALL_WORDS_MAX = 140
CALL_NOTE_MAX = 500
CORRECTION_KINDS = ["hand_corrected", "hand_deleted", "game_adjusted", "game_forfeited",
                    "penalty_given", "penalty_withdrawn", "event_reopened", "event_refinished"]
CORRECTION_ROLES = ["", "owner", "director", "scorer"]
CORRECTION_TEXT_MAX = 300


class Penalty(models.Model):
    class Kind(models.TextChoices):
        TABLE_TALK = "table_talk", _("Table talk")
        SLOW_PLAY = "slow_play", _("Slow play")
        TARDINESS = "tardiness", _("Tardiness")
        MISCONDUCT = "misconduct", _("Misconduct")
        RENEGE = "renege", _("Renege (not scored through the hand)")
        OTHER = "other", _("Other")

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
        UPHELD = "upheld", _("Upheld (the ruling stands)")
        OVERTURNED = "overturned", _("Overturned")
        CHANGED = "changed", _("Changed")

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


class DirectorCall(models.Model):
    """A table's call for a director, from its phone (the table's link), and its ruling."""

    class Reason(models.TextChoices):
        NONE = "", _("No reason given")
        RENEGE = "renege", _("Renege")
        MISDEAL = "misdeal", _("Misdeal")
        DISPUTE = "dispute", _("Dispute")
        OTHER = "other", _("Other")

    class State(models.TextChoices):
        WAITING = "waiting", _("Waiting for a director")
        TAKEN = "taken", _("A director is on the way")
        CLOSED = "closed", _("Closed with a ruling")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="director_calls")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="director_calls")
    reason = models.CharField(max_length=10, choices=Reason.choices, blank=True, default="")
    words = models.CharField(max_length=CALL_WORDS_MAX, blank=True, default="")
    raised_at = models.DateTimeField(default=timezone.now)
    taken_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                 on_delete=models.SET_NULL, related_name="+")
    taken_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    closed_at = models.DateTimeField(null=True, blank=True)
    note = models.CharField(max_length=CALL_NOTE_MAX, blank=True, default="")
    # The table's phone put the ruling away (it also goes at the next hand).
    dismissed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "raised_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["table"], condition=Q(closed_at__isnull=True),
                                    name="director_call_one_open_per_table"),
            models.CheckConstraint(condition=Q(reason__in=CALL_REASONS),
                                   name="director_call_reason_valid"),
            models.CheckConstraint(
                condition=Q(closed_at__isnull=True, note="")
                | (Q(closed_at__isnull=False) & ~Q(note="")),
                name="director_call_closed_with_note",
            ),
            models.CheckConstraint(condition=Q(closed_at__isnull=True) | Q(taken_at__isnull=False),
                                   name="director_call_closed_was_taken"),
            models.CheckConstraint(
                condition=Q(dismissed_at__isnull=True) | Q(closed_at__isnull=False),
                name="director_call_dismissed_when_closed"),
        ]
        indexes = [
            # the directors' list and screen: the event's open calls, longest waiting first
            models.Index(fields=["event", "raised_at"], condition=Q(closed_at__isnull=True),
                         name="director_call_event_open_idx"),
        ]

    def __str__(self) -> str:
        return f"call {self.pk} from table {self.table_id}"

    @property
    def state(self) -> str:
        if self.closed_at is not None:
            return self.State.CLOSED
        return self.State.TAKEN if self.taken_at is not None else self.State.WAITING

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Correction(models.Model):
    """A change to a result after the players were shown it, as the public list shows it.

    ``role`` is the author's role in the club at the time (empty: no signed-in author, such as
    a management command); the author's name is shown only where the club allows it
    (``Club.show_director_names``). ``reason`` is empty where the writer takes none (finishing
    again): the list says "no reason given". ``was``/``became`` are short texts, ``before``/
    ``after`` the structured values; ``standings_moved`` lists the entrants whose total or
    place changed (``tournaments.corrections.CorrectionDraft.moved``)."""

    class Kind(models.TextChoices):
        HAND_CORRECTED = "hand_corrected", _("Hand corrected")
        HAND_DELETED = "hand_deleted", _("Hand deleted")
        GAME_ADJUSTED = "game_adjusted", _("Adjusted result")
        GAME_FORFEITED = "game_forfeited", _("Forfeit")
        PENALTY_GIVEN = "penalty_given", _("Penalty given")
        PENALTY_WITHDRAWN = "penalty_withdrawn", _("Penalty withdrawn")
        EVENT_REOPENED = "event_reopened", _("Event reopened")
        EVENT_REFINISHED = "event_refinished", _("Event finished again")

    class Role(models.TextChoices):
        NONE = "", _("the system")
        OWNER = "owner", _("owner")
        DIRECTOR = "director", _("director")
        SCORER = "scorer", _("scorer")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="corrections")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    created_at = models.DateTimeField(default=timezone.now)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="+")
    role = models.CharField(max_length=10, choices=Role.choices, blank=True, default="")
    reason = models.CharField(max_length=500, blank=True, default="")
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    was = models.CharField(max_length=CORRECTION_TEXT_MAX)
    became = models.CharField(max_length=CORRECTION_TEXT_MAX)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    standings_moved = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["event", "-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=CORRECTION_KINDS),
                                   name="correction_kind_valid"),
            models.CheckConstraint(condition=Q(role__in=CORRECTION_ROLES),
                                   name="correction_role_valid"),
        ]
        indexes = [
            # the Corrections list (newest first), its count and "Last corrected" of an event
            models.Index(fields=["event", "-created_at"], name="correction_event_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} at {self.created_at:%Y-%m-%d %H:%M}"


if (Penalty.Kind.values != PENALTY_KINDS or Appeal.Decision.values != DECISIONS
        or DirectorCall.Reason.values != CALL_REASONS
        or Correction.Kind.values != CORRECTION_KINDS
        or Correction.Role.values != CORRECTION_ROLES):
    raise RuntimeError("conduct: the constraints' lists must follow the choices")

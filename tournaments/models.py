"""Events, entries, rounds, tables, seats and byes."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

import formats
from clubs.models import Club, Player
from common.labels import SEAT_CHOICES, SEATS


def new_table_token() -> str:
    return secrets.token_urlsafe(18)


# An event's draw seed has this many random bits, from the operating system's cryptographic
# source: enough that no one can guess or search it before the draw.
DRAW_SEED_BITS = 128


def new_draw_seed() -> str:
    """A fresh draw seed: a whole number of ``DRAW_SEED_BITS`` random bits, as decimal text."""
    return str(secrets.randbits(DRAW_SEED_BITS))


# A fixed bye score is at most this far from 0 (far beyond any night's score; the column is a
# 32-bit integer, and a larger number used to reach it and fail there with a 500).
BYE_POINTS_LIMIT = 100_000


class Event(models.Model):
    # How the event is run: the formats of the registry (``formats``), which knows each one.
    Format = models.TextChoices(  # type: ignore[call-overload]
        "Format", [(name.upper(), (name, _(label))) for name, label in formats.choices()])

    class Partnership(models.TextChoices):
        ROTATING = "rotating", _("Rotating partners")
        FIXED = "fixed", _("Fixed partners")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Being set up")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    # Finished or cancelled: the event takes no more rounds, hands, check-ins or entries, and
    # what it shows is final (``is_over`` for one event; ``status__in=Event.OVER`` in a query).
    OVER = (Status.FINISHED, Status.CANCELLED)

    class SelfCheckIn(models.TextChoices):
        OFF = "off", _("Off: players check in at the desk")
        APPROVAL = "approval", _("On, the director approves each arrival")
        OPEN = "open", _("On, players are checked in at once")

    class ByeScoring(models.TextChoices):
        ZERO = "zero", _("Nothing")
        AVERAGE_WINNING = "average_winning", _("Average of the round's winning scores")
        AVERAGE_ALL = "average_all", _("Average of the round's scores")
        FIXED = "fixed", _("A fixed number of points")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="events")
    name = models.CharField(max_length=120)
    format = models.CharField(max_length=30, choices=Format.choices, default=formats.DEFAULT)
    # The format's own settings, validated by its pure module (e.g. the progressive movement).
    format_settings = models.JSONField(default=dict, blank=True)
    partnership = models.CharField(
        max_length=10, choices=Partnership.choices, default=Partnership.ROTATING
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    date = models.DateField()
    ruleset_preset = models.CharField(max_length=40, default="pagat_double_deck")
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    rounds_planned = models.PositiveSmallIntegerField(default=4)
    # A round is one game per table: a fixed number of deals, or (when null) a game to the target.
    deals_per_round = models.PositiveSmallIntegerField(null=True, blank=True, default=8)
    bye_scoring = models.CharField(
        max_length=20, choices=ByeScoring.choices, default=ByeScoring.AVERAGE_WINNING
    )
    bye_points = models.IntegerField(default=0)
    tie_breaks = models.JSONField(default=list, blank=True)
    is_public = models.BooleanField(default=True)
    # Where every random choice of the event's draws comes from (first draw, rotations, cut and
    # semi-final draws): a whole number written as decimal text (a 128-bit number does not fit an
    # integer column). Drawn at creation and never chosen by a director; events made before it
    # was random keep the number they were played with. Read it as a number with ``draw_seed``.
    seed = models.CharField(max_length=40, default=new_draw_seed, editable=False)
    # A director's switch: while set, a format that seats itself does not seat the next game when
    # the last one is confirmed (the director seats it by hand, e.g. after a break).
    advance_held = models.BooleanField(default=False)
    # Players check themselves in on the event's check-in page (a QR code at the door) until the
    # first round is seated: off, with the director's approval of each arrival, or at once.
    self_check_in = models.CharField(max_length=10, choices=SelfCheckIn.choices,
                                     default=SelfCheckIn.APPROVAL)
    # The payout table and side prizes, validated by ``ranking.prizes`` (shown on the final
    # standings and the printed results): {"payouts": [{"place", "amount"}], "side": [...]}.
    prizes = models.JSONField(default=dict, blank=True)
    # Moves in the same transaction as every hand write (and every change of seats, byes or
    # settings that feeds the standings); standings snapshots record the value they were built
    # from, so "behind" is a plain comparison (see standings.services).
    hands_version = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-date", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["draft", "running", "finished", "cancelled"]),
                name="event_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(format__in=formats.names()),
                name="event_format_valid",
            ),
            models.CheckConstraint(
                condition=Q(deals_per_round__isnull=True) | Q(deals_per_round__gte=1),
                name="event_deals_per_round_positive",
            ),
            models.CheckConstraint(condition=Q(seed__regex=r"^[0-9]{1,40}$"),
                                   name="event_seed_digits"),
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1), name="event_rounds_planned_positive"
            ),
            models.CheckConstraint(
                condition=Q(self_check_in__in=["off", "approval", "open"]),
                name="event_self_check_in_valid",
            ),
        ]
        indexes = [
            # club page: upcoming and past events of one club, newest first
            models.Index(fields=["club", "-date"], name="event_club_date_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"

    @property
    def spec(self) -> formats.Format:
        """What the event's format is and may do (``formats``)."""
        return formats.get(self.format)

    @property
    def is_over(self) -> bool:
        """Finished or cancelled: no more rounds, hands, check-ins or entries."""
        return self.status in self.OVER

    @property
    def draw_seed(self) -> int:
        """The seed as the draws take it: a whole number."""
        return int(self.seed)

    @property
    def is_pairs(self) -> bool:
        """Fixed pairs register together and are seated, paired and ranked as one."""
        return self.spec.pairs

    @property
    def is_bracket(self) -> bool:
        """A bracket from the first round (not a playoff after qualifying)."""
        return bool(self.spec.bracket)

    @property
    def sitting(self) -> str:
        """What one sitting of every table is called: "round", or "game" (a progressive day)."""
        return self.spec.sitting


class EventLog(models.Model):
    """Audit of director actions on an event: status changes, check-ins, seat swaps, reseats."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} at {self.created_at:%Y-%m-%d %H:%M}"


class Arrival(models.Model):
    """A player who tapped "I'm here" on the event's self check-in page: waiting for the
    director's approval, or approved (at once when the event needs no approval) or declined.
    The director's check-in page lists them as they come."""

    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for the director")
        APPROVED = "approved", _("Checked in")
        DECLINED = "declined", _("Not approved")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="arrivals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], condition=Q(status="waiting"),
                                    name="arrival_waiting_once"),
            models.CheckConstraint(condition=Q(status__in=["waiting", "approved", "declined"]),
                                   name="arrival_status_valid"),
        ]
        indexes = [
            # the director's check-in page: an event's arrivals, newest first
            models.Index(fields=["event", "-created_at"], name="arrival_event_created_idx"),
        ]

    def __str__(self) -> str:
        return f"arrival of player {self.player_id} at event {self.event_id}"


class Pair(models.Model):
    """Two players who play an event together as partners (fixed-partnership formats).

    Each member still has an :class:`Entry` (seats, hands and personal records stay per player);
    the pair is what the format pairs, brackets and ranks. ``seed`` is the director's seeding
    for a bracket (1 = best); without it, pairs are seeded in registration order.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="pairs")
    name = models.CharField(max_length=120, blank=True)
    seed = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["event", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "seed"], name="pair_seed_once_per_event"),
            models.CheckConstraint(condition=Q(seed__isnull=True) | Q(seed__gte=1),
                                   name="pair_seed_positive"),
        ]

    def __str__(self) -> str:
        return self.name or f"Pair {self.pk}"


class Entry(models.Model):
    """A player taking part in an event (in a pair event, one of a pair's two players)."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        LEFT = "left", _("Left early")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    checked_in_at = models.DateTimeField(auto_now_add=True)
    # Round number from which the entry plays (late arrivals) and after which it left.
    joined_round = models.PositiveSmallIntegerField(default=1)
    left_after_round = models.PositiveSmallIntegerField(null=True, blank=True)
    fixed_table = models.PositiveSmallIntegerField(null=True, blank=True)
    # An alternate waits to take the seat of a player who withdraws; in a progressive event
    # alternates score but are not ranked for the cut, the placements or the prizes.
    alternate = models.BooleanField(default=False)
    pair = models.ForeignKey(Pair, null=True, blank=True, on_delete=models.CASCADE,
                             related_name="members")

    class Meta:
        verbose_name_plural = "entries"
        ordering = ["player__name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_player_once_per_event"),
            models.CheckConstraint(
                condition=Q(status__in=["active", "left"]), name="entry_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.event}"


class Round(models.Model):
    class Status(models.TextChoices):
        SEATED = "seated", _("Seated, not started")
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    # The stage a round belongs to (``formats.Stage``): a club night is all qualifying; a
    # format's spec says which stages follow.
    Stage = models.TextChoices(  # type: ignore[call-overload]
        "Stage", [(stage.name, (stage.value, _(stage.label))) for stage in formats.Stage])

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    stage = models.CharField(max_length=12, choices=Stage.choices, default=Stage.QUALIFYING)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SEATED)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_once_per_event"),
            models.UniqueConstraint(
                fields=["event"],
                condition=~Q(status="closed"),
                name="round_one_open_per_event",
            ),
            models.CheckConstraint(
                condition=Q(status__in=["seated", "playing", "closed"]), name="round_status_valid"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(stage__in=[stage.value for stage in formats.Stage]),
                name="round_stage_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Round {self.number}"


class TableCard(models.Model):
    """The card on a physical table for the whole day: it names the table number, not a round.

    Its QR code opens score entry for whatever game is being played at that table number now
    (the open round's table), so the director prints the cards once before the first game.
    """

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="table_cards")
    number = models.PositiveSmallIntegerField()
    token = models.CharField(max_length=32, unique=True, default=new_table_token)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="table_card_once_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_card_number_positive"),
        ]

    def __str__(self) -> str:
        return f"Table card {self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # The secret in the table's QR code: opens score entry for this table and round only.
    token = models.CharField(max_length=32, unique=True, default=new_table_token)
    # The bracket match played at this table (``pairing.bracket`` codes, e.g. "W2-1"), if any.
    match = models.CharField(max_length=12, blank=True, default="")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once_per_round"),
        ]
        indexes = [models.Index(fields=["match"], name="table_match_idx",
                                condition=~Q(match=""))]

    def __str__(self) -> str:
        return f"Table {self.number}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    # Denormalised from the table so the database can forbid seating an entry twice in a round.
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    # A seat of the table as the ruleset names it (``Ruleset.seats_for``): clockwise from North.
    position = models.CharField(max_length=2, choices=SEAT_CHOICES)
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="seats")

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_once"),
            models.UniqueConstraint(fields=["round", "entry"], name="seat_entry_once_per_round"),
            models.CheckConstraint(
                condition=Q(position__in=list(SEATS)), name="seat_position_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position} at table {self.table_id}"


class Bye(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    entry = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="bye_entry_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"bye for entry {self.entry_id} in round {self.round_id}"

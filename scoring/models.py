"""Games, hands and their revisions (the source of truth), and the rows derived from them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from common.labels import OUTCOMES, RESULTS, SEATS
from rules_engine import Outcome, list_rulesets
from tournaments.models import Entry, Event, Table

# Outcomes dealt again before any bid: nothing but the dealer (and who called it).
NO_BID_OUTCOMES = [str(Outcome.MISDEAL), str(Outcome.TECHNICAL_MISDEAL)]

# Where a director's confirmation at the desk comes from (``scoring.services.
# games_confirm_at_desk``): the players' signed score sheet, or the director's own word.
DESK_SOURCES = {
    "signed_sheet": "signed score sheet",
    "director": "director",
}


# The sides a game of two sides is played by (what a pair event's side forfeits): N-S and E-W
# at four, N and S head to head, the teams of three at six.
FORFEIT_SIDES = sorted({str(side) for rs in list_rulesets() for size in rs.table_sizes
                        for side in rs.sides_for(size) if len(rs.sides_for(size)) == 2})


class Game(models.Model):
    """What one table plays in one round: hands until the target or the deal count."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished, awaiting confirmation")
        CONFIRMED = "confirmed", _("Confirmed")

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLAYING)
    # Derived from the live hands by scoring.services.game_recompute.
    totals = models.JSONField(default=dict, blank=True)
    # Check pinochle: each side's checks (the hands' and the game's); null in other games.
    checks = models.JSONField(null=True, blank=True, default=None)
    winner = models.CharField(max_length=6, blank=True)
    # A game that ended level has no winner; where a format needs one (who moves, who reaches
    # the final) the tie is settled by a cut of the cards, drawn by the system or entered by
    # the table: the side that won the cut. The game's points are unchanged.
    cut_winner = models.CharField(max_length=6, blank=True)
    # A timed game whose time ran out: it ends after the deals entered, the side ahead winning
    # (level: settled by a cut); more hands are refused.
    time_called = models.BooleanField(default=False)
    # A forfeit (walkover): the partnership that could not go on (empty for none). The
    # game is decided for the other side without its hands (``scoring.services.game_forfeit``);
    # hands entered before stay in its history but count for nothing.
    forfeit = models.CharField(max_length=6, blank=True, default="")
    # An adjusted result a director gave a game that could not be played out
    # (``scoring.services.game_adjust``): {"kind": "points" | "average" | "forfeit", "points":
    # {side: points}, "reason": ...}; null for a game played out. The game is decided by these
    # points whatever its hands say (hands entered before stay in its history).
    adjusted = models.JSONField(null=True, blank=True, default=None)
    finish_reason = models.CharField(max_length=20, blank=True)
    hands_count = models.PositiveSmallIntegerField(default=0)
    # Bumped on every write to the game's hands: lets a device tell that its view is stale.
    version = models.PositiveIntegerField(default=0)
    # The seat whose player keeps score on the table's phone; a player of the other side confirms.
    scorer_position = models.CharField(max_length=2, blank=True)
    confirmed_by = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["playing", "finished", "confirmed"]),
                name="game_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(forfeit__in=["", *FORFEIT_SIDES]), name="game_forfeit_valid",
            ),
            # A forfeited game is decided and confirmed at once.
            models.CheckConstraint(
                condition=Q(forfeit="") | Q(status="confirmed"), name="game_forfeit_confirmed",
            ),
            # An adjusted game is decided and confirmed at once, like a forfeit.
            models.CheckConstraint(
                condition=Q(adjusted__isnull=True) | Q(status="confirmed"),
                name="game_adjusted_confirmed",
            ),
        ]

    def __str__(self) -> str:
        return f"game at table {self.table_id}"


class Hand(models.Model):
    """One deal of a game. Its values live in its revisions; exactly one revision is live."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # A deleted hand keeps its row and its revisions (the last one records the deletion); its
    # number is free for the hand entered next.
    deleted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(deleted_at__isnull=True),
                name="hand_number_once_per_game",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="hand_number_positive"),
        ]

    def __str__(self) -> str:
        return f"hand {self.number} of game {self.game_id}"


class HandRevision(models.Model):
    class Source(models.TextChoices):
        TABLE = "table", _("Table entry")
        DIRECTOR = "director", _("Director")
        API = "api", _("API")
        IMPORT = "import", _("Import")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="revisions")
    revision = models.PositiveSmallIntegerField()
    is_live = models.BooleanField(default=True)
    dealer = models.CharField(max_length=2)
    bidder = models.CharField(max_length=2, blank=True)
    bid = models.PositiveIntegerField(null=True, blank=True)
    trump = models.CharField(max_length=1, blank=True)
    outcome = models.CharField(max_length=12)
    renege_seat = models.CharField(max_length=2, blank=True)
    meld = models.JSONField(default=dict)
    counters = models.JSONField(null=True, blank=True)
    # Tricks taken per side, where the ruleset needs them (meld saved by taking a trick, every
    # trick taken); null where it does not or no cards were played.
    tricks = models.JSONField(null=True, blank=True)
    # The side that showed a quadruple run, where the ruleset lets it win the game outright.
    quadruple_run = models.CharField(max_length=6, blank=True, default="")
    # Five-handed: the bidder's partner for the hand (who held the called card; the bidder's own
    # seat when playing alone).
    partner = models.CharField(max_length=2, blank=True, default="")
    # A technical misdeal: the seat that declared it.
    misdeal_seat = models.CharField(max_length=2, blank=True, default="")
    # A surrender where a widow is dealt: false when the declarer conceded without looking at it.
    widow_seen = models.BooleanField(null=True, blank=True, default=None)
    # Check pinochle: the melds that earn checks, per player ({"N": ["run", "aces"]}).
    check_melds = models.JSONField(null=True, blank=True, default=None)
    # What the rules engine decided for these values.
    points = models.JSONField(default=dict)
    result = models.CharField(max_length=12)
    made = models.BooleanField(null=True)
    reason = models.CharField(max_length=200, blank=True)
    # Who changed it, from where, and why (the why is required for corrections).
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.TABLE)
    note = models.CharField(max_length=200, blank=True)
    idempotency_key = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # The revision that deleted the hand: it repeats the values deleted and is never live.
    is_deletion = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["hand", "revision"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand"], condition=Q(is_live=True), name="handrevision_one_live_per_hand"
            ),
            models.UniqueConstraint(
                fields=["hand", "revision"], name="handrevision_number_once_per_hand"
            ),
            models.CheckConstraint(
                condition=Q(dealer__in=list(SEATS)), name="handrevision_dealer_valid"
            ),
            models.CheckConstraint(condition=Q(outcome__in=list(OUTCOMES)), name="handrevision_outcome_valid"),
            models.CheckConstraint(condition=Q(result__in=list(RESULTS)), name="handrevision_result_valid"),
            models.CheckConstraint(
                condition=Q(bid__isnull=True) | Q(bid__gte=1, bid__lte=10000),
                name="handrevision_bid_range",
            ),
            models.CheckConstraint(
                condition=Q(outcome__in=NO_BID_OUTCOMES) | Q(bid__isnull=False),
                name="handrevision_bid_unless_misdeal",
            ),
            models.CheckConstraint(
                condition=Q(is_deletion=False) | Q(is_live=False),
                name="handrevision_deletion_never_live",
            ),
        ]
        indexes = [
            # standings: live revisions of all hands of an event
            models.Index(fields=["hand"], condition=Q(is_live=True), name="handrevision_live_idx"),
        ]

    def __str__(self) -> str:
        return f"hand {self.hand_id} version {self.revision}"


class SeatResult(models.Model):
    """Derived: what one entry scored in one game (rebuilt from the game's live hands)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_results")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seat_results")
    round_number = models.PositiveSmallIntegerField()
    position = models.CharField(max_length=2)
    side = models.CharField(max_length=6)
    points = models.IntegerField(default=0)
    opponents_points = models.IntegerField(default=0)
    won = models.BooleanField(default=False)
    finished = models.BooleanField(default=False)
    hands_declared = models.PositiveSmallIntegerField(default=0)
    hands_made = models.PositiveSmallIntegerField(default=0)
    hands_set = models.PositiveSmallIntegerField(default=0)
    # Check pinochle: the player's checks in this game (0 in other games).
    checks = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "entry"], name="seatresult_once_per_game"),
        ]
        indexes = [
            # standings aggregation: all seat results of one event grouped by entry
            models.Index(fields=["event", "entry"], name="seatresult_event_entry_idx"),
        ]

    def __str__(self) -> str:
        return f"entry {self.entry_id} in game {self.game_id}: {self.points}"

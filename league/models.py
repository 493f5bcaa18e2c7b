"""Seasons of a club (dates and how their leaderboard counts) and players' skill ratings.

Both are derived from the truth elsewhere: a season's leaderboard is computed from the finished
events' standings snapshots when asked (nothing stored), and ratings from confirmed games
(``PlayerRating`` and ``RatingChange`` are rebuilt by ``manage.py rebuild_ratings`` at any time).
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from clubs.models import Club, Player
from scoring.models import Game
from tournaments.models import Event

# A best-N season counts at most this many nights per player (a night a week for two years).
BEST_N_LIMIT = 100
# At most this many nights to be ranked.
MIN_NIGHTS_LIMIT = 100


class Season(models.Model):
    """A club's season: the dates it runs, which events count and how its leaderboard ranks."""

    class Counting(models.TextChoices):
        TOTAL = "total", _("Total points")
        AVERAGE = "average", _("Average points per night")
        BEST_N = "best_n", _("Best N nights")

    class Events(models.TextChoices):
        CLUB_NIGHTS = "club_nights", _("Club nights only")
        ALL = "all", _("All the club's events")

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(max_length=80)
    starts_on = models.DateField()
    ends_on = models.DateField()
    counting = models.CharField(max_length=10, choices=Counting.choices, default=Counting.TOTAL)
    # Only with counting=best_n: how many of a player's best nights count.
    best_n = models.PositiveSmallIntegerField(null=True, blank=True)
    # Players with fewer nights are listed after the ranked ones, as not yet qualified.
    min_nights = models.PositiveSmallIntegerField(default=1)
    events = models.CharField(max_length=12, choices=Events.choices, default=Events.CLUB_NIGHTS)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["club", "-starts_on", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(ends_on__gte=F("starts_on")),
                                   name="season_ends_after_start"),
            models.CheckConstraint(condition=Q(counting__in=["total", "average", "best_n"]),
                                   name="season_counting_valid"),
            models.CheckConstraint(condition=Q(events__in=["club_nights", "all"]),
                                   name="season_events_valid"),
            models.CheckConstraint(
                condition=(Q(counting="best_n", best_n__gte=1, best_n__lte=BEST_N_LIMIT)
                           | (~Q(counting="best_n") & Q(best_n__isnull=True))),
                name="season_best_n_only_for_best_n",
            ),
            models.CheckConstraint(condition=Q(min_nights__lte=MIN_NIGHTS_LIMIT),
                                   name="season_min_nights_range"),
            models.UniqueConstraint(fields=["club", "name"], name="season_name_once_per_club"),
        ]
        indexes = [models.Index(fields=["club", "starts_on"], name="season_club_start_idx")]

    def __str__(self) -> str:
        return f"{self.name} ({self.starts_on} – {self.ends_on})"


class PlayerRating(models.Model):
    """Derived: a player's current skill rating (openskill Weng-Lin), across every club."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(sigma__gt=0), name="playerrating_sigma_positive"),
        ]

    def __str__(self) -> str:
        return f"rating of player {self.player_id}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """Derived: what one confirmed game did to one player's rating (the rating history).

    ``order_key`` places the game in playing order (event date, event, round, table, game), not
    in the order it was confirmed: ratings are replayed in this order. ``inputs`` is a digest of
    what was rated (players, sides, points, winner): a corrected game is recognised by it.
    """

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    order_key = models.CharField(max_length=64)
    inputs = models.CharField(max_length=64)
    at = models.DateTimeField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["order_key", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="ratingchange_once_per_game"),
        ]
        indexes = [
            models.Index(fields=["order_key"], name="ratingchange_order_idx"),
            models.Index(fields=["player", "order_key"], name="ratingchange_player_order_idx"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} in game {self.game_id}"

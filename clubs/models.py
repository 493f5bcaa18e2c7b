"""Clubs, memberships with roles, and players."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(f"{value!r} is not a known time zone (e.g. America/Chicago)")


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    ruleset_preset = models.CharField(max_length=40, default="pagat_double_deck")
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", "Owner"
        DIRECTOR = "director", "Director"
        SCORER = "scorer", "Scorer"
        MEMBER = "member", "Member"

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="membership_one_per_user_club"),
            models.CheckConstraint(
                condition=Q(role__in=["owner", "director", "scorer", "member"]),
                name="membership_role_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.role} of {self.club}"


class Player(models.Model):
    """A person who plays. One row per person, whichever clubs they play in."""

    name = models.CharField(max_length=120)
    email = models.EmailField(blank=True)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    clubs: models.ManyToManyField[Club, ClubPlayer] = models.ManyToManyField(
        Club, through="ClubPlayer", related_name="players"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            # player search by name on the check-in and roster pages
            models.Index(fields=["name"], name="player_name_idx"),
        ]

    def __str__(self) -> str:
        return self.name


class ClubPlayer(models.Model):
    """A player on a club's roster."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="roster")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="club_links")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "player"], name="clubplayer_once_per_club"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on {self.club_id}"

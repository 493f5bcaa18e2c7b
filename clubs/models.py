"""Clubs, memberships with roles, players, and invitations (links that give a role)."""

from __future__ import annotations

import datetime
import secrets
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(gettext("%(value)s is not a known time zone (e.g. America/Chicago)") % {"value": repr(value)})


# The languages a reader, an account or a club may choose (settings.LANGUAGES: English, German);
# "" on a club: no language of its own, each reader sees their own.
LANGUAGE_CHOICES = [("", _("Each reader's own")), *settings.LANGUAGES]


# A correction window is at most a year (a guard against a typo's extra zeros).
CORRECTION_WINDOW_MAX = 366 * 24 * 60


class Club(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    ruleset_preset = models.CharField(max_length=40, default="pagat_double_deck")
    ruleset_overrides = models.JSONField(default=dict, blank=True)
    is_public = models.BooleanField(default=True)
    # The public list of an event's corrections names the director who made each one only
    # where the club allows it (otherwise it says "director", "scorer" or "owner"). The
    # database default gives it to rows written by code that predates it (a migration's state).
    show_director_names = models.BooleanField(default=False, db_default=False)
    # Minutes after an event finishes during which a director may still reopen it to correct
    # a result; after that its results are locked and only the club's owner reopens it.
    # Blank: no lock.
    correction_window_minutes = models.PositiveIntegerField(null=True, blank=True)
    # The public standings, bracket and wall pages of a running event say how many people
    # are watching it now ("12 watching": standings.watchers); off unless the club turns it on.
    show_watchers = models.BooleanField(default=False, db_default=False)
    # The language of the club's pages, walls and mails for readers who chose none of their own
    # ("": the reader's browser decides; public.middleware.ReaderLanguageMiddleware).
    language = models.CharField(max_length=8, blank=True, default="", db_default="",
                                choices=LANGUAGE_CHOICES)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(correction_window_minutes__isnull=True)
                | Q(correction_window_minutes__lte=CORRECTION_WINDOW_MAX),
                name="club_correction_window_range"),
            models.CheckConstraint(condition=Q(language__in=[c for c, _ in LANGUAGE_CHOICES]),
                                   name="club_language_known"),
        ]

    def __str__(self) -> str:
        return self.name

    def today(self) -> datetime.date:
        """Today's date where the club plays: an evening event in Chicago is on Chicago's date,
        not on the server's (UTC) date."""
        return timezone.localdate(timezone=zoneinfo.ZoneInfo(self.time_zone))


class Membership(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner", _("Owner")
        DIRECTOR = "director", _("Director")
        SCORER = "scorer", _("Scorer")
        MEMBER = "member", _("Member")

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
    # Set when the person erased their account (``privacy.services.account_erase``): the row
    # stays for the clubs' results, named "Withdrawn player", and is never entered again.
    erased_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "id"]
        indexes = [
            # player search by name on the check-in and roster pages
            models.Index(fields=["name"], name="player_name_idx"),
        ]

    def __str__(self) -> str:
        return self.name


class AccountSettings(models.Model):
    """An account's own choices: the language it reads the site in ("" until it chooses one;
    then it beats the club's language and the browser's)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                primary_key=True, related_name="account_settings")
    language = models.CharField(max_length=8, blank=True, default="",
                                choices=LANGUAGE_CHOICES)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(language__in=[c for c, _ in LANGUAGE_CHOICES]),
                                   name="account_settings_language_known"),
        ]

    def __str__(self) -> str:
        return f"settings of {self.user_id}"


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


def invitation_token() -> str:
    """An unguessable token for an invitation link (32 URL-safe characters, 192 bits)."""
    return secrets.token_urlsafe(24)


class Invitation(models.Model):
    """A link that gives whoever accepts it a role in a club.

    Made by an owner or a director (directors invite members and scorers; only owners invite
    directors). A *members* link is typically reusable and shown as a QR code at club night; a
    director link is always single-use. A link stops working when it expires, when it is revoked
    or when its uses run out (``max_uses``; None: no limit). A use is counted only when accepting
    changed someone's role: accepting never lowers a role, and someone who already has the role
    (or a higher one) does not use up a single-use link.
    """

    class Role(models.TextChoices):
        MEMBER = "member", _("Member")
        SCORER = "scorer", _("Scorer")
        DIRECTOR = "director", _("Director")

    DEFAULT_DAYS = 7
    MAX_DAYS = 90
    # More uses than any club has members; the column holds up to 2,147,483,647.
    MAX_USES = 100_000

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.MEMBER)
    token = models.CharField(max_length=64, unique=True, default=invitation_token, editable=False)
    note = models.CharField(max_length=80, blank=True,
                            help_text="Who or what the link is for (shown to managers only).")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="invitations_made",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(role__in=["member", "scorer", "director"]),
                name="invitation_role_valid",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(max_uses__gte=1),
                name="invitation_max_uses_positive",
            ),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(uses__lte=F("max_uses")),
                name="invitation_uses_within_max",
            ),
            # A director link is never passed round: one person, one use.
            models.CheckConstraint(
                condition=~Q(role="director") | Q(max_uses=1),
                name="invitation_director_single_use",
            ),
        ]
        indexes = [
            # the club's invitations, newest first, on the management page and the API list
            models.Index(fields=["club", "-created_at"], name="invitation_club_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} invitation to {self.club}"

    def refusal(self, *, now: datetime.datetime | None = None) -> str | None:
        """Why the link no longer works ("revoked", "expired", "used_up"), or None if it does."""
        now = now or timezone.now()
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "used_up"
        return None

    @property
    def is_active(self) -> bool:
        return self.refusal() is None

    @property
    def uses_left(self) -> int | None:
        return None if self.max_uses is None else max(self.max_uses - self.uses, 0)

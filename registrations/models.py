"""Registering for an event in advance: the event's registration settings and each registration.

Words:

- a **registration** is one entrant of the event asking for a place: a player, or a pair (the
  registrant and a partner) when the event's format takes pairs (``event.spec.pairs``);
- it **counts** once its address is confirmed (a link in an e-mail; a signed-in player's account
  address counts at once);
- a counted registration **holds a place** while it is ``pending`` (awaiting the director's
  approval, when the event asks for it) or ``registered``; beyond the event's ``capacity`` it is
  ``waitlisted``, in the order the registrations counted, and moves up by itself when a place
  frees (a withdrawal, a refusal, a larger capacity);
- **turning a registration into a check-in** makes the event's entry (or pair) through the
  tournaments services; whether a registration is checked in is read from the entries, never
  stored twice.
"""

from __future__ import annotations

import secrets
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from tournaments.models import Event

# The statuses that hold a place, and those still alive (not withdrawn, not refused).
HOLDING = ("pending", "registered")
LIVE = ("unconfirmed", "pending", "registered", "waitlisted")
# The statuses a registration may have without its address ever confirmed.
NEVER_COUNTED = ("unconfirmed", "withdrawn", "refused")


def new_key() -> str:
    return secrets.token_hex(8)


class RegistrationSettings(models.Model):
    """Whether and how an event takes registrations (the director's settings)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, primary_key=True,
                                 related_name="registration_settings")
    is_open = models.BooleanField(default=False)
    # Places: registrations (a player, or a pair) that hold one; None: no limit.
    capacity = models.PositiveIntegerField(null=True, blank=True)
    deadline = models.DateTimeField(null=True, blank=True)
    # The entry fee, recorded as paid or not per registration (no payment is processed here).
    fee = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    approval_required = models.BooleanField(default=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "registration settings"
        constraints = [
            models.CheckConstraint(condition=Q(capacity__isnull=True) | Q(capacity__gte=1),
                                   name="registration_capacity_positive"),
            models.CheckConstraint(condition=Q(fee__gte=0), name="registration_fee_not_negative"),
        ]

    def __str__(self) -> str:
        return f"registration settings of event {self.event_id}"


class Registration(models.Model):
    class Status(models.TextChoices):
        UNCONFIRMED = "unconfirmed", _("Address not confirmed yet")
        PENDING = "pending", _("Awaiting approval")
        REGISTERED = "registered", _("Registered")
        WAITLISTED = "waitlisted", _("Waitlisted")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REFUSED = "refused", _("Refused")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.UNCONFIRMED)
    name = models.CharField(max_length=120)
    email = models.EmailField()
    # The account that registered, if signed in; the players are known at once for a signed-in
    # player, else found or added to the club's roster when the registration is given its place.
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="registrations")
    partner_name = models.CharField(max_length=120, blank=True)
    partner_email = models.EmailField(blank=True)
    partner_player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL,
                                       related_name="+")
    # The secret inside the signed personal link (registrations.tokens).
    key = models.CharField(max_length=16, default=new_key, editable=False)
    # The language the registrant read the site in when registering ("" before it was kept):
    # their mails are written in it (registrations.mails.mail_language).
    language = models.CharField(max_length=8, blank=True, default="")
    paid = models.BooleanField(default=False)
    paid_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # When the registration counted (its address confirmed): the waitlist's order.
    confirmed_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")
    # A pair that said "we're here" by its link while the event's self check-in needs the
    # director's approval (a player's own arrival is a tournaments.Arrival).
    arrived_at = models.DateTimeField(null=True, blank=True)

    # Whose each part of a row is, for a person's data export (``privacy.walk``): the
    # registrant's name and address, the partner's.
    privacy_parts: ClassVar[dict[tuple[str, ...], tuple[str, ...]]] = {
        ("user", "player"): ("name", "email"),
        ("partner_player",): ("partner_name", "partner_email"),
    }

    class Meta:
        ordering = ["event", "confirmed_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=[*LIVE, "withdrawn", "refused"]),
                                   name="registration_status_valid"),
            # a registration counts (holds a place or waits) only once its address is
            # confirmed; one withdrawn or refused before that never counted
            models.CheckConstraint(condition=Q(status__in=NEVER_COUNTED)
                                   | Q(confirmed_at__isnull=False),
                                   name="registration_counted_when_confirmed"),
            # an erased person's registrations keep their place without an address, so a blank
            # address is never "taken"
            models.UniqueConstraint(Lower("email"), "event",
                                    condition=Q(status__in=LIVE) & ~Q(email=""),
                                    name="registration_email_once_per_event"),
            models.UniqueConstraint(fields=["event", "player"],
                                    condition=Q(status__in=LIVE, player__isnull=False),
                                    name="registration_player_once_per_event"),
        ]
        indexes = [
            # the waitlist's first: an event's registrations of a status in the order they counted
            models.Index(fields=["event", "status", "confirmed_at", "id"],
                         name="registration_queue_idx"),
        ]

    def __str__(self) -> str:
        return f"registration of {self.name} for event {self.event_id}"

    @property
    def is_pair(self) -> bool:
        return bool(self.partner_name)

    @property
    def label(self) -> str:
        return f"{self.name} & {self.partner_name}" if self.partner_name else self.name

    @property
    def holds_place(self) -> bool:
        return self.status in HOLDING

    @property
    def is_live(self) -> bool:
        return self.status in LIVE

    def addresses(self) -> list[str]:
        return [a for a in (self.email, self.partner_email) if a]

"""A player following an event from their own phone, without an account.

Words: a *follower* is one phone (or one e-mail address) following one entry of an event: it
holds a random token (kept in the phone's cookie; only its SHA-256 is stored), optionally a Web
Push subscription (the browser's ``PushSubscription`` as JSON) and an e-mail address the player
confirmed. A *notice* records that the followers of a round were told something (the round
seated, its players called to the tables), so a retried task or a second signal never tells
them twice; a *delivery* records that one follower was told one notice on one channel (a push,
a mail) and how it went, so a run cut short is taken up again for what is missing only.
"""

from __future__ import annotations

from typing import ClassVar

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, Event, Round


class Follower(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="followers")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="followers")
    # sha256 of the token the phone keeps (``following.services.token_digest``)
    token_digest = models.CharField(max_length=64, unique=True)
    # the browser's PushSubscription (endpoint and keys); null: no Web Push on this phone
    push_subscription = models.JSONField(null=True, blank=True)
    email = models.EmailField(blank=True)
    email_confirmed_at = models.DateTimeField(null=True, blank=True)
    # the address the phone reached this server by (links in e-mails, when PUBLIC_BASE_URL is unset)
    site = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    # set by "Stop notifications": no push, no mail from then on (the page still shows the seat)
    stopped = models.DateTimeField(null=True, blank=True)

    # For a person's data export (``privacy.walk``): a follower's row is its phone owner's (a
    # person the database does not know, recognised by the address), not the followed player's.
    privacy_parts: ClassVar[dict[tuple[str, ...], tuple[str, ...]]] = {
        (): ("email", "email_confirmed_at", "push_subscription", "token_digest", "site"),
    }

    class Meta:
        indexes = [
            # the round's notice task: the live followers of an event
            models.Index(fields=["event"], condition=Q(stopped__isnull=True),
                         name="follower_live_by_event"),
        ]

    def __str__(self) -> str:
        return f"follower {self.pk} of entry {self.entry_id}"

    @property
    def email_on(self) -> bool:
        return bool(self.email and self.email_confirmed_at and self.stopped is None)


class Notice(models.Model):
    """The followers of ``round`` were told ``kind`` (at most once per round and kind)."""

    class Kind(models.TextChoices):
        SEATED = "seated", _("Round seated")
        CALLED = "called", _("Players called to the tables")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    created = models.DateTimeField(auto_now_add=True)
    sent = models.PositiveIntegerField(default=0)  # pushes and mails that went out
    # when the run telling it reached every follower (null: under way, or cut short)
    finished = models.DateTimeField(null=True, blank=True)
    # the last sign of life of the run telling it: an unfinished notice untouched for
    # FOLLOW_NOTICE_RESUME_SECONDS is taken up again (following.tasks.notices_resume)
    touched = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [
            # the resume of runs cut short: the unfinished notices
            models.Index(fields=["touched"], condition=Q(finished__isnull=True),
                         name="notice_unfinished_by_touched"),
        ]
        constraints = [
            models.UniqueConstraint(fields=["round", "kind"], name="notice_once_per_round"),
            models.CheckConstraint(condition=Q(kind__in=["seated", "called"]),
                                   name="notice_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} notice of round {self.round_id}"


class Delivery(models.Model):
    """``follower`` was told ``notice`` on ``channel`` (or it was tried: ``outcome``). A re-run of
    the round's task (a continuation, or the resume of a run cut short) sends only what has no
    row yet."""

    class Channel(models.TextChoices):
        PUSH = "push", _("Web Push")
        MAIL = "mail", _("E-mail")

    class Outcome(models.TextChoices):
        SENT = "sent", _("Sent")
        FAILED = "failed", _("Failed")  # refused, unreachable or past its deadline: not tried again
        GONE = "gone", _("Subscription gone")

    notice = models.ForeignKey(Notice, on_delete=models.CASCADE, related_name="deliveries")
    follower = models.ForeignKey(Follower, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=4, choices=Channel.choices)
    outcome = models.CharField(max_length=6, choices=Outcome.choices)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["notice", "follower", "channel"],
                                    name="delivery_once_per_channel"),
            models.CheckConstraint(condition=Q(channel__in=["push", "mail"]),
                                   name="delivery_channel_valid"),
            models.CheckConstraint(condition=Q(outcome__in=["sent", "failed", "gone"]),
                                   name="delivery_outcome_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.channel} of {self.notice} to follower {self.follower_id}: {self.outcome}"

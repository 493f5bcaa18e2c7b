"""The mails of a registration, one per step, short and plain. Sent once the transaction
commits (a refused write sends nothing), through Django's mail; the personal link in each is
built from the address the request came by (``common.http.public_url``), passed in as ``site``."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse

from .models import Registration
from .tokens import personal_path

logger = logging.getLogger(__name__)

STEPS = ("confirm", "registered", "pending", "approved", "waitlisted", "moved_up", "withdrawn",
         "refused", "link")


def _site(site: str) -> str:
    return (site or str(getattr(settings, "PUBLIC_BASE_URL", "") or "")).rstrip("/")


def _text(registration: Registration, step: str, link: str, position: int | None,
          follow: str = "") -> tuple[str, str]:
    event = registration.event
    what = f"{event.name} on {event.date:%A} {event.date.day} {event.date:%B %Y}"
    who = registration.label
    keep = f"Your personal link (to withdraw, or to check in at the door on the day):\n{link}"
    seat = (f"\n\nOn the day your phone can tell you where to sit each round (pick your name):"
            f"\n{follow}") if follow else ""
    fee = getattr(getattr(event, "registration_settings", None), "fee", 0) or 0
    fee_line = (f"\nEntry fee: {fee}, {'paid' if registration.paid else 'not paid yet'}."
                if fee else "")
    texts = {
        "confirm": ("Confirm your registration",
                    f"{who} registered for {what}.\n\nConfirm your address to complete the "
                    f"registration:\n{link}\n\nIf this was not you, ignore this mail."),
        "registered": ("You are registered", f"{who}: you are registered for {what}.{fee_line}"
                                             f"\n\n{keep}{seat}"),
        "pending": ("Registration awaiting approval",
                    f"{who}: your registration for {what} is received and waits for the "
                    f"director's approval. We will mail you.\n\n{keep}"),
        "approved": ("Registration approved", f"{who}: the director approved your registration "
                                              f"for {what}.{fee_line}\n\n{keep}{seat}"),
        "waitlisted": ("You are on the waitlist",
                       f"{who}: {event.name} is full. You are number {position} on the waitlist "
                       f"and move up by yourself when a place frees; we will mail you.\n\n{keep}"),
        "moved_up": ("A place for you",
                     f"{who}: a place freed and you moved up from the waitlist for {what}."
                     + (" Your registration now waits for the director's approval."
                        if registration.status == Registration.Status.PENDING
                        else " You are registered.") + f"{fee_line}\n\n{keep}{seat}"),
        "withdrawn": ("Registration withdrawn",
                      f"{who}: your registration for {what} is withdrawn."),
        "refused": ("Registration refused",
                    f"{who}: the director could not accept your registration for {what}."),
        "link": ("Your registration link", f"{who}: your registration for {what}.\n\n{keep}"),
    }
    subject, body = texts[step]
    return f"{subject} · {event.name}", body + "\n"


def registration_mail(registration: Registration, step: str, *, site: str = "",
                      position: int | None = None) -> None:
    """Mail ``step`` of ``registration`` once the transaction commits: the confirmation to the
    registrant's address only (the one to confirm), every other step to both partners."""
    if step not in STEPS:
        raise ValueError(f"unknown registration mail {step!r}")
    link = _site(site) + personal_path(registration)
    follow = _site(site) + reverse("follow-pick", args=[registration.event_id])
    subject, body = _text(registration, step, link, position, follow)
    to = [registration.email] if step == "confirm" else registration.addresses()

    def send() -> None:
        send_mail(subject, body, None, to)

    transaction.on_commit(send, robust=True)

"""The mails of a registration, one per step, short and plain. Sent once the transaction
commits (a refused write sends nothing), through Django's mail; the personal link in each is
built from the address the request came by (``common.http.public_url``), passed in as ``site``.
Each is written in the registrant's language (:func:`mail_language`), whoever's action sends
it."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format
from django.utils.translation import gettext

from clubs.models import AccountSettings

from .models import Registration
from .tokens import personal_path

logger = logging.getLogger(__name__)

STEPS = ("confirm", "registered", "pending", "approved", "waitlisted", "moved_up", "withdrawn",
         "refused", "link")


def _site(site: str) -> str:
    return (site or str(getattr(settings, "PUBLIC_BASE_URL", "") or "")).rstrip("/")


def mail_language(registration: Registration) -> str:
    """The language a registration's mails are written in: the registrant's account's own
    choice, else the language they registered in (the site's, as they read it), else the
    club's, else the site's default. A director's approval is mailed in the registrant's
    language, not the director's."""
    known = dict(settings.LANGUAGES)
    user = registration.user
    account = ""
    if user is not None:
        try:
            account = user.account_settings.language
        except AccountSettings.DoesNotExist:
            account = ""
    for language in (account, registration.language, registration.event.club.language):
        if language in known:
            return language
    return str(settings.LANGUAGE_CODE)


def _text(registration: Registration, step: str, link: str, position: int | None,
          follow: str = "") -> tuple[str, str]:
    """The subject and body of ``step``, in the active language."""
    event = registration.event
    # Translators: a date format (Django's "date" filter): "Sunday 22 November 2026"
    day = date_format(event.date, gettext("l j F Y"))
    what = gettext("%(event)s on %(day)s") % {"event": event.name, "day": day}
    who = registration.label
    keep = gettext("Your personal link (to withdraw, or to check in at the door on the "
                   "day):\n%(link)s") % {"link": link}
    seat = ("\n\n" + gettext("On the day your phone can tell you where to sit each round (pick "
                             "your name):\n%(link)s") % {"link": follow}) if follow else ""
    fee = getattr(getattr(event, "registration_settings", None), "fee", 0) or 0
    fee_line = ("\n" + (gettext("Entry fee: %(fee)s, paid.") if registration.paid
                        else gettext("Entry fee: %(fee)s, not paid yet.")) % {"fee": fee}
                if fee else "")
    values = {"who": who, "what": what, "link": link, "keep": keep, "seat": seat,
              "fee_line": fee_line, "event": event.name, "position": position}
    moved = ""
    if step == "moved_up":
        moved = (gettext("%(who)s: a place freed and you moved up from the waitlist for "
                         "%(what)s. Your registration now waits for the director's approval.")
                 if registration.status == Registration.Status.PENDING
                 else gettext("%(who)s: a place freed and you moved up from the waitlist for "
                              "%(what)s. You are registered.")) % values
    texts = {
        "confirm": (gettext("Confirm your registration"),
                    gettext("%(who)s registered for %(what)s.\n\nConfirm your address to "
                            "complete the registration:\n%(link)s\n\nIf this was not you, "
                            "ignore this mail.") % values),
        "registered": (gettext("You are registered"),
                       gettext("%(who)s: you are registered for %(what)s.") % values
                       + f"{fee_line}\n\n{keep}{seat}"),
        "pending": (gettext("Registration awaiting approval"),
                    gettext("%(who)s: your registration for %(what)s is received and waits for "
                            "the director's approval. We will mail you.") % values
                    + f"\n\n{keep}"),
        "approved": (gettext("Registration approved"),
                     gettext("%(who)s: the director approved your registration for "
                             "%(what)s.") % values + f"{fee_line}\n\n{keep}{seat}"),
        "waitlisted": (gettext("You are on the waitlist"),
                       gettext("%(who)s: %(event)s is full. You are number %(position)s on the "
                               "waitlist and move up by yourself when a place frees; we will "
                               "mail you.") % values + f"\n\n{keep}"),
        "moved_up": (gettext("A place for you"),
                     moved + f"{fee_line}\n\n{keep}{seat}"),
        "withdrawn": (gettext("Registration withdrawn"),
                      gettext("%(who)s: your registration for %(what)s is withdrawn.") % values),
        "refused": (gettext("Registration refused"),
                    gettext("%(who)s: the director could not accept your registration for "
                            "%(what)s.") % values),
        "link": (gettext("Your registration link"),
                 gettext("%(who)s: your registration for %(what)s.") % values + f"\n\n{keep}"),
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
    with translation.override(mail_language(registration)):
        subject, body = _text(registration, step, link, position, follow)
    to = [registration.email] if step == "confirm" else registration.addresses()

    def send() -> None:
        send_mail(subject, body, None, to)

    transaction.on_commit(send, robust=True)

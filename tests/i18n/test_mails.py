"""Mails in the recipient's language, read from ``django.core.mail.outbox``: a registration's
(in the language the registrant registered in, even when a director's English action sends
it), "follow my seat" (the confirmation in the reader's language on a German club's page, the
round's notices in the club's language: a task has no reader) and the password reset (in the
account's own language, whoever's browser asked)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.services import account_language_set
from draw.services import round_create, round_set_status
from following import services as following
from following.models import Follower
from registrations.services import registration_settings_set
from tests.clubs.factories import club_with_director
from tests.tournaments.factories import event_with_players
from tournaments.models import Entry, Round
from tournaments.services import event_create

pytestmark = pytest.mark.django_db


def _german_club(slug: str):
    club, director = club_with_director(slug=slug)
    club.language = "de"
    club.save(update_fields=["language"])
    return club, director


def test_a_registration_is_mailed_in_german_also_when_an_english_director_acts(
        django_capture_on_commit_callbacks) -> None:
    club, director = club_with_director(slug="mail-register")
    event = event_create(club=club, name="Herbstturnier", date=datetime.date(2026, 11, 22))
    registration_settings_set(event=event, is_open=True, capacity=1, actor=director)
    german = APIClient(HTTP_ACCEPT_LANGUAGE="de")
    url = reverse("api-registrations", args=[event.pk])
    with django_capture_on_commit_callbacks(execute=True):
        greta = german.post(url, {"name": "Greta Keller", "email": "greta@example.org"},
                            format="json")
    assert greta.status_code == 201, greta.content
    confirm = mail.outbox[-1]
    assert confirm.subject == "Bestätigen Sie Ihre Anmeldung · Herbstturnier"
    assert confirm.body.startswith(
        "Greta Keller hat sich für Herbstturnier am Sonntag, 22. November 2026 angemeldet.")
    assert "Bestätigen Sie Ihre Adresse, um die Anmeldung abzuschließen:" in confirm.body
    token = re.search(r"/registrations/([^/\s]+)/", confirm.body).group(1)
    # the link is opened on an English phone: the mail that follows stays German
    english = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    with django_capture_on_commit_callbacks(execute=True):
        done = english.post(f"{url}{greta.json()['id']}/confirm/", {"token": token},
                            format="json")
    assert done.status_code == 200, done.content
    registered = mail.outbox[-1]
    assert registered.subject == "Sie sind angemeldet · Herbstturnier"
    assert "Ihr persönlicher Link (zum Abmelden" in registered.body
    # an English registrant of the same event reads English, from the same director's action
    with django_capture_on_commit_callbacks(execute=True):
        english.post(url, {"name": "Ann Lee", "email": "ann@example.org"}, format="json")
    assert mail.outbox[-1].subject == "Confirm your registration · Herbstturnier"


def test_follow_my_seat_mails_in_the_clubs_german(django_capture_on_commit_callbacks) -> None:
    club, _ = _german_club("mail-follow")
    event = event_with_players(club=club, players=4)
    entry = Entry.objects.filter(event=event).select_related("player").first()
    phone = Client(HTTP_ACCEPT_LANGUAGE="en")  # an English phone on the German club's page
    phone.post(reverse("follow-pick", args=[event.pk]), {"entry": entry.pk})
    page = phone.get(reverse("follow-entry", args=[event.pk, entry.pk]))
    assert page["Content-Language"] == "de"
    with django_capture_on_commit_callbacks(execute=True):
        phone.post(reverse("follow-email", args=[event.pk, entry.pk]),
                   {"email": "fan@example.org"})
    confirm = mail.outbox[-1]
    assert confirm.subject.endswith(f"Bestätigen: Plätze von {entry.player.name} bei {event.name}")
    assert confirm.body.startswith(f"Jemand hat darum gebeten, die Plätze von {entry.player.name}")
    assert "Wenn Sie das nicht waren" in confirm.body
    # the round's notice, sent by the task, is in the club's language too
    follower = Follower.objects.get(entry=entry)
    follower.email_confirmed_at = datetime.datetime.now(tz=datetime.UTC)
    follower.save(update_fields=["email_confirmed_at"])
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        round_set_status(round_=first, status=Round.Status.PLAYING)
    notice = mail.outbox[-1]
    assert notice.to == ["fan@example.org"]
    assert "Kommen Sie an Ihre Tische" in notice.subject
    assert f"Benachrichtigungen abbestellen: http://testserver{following.stop_path(follower)}" \
        in notice.body


def test_a_password_reset_is_in_the_accounts_language_from_any_browser() -> None:
    user = get_user_model().objects.create_user("greta", "greta@example.org", "x-Passwort-42")
    from allauth.account.models import EmailAddress
    EmailAddress.objects.create(user=user, email="greta@example.org", verified=True,
                                primary=True)
    account_language_set(user=user, language="de")
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    response = english.post(reverse("account_reset_password"), {"email": "greta@example.org"})
    assert response.status_code == 302
    reset = mail.outbox[-1]
    assert reset.subject.endswith("Passwort zurücksetzen")
    assert 'Jemand, hoffentlich Sie, hat' in reset.body and "greta" in reset.body
    assert "Someone, we hope you" not in reset.body
    # an account that chose no language reads the language of the page that asked
    account_language_set(user=user, language="")
    english.post(reverse("account_reset_password"), {"email": "greta@example.org"})
    assert mail.outbox[-1].subject.endswith("Reset your password")

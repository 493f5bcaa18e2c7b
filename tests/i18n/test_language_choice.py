"""Which language a page is written in: the account's choice, then the switcher's cookie, then on
a club's pages the club's language, then the browser's Accept-Language, then English
(public.middleware.ReaderLanguageMiddleware); and the switcher itself."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.test import Client
from django.urls import reverse

from clubs.models import AccountSettings, Club, Membership
from clubs.services import account_language_set, club_language_set
from common.errors import DomainError
from tests.clubs.factories import club_with_director
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db

GERMAN_FOOTER = "Die Regel-Engine prüft jedes Ergebnis schon bei der Eingabe."
ENGLISH_FOOTER = "Scores are checked by the rules engine as they are entered."


def _owner(slug: str) -> tuple[Club, object]:
    club, user = club_with_director(slug=slug)
    Membership.objects.filter(club=club, user=user).update(role=Membership.Role.OWNER)
    return club, user


def _home(client: Client) -> str:
    response = client.get(reverse("home"))
    assert response.status_code == 200
    return response.content.decode()


def test_english_without_a_word_from_the_reader_and_german_for_a_german_browser() -> None:
    page = _home(Client())
    assert ENGLISH_FOOTER in page and '<html lang="en">' in page
    german = Client(HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    response = german.get(reverse("home"))
    assert response["Content-Language"] == "de"
    assert GERMAN_FOOTER in response.content.decode()
    assert '<html lang="de">' in response.content.decode()


def test_a_german_accounts_choice_beats_an_english_browser_on_every_device() -> None:
    _, director = club_with_director(slug="choice")
    account_language_set(user=director, language="de")
    phone = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    phone.force_login(director)  # a new session: the stored choice comes with the sign-in
    assert GERMAN_FOOTER in _home(phone)
    # ... and beats a German club's language the other way round too
    account_language_set(user=director, language="en")
    laptop = Client(HTTP_ACCEPT_LANGUAGE="de")
    laptop.force_login(director)
    assert ENGLISH_FOOTER in _home(laptop)


def test_the_switcher_stores_a_signed_in_accounts_choice_and_sets_a_visitors_cookie() -> None:
    _, director = club_with_director(slug="switcher")
    client = Client(HTTP_ACCEPT_LANGUAGE="en", enforce_csrf_checks=True)
    client.force_login(director)
    page = _home(client)
    assert 'id="footer-language"' in page and 'name="csrfmiddlewaretoken"' in page
    # A signed-in account's choice needs its CSRF token ...
    refused = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert refused.status_code == 403
    assert not AccountSettings.objects.filter(user=director).exists()
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    saved = client.post(reverse("set_language"), {"language": "de", "next": "/",
                                                  "csrfmiddlewaretoken": token})
    assert saved.status_code == 302 and saved["Location"] == "/"
    assert AccountSettings.objects.get(user=director).language == "de"
    assert GERMAN_FOOTER in _home(client)
    # ... a visitor's switcher carries none (public pages hold no secret) and sets the cookie.
    visitor = Client(enforce_csrf_checks=True)
    page = _home(visitor)
    assert 'id="footer-language"' in page and "csrfmiddlewaretoken" not in page
    response = visitor.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert GERMAN_FOOTER in _home(visitor)


def test_a_german_clubs_wall_is_german_for_an_english_browser_and_others_are_not() -> None:
    club, director = _owner("berlin")
    club_language_set(club=club, language="de", actor=director)
    event = event_with_players(club=club, players=4, date=datetime.date(2026, 11, 28))
    english = Client(HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    wall = english.get(reverse("event-standings-wall", args=[event.pk]))
    assert wall.status_code == 200 and wall["Content-Language"] == "de"
    body = wall.content.decode()
    assert "Die Tabelle erscheint hier" in body or "Noch keine Ergebnisse" in body
    assert "28.11.2026" in english.get(reverse("event-detail", args=[event.pk])).content.decode()
    # a page of no club stays in the reader's language
    assert ENGLISH_FOOTER in _home(english)
    # a reader who chose English with the switcher keeps it on the German club's pages
    english.post(reverse("set_language"), {"language": "en", "next": "/"})
    again = english.get(reverse("event-standings-wall", args=[event.pk]))
    assert again["Content-Language"] == "en"


def test_a_clubs_language_is_one_of_the_sites_and_only_an_owner_sets_it() -> None:
    club, director = club_with_director(slug="owners")
    with pytest.raises(PermissionDenied):  # a director is not the owner
        club_language_set(club=club, language="de", actor=director)
    Membership.objects.filter(club=club, user=director).update(role=Membership.Role.OWNER)
    with pytest.raises(DomainError) as refused:
        club_language_set(club=club, language="fr", actor=director)
    assert refused.value.field == "language"
    club_language_set(club=club, language="", actor=director)
    assert Club.objects.get(pk=club.pk).language == ""
    client = Client()
    client.force_login(director)
    bad = client.patch(reverse("api-club", args=[club.slug]), {"language": "xx"},
                       content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "language"
    ok = client.patch(reverse("api-club", args=[club.slug]), {"language": "de"},
                      content_type="application/json")
    assert ok.status_code == 200 and ok.json()["language"] == "de"
    mine = client.put(reverse("api-me-language"), {"language": "de"},
                      content_type="application/json")
    assert mine.status_code == 200 and mine.json() == {"language": "de"}
    wrong = client.put(reverse("api-me-language"), {"language": 3},
                       content_type="application/json")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["field"] == "language"


def test_german_figures_are_grouped_and_dated_the_german_way_and_english_ones_as_before() -> None:
    from django.template import Context, Template
    from django.utils import translation

    template = Template("{% load numbers %}{{ value|grouped }} {{ day|date:'SHORT_DATE_FORMAT' }}")
    context = Context({"value": 1234, "day": datetime.date(2026, 11, 28)})
    with translation.override("de"):
        assert template.render(context) == "1.234 28.11.2026"
    with translation.override("en"):
        assert template.render(context) == "1234 11/28/2026"  # English as before: ungrouped


def test_the_confirmation_mail_is_in_the_language_of_the_sign_up() -> None:
    from django.core import mail

    german = Client(HTTP_ACCEPT_LANGUAGE="de")
    response = german.post(reverse("account_signup"), {
        "username": "greta", "email": "greta@example.org",
        "password1": "a-long-Passwort-42", "password2": "a-long-Passwort-42"})
    assert response.status_code == 302
    sent = mail.outbox[-1]
    assert "Bestätigen Sie Ihre E-Mail-Adresse" in sent.subject
    assert "Jemand, hoffentlich Sie, hat diese Adresse für das Konto „greta“ angegeben." in sent.body
    assert "If it was not you" not in sent.body

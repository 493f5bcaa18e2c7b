"""Accounts through django-allauth: sign up, confirm the address from the e-mail, sign in by
user name or address, reset a forgotten password; accounts an administrator made still sign in;
lockouts still count per account; links in e-mails use the public address; the home page and
the menu offer "Create a club" or "Sign up" / "Sign in"."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from clubs.models import Club, Membership
from tests.clubs.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"https?://\S+")


def _signed_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def _sign_up(client: Client, username: str = "sam", email: str = "sam@example.org",
             password: str = "a-long-pass-phrase", host: str = "testserver",
             **extra: str) -> Any:
    return client.post(reverse("account_signup"), {
        "username": username, "email": email, "password1": password, "password2": password,
        **extra,
    }, HTTP_HOST=host)


def _link(message: Any) -> str:
    found = LINK.findall(message.body)
    assert found, message.body
    return str(found[0])


def _path(url: str) -> str:
    return "/" + url.split("://", 1)[1].split("/", 1)[1]


# --- sign up and confirm ----------------------------------------------------------------------
def test_sign_up_confirm_from_the_mail_then_sign_in(client: Client) -> None:
    response = _sign_up(client)
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not _signed_in(client)  # not before the address is confirmed
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["sam@example.org"]
    assert message.subject == "[Pinochle scoring] Confirm your e-mail address"
    link = _link(message)
    assert "/accounts/confirm-email/" in link

    # The link shows a confirmation button; pressing it confirms and signs in.
    page = client.get(_path(link))
    assert page.status_code == 200 and b"sam@example.org" in page.content
    confirmed = client.post(_path(link))
    assert confirmed.status_code == 302
    assert EmailAddress.objects.get(email="sam@example.org").verified
    assert _signed_in(client)

    # Later, on another device: by user name or by address.
    for login in ("sam", "sam@example.org", "SAM"):
        other = Client()
        response = other.post(reverse("account_login"),
                              {"login": login, "password": "a-long-pass-phrase"})
        assert response.status_code == 302, login
        assert _signed_in(other), login


def test_an_unconfirmed_account_cannot_sign_in_and_gets_a_new_link(client: Client) -> None:
    _sign_up(client)
    mail.outbox.clear()
    other = Client()
    response = other.post(reverse("account_login"),
                          {"login": "sam", "password": "a-long-pass-phrase"})
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert not _signed_in(other)
    assert mail.outbox == []  # one confirmation mail per address every 3 minutes
    cache.clear()  # ... which have passed
    other.post(reverse("account_login"), {"login": "sam", "password": "a-long-pass-phrase"})
    assert not _signed_in(other)
    assert len(mail.outbox) == 1 and "/accounts/confirm-email/" in _link(mail.outbox[0])


def test_bad_sign_ups_name_their_field(client: Client) -> None:
    UserFactory(username="taken", email="taken@example.org")
    response = _sign_up(client, username="taken", email="new@example.org")
    assert response.status_code == 200 and "username" in response.context["form"].errors
    response = _sign_up(client, username="fresh", email="not-an-address")
    assert "email" in response.context["form"].errors
    response = client.post(reverse("account_signup"), {
        "username": "fresh", "email": "fresh@example.org", "password1": "a-long-pass-phrase",
        "password2": "another-pass-phrase"})
    assert "password2" in response.context["form"].errors
    assert get_user_model().objects.filter(username="fresh").count() == 0
    assert mail.outbox == []


def test_the_sign_in_page_takes_allauths_field_and_djangos_old_name(client: Client) -> None:
    UserFactory(username="dana", password="dana-pass-123")
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert b'name="login"' in page.content and b'id="id_login"' in page.content
    assert client.post(reverse("account_login"),
                       {"username": "dana", "password": "dana-pass-123"}).status_code == 302
    assert _signed_in(client)


def test_wrong_password_is_one_sentence_on_the_form(client: Client) -> None:
    UserFactory(username="dana", password="dana-pass-123")
    response = client.post(reverse("account_login"), {"login": "dana", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()
    assert not _signed_in(client)


# --- accounts made without sign-up ----------------------------------------------------------
def test_accounts_made_by_an_administrator_sign_in_without_confirming(client: Client) -> None:
    users = get_user_model().objects
    # As the demo data and `createsuperuser` make them: an address, but no confirmation record.
    users.create_user("director", "director@example.org", "director-pass")
    users.create_superuser("admin", "admin@example.org", "admin-pass")
    UserFactory(username="no-address", password="pass-word-123")  # no address at all
    for login, password in [("director", "director-pass"), ("admin", "admin-pass"),
                            ("admin@example.org", "admin-pass"),
                            ("no-address", "pass-word-123")]:
        other = Client()
        response = other.post(reverse("account_login"), {"login": login, "password": password})
        assert response.status_code == 302 and _signed_in(other), login
    assert mail.outbox == []


def test_the_demo_logins_sign_in(client: Client) -> None:
    from demo.services import load_demo

    load_demo()
    for login, password in [("director", "director-pass"), ("admin", "admin-pass")]:
        other = Client()
        response = other.post(reverse("login"), {"login": login, "password": password})
        assert response.status_code == 302 and _signed_in(other), login


# --- password reset ---------------------------------------------------------------------------
def test_password_reset_end_to_end(client: Client) -> None:
    user = UserFactory(username="pat", email="pat@example.org", password="old-pass-phrase")
    response = client.post(reverse("account_reset_password"), {"email": "pat@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["pat@example.org"]
    assert mail.outbox[0].subject == "[Pinochle scoring] Reset your password"
    link = _path(_link(mail.outbox[0]))
    form = client.get(link, follow=True)  # allauth moves the key into the session first
    assert form.status_code == 200 and b"new-password-form" in form.content
    action = form.redirect_chain[-1][0] if form.redirect_chain else link
    done = client.post(action, {"password1": "new-pass-phrase-9",
                                "password2": "new-pass-phrase-9"})
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password("new-pass-phrase-9")
    assert Client().post(reverse("account_login"), {"login": "pat", "password":
                                                    "old-pass-phrase"}).status_code == 200
    again = Client()
    assert again.post(reverse("account_login"), {"login": "pat@example.org", "password":
                                                 "new-pass-phrase-9"}).status_code == 302
    # The link works once.
    assert b"reset-link-bad" in Client().get(link, follow=True).content


def test_password_reset_for_an_unknown_address_sends_no_reset_link(client: Client) -> None:
    response = client.post(reverse("account_reset_password"), {"email": "ghost@example.org"})
    assert response.status_code == 302  # the same answer as for a known address
    assert all("/accounts/password/reset/key/" not in m.body for m in mail.outbox)


# --- addresses in e-mails ------------------------------------------------------------------
def test_links_in_mails_use_the_public_address(client: Client, settings: Any) -> None:
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    _sign_up(client)
    UserFactory(username="pat", email="pat@example.org")
    client.post(reverse("account_reset_password"), {"email": "pat@example.org"})
    confirm, reset = mail.outbox
    assert _link(confirm).startswith("http://192.168.1.20:8000/accounts/confirm-email/")
    assert _link(reset).startswith("http://192.168.1.20:8000/accounts/password/reset/key/")


def test_without_a_public_address_links_use_the_address_asked_by(client: Client) -> None:
    _sign_up(client, host="localhost")
    assert _link(mail.outbox[0]).startswith("http://localhost/accounts/confirm-email/")


def test_the_confirmation_link_carries_where_the_person_was_going(client: Client) -> None:
    _sign_up(client, next="/invite/abc/")
    link = _link(mail.outbox[0])
    assert link.endswith("?next=%2Finvite%2Fabc%2F")
    # Opened in another browser (a phone's mail app): confirmed, then sent on to the invitation.
    elsewhere = Client()
    page = elsewhere.get(_path(link))
    assert b'name="next" value="/invite/abc/"' in page.content
    response = elsewhere.post(_path(link), {"next": "/invite/abc/"})
    assert response.status_code == 302 and response["Location"] == "/invite/abc/"
    assert EmailAddress.objects.get(email="sam@example.org").verified


def test_a_next_address_elsewhere_is_not_put_in_the_mail(client: Client) -> None:
    _sign_up(client, next="https://evil.example.com/")
    assert "next=" not in _link(mail.outbox[0])


# --- lockouts through allauth's form ----------------------------------------------------------
def test_failures_by_name_and_by_address_count_for_one_account(client: Client) -> None:
    user = UserFactory(username="dana", email="dana@example.org", password="dana-pass-123")
    EmailAddress.objects.create(user=user, email="dana@example.org", verified=True, primary=True)
    limit = django_settings.AXES_FAILURE_LIMIT
    for n in range(limit - 1):
        login = "dana" if n % 2 else "DANA@example.org"
        assert client.post(reverse("account_login"),
                           {"login": login, "password": f"guess-{n}"}).status_code == 200
    # The limit is reached by typing either: the account is locked out from this address.
    assert client.post(reverse("account_login"),
                       {"login": "dana@example.org", "password": "last-guess"}).status_code == 429
    locked = client.post(reverse("account_login"), {"login": "dana", "password": "dana-pass-123"})
    assert locked.status_code == 429 and not _signed_in(client)
    assert b"Too many failed log-ins" in locked.content
    assert b"<strong>dana</strong>" in locked.content


# --- settings from the environment ---------------------------------------------------------------
def _settings_value(env: dict[str, str], *names: str, module: str = "config.settings.base",
                    ) -> list[str]:
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("EMAIL_", "DJANGO_", "DEFAULT_FROM", "PUBLIC_BASE"))}
    code = (f"import django, os; os.environ['DJANGO_SETTINGS_MODULE']={module!r}; "
            "django.setup(); from django.conf import settings; "
            f"print('|'.join(str(getattr(settings, n)) for n in {list(names)!r}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1].split("|")


def test_the_embedded_default_prints_mails_and_smtp_comes_from_the_environment() -> None:
    assert _settings_value({}, "EMAIL_BACKEND") == [
        "django.core.mail.backends.console.EmailBackend"]
    assert _settings_value(
        {"EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "465", "EMAIL_USE_SSL": "true",
         "DEFAULT_FROM_EMAIL": "Club <club@example.org>"},
        "EMAIL_BACKEND", "EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_SSL", "EMAIL_USE_TLS",
        "DEFAULT_FROM_EMAIL",
    ) == ["django.core.mail.backends.smtp.EmailBackend", "smtp.example.org", "465", "True",
          "False", "Club <club@example.org>"]


def test_production_mails_say_https_when_the_site_is_https_only() -> None:
    production = {"DJANGO_SECRET_KEY": "x" * 40, "DJANGO_ALLOWED_HOSTS": "scores.example.org",
                  "DATABASE_URL": "postgres://u@db.example.org:5432/pinochle",
                  "REDIS_URL": "redis://cache.example.org:6379/0"}
    module = "config.settings.production"
    assert _settings_value(production, "ACCOUNT_DEFAULT_HTTP_PROTOCOL", module=module) == ["https"]
    assert _settings_value({**production, "DJANGO_SECURE_SSL_REDIRECT": "false"},
                           "ACCOUNT_DEFAULT_HTTP_PROTOCOL", module=module) == ["http"]


def test_a_bad_mail_port_stops_start_up_naming_it() -> None:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")}
    done = subprocess.run([sys.executable, "manage.py", "check"], cwd=ROOT,
                          env={**clean, "EMAIL_PORT": "smtp"}, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode != 0 and "EMAIL_PORT" in done.stderr + done.stdout


# --- old names, home page, menu ---------------------------------------------------------------
def test_the_old_url_names_and_login_url_reach_allauths_pages(client: Client) -> None:
    assert reverse("login") == reverse("account_login") == "/accounts/login/"
    assert reverse("logout") == reverse("account_logout") == "/accounts/logout/"
    response = client.get(reverse("api-token"))
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/token/"
    user = UserFactory(username="leaving")
    client.force_login(user)
    assert client.post(reverse("logout")).status_code == 302
    assert not _signed_in(client)


def test_visitors_see_sign_up_and_sign_in(client: Client) -> None:
    page = client.get(reverse("home")).content.decode()
    assert 'id="home-sign-up"' in page and 'id="home-sign-in"' in page
    assert 'id="nav-sign-up"' in page and 'id="nav-sign-in"' in page
    assert "Create a club" not in page


def test_signed_in_people_create_a_club_from_the_home_page(client: Client) -> None:
    user = UserFactory(username="founder")
    client.force_login(user)
    page = client.get(reverse("home")).content.decode()
    create = reverse("club-create")
    assert f'href="{create}" id="create-club"' in page
    assert f'href="{create}" id="nav-create-club"' in page
    assert 'id="home-sign-up"' not in page
    response = client.post(create, {"name": "Hilltop Pinochle", "slug": "", "time_zone": "UTC",
                                    "ruleset_preset": "pagat_double_deck", "is_public": "on"})
    club = Club.objects.get(name="Hilltop Pinochle")
    assert response.status_code == 302 and response["Location"] == reverse("club-manage",
                                                                           args=[club.slug])
    assert Membership.objects.get(club=club, user=user).role == "owner"
    home = client.get(reverse("home")).content.decode()
    assert reverse("club-manage", args=[club.slug]) in home  # "Manage" on the clubs one runs
    other = ClubFactory(name="Someone Else's")
    assert reverse("club-manage", args=[other.slug]) not in home


def test_the_account_pages_use_the_sites_layout(client: Client) -> None:
    for name in ("account_login", "account_signup", "account_reset_password"):
        page = client.get(reverse(name)).content.decode()
        assert 'class="site-header"' in page and "css/accounts.css" in page, name
        assert 'class="card account-form"' in page, name
    client.force_login(UserFactory(username="someone", email="someone@example.org"))
    page = client.get(reverse("account_email")).content.decode()
    assert 'class="site-header"' in page and "someone@example.org" in page

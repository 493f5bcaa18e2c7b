"""Signing a club's director in through the sign-in page (shared by the browser tests)."""

from __future__ import annotations

from playwright.sync_api import Page

from clubs.models import Club, Membership
from tests.clubs.factories import UserFactory


def sign_in_director(page: Page, base: str, club: Club, username: str) -> None:
    """Make ``username`` a director of ``club`` and sign them in on ``page``."""
    password = f"{username}-pass-123"
    director = UserFactory(username=username)
    director.set_password(password)
    director.save()
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    sign_in(page, base, username, password)


def sign_in(page: Page, base: str, login: str, password: str) -> None:
    """Sign in on allauth's form (``login``: a user name or an e-mail address) and wait until
    the site answers signed in."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_login", login)
    page.fill("#id_password", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("form[action='/accounts/logout/']", state="attached")

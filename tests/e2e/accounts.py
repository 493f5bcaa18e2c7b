"""Signing a club's director in through the login page (shared by the browser tests)."""

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
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")

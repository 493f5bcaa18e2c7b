"""A new club gets going on phones, without help: a stranger signs up, confirms the address from
the e-mail, creates a club from the home page and makes a director invitation; a second person
opens the link, signs up from there, confirms, comes back to the invitation and accepts it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from clubs.models import Club, Invitation, Membership

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LINK = re.compile(r"https?://\S+/accounts/confirm-email/\S+")


@pytest.fixture
def second_phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _confirmation_link(to: str) -> str:
    sent = [m for m in mail.outbox if m.to == [to]]
    assert len(sent) == 1, [m.to for m in mail.outbox]
    found = LINK.search(sent[0].body)
    assert found, sent[0].body
    return found.group(0)


def _sign_up(page: Page, username: str, email: str, password: str) -> None:
    page.fill("#id_username", username)
    page.fill("#id_email", email)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("#signup-form button[type=submit]")
    expect(page.locator("h1")).to_have_text("Check your e-mail")


def _fits_the_phone(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_stranger_starts_a_club_and_invites_a_director(
    live_server: Any, phone: Page, second_phone: Page, output_dir: Path, settings: Any,
) -> None:
    settings.PUBLIC_BASE_URL = live_server.url  # the address the invitation's QR code encodes
    base = live_server.url
    page = phone

    # --- the stranger signs up from the home page -------------------------------------------
    page.goto(base + "/accounts/login/")
    expect(page.locator("#id_login")).to_be_visible()
    page.screenshot(path=str(output_dir / "accounts-sign-in.png"), full_page=True)
    page.goto(base + "/")
    page.click("#home-sign-up")
    expect(page.locator("h1")).to_have_text("Create an account")
    _fits_the_phone(page)
    page.screenshot(path=str(output_dir / "accounts-sign-up.png"), full_page=True)
    _sign_up(page, "maria", "maria@example.org", "clubs-are-fun-42")
    page.screenshot(path=str(output_dir / "accounts-check-your-mail.png"), full_page=True)
    assert not Membership.objects.exists()

    # --- confirms from the e-mail and is signed in ------------------------------------------
    page.goto(_confirmation_link("maria@example.org"))
    expect(page.locator("#confirm-form")).to_contain_text("maria@example.org")
    page.click("#confirm-form button[type=submit]")
    expect(page.locator(".site-header")).to_contain_text("maria")
    page.click(".site-header a:has-text('maria')")  # her account: e-mail addresses, password
    expect(page.locator("main")).to_contain_text("maria@example.org")
    _fits_the_phone(page)
    page.screenshot(path=str(output_dir / "accounts-email.png"), full_page=True)

    # --- creates a club from the home page ----------------------------------------------------
    page.goto(base + "/")
    page.click("#create-club")
    page.fill("#id_name", "Maple Street Pinochle")
    page.fill("#id_time_zone", "America/Chicago")
    page.click("button:has-text('Create club')")
    expect(page.locator("h1")).to_have_text("Manage Maple Street Pinochle")
    club = Club.objects.get(name="Maple Street Pinochle")
    assert Membership.objects.get(club=club, user__username="maria").role == "owner"

    # --- makes a director invitation and shows its QR code -----------------------------------
    page.select_option("#id_role", "director")
    page.fill("#id_note", "for Sam")
    page.click("#invitation-form button[type=submit]")
    expect(page.locator("#invitation-qr svg")).to_be_visible()
    invitation = Invitation.objects.get(club=club)
    assert invitation.role == "director" and invitation.max_uses == 1
    link = page.input_value("#invite-link")
    assert link == f"{base}/invite/{invitation.token}/"
    _fits_the_phone(page)
    page.screenshot(path=str(output_dir / "accounts-invitation-qr.png"), full_page=True)
    page.goto(f"{base}/clubs/{club.slug}/manage/")
    expect(page.locator(f"#invitation-{invitation.pk}")).to_contain_text("for Sam")
    page.screenshot(path=str(output_dir / "accounts-club-manage.png"), full_page=True)

    # --- a second person opens the link, signs up from there and comes back ----------------
    other = second_phone
    other.goto(link)
    expect(other.locator("#invitation")).to_contain_text("Maple Street Pinochle")
    expect(other.locator("#invitation-role")).to_have_text("director")
    other.screenshot(path=str(output_dir / "accounts-invitation-visitor.png"), full_page=True)
    other.click("#invite-sign-up")
    _sign_up(other, "sam", "sam@example.org", "shuffle-and-deal-7")
    confirmation = _confirmation_link("sam@example.org")
    assert f"next=%2Finvite%2F{invitation.token}%2F" in confirmation
    other.goto(confirmation)
    other.click("#confirm-form button[type=submit]")
    expect(other).to_have_url(link)  # back at the invitation, signed in
    expect(other.locator("#accept-form")).to_be_visible()
    _fits_the_phone(other)
    other.screenshot(path=str(output_dir / "accounts-invitation-accept.png"), full_page=True)
    other.click("#accept-form button[type=submit]")
    expect(other.locator("h1")).to_have_text("Manage Maple Street Pinochle")
    assert Membership.objects.get(club=club, user__username="sam").role == "director"
    invitation.refresh_from_db()
    assert invitation.uses == 1 and not invitation.is_active

    # --- the used link now says so --------------------------------------------------------------
    page.goto(link)
    expect(page.locator("#invitation-gone")).to_contain_text("used as many times as it allows")

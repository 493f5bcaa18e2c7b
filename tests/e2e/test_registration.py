"""Registration in a real browser: a player registers on a phone (390 px) on the public form,
opens the link mailed to them, confirms their address and says "I'm here" on the day; the
director's list (1280 px) shows the groups, approves a registration and checks everyone in."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect

from registrations.models import Registration
from registrations.services import (
    registration_confirm,
    registration_create,
    registration_settings_set,
)
from tests.clubs.factories import ClubFactory
from tests.e2e.accounts import sign_in_director
from tournaments.models import Entry, Event
from tournaments.services import event_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _event(slug: str) -> Event:
    club = ClubFactory(name="Harbour Pinochle", slug=slug)
    event = event_create(club=club, name="Harbour open", date=datetime.date(2026, 11, 22),
                         format=Event.Format.CLUB_NIGHT)
    Event.objects.filter(pk=event.pk).update(self_check_in=Event.SelfCheckIn.OPEN)
    event.refresh_from_db()
    return event


def test_a_player_registers_on_a_phone_confirms_and_checks_in(
        live_server, phone: Page, output_dir: Path) -> None:
    event = _event("harbour-reg")
    registration_settings_set(event=event, is_open=True, capacity=16, fee=20)
    base = live_server.url
    phone.goto(f"{base}/events/{event.pk}/")
    phone.click("#register-link")
    expect(phone.locator("#registration-facts")).to_contain_text("16 places left")
    phone.fill("#id_name", "Zoë O'Neil")
    phone.fill("#id_email", "not an address")
    phone.click("#register-submit")
    expect(phone.locator("#email-error")).to_contain_text("is not an e-mail address")
    phone.fill("#id_email", "zoe@example.org")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing runs off the phone's screen
    button = phone.locator("#register-submit").bounding_box()
    assert button is not None and button["height"] >= 40
    phone.screenshot(path=str(output_dir / "registration-form-390.png"), full_page=True)
    phone.click("#register-submit")
    expect(phone.locator("#check-mail")).to_contain_text("zoe@example.org")

    link = re.search(r"(/registrations/[^/\s]+/)", mail.outbox[-1].body)
    assert link is not None and mail.outbox[-1].to == ["zoe@example.org"]
    phone.goto(base + link.group(1))
    phone.click("#confirm-address")
    expect(phone.locator("#registration-status")).to_contain_text("You are registered.")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.screenshot(path=str(output_dir / "registration-confirmed-390.png"), full_page=True)
    phone.click("#im-here")
    expect(phone.locator("#registration-status")).to_contain_text("You are checked in.")
    assert event.entries.filter(player__name="Zoë O'Neil", status=Entry.Status.ACTIVE).exists()


def test_the_directors_list_approves_and_checks_everyone_in(
        live_server, browser: Browser, output_dir: Path) -> None:
    event = _event("harbour-list")
    registration_settings_set(event=event, is_open=True, capacity=4, fee=25,
                              approval_required=True)
    names = ["Ann Smith", "Bob Jones", "Cleo Park", "Dev Patel", "Eve Stone", "Finn Gray"]
    for name in names:
        person = registration_create(event=event, name=name,
                                     email=f"{name.split()[0].lower()}@example.org")
        registration_confirm(registration=person)
    registration_create(event=event, name="Gus Hale", email="gus@example.org")
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    desk = context.new_page()
    desk.set_default_timeout(15_000)
    base = live_server.url
    sign_in_director(desk, base, event.club, "harbour-reg-director")
    desk.goto(f"{base}/events/{event.pk}/")
    desk.click("#registrations-link")
    expect(desk.locator("#group-pending tbody tr")).to_have_count(4)
    expect(desk.locator("#group-waitlisted tbody tr")).to_have_count(2)
    expect(desk.locator("#group-unconfirmed tbody tr")).to_have_count(1)
    for name in names[:3]:
        desk.locator("#group-pending tr", has_text=name).get_by_role("button",
                                                                     name="Approve").click()
        expect(desk.locator(".messages")).to_contain_text(f"{name}: approved.")
    desk.locator("#group-registered tr", has_text="Ann Smith").get_by_role(
        "button", name="Mark paid").click()
    expect(desk.locator("#group-registered tr", has_text="Ann Smith")).to_contain_text("paid")
    desk.screenshot(path=str(output_dir / "registrations-director-1280.png"), full_page=True)
    desk.once("dialog", lambda dialog: dialog.accept())
    desk.click("#check-in-all")
    expect(desk.locator(".messages")).to_contain_text("Checked in (3)")
    assert event.entries.filter(status=Entry.Status.ACTIVE).count() == 3
    assert Registration.objects.filter(event=event, status="pending").count() == 1
    desk.screenshot(path=str(output_dir / "registrations-director-checked-in-1280.png"),
                    full_page=True)
    context.close()

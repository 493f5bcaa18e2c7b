"""A player's data page on a phone (390 px): the summary, the download (a JSON file of the
player's events), the erase page's confirmation; no sideways scrolling, no console errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.accounts import sign_in
from tests.privacy.world import PASSWORD, build_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_data_page_downloads_the_players_data_on_a_phone(
    live_server, phone: Page, output_dir: Path
) -> None:
    build_world()
    errors: list[str] = []
    phone.on("console", lambda m: errors.append(m.text)
             if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    sign_in(phone, live_server.url, "sam", PASSWORD)
    phone.goto(f"{live_server.url}/account/data/")
    expect(phone.locator("h1")).to_have_text("Your data")
    expect(phone.locator("#privacy-summary")).to_contain_text("Samantha Quill")
    expect(phone.locator("#privacy-summary")).to_contain_text("3 events, 4 games, 8 hands")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the data page scrolls sideways on a phone ({width}px)"
    phone.screenshot(path=str(output_dir / "privacy-data-phone.png"), full_page=True)
    with phone.expect_download() as download_info:
        phone.click("#privacy-download-link")
    document = json.loads(Path(download_info.value.path()).read_text())
    assert document["account"]["username"] == "sam"
    assert [e["event"]["name"] for e in document["events"]] == [
        "Riverside NPA day", "Riverside club night", "Hilltop night"]

    phone.click("text=Erase my account…")
    expect(phone.locator("h1")).to_have_text("Erase your account")
    phone.fill("#id_confirm", "not-sam")
    phone.click("#erase-form button[type=submit]")
    expect(phone.locator(".field-error")).to_contain_text("That is not your user name")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the erase page scrolls sideways on a phone ({width}px)"
    phone.screenshot(path=str(output_dir / "privacy-erase-phone.png"), full_page=True)
    assert errors == []

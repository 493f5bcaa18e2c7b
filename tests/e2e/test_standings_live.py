"""The wall screen in a real browser against the real worker: it redraws without a reload
within seconds of an entry, and says "updating…" while the worker is away."""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import Page, expect, sync_playwright

from tests.integration.test_standings_live import build_event, caught_up, enter, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--no-first-run"]


def in_browser_thread(scenario: Callable[[Page], None]) -> None:
    """Run ``scenario`` with a fresh Chromium page in its own thread: Playwright's sync API
    refuses to start in a thread where another Playwright (e.g. the e2e session browser) runs."""
    failure: list[BaseException] = []

    def run() -> None:
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
                try:
                    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
                    page.set_default_timeout(20_000)
                    scenario(page)
                finally:
                    browser.close()
        except BaseException as exc:  # noqa: BLE001 - handed to the test thread
            failure.append(exc)
        finally:
            connections.close_all()  # this thread's database connection

    thread = threading.Thread(target=run, name="standings-browser")
    thread.start()
    thread.join(timeout=240)
    assert not thread.is_alive(), "the browser scenario did not finish"
    if failure:
        raise failure[0]


def test_wall_screen_redraws_live_and_says_updating_while_the_worker_is_away(
    live_server, servers, celery_app_live
) -> None:
    event, games = build_event(players=16)
    for game in games:
        enter(game, 1)
    assert wait_until(lambda: caught_up(event))
    in_browser_thread(lambda page: scenario(page, live_server.url, servers, event, games))


def scenario(page: Page, base_url: str, servers, event, games) -> None:
    live_server_url = base_url
    page.goto(f"{live_server_url}/events/{event.pk}/standings/wall/")
    expect(page.locator("body")).to_have_class(re.compile(r"\bwall\b"))
    live = page.locator("#standings-live")
    first_version = live.get_attribute("data-version")
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads
    updating = page.locator("[data-standings-updating]")
    expect(updating).to_be_hidden()

    for game in games:
        enter(game, 2)
    expect(live).not_to_have_attribute("data-version", first_version or "", timeout=15_000)
    assert page.evaluate("window.__sameDocument === true"), "the page reloaded"

    servers.stop_worker()
    try:
        second_version = live.get_attribute("data-version")
        enter(games[0], 3)
        expect(updating).to_be_visible(timeout=10_000)  # last standings stay, with the note
        assert live.get_attribute("data-version") == second_version
        expect(page.locator(".wall-row")).to_have_count(16)
    finally:
        servers.start_worker()
    expect(updating).to_be_hidden(timeout=30_000)
    expect(live).not_to_have_attribute("data-version", second_version or "", timeout=15_000)
    assert page.evaluate("window.__sameDocument === true")
    out = Path(os.environ.get("TEST_OUTPUT_DIR", "test-output")) / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out / "standings-wall.png"))
    page.goto(f"{live_server_url}/events/{event.pk}/standings/")
    expect(page.locator("table.standings tbody tr")).to_have_count(16)
    expect(page.locator(".score-chart polyline").first).to_be_visible()
    page.screenshot(path=str(out / "standings-page.png"), full_page=True)

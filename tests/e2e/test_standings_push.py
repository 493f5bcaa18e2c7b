"""A wall screen in a real browser redraws from a push: the real worker stores the snapshot and
publishes it with the wall's region, the real push process (uvicorn, ``config.asgi``) streams it
to the page, which inflates the region and redraws without a request; a browser that cannot
inflate fetches the region from the push process instead. Polling is slowed to ten minutes so
only the push can redraw in time; then, with the push process stopped, the page falls back to
polling by itself."""

from __future__ import annotations

import copy
import os
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from standings import views as standings_views
from tests.e2e.test_standings_live import in_browser_thread
from tests.integration.test_standings_live import build_event, caught_up, enter, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def push_on(settings, servers):
    """The site offers the real push process's stream (``PUSH_URL``), allowed by the policy."""
    assert servers.push_url, "the push process was not started (TEST_PUSH_PORT)"
    settings.PUSH_URL = servers.push_url
    policy = copy.deepcopy(settings.CONTENT_SECURITY_POLICY)
    origin = urlsplit(servers.push_url)
    policy["DIRECTIVES"]["connect-src"].append(f"{origin.scheme}://{origin.netloc}")
    settings.CONTENT_SECURITY_POLICY = policy
    return servers.push_url


def test_the_wall_redraws_from_a_push_and_polls_when_the_push_process_is_away(
    live_server, servers, celery_app_live, push_on, monkeypatch
) -> None:
    event, games = build_event(players=16)
    for game in games:
        enter(game, 1)
    assert wait_until(lambda: caught_up(event))

    def scenario(page: Page) -> None:
        monkeypatch.setattr(standings_views, "POLL_SECONDS", 600)
        monkeypatch.setattr(standings_views, "PUSH_POLL_SECONDS", 600)
        fetched: list[str] = []  # every request for a standings region, wherever it went
        page.on("request", lambda r: fetched.append(r.url) if "fragment/?" in r.url else None)
        streams: list[str] = []
        page.on("request", lambda r: streams.append(r.url) if r.url.startswith(push_on)
                and "/fragment/" not in r.url else None)
        page.goto(f"{live_server.url}/events/{event.pk}/standings/wall/")
        live = page.locator("#standings-live")
        expect(live).to_have_attribute("data-push", "open")
        assert streams and streams[-1].endswith("&view=wall")
        page.evaluate("window.__sameDocument = true")  # gone if the page reloads
        first = live.get_attribute("data-version") or ""
        first_rows = page.locator(".wall-row").all_inner_texts()

        fetched.clear()
        for game in games:
            enter(game, 2)
        expect(live).not_to_have_attribute("data-version", first, timeout=15_000)
        expect(live).to_have_attribute("data-updated-by", "push")
        assert page.evaluate("window.__sameDocument === true"), "the page reloaded"
        assert page.locator(".wall-row").all_inner_texts() != first_rows
        # The new region came inside the pushed message: no request for it, anywhere.
        assert fetched == []
        out = Path(os.environ.get("TEST_OUTPUT_DIR", "test-output")) / "screenshots"
        out.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out / "standings-wall-push.png"))

        # A browser that cannot inflate opens the stream without a view and fetches the
        # region of the version pushed from the push process, not from the site.
        page.add_init_script("delete window.DecompressionStream;")
        # At an address of its own, so the browser draws the wall as it stands now instead of
        # the copy it keeps for a few seconds (that copy would fetch the newer region first).
        page.goto(f"{live_server.url}/events/{event.pk}/standings/wall/?inflate=0")
        expect(live).to_have_attribute("data-push", "open")
        assert "&view=" not in streams[-1]
        before = live.get_attribute("data-version") or ""
        fetched.clear()
        for game in games:
            enter(game, 3)
        expect(live).not_to_have_attribute("data-version", before, timeout=15_000)
        expect(live).to_have_attribute("data-updated-by", "push")
        assert fetched and all(url.startswith(push_on) and "view=wall" in url for url in fetched)

        # The push process goes away: the page says so and polls every 3 s instead.
        monkeypatch.setattr(standings_views, "POLL_SECONDS", 3)
        # At an address of its own: the public wall drawn above, with the old interval, is
        # in the browser's cache for a few seconds (public/caching.py).
        page.goto(f"{live_server.url}/events/{event.pk}/standings/wall/?poll=3")
        expect(live).to_have_attribute("data-push", "open")
        servers.stop_push()
        try:
            expect(live).to_have_attribute("data-push", "connecting", timeout=15_000)
            second = live.get_attribute("data-version") or ""
            for game in games:
                enter(game, 4)
            expect(live).not_to_have_attribute("data-version", second, timeout=20_000)
            expect(live).to_have_attribute("data-updated-by", "poll")
        finally:
            servers.start_push()
        expect(live).to_have_attribute("data-push", "open", timeout=20_000)

    in_browser_thread(scenario)

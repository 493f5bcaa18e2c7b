"""Call the director, in real browsers: a table's phone (390 px) calls the director; the
director screen (1280 px) and a director's phone on the calls page show the call from a push
(the real push process, ``config.asgi``) without reloading, their polls slowed to ten minutes;
the director takes the call ("On my way") and closes it with the ruling, and the table's phone
shows who is coming, then the ruling. Screenshots of the phone with its open call and of the
director screen with the call go to the test output."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from conduct.models import DirectorCall
from draw.services import round_create, round_set_status
from events import calls as draw_calls
from events import screens
from tests.e2e import walls
from tests.e2e.accounts import sign_in_director
from tests.e2e.test_standings_live import in_browser_thread
from tests.e2e.test_standings_push import push_on  # noqa: F401 - the fixture
from tournaments.models import EventLog

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# A push reaches a screen within a second or two; a loaded test machine gets some room. The
# table's phone asks for its open call every 5 s.
PUSHED_WITHIN_MS = 8_000
PHONE_WITHIN_MS = 15_000


@pytest.fixture
def slow_polls(monkeypatch) -> None:
    monkeypatch.setattr(draw_calls, "CALLS_POLL_SECONDS", 600)
    monkeypatch.setattr(draw_calls, "CALLS_PUSH_POLL_SECONDS", 600)
    monkeypatch.setattr(screens, "REFRESH_SECONDS", 600)  # the screen's own reload


def test_a_table_calls_and_the_directors_see_it_by_push_and_the_phone_gets_the_ruling(
    live_server, servers, push_on, slow_polls  # noqa: F811 - the fixture
) -> None:
    event = walls.progressive_day(16, cut=4)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    table = first.tables.get(number=3)
    base = live_server.url
    out = Path(os.environ.get("TEST_OUTPUT_DIR", "test-output")) / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    timings: dict[str, float] = {}

    def scenario(page: Page) -> None:
        browser = page.context.browser
        assert browser is not None
        desk_context = browser.new_context(viewport={"width": 1280, "height": 900})
        screen = desk_context.new_page()
        screen.set_default_timeout(20_000)
        sign_in_director(screen, base, event.club, "dana")
        directors_phone = desk_context.new_page()  # the same director, the calls page
        directors_phone.set_viewport_size({"width": 390, "height": 844})
        directors_phone.set_default_timeout(20_000)
        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True).new_page()
        phone.set_default_timeout(20_000)

        screen.goto(f"{base}/events/{event.pk}/director/")
        directors_phone.goto(f"{base}/events/{event.pk}/calls/")
        for region in (screen.locator("#calls-live"), directors_phone.locator("#calls-live")):
            expect(region).to_have_attribute("data-push", "open")
            expect(region.locator("[data-no-calls]")).to_be_visible()
        screen.evaluate("window.__sameDocument = true")  # gone if the page reloads
        directors_phone.evaluate("window.__sameDocument = true")

        # --- the table's phone calls, with a reason and a few words ----------------------------
        phone.goto(f"{base}/t/{table.token}/")
        ask = phone.locator("[data-call-ask] summary")
        expect(ask).to_have_text("Call the director")
        ask.click()
        phone.locator(".call-chip", has_text="Renege").click()
        phone.fill("input[name=words]", "Spades led, hearts played")
        started = time.monotonic()
        phone.click("[data-call-send]")
        region = phone.locator("#table-call")
        expect(region).to_have_attribute("data-state", "waiting")
        expect(region).to_contain_text("Director called")
        expect(phone.locator("[data-call-ask]")).to_have_count(0)  # one open call per table

        # --- both directors' pages show it at once, from the push ------------------------------
        for name, director_page in (("screen", screen), ("phone", directors_phone)):
            item = director_page.locator(f"#calls-live li[data-table='{table.number}']")
            expect(item).to_be_visible(timeout=PUSHED_WITHIN_MS)
            timings[name] = time.monotonic() - started
            expect(item).to_contain_text("Table 3")
            expect(item).to_contain_text("Renege: “Spades led, hearts played”")
            expect(director_page.locator("#calls-live")).to_have_attribute(
                "data-updated-by", "push")
            assert director_page.evaluate("window.__sameDocument === true"), "it reloaded"
        expect(screen.locator("#calls-live [data-since-ms]")).to_have_text("under a minute")
        expect(screen.locator(f"#table-{table.number}")).to_have_class(re.compile(r"\bcalled\b"))
        expect(screen.locator("#table-1")).not_to_have_class(re.compile(r"\bcalled\b"))
        phone.screenshot(path=str(out / "table-call-open-390.png"), full_page=True)
        screen.screenshot(path=str(out / "director-screen-calls-1280.png"), full_page=True)
        directors_phone.screenshot(path=str(out / "director-calls-page-390.png"), full_page=True)

        # --- "On my way": the phone shows who is coming ----------------------------------------
        screen.locator(f"#calls-live li[data-table='{table.number}'] [data-call-take]").click()
        expect(screen.locator(f"#calls-live li[data-table='{table.number}']")).to_contain_text(
            "On the way: dana")
        expect(region).to_contain_text("A director is on the way: dana", timeout=PHONE_WITHIN_MS)
        expect(directors_phone.locator(
            f"#calls-live li[data-table='{table.number}']")).to_have_attribute(
            "data-state", "taken", timeout=PUSHED_WITHIN_MS)
        phone.screenshot(path=str(out / "table-call-taken-390.png"), full_page=True)

        # --- the ruling: the call closes and the phone shows it --------------------------------
        item = screen.locator(f"#calls-live li[data-table='{table.number}']")
        item.locator("input[name=note]").fill("Renege: two tricks to E-W.")
        item.locator("[data-call-close]").click()
        expect(screen.locator("#calls-live [data-no-calls]")).to_be_visible()
        expect(directors_phone.locator("#calls-live .call-closed-list")).to_contain_text(
            "Renege: two tricks to E-W.", timeout=PUSHED_WITHIN_MS)
        expect(region.locator("[data-ruling]")).to_contain_text(
            "Ruling: Renege: two tricks to E-W.", timeout=PHONE_WITHIN_MS)
        expect(phone.locator("[data-call-ask] summary")).to_be_visible()  # may call again
        phone.screenshot(path=str(out / "table-call-ruling-390.png"), full_page=True)
        phone.locator("[data-call-dismiss]").click()
        expect(region.locator("[data-ruling]")).to_have_count(0)
        desk_context.close()

    in_browser_thread(scenario)
    call = DirectorCall.objects.get(table=table)
    assert (call.state, call.reason, call.note, call.taken_by.get_username()) == (
        "closed", "renege", "Renege: two tricks to E-W.", "dana")
    assert call.dismissed_at is not None
    assert list(EventLog.objects.filter(event=event, action__contains="call").order_by("pk")
                .values_list("action", flat=True)) == [
        "director_called", "director_call_taken", "director_call_closed"]
    print("shown after", {k: round(v, 2) for k, v in timings.items()})  # noqa: T201

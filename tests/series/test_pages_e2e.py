"""The series in a real browser: on a phone (390 px) a director creates a championship week
through the form and reads its standings (the table scrolls inside its box, a line links to the
player's results in the event); the wall at 1920×1080 fits the screen, turns its pages and
redraws by itself when an event of the series is reopened."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from draw.services import event_status_set
from series import views as series_views
from series.models import Series
from tests.clubs.factories import ClubFactory
from tests.e2e.accounts import sign_in_director
from tests.e2e.test_walls import CONTRAST, CUT, SIZES
from tests.e2e.walls import players
from tests.series.builders import played_night

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1920, "height": 1080}


def test_a_phone_creates_a_week_and_the_wall_shows_it(
        live_server, phone: Page, browser: Browser, output_dir: Path, monkeypatch) -> None:
    monkeypatch.setattr(series_views, "WALL_PAGE_SECONDS", 4)
    monkeypatch.setattr(series_views, "WALL_POLL_SECONDS", 2)
    club = ClubFactory(name="Harbour Pinochle", slug="harbour")
    people = players(club, 48)
    friday = played_night(club, people, date=datetime.date(2026, 6, 5), rounds=1, seed=2)
    saturday = played_night(club, people[:40], date=datetime.date(2026, 6, 6), rounds=1,
                            seed=5)
    base = live_server.url

    sign_in_director(phone, base, club, "harbour-director")
    phone.goto(f"{base}/clubs/harbour/")
    phone.click("#new-series")
    phone.fill("#id_name", "Harbour championship week")
    phone.check(f"input[name=events][value='{friday.pk}']")
    phone.check(f"input[name=events][value='{saturday.pk}']")
    phone.fill("#id_points", "100, 80, 65, 55, 50, 45, 40, 35, 30, 25")
    phone.fill("#id_min_events", "2")
    phone.fill("#id_payouts", "200, 100")
    phone.fill("#id_high_game", "40")
    phone.click("button:has-text('Create series')")
    expect(phone).to_have_url(re.compile(r"/series/\d+/$"))
    series = Series.objects.get()
    assert series.min_events == 2

    table = phone.locator("#series-standings")
    expect(table.locator("tbody tr")).to_have_count(48 + 1)  # and the "not yet ranked" head
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width == 390, "the page scrolls sideways; only the table's box may"
    expect(phone.locator("#series-side-pots")).to_contain_text("High game")
    phone.screenshot(path=str(output_dir / "series-phone.png"), full_page=False)
    first_line = table.locator("tbody tr").first
    first_line.locator("td.cell a").first.click()
    expect(phone).to_have_url(re.compile(rf"/events/{friday.pk}/players/\d+/$"))

    context = browser.new_context(viewport=WALL)
    wall = context.new_page()
    wall.set_default_timeout(20_000)
    wall.goto(f"{base}/series/{series.pk}/wall/")
    expect(wall.locator(".series-row")).to_have_count(48)
    size = wall.evaluate("[document.documentElement.scrollWidth, "
                         "document.documentElement.scrollHeight]")
    assert size == [1920, 1080], "the wall scrolls"
    expect(wall.locator("#wall-page")).to_have_text(re.compile(r"page 1 of [2-9]"))
    names = wall.evaluate(SIZES, ".series-row .name")
    assert min(names) >= 28, f"names at {min(names)} px"
    assert wall.evaluate(CUT, ".series-row .name") == []
    assert wall.evaluate(CONTRAST) == []
    # the places that win money say how much, beside the total (the payouts 200, 100)
    prizes = wall.locator(".series-row .prize")
    expect(prizes.first).to_contain_text("200")
    assert wall.evaluate(CUT, ".series-row .prize") == []
    wall.screenshot(path=str(output_dir / "series-wall.png"))
    expect(wall.locator("#wall-page")).to_have_text(re.compile(r"page 2 of"), timeout=15_000)
    wall.screenshot(path=str(output_dir / "series-wall-page-2.png"))
    # the 8 who missed Saturday are not yet ranked
    expect(wall.locator(".wall-group")).to_contain_text("Not yet ranked")
    assert wall.locator(".series-row .rank", has_text="–").count() == 8
    # Saturday reopened: everyone is left with one event; the wall redraws by itself
    event_status_set(event=saturday, status="running", reason="a score was wrong")
    expect(wall.locator("#standings-live")).to_have_attribute("data-updated-by", "poll",
                                                              timeout=15_000)
    expect(wall.locator(".series-row .rank", has_text="–")).to_have_count(48)
    expect(wall.locator(".series-wall-events li.open")).to_contain_text("playing")
    context.close()

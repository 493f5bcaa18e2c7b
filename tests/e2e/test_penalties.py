"""A penalty in a real browser: the club's director records it on the event's Penalties page
(1280 px) and the standings page shows its mark and the points taken off beside the player."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from draw.services import round_create
from tests.e2e import walls
from tests.e2e.accounts import sign_in_director
from tournaments.models import Seat

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_director_records_a_penalty_and_the_standings_show_its_mark(
    live_server, desktop: Page, output_dir: Path,
) -> None:
    event = walls.progressive_day(8, cut=4)
    first = round_create(event=event)
    walls.play_round(first)  # game 1 played and confirmed; game 2 seats itself
    talker = Seat.objects.select_related("entry__player").get(
        round=first, table__number=1, position="E").entry
    base = live_server.url
    desktop.set_viewport_size({"width": 1280, "height": 900})
    sign_in_director(desktop, base, event.club, "penny")

    desktop.goto(f"{base}/events/{event.pk}/standings/")
    row = desktop.locator("tr", has_text=talker.player.name)
    expect(row).to_be_visible()
    expect(row.locator(".penalty-mark")).to_have_count(0)

    desktop.goto(f"{base}/events/{event.pk}/")
    desktop.click("#penalties-link")
    desktop.select_option("#penalty-target", f"e:{talker.pk}")
    desktop.select_option("#penalty-round", "1")
    desktop.fill("#penalty-table-no", "1")
    desktop.select_option("#penalty-kind", "table_talk")
    desktop.fill("#penalty-points", "25")
    desktop.fill("#penalty-reason", "Table talk after a warning")
    desktop.click("#penalty-submit")
    expect(desktop.locator(".messages")).to_contain_text(
        f"Penalty recorded: 25 points off {talker.player.name}.")
    recorded = desktop.locator("#penalties tbody tr")
    expect(recorded).to_have_count(1)
    expect(recorded).to_contain_text("Table talk after a warning")
    expect(recorded).to_contain_text("−25")
    desktop.screenshot(path=str(output_dir / "penalties-page-1280.png"), full_page=True)

    desktop.goto(f"{base}/events/{event.pk}/standings/")
    mark = desktop.locator("tr", has_text=talker.player.name).locator(".penalty-mark")
    expect(mark).to_have_attribute("data-penalty", "25", timeout=20_000)
    expect(mark).to_contain_text("−25")
    expect(desktop.locator(".penalty-mark")).to_have_count(1)  # nobody else's
    desktop.screenshot(path=str(output_dir / "standings-penalty-1280.png"), full_page=True)

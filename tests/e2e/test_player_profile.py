"""A player's profile in a real browser at phone size: the charts are drawn (inline SVG: the
rating, points per game, bids), the page has no console errors and never scrolls sideways; and
at desktop width for the record."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.profiles.builders import Ledger, season

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_profile_draws_its_charts_on_a_phone(
    live_server, phone: Page, desktop: Page, output_dir: Path
) -> None:
    club = ClubFactory(name="Lakeside Pinochle Club of the Northern Shore", slug="lakeside",
                       time_zone="America/Chicago")
    subject = PlayerFactory(club=club, name="Margaret Featherstonehaugh-Whittingham")
    others = [PlayerFactory(club=club, name=f"Player {c}") for c in "ABCDEF"]
    events = season(Ledger(), club, subject, others, events=8, rng=random.Random(7))
    url = f"{live_server.url}/players/{subject.pk}/"

    errors: list[str] = []
    failed: list[str] = []
    # A missing resource is reported by its response (the browser's console line names no URL);
    # the browser's own favicon request is not the page's.
    phone.on("console", lambda m: errors.append(m.text)
             if m.type == "error" and not m.text.startswith("Failed to load resource") else None)
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.on("response", lambda r: failed.append(r.url)
             if r.status >= 400 and not r.url.endswith("/favicon.ico") else None)
    phone.goto(url)
    expect(phone.locator("h1")).to_have_text(subject.name)
    for chart in ("rating", "points-per-game", "bids"):  # confirmed games are rated
        svg = phone.locator(f'[data-chart="{chart}"] svg[role="img"]')
        expect(svg).to_be_visible()
        box = svg.bounding_box()
        assert box and box["width"] > 300 and box["height"] > 100, (chart, box)
    # a line with a point per event, and bars
    assert phone.locator('[data-chart="points-per-game"] svg circle').count() == len(events)
    assert phone.locator('[data-chart="bids"] svg rect').count() > 4
    expect(phone.locator('[data-table="events"] tbody tr')).to_have_count(len(events))
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the profile scrolls sideways on a phone ({width}px)"
    assert errors == [] and failed == []
    phone.screenshot(path=str(output_dir / "player-profile-phone.png"), full_page=True)

    desktop.goto(url)
    expect(desktop.locator('[data-chart="bids"] svg')).to_be_visible()
    desktop.screenshot(path=str(output_dir / "player-profile-desktop.png"), full_page=True)

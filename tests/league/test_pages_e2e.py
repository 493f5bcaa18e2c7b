"""The season pages in a real browser: a director creates a season through the form, and on a
phone the season's leaderboard comes first with every name on one line."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from draw.services import event_status_set
from league.models import Season
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e.accounts import sign_in_director
from tests.league.builders import club_night, play, seat
from tournaments.models import Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ["Margaret Vanderbilt-Smythe", "Bartholomew Okonkwo-Reyes", "Anne Li",
         "Christopher Delacroix", "Jo Park", "Maximilian Featherstonehaugh", "Sam Ode",
         "Evangelina Montgomery"]


def test_a_director_creates_a_season_and_a_phone_reads_its_leaderboard(
        live_server, desktop: Page, phone: Page, output_dir: Path) -> None:
    club = ClubFactory(name="Harbour Pinochle", slug="harbour")
    players = [PlayerFactory(club=club, name=name) for name in NAMES]
    for week, date in enumerate((datetime.date(2026, 3, 5), datetime.date(2026, 3, 12))):
        event = club_night(club, date=date)
        line_ups = [players[:4], players[4:]] if week == 0 else [players[::2], players[1::2]]
        for table, line_up in enumerate(line_ups, start=1):
            play(seat(event, line_up, table_number=table), ns_wins=table == 1)
        Round.objects.filter(event=event).update(status="closed")
        event_status_set(event=event, status="finished")
    base = live_server.url

    page = desktop
    sign_in_director(page, base, club, "harbour-director")
    page.goto(f"{base}/clubs/harbour/seasons/")
    page.click("#new-season")
    page.fill("#id_name", "Spring 2026")
    page.fill("#id_starts_on", "2026-03-01")
    page.fill("#id_ends_on", "2026-02-01")
    page.select_option("#id_counting", "best_n")
    page.fill("#id_best_n", "1")
    page.click("button:has-text('Create season')")
    expect(page.locator(".has-error")).to_contain_text("ends before it starts")
    page.fill("#id_ends_on", "2026-06-30")
    page.click("button:has-text('Create season')")
    expect(page).to_have_url(re.compile(r"/clubs/harbour/seasons/\d+/$"))
    season = Season.objects.get(club=club)
    assert (season.counting, season.best_n) == ("best_n", 1)

    phone.goto(f"{base}/clubs/harbour/seasons/{season.pk}/")
    board = phone.locator("#season-leaderboard")
    expect(board.locator("tbody tr")).to_have_count(8)
    facts = phone.locator(".season-facts")
    assert board.bounding_box()["y"] < facts.bounding_box()["y"]  # the table first
    lines = phone.eval_on_selector_all(
        "#season-leaderboard td.name",
        "cells => cells.map(c => { const r = document.createRange(); r.selectNodeContents(c);"
        " return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; })")
    assert lines == [1] * 8, lines
    phone.screenshot(path=str(output_dir / "season-leaderboard-phone.png"), full_page=True)

    phone.goto(f"{base}/clubs/harbour/")
    expect(phone.locator("#season")).to_contain_text("Spring 2026")
    phone.goto(f"{base}/clubs/harbour/ratings/")
    expect(phone.locator("#club-ratings tbody tr")).to_have_count(8)
    phone.screenshot(path=str(output_dir / "club-ratings-phone.png"), full_page=True)

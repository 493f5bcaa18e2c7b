"""Check-in in a real browser: a player on a phone (390 px) opens the self check-in page from
the poster's address, finds their name as they type and taps "I'm here"; the director's check-in
page (1280 px) shows the arrival without a reload and approves it; a pasted list is previewed
and checked in; the games page confirms finished games from signed sheets."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from draw.services import round_create
from scoring.models import Game
from scoring.services import hand_submit
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e.accounts import sign_in_director
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Entry
from tournaments.services import entry_check_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLOW = 20_000
NAMES = ["Ann Smith", "Bob Jones", "Cleo Park", "Dev Patel", "Eve Stone", "Finn Gray",
         "Gus Hale", "Hana Kim", "Ivy Lund", "Jack King", "Kai Moss", "Lea Nash", "Zoë O'Neil"]


def test_self_check_in_on_a_phone_and_the_director_approves_it_live(
    live_server, browser: Browser, phone: Page, output_dir: Path,
) -> None:
    club = ClubFactory(name="Harbour Pinochle", slug="harbour")
    event = progressive_event(0, club=club, deals_per_round=1)
    players = {name: PlayerFactory(club=club, name=name) for name in NAMES}
    for name in NAMES[:7]:
        entry_check_in(event=event, player=players[name])
    base = live_server.url
    desk_context = browser.new_context(viewport={"width": 1280, "height": 900})
    desk = desk_context.new_page()
    desk.set_default_timeout(15_000)
    sign_in_director(desk, base, club, "harbour-director")
    desk.goto(f"{base}/events/{event.pk}/checkin/")
    expect(desk.locator("#arrivals-none")).to_be_visible()
    expect(desk.locator("#checked-in-count")).to_have_text("7 here")

    # --- the player's phone: type the name, tap "I'm here" ---------------------------------------
    phone.goto(f"{base}/events/{event.pk}/here/")
    phone.locator("#self-name").press_sequentially("zoe o", delay=40)
    row = phone.locator("#self-list li", has_text="Zoë O'Neil")
    expect(row).to_be_visible(timeout=SLOW)
    button = row.get_by_role("button", name="I'm here")
    box = button.bounding_box()
    assert box is not None and box["height"] >= 48 and box["width"] >= 120  # a big target
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing runs off the phone's screen
    phone.screenshot(path=str(output_dir / "self-checkin-search-390.png"), full_page=True)
    button.click()
    expect(phone.locator(".messages")).to_contain_text("the director will confirm you")
    phone.screenshot(path=str(output_dir / "self-checkin-done-390.png"), full_page=True)

    # --- the director's page shows the arrival without a reload and approves it ------------------
    desk.evaluate("window.stillTheSamePage = true")
    waiting = desk.locator("#arrivals-waiting li", has_text="Zoë O'Neil")
    expect(waiting).to_be_visible(timeout=SLOW)
    assert desk.evaluate("window.stillTheSamePage") is True
    desk.screenshot(path=str(output_dir / "checkin-director-arrival-1280.png"), full_page=True)
    waiting.get_by_role("button", name="Approve").click()
    expect(desk.locator(".messages")).to_contain_text("Checked in: Zoë O'Neil.")
    assert event.entries.filter(player=players["Zoë O'Neil"], status=Entry.Status.ACTIVE).exists()
    expect(desk.locator("#checked-in-count")).to_have_text("8 here")

    # --- a pasted list: previewed, then checked in ------------------------------------------------
    desk.fill("#paste-names", "hana kim, ivy\njack king\nNew Face")
    desk.click("#paste-match")
    expect(desk.locator("#preview-matched li")).to_have_count(3)
    expect(desk.locator("#preview-unknown")).to_contain_text("New Face")
    desk.screenshot(path=str(output_dir / "checkin-paste-preview-1280.png"), full_page=True)
    desk.click("#preview-confirm")
    expect(desk.locator(".messages")).to_contain_text("Checked in (3)")
    expect(desk.locator("#checked-in-count")).to_have_text("11 here")
    # 11 here in tables of four: the page warns that 3 will wait as alternates
    expect(desk.locator("#alternates-ahead")).to_contain_text("3 of them will wait as alternates")
    desk.screenshot(path=str(output_dir / "checkin-director-1280.png"), full_page=True)
    # a check-in that needs no approval (self check-in open): the headline follows, no reload
    desk.evaluate("window.stillTheSamePage = true")
    entry_check_in(event=event, player=players["Kai Moss"])
    expect(desk.locator("#checked-in-count")).to_have_text("12 here", timeout=SLOW)
    assert desk.evaluate("window.stillTheSamePage") is True
    desk_context.close()


def test_the_games_page_confirms_signed_sheets_in_bulk(
    live_server, browser: Browser, output_dir: Path,
) -> None:
    club = ClubFactory(name="Desk Pinochle", slug="desk-club")
    event = progressive_event(12, club=club, deals_per_round=1)
    first = round_create(event=event)
    for number in (1, 3):
        hand_submit(game=Game.objects.get(table__round=first, table__number=number), number=1,
                    values=values())
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    desk = context.new_page()
    desk.set_default_timeout(15_000)
    sign_in_director(desk, live_server.url, club, "desk-director")
    desk.goto(f"{live_server.url}/events/{event.pk}/games/")
    desk.get_by_label("Select all finished (2)").check()
    expect(desk.locator("input[name=game]:checked")).to_have_count(2)
    desk.screenshot(path=str(output_dir / "games-desk-confirm-1280.png"), full_page=True)
    desk.click("#desk-confirm-submit")
    expect(desk.locator("#desk-results li")).to_have_count(2)
    expect(desk.locator("#desk-results")).to_contain_text("Round 1, table 1: confirmed")
    desk.screenshot(path=str(output_dir / "games-desk-confirmed-1280.png"), full_page=True)
    assert set(Game.objects.filter(table__round=first).values_list("status", flat=True)) == {
        "confirmed", "playing"}
    context.close()

"""A director's whole evening in a real browser: create a night, check in 13 players, seat and
start round 1, score a table from its entry link on a phone (one hand rejected on the way),
finish and confirm the game, close the round, and read the standings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rules_engine import get_ruleset, parse_hand, score_hand
from scoring.models import Hand
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e.accounts import sign_in_director
from tests.e2e.entry_form import enter_hand
from tournaments.models import Bye, Event, Seat

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HANDS = [
    {"bidder": "N", "bid": "51", "trump": "H", "meld_NS": "24", "meld_EW": "32", "counters_NS": "27"},
    {"bidder": "E", "bid": "60", "trump": "S", "meld_NS": "20", "meld_EW": "22", "counters_NS": "30"},
]


def test_a_club_night_from_check_in_to_standings(
    live_server, desktop: Page, phone: Page, output_dir: Path
) -> None:
    club = ClubFactory(name="Lakeside Pinochle", slug="lakeside")
    players = [PlayerFactory(club=club, name=f"Player {chr(65 + i)}") for i in range(14)]
    base = live_server.url

    # --- the director logs in and creates tonight's club night -----------------------------
    page = desktop
    sign_in_director(page, base, club, "dana")
    page.goto(f"{base}/clubs/lakeside/")
    page.click("text=New club night")
    page.fill("#id_name", "Thursday night")
    page.fill("#id_rounds_planned", "3")
    page.fill("#id_deals_per_round", "2")
    page.click("button:has-text('Create')")
    expect(page).to_have_url(re.compile(r"/events/\d+/checkin/$"))
    event = Event.objects.get(name="Thursday night")

    # --- check in 13 of the 14 players -----------------------------------------------------
    for player in players[:13]:
        page.locator(f"input[name='players'][value='{player.pk}']").check()
    page.click("#checkin-submit")
    expect(page.locator("#checked-in-count")).to_have_text("13 here")

    # --- seat and start round 1 --------------------------------------------------------------
    page.goto(f"{base}/events/{event.pk}/")
    page.click("#seat-round")
    expect(page.locator(".table-card")).to_have_count(3)
    expect(page.locator("text=Sitting out")).to_be_visible()
    page.click("#start-round")
    expect(page.locator("h1 .badge")).to_have_text("Playing")
    entry_url = page.locator(".table-card[data-table='1'] a.entry-link").get_attribute("href")
    assert entry_url

    # --- table 1 scores on a phone -------------------------------------------------------------
    phone.goto(f"{base}{entry_url}")
    phone.locator("form[action$='/scorer/'] button[value='N']").click()
    # A rejected hand: the bid is off the ladder and the meld cannot be made.
    enter_hand(phone, {**HANDS[0], "bid": "13", "meld_NS": "13"})
    phone.click("[data-save]")
    expect(phone.locator("[data-error-for='bid']")).not_to_be_empty()
    expect(phone.locator("[data-error-for='meld_NS']")).not_to_be_empty()
    phone.screenshot(path=str(output_dir / "entry-rejected.png"), full_page=True)
    assert Hand.objects.filter(game__table__round__event=event).count() == 0

    for number, values in enumerate(HANDS, start=1):
        enter_hand(phone, values)
        expect(phone.locator("#id_counters_EW")).to_have_value(str(50 - int(values["counters_NS"])))
        phone.click("[data-save]")
        expect(phone.locator(".progress")).to_contain_text(f"{number} deal")
    phone.screenshot(path=str(output_dir / "entry-page.png"), full_page=True)
    expect(phone.locator(".game-over")).to_be_visible()
    phone.locator("form[action$='/confirm/'] button[value='E']").click()
    expect(phone.locator(".game-over")).to_contain_text("Confirmed")

    # --- the director closes the round -----------------------------------------------------------
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{base}/events/{event.pk}/rounds/1/")
    page.click("#close-round")
    # Tables 2 and 3 have not played: the page lists them and asks before closing.
    expect(page.locator("#close-unfinished")).to_contain_text("Table 2: playing")
    page.screenshot(path=str(output_dir / "close-unfinished.png"), full_page=True)
    page.click("#close-anyway")
    expect(page.locator("h1 .badge")).to_have_text("Closed")

    # --- standings: every number recomputed from the entered hands ----------------------------
    ruleset = get_ruleset("pagat_double_deck")
    totals = {"NS": 0, "EW": 0}
    dealer = "N"
    for values in HANDS:
        hand = parse_hand({
            "dealer": dealer, "bidder": values["bidder"], "bid": int(values["bid"]),
            "trump": values["trump"],
            "meld": {"NS": int(values["meld_NS"]), "EW": int(values["meld_EW"])},
            "counters": {"NS": int(values["counters_NS"]), "EW": 50 - int(values["counters_NS"])},
            "outcome": "played",
        }, ruleset)
        for side, points in score_hand(hand, ruleset).points.items():
            totals[side] += points
    table_seats = {s.position: s.entry.player.name
                   for s in Seat.objects.filter(table__round__event=event, table__number=1)
                   .select_related("entry__player")}
    expected = {table_seats["N"]: totals["NS"], table_seats["S"]: totals["NS"],
                table_seats["E"]: totals["EW"], table_seats["W"]: totals["EW"]}
    bye_name = Bye.objects.get(round__event=event).entry.player.name
    expected[bye_name] = max(totals.values())  # a bye scores the average winning score

    page.goto(f"{base}/events/{event.pk}/standings/")
    for name, points in expected.items():
        row = page.locator("table.standings tbody tr", has_text=name)
        expect(row.locator("td.points")).to_have_text(str(points), timeout=20_000)
    page.screenshot(path=str(output_dir / "standings-page.png"), full_page=True)
    phone.goto(f"{base}/events/{event.pk}/standings/")
    phone.screenshot(path=str(output_dir / "standings-phone.png"), full_page=True)

"""A small progressive tournament through the pages in a real browser: the director creates it
(cut to the final table of four), checks in eight players and seats the first game; each table's
phone scores from its day-long table card (the same QR link all day), confirms, and reads where
its players go next; after two qualifying games the final table seats itself with the top four,
then the director finishes the event and the results sheet names the champion."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from scoring.models import Game
from standings.models import StandingsSnapshot
from standings.selectors import qualifying_order
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e.accounts import sign_in_director
from tests.e2e.entry_form import enter_hand
from tournaments.models import Event, Seat, TableCard

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# One deal per game; the bidder varies so that different sides win.
HANDS = [
    {"bidder": "N", "bid": "51", "trump": "H", "meld_NS": "24", "meld_EW": "32", "counters_NS": "27"},
    {"bidder": "E", "bid": "50", "trump": "S", "meld_NS": "20", "meld_EW": "30", "counters_NS": "10"},
    {"bidder": "S", "bid": "52", "trump": "D", "meld_NS": "30", "meld_EW": "20", "counters_NS": "35"},
]
SEATS = {"N": "North", "E": "East", "S": "South", "W": "West"}
# A save is a request and a page load: on a busy two-core machine they can take seconds.
SLOW = 30_000


def _play_table(phone: Page, base: str, card: str, hand: dict[str, str]) -> None:
    phone.goto(f"{base}/c/{card}/")
    expect(phone).to_have_url(re.compile(r"/t/[^/]+/$"), timeout=SLOW)
    phone.locator("form[action$='/scorer/'] button[value='N']").click()
    enter_hand(phone, hand)
    phone.click("[data-save]")
    expect(phone.locator(".game-over")).to_be_visible(timeout=SLOW)
    phone.locator("form[action$='/confirm/'] button[value='E']").click()
    expect(phone.locator(".game-over")).to_contain_text("Confirmed", timeout=SLOW)


def test_a_progressive_tournament_through_the_pages(
    live_server, desktop: Page, phone: Page, output_dir: Path
) -> None:
    club = ClubFactory(name="Valley Pinochle", slug="valley")
    players = [PlayerFactory(club=club, name=f"Player {chr(65 + i)}") for i in range(8)]
    base = live_server.url

    page = desktop
    sign_in_director(page, base, club, "tess")

    # --- the tournament: two qualifying games of one deal, cut to the final table ------------
    page.goto(f"{base}/clubs/valley/")
    page.click("text=New progressive tournament")
    page.fill("#id_name", "Winter Progressive")
    page.fill("#id_rounds_planned", "2")
    page.fill("#id_deals_per_round", "1")
    page.select_option("#id_cut", "4")
    page.select_option("#id_final_rule", "single_game")
    page.click("button:has-text('Create')")
    expect(page).to_have_url(re.compile(r"/events/\d+/checkin/$"), timeout=SLOW)
    event = Event.objects.get(name="Winter Progressive")
    assert (event.format, event.format_settings["cut"], event.rounds_planned) == (
        "individual_progressive", 4, 2)

    for player in players:
        page.locator(f"input[name='players'][value='{player.pk}']").check()
    page.click("#checkin-submit")
    expect(page.locator("#checked-in-count")).to_have_text("8 here", timeout=SLOW)

    page.goto(f"{base}/events/{event.pk}/")
    expect(page.locator("#event-rules")).to_contain_text("top 4")
    page.click("#seat-round")
    expect(page.locator(".table-card")).to_have_count(2, timeout=SLOW)
    page.goto(f"{base}/events/{event.pk}/table-cards/")
    cards = dict(TableCard.objects.filter(event=event).values_list("number", "token"))
    assert sorted(cards) == [1, 2]

    # --- two qualifying games and the final, scored from the same two cards ------------------
    for number, hands in ((1, HANDS[:2]), (2, HANDS[1:3]), (3, HANDS[:1])):
        tables = sorted(event.rounds.get(number=number).tables.values_list("number", flat=True))
        for table, hand in zip(tables, hands, strict=False):
            _play_table(phone, base, cards[table], hand)
        # the last phone says where each of its players goes next
        nxt = event.rounds.filter(number=number + 1).first()
        if nxt is not None:
            block = phone.locator("#where-next")
            expect(block).to_contain_text(f"game {number + 1}", timeout=SLOW)
            for seat in Seat.objects.filter(round=nxt).select_related("entry__player", "table"):
                if f"{seat.entry.player.name}:" in block.inner_text():  # one of this table's
                    expected = (f"table {seat.table.number}, {SEATS[seat.position]}"
                                if nxt.stage == "qualifying" else SEATS[seat.position])
                    expect(block).to_contain_text(expected)
            phone.screenshot(path=str(output_dir / f"progressive-where-next-{number}.png"),
                             full_page=True)
        if number == 2:
            final = event.rounds.get(number=3)
            assert final.stage == "final" and final.tables.count() == 1
            top4 = [entry for entry, _ in qualifying_order(event)[:4]]
            assert set(final.tables.get().seats.values_list("entry_id", flat=True)) == set(top4)
            page.goto(f"{base}/events/{event.pk}/director/")
            expect(page.locator("#count-playing")).to_have_text("1")
            page.screenshot(path=str(output_dir / "progressive-director.png"), full_page=True)
            page.goto(f"{base}/events/{event.pk}/wall/movement/")
            expect(page.locator("body")).to_contain_text("Final")
            page.screenshot(path=str(output_dir / "progressive-wall-movement.png"))

    # --- the director finishes; the results sheet names the champion --------------------------
    page.goto(f"{base}/events/{event.pk}/")
    page.click("button:has-text('Finish the event')")
    # the finish page shows the placings it will write, then writes them when confirmed
    expect(page.locator("#finish-placings")).to_be_visible(timeout=SLOW)
    page.screenshot(path=str(output_dir / "progressive-finish-preview.png"), full_page=True)
    page.click("#confirm-finish")
    expect(page.locator("body")).to_contain_text("Finished", timeout=SLOW)
    event.refresh_from_db()
    assert event.status == "finished"
    game = Game.objects.get(table__round__event=event, table__round__number=3)
    side = game.winner or game.cut_winner
    winners = {s.entry_id for s in game.table.seats.all() if s.position in side}
    placements = StandingsSnapshot.objects.get(event=event).placements
    assert {placements[0]["entry_id"], placements[1]["entry_id"]} == winners
    page.goto(f"{base}/events/{event.pk}/results/")
    expect(page.locator("body")).to_contain_text(placements[0]["name"])
    page.screenshot(path=str(output_dir / "progressive-results.png"), full_page=True)

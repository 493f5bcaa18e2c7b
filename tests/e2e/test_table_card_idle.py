"""The day card's page while its table has no game: it does not reload on a timer (a reader is
never interrupted, and axe's meta-refresh rule holds), yet it opens the table's score entry by
itself once a game is seated there (it asks the card's address again when it is shown)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from draw.cards import table_cards_ensure
from draw.services import round_create
from tests.tournaments.factories import progressive_event

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_idle_card_opens_the_table_once_a_game_is_seated(live_server, phone: Page) -> None:
    event = progressive_event(8)
    card = table_cards_ensure(event=event, count=2)[0]
    phone.goto(f"{live_server.url}/c/{card.token}/")
    expect(phone.locator("#table-card-idle")).to_contain_text("not seated yet")
    assert phone.locator("head meta[http-equiv='refresh']").count() == 0  # only in <noscript>
    phone.evaluate("window.__stayed = true")
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    phone.wait_for_timeout(500)
    assert phone.evaluate("window.__stayed === true"), "the idle page reloaded with nothing new"

    table = round_create(event=event).tables.get(number=1)
    phone.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    expect(phone).to_have_url(re.compile(rf"/t/{re.escape(table.token)}/$"), timeout=15_000)

"""The table's phone without a network, in a real Chromium at phone size: hands saved while the
Wi-Fi is gone stay on the phone (listed, with the next hand's number counting them), survive a
reload served by the service worker, and are stored once each, in order, when the network is
back; a queued hand another phone stored first stops the queue and keeps its values; a save
redraws the page in place instead of loading it again."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from scoring import services
from scoring.models import HandRevision
from tests.e2e.entry_form import enter_hand
from tests.scoring.factories import seated_table, values

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLOW = 30_000  # a retry waits for its turn, and the machine is shared
QUEUED = "Saved on this phone, not yet sent"
HANDS = [
    {"bidder": "N", "bid": "51", "trump": "H", "meld_NS": "24", "meld_EW": "32", "counters_NS": "27"},
    {"bidder": "E", "bid": "60", "trump": "S", "meld_NS": "20", "meld_EW": "22", "counters_NS": "30"},
]


def _open(phone: Page, base: str, token: str) -> None:
    """Open the table's page and wait until the service worker keeps a copy of it."""
    phone.goto(f"{base}/t/{token}/")
    expect(phone.get_by_role("heading", name="Hand 1")).to_be_visible()
    expect(phone.locator("html[data-offline-ready]")).to_be_attached(timeout=SLOW)


def _rows(phone: Page) -> list[str]:
    return phone.locator("#table-hands tbody tr").all_inner_texts()


def test_hands_saved_offline_survive_a_reload_and_are_stored_once_in_order(
    live_server, phone: Page, output_dir: Path,
) -> None:
    table = seated_table()
    base = live_server.url
    _open(phone, base, table.token)
    context = phone.context

    context.set_offline(True)
    queue = phone.locator("#entry-queue")
    for number, hand in enumerate(HANDS, start=1):
        expect(phone.get_by_role("heading", name=f"Hand {number}")).to_be_visible()
        enter_hand(phone, hand)
        phone.click("[data-save]")
        expect(queue.locator("h2")).to_have_text(f"{QUEUED} ({number})")
    # the form moved on to hand 3, dealt by the next seat (N dealt 1, E dealt 2)
    expect(phone.get_by_role("heading", name="Hand 3")).to_be_visible()
    expect(phone.locator("input[name=dealer][value=S]")).to_be_checked()
    expect(queue.locator("li")).to_have_count(2)
    expect(queue.locator("li").nth(0)).to_contain_text("Hand 1: Dealer N · N bid 51 in ♥")
    expect(queue.locator("li").nth(1)).to_contain_text("Hand 2: Dealer E · E bid 60 in ♠")
    assert HandRevision.objects.count() == 0
    phone.screenshot(path=str(output_dir / "offline-queued.png"), full_page=True)

    # still offline: the page comes from the phone's copy, and the queue is still there
    phone.reload()
    expect(phone.locator("[data-offline-note]")).to_contain_text("copy of the page kept on this phone")
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (2)")
    expect(phone.get_by_role("heading", name="Hand 3")).to_be_visible()
    assert HandRevision.objects.count() == 0
    phone.screenshot(path=str(output_dir / "offline-reloaded.png"), full_page=True)

    # the network is back: both hands are sent, in order, and the page shows them
    context.set_offline(False)
    expect(queue).to_be_hidden(timeout=SLOW)
    expect(phone.locator("[data-saved-banner]")).to_have_text("Hands 1 and 2 saved.")
    expect(phone.locator("#table-hands tbody tr")).to_have_count(2)
    expect(phone.locator("[data-offline-note]")).to_be_hidden()
    stored = HandRevision.objects.filter(is_live=True)
    for side in ("NS", "EW"):
        expect(phone.locator(f'[data-total="{side}"]')).to_have_text(
            str(sum(r.points[side] for r in stored)))
    phone.screenshot(path=str(output_dir / "offline-sent.png"), full_page=True)

    revisions = list(HandRevision.objects.select_related("hand").order_by("created_at", "pk"))
    assert [(r.hand.number, r.revision, r.dealer, r.bidder, r.bid, r.trump) for r in revisions] == [
        (1, 1, "N", "N", 51, "H"), (2, 1, "E", "E", 60, "S")]
    assert [(r.meld, r.counters) for r in revisions] == [
        ({"NS": 24, "EW": 32}, {"NS": 27, "EW": 23}), ({"NS": 20, "EW": 22}, {"NS": 30, "EW": 20})]
    assert len({r.idempotency_key for r in revisions}) == 2

    # the page was redrawn with the server's game; the next hand is 3 again after a reload
    phone.reload()
    expect(phone.get_by_role("heading", name="Hand 3")).to_be_visible()
    expect(queue).to_be_hidden()
    assert HandRevision.objects.count() == 2


def test_a_queued_hand_taken_by_another_phone_stops_the_queue_and_keeps_its_values(
    live_server, phone: Page, output_dir: Path,
) -> None:
    table = seated_table()
    base = live_server.url
    _open(phone, base, table.token)

    phone.context.set_offline(True)
    enter_hand(phone, HANDS[0])
    phone.click("[data-save]")
    queue = phone.locator("#entry-queue")
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (1)")
    # meanwhile the partner's phone stores hand 1 with other values
    services.hand_submit(game=table.game, number=1, values=values(dealer="N", bid=55),
                         idempotency_key="partner-phone")

    phone.context.set_offline(False)
    box = phone.locator("[data-conflict-js]")
    expect(box).to_be_visible(timeout=SLOW)
    expect(box).to_contain_text("already been entered")
    expect(box).to_contain_text("N bid 55")
    # the queued hand is still listed with what was typed, and the queue stopped at it
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (1)")
    item = queue.locator("li")
    expect(item).to_contain_text("Hand 1: Dealer N · N bid 51 in ♥ · meld NS 24 / EW 32")
    expect(item).to_contain_text("Not sent")
    # the page shows the stored hand 1 (redrawn in place) and offers hand 2 next
    expect(phone.locator("#table-hands")).to_contain_text("N 55")
    expect(queue.locator("[data-queue-status]")).to_contain_text("Stopped at hand 1")
    phone.screenshot(path=str(output_dir / "offline-conflict.png"), full_page=True)

    # a reload keeps it (the answer too), and nothing was stored twice
    phone.reload()
    expect(queue.locator("li")).to_contain_text("N bid 51")
    expect(box).to_be_visible()
    assert HandRevision.objects.count() == 1
    assert HandRevision.objects.get().bid == 55

    # discarding the copy unblocks the phone: the next hand is 2
    phone.once("dialog", lambda dialog: dialog.accept())
    queue.locator("[data-queue-action=discard]").click()
    expect(queue).to_be_hidden()
    expect(phone.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert HandRevision.objects.count() == 1


def test_a_save_redraws_the_page_in_place(live_server, phone: Page) -> None:
    table = seated_table()
    base = live_server.url
    phone.goto(f"{base}/t/{table.token}/")
    phone.evaluate("window.stillTheSamePage = true")
    navigations: list[str] = []
    phone.on("framenavigated", lambda frame: navigations.append(frame.url))
    first_key = phone.locator("input[name=idempotency_key]").input_value()

    enter_hand(phone, HANDS[0])
    phone.click("[data-save]")
    expect(phone.locator("[data-saved-banner]")).to_have_text("Hand 1 saved.")
    expect(phone.locator("#table-hands tbody tr")).to_have_count(1)
    expect(phone.locator('[data-total="NS"]')).to_have_text("51")
    expect(phone.locator('[data-total="EW"]')).to_have_text("55")
    expect(phone.locator(".progress")).to_contain_text("1 deal played")
    expect(phone.get_by_role("heading", name="Hand 2")).to_be_visible()
    expect(phone.locator("input[name=number]")).to_have_value("2")
    expect(phone.locator("#id_bid")).to_have_value("")
    expect(phone.locator("input[name=dealer][value=E]")).to_be_checked()
    second_key = phone.locator("input[name=idempotency_key]").input_value()
    assert second_key and second_key != first_key

    # a second hand, and the state poll (every 5 s) does not reload the page for our own saves
    enter_hand(phone, HANDS[1])
    phone.click("[data-save]")
    expect(phone.locator("[data-saved-banner]")).to_have_text("Hand 2 saved.")
    expect(phone.locator("#table-hands tbody tr")).to_have_count(2)
    phone.wait_for_timeout(6_000)
    assert phone.evaluate("window.stillTheSamePage") is True
    expect(phone.locator("[data-preview]")).to_have_text("")  # no check of the emptied form
    assert navigations == []
    revisions = HandRevision.objects.select_related("hand").order_by("hand__number")
    assert [(r.hand.number, r.bid, r.idempotency_key) for r in revisions] == [
        (1, 51, first_key), (2, 60, second_key)]


def test_a_queued_hand_the_server_refuses_is_corrected_from_the_queue(live_server, phone: Page) -> None:
    table = seated_table()
    _open(phone, live_server.url, table.token)
    queue = phone.locator("#entry-queue")

    # offline the phone still checks the typing, but a bid off the ladder is queued all the same,
    # then a good hand 2
    phone.context.set_offline(True)
    enter_hand(phone, {**HANDS[0], "bid": "13"})
    expect(phone.locator("#err-bid")).to_have_text("bid 13 is below the opening minimum of 50")
    phone.click("[data-save]")
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (1)")
    enter_hand(phone, HANDS[1])
    phone.click("[data-save]")
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (2)")

    # online: the server refuses hand 1; the queue stops there and hand 2 waits behind it
    phone.context.set_offline(False)
    refused = queue.locator("li").nth(0)
    expect(refused).to_contain_text("Not stored: bid 13 is below the opening minimum", timeout=SLOW)
    expect(queue.locator("[data-queue-status]")).to_contain_text("Stopped at hand 1")
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (2)")
    assert HandRevision.objects.count() == 0

    # "Correct it" puts the hand back in the form with the message next to the bid
    refused.locator("[data-queue-action=edit]").click()
    expect(phone.locator(".form-title")).to_have_text("Correct hand 1 (not sent yet)")
    expect(phone.locator("#err-bid")).to_contain_text("below the opening minimum")
    expect(phone.locator("#id_bid")).to_have_value("13")
    expect(phone.locator("#id_meld_EW")).to_have_value("32")
    phone.fill("#id_bid", "51")
    phone.click("[data-save]")
    expect(queue).to_be_hidden(timeout=SLOW)
    expect(phone.locator("#table-hands tbody tr")).to_have_count(2)
    expect(phone.get_by_role("heading", name="Hand 3")).to_be_visible()
    revisions = HandRevision.objects.select_related("hand").order_by("hand__number")
    assert [(r.hand.number, r.dealer, r.bid) for r in revisions] == [(1, "N", 51), (2, "E", 60)]


def test_a_hand_queued_when_the_page_was_closed_is_sent_when_it_opens_again(
    live_server, phone: Page,
) -> None:
    table = seated_table()
    url = f"{live_server.url}/t/{table.token}/"
    _open(phone, live_server.url, table.token)
    context = phone.context
    context.set_offline(True)
    enter_hand(phone, HANDS[0])
    phone.click("[data-save]")
    expect(phone.locator("#entry-queue h2")).to_have_text(f"{QUEUED} (1)")
    phone.close()

    context.set_offline(False)
    assert HandRevision.objects.count() == 0
    page = context.new_page()
    page.goto(url)
    expect(page.locator("[data-saved-banner]")).to_have_text("Hand 1 saved.", timeout=SLOW)
    expect(page.locator("#table-hands tbody tr")).to_have_count(1)
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    revision = HandRevision.objects.get()
    assert (revision.hand.number, revision.bid, revision.meld) == (1, 51, {"NS": 24, "EW": 32})


def test_without_javascript_the_form_still_posts_and_nothing_is_queued(
    live_server, browser: Browser,
) -> None:
    table = seated_table()
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{table.token}/")
        expect(page.locator("#entry-queue")).to_be_hidden()
        enter_hand(page, HANDS[0])
        page.click("[data-save]")
        expect(page.get_by_text("Hand 1 saved")).to_be_visible()  # the server's own page
        expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
        expect(page.locator("#table-hands tbody tr")).to_have_count(1)
    finally:
        context.close()
    revision = HandRevision.objects.get()
    assert (revision.hand.number, revision.bid, revision.counters) == (1, 51, {"NS": 27, "EW": 23})


def test_a_queued_hand_after_time_was_called_says_so_and_blames_no_phone(
    live_server, phone: Page,
) -> None:
    table = seated_table()
    base = live_server.url
    _open(phone, base, table.token)
    services.hand_submit(game=table.game, number=1, values=values(dealer="N"),
                         idempotency_key="first-hand")
    phone.reload()
    phone.context.set_offline(True)
    enter_hand(phone, HANDS[1])
    phone.click("[data-save]")
    queue = phone.locator("#entry-queue")
    expect(queue.locator("h2")).to_have_text(f"{QUEUED} (1)")
    # the director calls time while this phone is off the network
    services.round_call_time(round_=table.round, confirm_empty=True)

    phone.context.set_offline(False)
    status = queue.locator("[data-queue-status]")
    expect(status).to_contain_text("time was called", timeout=SLOW)
    expect(status).not_to_contain_text("another phone")
    assert HandRevision.objects.count() == 1

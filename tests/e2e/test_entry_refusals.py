"""The table's phone when the server says no, in a real Chromium at 390 px: a save refused (the
director closed the round: 403) or a correction refused (the game was confirmed meanwhile: 400)
keeps its message on screen, beside the form, until the player dismisses it; the live check
(computed on the phone) does not wipe it, nothing says "saved" and the preview never says "made". The keeper is
named with one tap before the first hand, also while the network is down."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from clubs.models import Player
from scoring import services
from scoring.models import Game, HandRevision
from tests.e2e.entry_form import enter_hand
from tests.scoring.factories import DEALERS, close_round, seated_table, values
from tournaments.models import Seat

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLOW = 30_000
HAND = {"bidder": "N", "bid": "51", "trump": "H", "meld_NS": "24", "meld_EW": "32",
        "counters_NS": "27"}


def _refusal_stays(phone: Page, words: str) -> None:
    """The refusal is on screen in words, beside the form; nothing looks saved."""
    general = phone.locator('form[data-hand-form] [data-error-for="general"]')
    expect(general).to_be_visible()
    expect(general).to_contain_text(words)
    preview = phone.locator("[data-preview]")
    expect(preview).to_contain_text("Not saved")
    expect(preview).not_to_contain_text("made")
    expect(phone.locator("[data-saved-banner]")).to_be_hidden()
    expect(phone.locator("[role=status]:visible", has_text="saved")).to_have_count(0)


def test_a_save_after_the_round_closed_keeps_its_message_until_dismissed(
    live_server, phone: Page, output_dir: Path,
) -> None:
    table = seated_table()
    phone.goto(f"{live_server.url}/t/{table.token}/")
    expect(phone.get_by_role("heading", name="Hand 1")).to_be_visible()
    enter_hand(phone, HAND)
    expect(phone.locator("[data-preview]")).to_contain_text("made")
    # the save bar is solid and never covers the field being typed in
    bar = phone.locator(".entry-actions")
    assert bar.evaluate("el => getComputedStyle(el).backgroundColor") not in (
        "rgba(0, 0, 0, 0)", "transparent")
    for field in ("#id_bid", "#id_meld_EW", "#id_counters_NS"):
        phone.evaluate("window.scrollTo(0, 0)")
        phone.focus(field)
        phone.wait_for_timeout(300)
        box, top = phone.locator(field).bounding_box(), bar.bounding_box()
        assert box and top and box["y"] + box["height"] <= top["y"], (field, box, top)
    close_round(table)  # meanwhile the director closes the round
    phone.click("[data-save]")
    _refusal_stays(phone, "Round 1 is closed")
    # the live check (computed on the phone) passes what is typed: the server's message stays
    checks: list[str] = []
    phone.on("request", lambda r: checks.append(r.url) if "/check/" in r.url else None)
    phone.fill("#id_bid", "52")
    phone.wait_for_timeout(600)
    assert phone.locator("#err-bid").text_content() == ""
    assert checks == []
    _refusal_stays(phone, "Round 1 is closed")
    expect(phone.locator(".badge[data-game-badge]")).to_have_text("Playing")
    phone.locator('[data-error-for="general"]').scroll_into_view_if_needed()
    phone.screenshot(path=str(output_dir / "entry-refused-closed.png"))
    phone.get_by_role("button", name="Dismiss this message").click()
    expect(phone.locator('form[data-hand-form] [data-error-for="general"]')).to_be_hidden()
    assert HandRevision.objects.count() == 0


def test_a_correction_of_a_game_confirmed_meanwhile_is_refused_in_words(
    live_server, phone: Page, output_dir: Path,
) -> None:
    table = seated_table(deals_per_round=4)  # N keeps score
    for number in range(1, 5):
        services.hand_submit(game=table.game, number=number,
                             values=values(dealer=DEALERS[number - 1]), table_device=True)
    base = live_server.url
    phone.goto(f"{base}/t/{table.token}/")
    expect(phone.locator("a.fix")).to_have_count(4)
    phone.locator("a.fix").nth(1).click()  # correct hand 2
    expect(phone.get_by_role("heading", name="Correct hand 2")).to_be_visible()
    services.game_confirm(game=table.game, position="E")  # the other side confirms meanwhile
    phone.fill("#id_bid", "52")
    phone.fill("#id_meld_NS", "25")
    # the stored counters were filled in: typing one side fills the other
    phone.fill("#id_counters_NS", "30")
    expect(phone.locator("#id_counters_EW")).to_have_value("20")
    phone.fill("#id_counters_NS", "27")
    expect(phone.locator("#id_counters_EW")).to_have_value("23")
    phone.click("[data-save]")
    _refusal_stays(phone, "only a director can change it now")
    phone.fill("#id_bid", "53")
    phone.wait_for_timeout(600)
    _refusal_stays(phone, "Ask the director")
    # the confirmed game offers no Fix, but says to ask the director
    expect(phone.locator("a.fix")).to_have_count(0)
    expect(phone.locator("[data-ask-director]")).to_be_visible()
    phone.locator('[data-error-for="general"]').scroll_into_view_if_needed()
    phone.screenshot(path=str(output_dir / "entry-refused-confirmed.png"))
    phone.locator(".game-over").screenshot(path=str(output_dir / "entry-confirmed-card.png"))
    assert HandRevision.objects.get(hand__number=2, is_live=True).revision == 1


def test_the_keeper_is_named_first_with_one_tap_even_offline(
    live_server, phone: Page, output_dir: Path,
) -> None:
    table = seated_table(keeper="")
    phone.goto(f"{live_server.url}/t/{table.token}/")
    card = phone.locator("[data-keeper]")
    expect(card).to_contain_text("Who keeps score on this phone?")
    expect(phone.locator("form[data-hand-form]")).to_be_hidden()
    # every player's whole name is on its tile at 390 px (long names wrap, never cut)
    Player.objects.filter(pk=Seat.objects.get(table=table, position="W").entry.player_id).update(
        name="Bartholomew Kowalczyk-Henderson")
    phone.reload()
    expect(card.locator("button[value=W]")).to_contain_text("Kowalczyk-Henderson")
    cut = phone.evaluate("""() => [...document.querySelectorAll('[data-keeper-form] .tile-sub')]
        .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.textContent)""")
    assert cut == []
    phone.screenshot(path=str(output_dir / "entry-keeper-ask.png"), full_page=True)
    expect(phone.locator("html[data-offline-ready]")).to_be_attached(timeout=SLOW)

    phone.context.set_offline(True)
    card.locator("button[value=E]").click()
    expect(phone.locator("form[data-hand-form]")).to_be_visible()
    expect(card.locator("[data-keeper-pending]")).to_contain_text("keeps score")
    enter_hand(phone, HAND)
    phone.click("[data-save]")
    expect(phone.locator("#entry-queue li")).to_have_count(2)
    expect(phone.locator("#entry-queue li").first).to_contain_text("Keeper:")
    # a copy of the page opened offline remembers the keeper: the form is offered
    phone.reload()
    expect(phone.locator("form[data-hand-form]")).to_be_visible()
    expect(phone.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert Game.objects.get(pk=table.game.pk).scorer_position == ""

    phone.context.set_offline(False)
    expect(phone.locator("#entry-queue")).to_be_hidden(timeout=SLOW)
    expect(phone.locator("[data-saved-banner]")).to_have_text("Hand 1 saved.")
    game = Game.objects.get(pk=table.game.pk)
    assert game.scorer_position == "E" and game.hands_count == 1
    phone.screenshot(path=str(output_dir / "entry-keeper-sent.png"), full_page=True)

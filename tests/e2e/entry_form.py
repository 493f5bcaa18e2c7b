"""Filling the table phone's hand form in a browser (shared by the browser tests)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def tile(page: Page, name: str, value: str) -> None:
    """Tap a choice tile (outcome, bidder, trump) and check that it took."""
    page.locator(f"label.tile:has(input[name='{name}'][value='{value}'])").click()
    expect(page.locator(f"input[name='{name}'][value='{value}']")).to_be_checked()


def enter_hand(page: Page, values: dict[str, str]) -> None:
    """A played hand: bidder, bid, trump, both sides' meld and NS counters (EW's follow)."""
    tile(page, "outcome", "played")
    tile(page, "bidder", values["bidder"])
    page.fill("#id_bid", values["bid"])
    tile(page, "trump", values["trump"])
    page.fill("#id_meld_NS", values["meld_NS"])
    page.fill("#id_meld_EW", values["meld_EW"])
    page.fill("#id_counters_NS", values["counters_NS"])
    page.locator("#id_counters_NS").blur()

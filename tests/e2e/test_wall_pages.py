"""Every name of a 200-player day reaches the wall within one cycle of pages, and nothing of a
board lies below the screen's edge: the seating and movement walls at 1920×1080 show a
screenful of rows in columns, in type readable from the back of the room, and turn the pages by
themselves; after the cut the seating board shows who plays where and counts the rest in one
line. What is measured: the names shown on each page (read from the screen, not the HTML),
every shown row's box against the viewport, the names' computed type size."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from events import screens
from tests.e2e import walls
from tests.e2e.test_walls import CUT, shot
from tournaments.models import Entry, Round, Seat

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1920, "height": 1080}

# The rows drawn on the screen now (a box of some size), each with its name, and every shown
# element of the board whose box runs past the viewport's bottom or right edge.
SHOWN = """(rows) => {
  const shown = [...document.querySelectorAll(rows)].filter((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).visibility !== "hidden";
  });
  const outside = [...document.querySelectorAll("main *")].filter((el) => {
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && getComputedStyle(el).display !== "none"
      && (box.bottom > innerHeight + 0.5 || box.right > innerWidth + 0.5);
  }).map((el) => el.tagName + "." + el.className + ": " + el.textContent.trim().slice(0, 30));
  return {names: shown.map((el) => el.querySelector(".name").textContent.trim()),
          outside, page: document.querySelector("[data-page-through]").dataset.page,
          pages: document.querySelector("[data-page-through]").dataset.pages};
}"""


@pytest.fixture
def wall(browser: Browser) -> Any:
    context = browser.new_context(viewport=WALL)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def one_cycle(page: Page, rows: str) -> tuple[list[str], int, list[int]]:
    """The names shown over one cycle of pages (each page read once, from page 1), the number
    of pages and the smallest name size on each page; asserts nothing lies outside."""
    pager = page.locator("[data-page-through]")
    expect(pager).to_have_attribute("data-page", "1", timeout=30_000)
    seen: list[str] = []
    sizes: list[int] = []
    first = page.evaluate(SHOWN, rows)
    pages = int(first["pages"])
    for number in range(1, pages + 1):
        expect(pager).to_have_attribute("data-page", str(number), timeout=15_000)
        now = page.evaluate(SHOWN, rows)
        assert now["outside"] == [], f"page {number}: {now['outside'][:5]}"
        assert now["names"], f"page {number} shows no row"
        seen += now["names"]
        sizes.append(min(page.evaluate(
            "(s) => [...document.querySelectorAll(s)].filter((el) => el.offsetParent)"
            ".map((el) => parseFloat(getComputedStyle(el).fontSize))", f"{rows} .name")))
        assert page.evaluate(CUT, f"{rows}:not(.off-page) .name") == []
        if number < pages:
            expect(page.locator("[data-wall-page]")).to_have_text(f"page {number} of {pages}")
    return seen, pages, sizes


def test_the_seating_and_movement_walls_of_200_show_every_name_within_one_cycle_of_pages(
    live_server, wall: Page, output_dir: Path, monkeypatch
) -> None:
    monkeypatch.setattr(screens, "WALL_PAGE_SECONDS", 2)
    event = walls.progressive_day(200, cut=8)
    walls.play_round(walls.next_round(event))  # game 2 seated by itself
    everyone = sorted(Entry.objects.filter(event=event).values_list("player__name", flat=True))

    wall.goto(f"{live_server.url}/events/{event.pk}/wall/seating/")
    expect(wall.locator("li.seating-row")).to_have_count(200)
    shot(wall, output_dir, "seating-page-1")
    seen, pages, sizes = one_cycle(wall, "li.seating-row")
    assert sorted(seen) == everyone, "a name is missing from the pages, or shown twice"
    assert 2 <= pages <= 8
    assert min(sizes) >= 36, f"names at {min(sizes)} px"
    shot(wall, output_dir, "seating-page-last")
    # the cycle starts again from the first page
    expect(wall.locator("[data-page-through]")).to_have_attribute("data-page", "1")
    assert wall.evaluate("[document.documentElement.scrollWidth, document.documentElement"
                         ".scrollHeight]") == [WALL["width"], WALL["height"]]

    wall.goto(f"{live_server.url}/events/{event.pk}/wall/movement/")
    expect(wall.locator("li.movement-row")).to_have_count(200)
    seen, pages, sizes = one_cycle(wall, "li.movement-row")
    assert sorted(seen) == everyone
    assert min(sizes) >= 36, f"names at {min(sizes)} px"
    shot(wall, output_dir, "movement-page-1")

    # --- the semi-final: the board shows the 8 who play, the others in one line -----------------
    semi = walls.play_until(event, Round.Stage.SEMIFINAL)
    playing = sorted(Seat.objects.filter(round=semi).values_list("entry__player__name", flat=True))
    assert len(playing) == 8
    wall.goto(f"{live_server.url}/events/{event.pk}/wall/seating/")
    expect(wall.locator("li.seating-row")).to_have_count(8)
    expect(wall.locator("#seating-out")).to_have_text(
        "Everyone else (192 players): not in the semi-final.")
    shown = wall.evaluate(SHOWN, "li.seating-row")
    assert sorted(shown["names"]) == playing and shown["outside"] == []
    assert shown["pages"] == "1"
    expect(wall.locator("[data-wall-page]")).to_be_hidden()
    shot(wall, output_dir, "seating-semi-final")

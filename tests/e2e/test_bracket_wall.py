"""Every bracket on the 1920×1080 wall, whatever its size: a 16-pair double elimination (its
winners', losers' and consolation brackets and the grand final) and a finished split final
(upper and lower brackets, every place) are shown whole within one cycle of the wall's views
(panels, and pages of a panel too big for the screen), in type never under 18 px, and nothing
stays below the screen's edge. What is measured: each match and each place row, whole inside
the viewport on some view; the computed size of every piece of text shown."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from events import views as draw_views
from tests.e2e import walls
from tests.e2e.test_walls import shot
from tournaments.models import Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1920, "height": 1080}

# On the view shown: the matches and place rows whole inside the viewport, the smallest text
# shown, and the elements of the board that are displayed but lie (partly) below the bottom or
# past the right edge of the screen, outside the window that clips them.
VIEW = """() => {
  const inside = (r) => r.width > 0 && r.top >= -0.5 && r.left >= -0.5
    && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5;
  const shown = (el) => el.getClientRects().length > 0;
  const matches = [...document.querySelectorAll(".bracket-match")].filter(shown)
    .filter((el) => inside(el.getBoundingClientRect())).map((el) => el.dataset.match);
  const places = [...document.querySelectorAll(".bracket-places tr")].filter(shown)
    .filter((el) => inside(el.getBoundingClientRect())).map((el) => el.textContent.trim());
  const live = document.getElementById("bracket-live");
  const box = document.querySelector(".bracket-window").getBoundingClientRect();
  let smallest = 1000;
  for (const el of document.querySelectorAll("main *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own || !shown(el)) { continue; }
    const r = el.getBoundingClientRect();
    if (r.bottom <= box.top || r.top >= box.bottom || r.right <= box.left || r.left >= box.right) {
      if (el.closest(".bracket-window")) { continue; }  // paged out of the window for now
    }
    smallest = Math.min(smallest, parseFloat(getComputedStyle(el).fontSize));
  }
  return {matches, places, smallest, view: live.dataset.view, views: live.dataset.views,
          window: [box.bottom, box.right]};
}"""


@pytest.fixture
def wall(browser: Browser) -> Any:
    context = browser.new_context(viewport=WALL)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def every_view(page: Page) -> tuple[set[str], set[str], int, float]:
    """The matches and places whole on screen over one cycle of views, the number of views
    and the smallest text; asserts the window that shows the bracket ends on the screen."""
    live = page.locator("#bracket-live")
    expect(live).to_have_attribute("data-view", "1", timeout=40_000)
    first = page.evaluate(VIEW)
    views = int(first["views"])
    matches: set[str] = set()
    places: set[str] = set()
    smallest = 1000.0
    for number in range(1, views + 1):
        expect(live).to_have_attribute("data-view", str(number), timeout=15_000)
        page.wait_for_timeout(700)  # the slide to the page
        now = page.evaluate(VIEW)
        assert now["window"][0] <= WALL["height"] and now["window"][1] <= WALL["width"]
        matches |= set(now["matches"])
        places |= set(now["places"])
        smallest = min(smallest, now["smallest"])
    assert page.evaluate("[document.documentElement.scrollWidth, document.documentElement"
                         ".scrollHeight]") == [WALL["width"], WALL["height"]]
    return matches, places, views, smallest


def codes(page: Page) -> set[str]:
    return set(page.eval_on_selector_all(".bracket-match", "els => els.map((e) => e.dataset.match)"))


def test_a_16_pair_double_elimination_and_a_finished_split_final_are_whole_on_the_wall(
    live_server, wall: Page, output_dir: Path, monkeypatch
) -> None:
    monkeypatch.setattr(draw_views, "BRACKET_WALL_PAGE_SECONDS", 2)
    event = walls.double_elimination(16)
    wall.goto(f"{live_server.url}/events/{event.pk}/bracket/?wall=1")
    expect(wall.locator("[data-bracket='losers']")).to_have_count(1)
    everything = codes(wall)
    assert len(everything) >= 15 + 14 + 1  # winners', losers', grand final (and consolation)
    shot(wall, output_dir, "bracket-double-16")
    matches, _, views, smallest = every_view(wall)
    assert matches == everything, f"never whole on the wall: {sorted(everything - matches)}"
    assert smallest >= 18, f"text at {smallest} px"
    assert views <= 8

    event = walls.split_final(20, cut=8, lower=8)
    walls.play_out(event)
    wall.goto(f"{live_server.url}/events/{event.pk}/bracket/?wall=1")
    expect(wall.locator(".bracket-part[data-group='lower']").first).to_be_attached()
    everything = codes(wall)
    rows = {t.strip() for t in wall.eval_on_selector_all(
        ".bracket-places tr", "els => els.map((e) => e.textContent)")}
    assert len(rows) >= 16
    shot(wall, output_dir, "bracket-split-finished")
    matches, places, views, smallest = every_view(wall)
    assert matches == everything, f"never whole on the wall: {sorted(everything - matches)}"
    assert places == rows, f"places never whole on the wall: {sorted(rows - places)}"
    assert smallest >= 18, f"text at {smallest} px"


def test_the_standings_page_and_wall_show_the_split_finals_lower_bracket_while_it_runs(
    live_server, wall: Page
) -> None:
    event = walls.split_final(20, cut=8, lower=8)
    walls.play_until(event, Round.Stage.BRACKET)  # both brackets' first matches seated
    wall.goto(f"{live_server.url}/events/{event.pk}/standings/")
    lower = wall.locator("[data-board='bracket-lower']")
    expect(lower.locator(".board-title")).to_have_text("Lower bracket")
    expect(lower.locator("td.rank")).to_have_count(8)
    expect(lower.locator("td.rank").first).to_have_text("9–16")
    expect(wall.locator("[data-board='bracket'] .board-title")).to_have_text("Upper bracket")
    wall.goto(f"{live_server.url}/events/{event.pk}/standings/wall/")
    expect(wall.locator("[data-board='bracket-lower']")).to_have_count(1)
    expect(wall.locator("[data-board='bracket-lower'] .wall-row")).to_have_count(8)

"""The wall screens at 1920×1080, as a room reads them from 5 m: a 200-player progressive day's
standings wall turning its pages with the cut line and, once finished, the podium; the pairs
standings wall and its chart's lines; the bracket filling the screen with lines between its
rounds (and the same page on a phone scrolling inside the bracket only); the seating and
movement walls. What is measured: names' computed type size, no name cut (wider or taller than
its box), the page's own size, the text's contrast against its background (AA)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from standings import views as standings_views
from tests.e2e import walls
from tournaments.models import Event, Round

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WALL = {"width": 1920, "height": 1080}
# Where the lead collects the screenshots of the walls (copied there when it exists).
SHOTS = Path("/work/shots")

# Every element's own text that is cut: wider than its box, or taller (more lines than shown).
CUT = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => el.textContent.trim())"""

SIZES = """(selector) => [...document.querySelectorAll(selector)]
  .map((el) => parseFloat(getComputedStyle(el).fontSize))"""

# WCAG 2 contrast of every visible piece of text against the background it is drawn on:
# 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold). Answers the failures.
CONTRAST = """() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (; el; el = el.parentElement) {
      const c = rgb(getComputedStyle(el).backgroundColor);
      if (c.length >= 3 && (c.length < 4 || c[3] > 0.5)) { return c; }
    }
    return [255, 255, 255];
  };
  const failures = [];
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) { continue; }
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    if (style.visibility === "hidden" || style.display === "none" || !box.width || !box.height
        || box.right < 0 || box.left > innerWidth || box.bottom < 0 || box.top > innerHeight) {
      continue;
    }
    const a = lum(rgb(style.color)), b = lum(background(el));
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && parseInt(style.fontWeight, 10) >= 700);
    if (ratio < (large ? 3 : 4.5)) {
      failures.push(`${el.textContent.trim().slice(0, 40)}: ${ratio.toFixed(2)} at ${size}px`);
    }
  }
  return failures;
}"""


@pytest.fixture
def wall(browser: Browser) -> Any:
    context = browser.new_context(viewport=WALL)
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def shot(page: Page, output_dir: Path, name: str) -> None:
    path = output_dir / f"walls-{name}.png"
    page.screenshot(path=str(path))
    if SHOTS.is_dir():
        shutil.copy(path, SHOTS / path.name)


def fits_the_screen(page: Page) -> None:
    width, height = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert (width, height) == (WALL["width"], WALL["height"]), "the wall scrolls"


def readable(page: Page, names: str, *, smallest: float = 28) -> None:
    sizes = page.evaluate(SIZES, names)
    assert sizes and min(sizes) >= smallest, f"names at {min(sizes or [0])} px"
    assert page.evaluate(CUT, names) == []
    assert page.evaluate(CONTRAST) == []


def test_the_standings_wall_of_200_pages_by_itself_draws_the_cut_and_then_the_podium(
    live_server, wall: Page, output_dir: Path, monkeypatch
) -> None:
    monkeypatch.setattr(standings_views, "WALL_PAGE_SECONDS", 6)
    event = walls.progressive_day(200, cut=8)
    walls.play_until(event, Round.Stage.SEMIFINAL)  # the cut is made: the semi-finals seated
    url = f"{live_server.url}/events/{event.pk}/standings/wall/"

    wall.goto(url)
    live = wall.locator("#standings-live")
    # every player is on the wall (the semi-finalists twice: their table, then qualifying)
    expect(wall.locator(".wall-row")).to_have_count(208)
    note = wall.locator("#wall-page")
    expect(live).to_have_attribute("data-pages", re.compile(r"^\d+$"))
    pages = int(live.get_attribute("data-pages") or 0)
    expect(note).to_have_text(f"page 1 of {pages}")
    assert 3 <= pages <= 12
    # the cut line under the 8th qualifier, on the first page
    board = wall.locator("[data-board='qualifying']")
    expect(board).to_have_attribute("data-cut", "8")
    cut = wall.locator(".wall-cut")
    expect(cut).to_have_count(1)
    expect(cut).to_contain_text("the 8 above go on to the semi-final tables")
    assert cut.bounding_box()["x"] < WALL["width"]  # type: ignore[index]
    fits_the_screen(wall)
    readable(wall, ".wall-row .name")
    shot(wall, output_dir, "standings-cut")
    # it turns by itself, and comes back to the first page
    expect(note).to_have_text(f"page 2 of {pages}", timeout=10_000)
    expect(live).to_have_attribute("data-page", "2")
    wall.wait_for_timeout(800)  # the slide
    shot(wall, output_dir, "standings-page-2")
    # the standings page draws the same cut
    wall.goto(f"{live_server.url}/events/{event.pk}/standings/")
    expect(wall.locator("tr.cut-line")).to_have_count(1)

    # --- finished: the podium, then every place ------------------------------------------------
    walls.play_until(event, Round.Stage.FINAL, finish=True)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    wall.goto(url)
    podium = wall.locator("#wall-podium .podium-place")
    expect(podium).to_have_count(3)
    placements = event.standings.placements
    first = next(p for p in placements if int(p["place"]) == 1)
    expect(wall.locator(".podium-place.place-1 .podium-name")).to_have_text(first["name"])
    expect(wall.locator(".podium-place.place-1 .podium-rank")).to_have_text("1st")
    expect(wall.locator("#wall-round-status")).to_have_text("Final results")
    expect(wall.locator(".wall-row")).to_have_count(200)
    first_name = wall.locator(".podium-place.place-1 .podium-name")
    assert first_name.evaluate("el => parseFloat(getComputedStyle(el).fontSize)") >= 48
    fits_the_screen(wall)
    readable(wall, ".wall-row .name")
    assert wall.evaluate(CUT, ".podium-name") == []
    shot(wall, output_dir, "standings-podium")


def test_the_pairs_standings_wall_and_the_bracket_fill_the_screen_with_names_whole(
    live_server, wall: Page, phone: Page, output_dir: Path
) -> None:
    event = walls.pairs_swiss(16, cut=8)
    first = walls.play_until(event, Round.Stage.BRACKET)
    walls.play_round(first)  # the quarter-finals played: the semi-finals seated

    wall.goto(f"{live_server.url}/events/{event.pk}/standings/wall/")
    expect(wall.locator(".wall-cut")).to_contain_text("the 8 above go on to the playoff")
    legend = wall.locator(".wall-legend li")
    expect(legend).to_have_count(8)
    right = wall.evaluate("""() => Math.max(...[...document.querySelectorAll(
        '.wall-legend li, .wall-chart svg')].map((el) => el.getBoundingClientRect().right))""")
    assert right <= WALL["width"], "the chart's legend runs off the screen"
    fits_the_screen(wall)
    readable(wall, ".wall-row .name")
    assert wall.evaluate(CUT, ".wall-legend .legend-name") == []
    shot(wall, output_dir, "standings-pairs")

    wall.goto(f"{live_server.url}/events/{event.pk}/bracket/?wall=1")
    names = wall.locator(".bracket-side .pair-name")
    expect(names).to_have_count(2 * 4 + 2 * 2 + 2 + 2)  # the rounds, then the third place
    fits_the_screen(wall)
    readable(wall, ".bracket-side a.pair-name")
    # a column per round across the whole width, the first round down most of the height
    columns = wall.locator("[data-bracket='winners'] .bracket-column")
    expect(columns).to_have_count(3)
    last = columns.nth(2).bounding_box()
    first_round = wall.locator("[data-bracket='winners'] .bracket-column").first.bounding_box()
    assert last and first_round
    assert last["x"] + last["width"] > 0.9 * WALL["width"]
    assert first_round["height"] > 0.7 * WALL["height"]
    # a line from each match to the one its winner goes on to: 4 + 2
    expect(wall.locator("[data-bracket='winners'] svg.bracket-lines path")).to_have_count(6)
    expect(wall.locator("svg.bracket-lines path.done")).to_have_count(4)
    shot(wall, output_dir, "bracket")

    # a phone: the bracket scrolls sideways inside its box, the page does not
    phone.goto(f"{live_server.url}/events/{event.pk}/bracket/")
    expect(phone.locator("[data-bracket='winners'] svg.bracket-lines path")).to_have_count(6)
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    scroll = phone.locator("[data-bracket='winners'] .bracket-scroll")
    assert scroll.evaluate("el => el.scrollWidth > el.clientWidth")
    assert phone.evaluate(CUT, ".bracket-side a.pair-name") == []
    shot(phone, output_dir, "bracket-phone")


def test_the_seating_and_movement_walls_of_200_show_every_name_whole(
    live_server, wall: Page, output_dir: Path
) -> None:
    event = walls.progressive_day(200, cut=8)
    walls.play_round(walls.next_round(event))  # game 2 seated by itself
    wall.goto(f"{live_server.url}/events/{event.pk}/wall/movement/")
    expect(wall.locator("li.movement-row")).to_have_count(200)
    expect(wall.locator("h1")).to_have_text("Game 2")
    readable(wall, ".movement-row .name", smallest=20)
    assert wall.evaluate("document.documentElement.scrollWidth") == WALL["width"]
    shot(wall, output_dir, "movement")
    wall.goto(f"{live_server.url}/events/{event.pk}/wall/seating/")
    expect(wall.locator("li.seating-row")).to_have_count(200)
    readable(wall, ".seating-row .name", smallest=20)
    assert wall.evaluate("document.documentElement.scrollWidth") == WALL["width"]
    shot(wall, output_dir, "seating")

"""The seating, movement and bracket walls redraw from a push: the real push process (uvicorn,
``config.asgi``) streams the event's "wall" message to the pages, which redraw in place. Their
polls are slowed to ten minutes, so only the push can redraw them in time."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from draw.services import round_create, round_set_status
from events import screens
from events import views as draw_views
from scoring.services import game_confirm, game_set_scorer, hand_submit
from tests.e2e import walls
from tests.e2e.test_standings_live import in_browser_thread
from tests.e2e.test_standings_push import push_on  # noqa: F401 - the fixture
from tournaments.models import Event, Round, Table

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

# A push reaches a wall within 2 s; a loaded test machine gets some room.
PUSHED_WITHIN_MS = 6_000


@pytest.fixture
def slow_polls(monkeypatch) -> None:
    monkeypatch.setattr(screens, "SEATING_POLL_SECONDS", 600)
    monkeypatch.setattr(screens, "WALL_PUSH_POLL_SECONDS", 600)
    monkeypatch.setattr(draw_views, "BRACKET_POLL_SECONDS", 600)
    monkeypatch.setattr(draw_views, "BRACKET_PUSH_POLL_SECONDS", 600)


def test_the_seating_movement_and_bracket_walls_redraw_from_a_push(
    live_server, servers, push_on, slow_polls  # noqa: F811 - the fixture
) -> None:
    day = walls.progressive_day(16, cut=4)
    first = round_create(event=day)
    bracket = walls.pairs_swiss(4, cut=4, rounds=1)
    bracket_event = Event.objects.get(pk=bracket.pk)
    semis = round_create(event=bracket_event)
    walls.play_round(semis)  # Swiss round 1: the playoff's semi-finals seated by themselves
    playoff = Round.objects.get(event=bracket_event, stage=Round.Stage.BRACKET)

    timings: dict[str, float] = {}

    def scenario(page: Page) -> None:
        context = page.context
        movement = page
        seating = context.new_page()
        board = context.new_page()
        movement.goto(f"{live_server.url}/events/{day.pk}/wall/movement/")
        seating.goto(f"{live_server.url}/events/{day.pk}/wall/seating/")
        board.goto(f"{live_server.url}/events/{bracket.pk}/bracket/?wall=1")
        for wall in (movement.locator("[data-live-wall]"), seating.locator("[data-live-wall]"),
                     board.locator("#bracket-live")):
            expect(wall).to_have_attribute("data-push", "open")
        expect(seating.locator("#seating-status")).to_contain_text("is seated")
        before = {"movement": movement.locator("#movement-board").get_attribute("data-version"),
                  "seating": seating.locator("#seating-board").get_attribute("data-version"),
                  "bracket": board.locator("#bracket-live").get_attribute("data-digest")}

        # the first game starts: both walls of the day say so, without a reload
        started = time.monotonic()
        round_set_status(round_=first, status=Round.Status.PLAYING)
        expect(seating.locator("#seating-status")).to_contain_text("is being played",
                                                                    timeout=PUSHED_WITHIN_MS)
        timings["seating"] = time.monotonic() - started
        expect(seating.locator("[data-live-wall]")).to_have_attribute("data-updated-by", "push")
        expect(movement.locator("#movement-board")).not_to_have_attribute(
            "data-version", before["movement"] or "", timeout=PUSHED_WITHIN_MS)
        timings["movement"] = time.monotonic() - started
        expect(movement.locator("[data-live-wall]")).to_have_attribute("data-updated-by", "push")
        assert seating.locator("#seating-board").get_attribute("data-version") != before["seating"]

        # a semi-final of the playoff is confirmed: its winner goes on in the bracket
        table = Table.objects.filter(round=playoff).order_by("number").first()
        assert table is not None
        game = table.game
        started = time.monotonic()
        game_set_scorer(game=game, position="N")
        hand_submit(game=game, number=1, values=walls.hand_won_by("NS", table.number))
        game.refresh_from_db()
        game_confirm(game=game, position="E")
        live = board.locator("#bracket-live")
        expect(live).not_to_have_attribute("data-digest", before["bracket"] or "",
                                           timeout=PUSHED_WITHIN_MS)
        timings["bracket"] = time.monotonic() - started
        expect(live).to_have_attribute("data-updated-by", "push")
        expect(board.locator(f"[data-match='{table.match}']")).to_have_attribute(
            "data-status", "finished", timeout=PUSHED_WITHIN_MS)

    in_browser_thread(scenario)
    print("redrawn after", {k: round(v, 2) for k, v in timings.items()})  # noqa: T201

"""The standings on a 390-pixel phone: every figure of the table (rank, points, games, wins,
losses) is whole, never cut by the screen's edge or its cell, however long the names are and
however big the totals grow (a twelve-deal club night reaches four-digit points). What is
measured: each shown figure cell's own scroll width against its box, and its right edge
against the screen's."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from common.errors import DomainError
from draw.services import round_set_status
from scoring.services import game_confirm, game_set_scorer, hand_submit
from tests.e2e import walls
from tests.e2e.test_walls import shot
from tournaments.models import Event, Round
from tournaments.services import entry_check_in, event_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The figure cells shown that are cut: wider than their box, or past the screen's right edge.
CUT_FIGURES = """() => [...document.querySelectorAll("table.standings td.num")]
  .filter((td) => td.getClientRects().length)
  .filter((td) => td.scrollWidth > td.clientWidth || td.getBoundingClientRect().right > innerWidth + 0.5)
  .map((td) => td.textContent.trim())"""


def play_to_the_target(round_: Round) -> None:
    """Every table plays hands until a side reaches the game's target, then confirms."""
    for table in round_.tables.order_by("number"):
        game = table.game
        won_by = "NS" if table.number % 2 else "EW"
        game_set_scorer(game=game, position="N")
        for number in range(1, 100):
            try:
                hand_submit(game=game, number=number, values=walls.hand_won_by(won_by, table.number))
            except DomainError:
                break
        game.refresh_from_db()
        game_confirm(game=game, position="E")
    round_ = Round.objects.get(pk=round_.pk)
    if round_.status != Round.Status.CLOSED:
        round_set_status(round_=round_, status=Round.Status.CLOSED)


def test_the_phone_standings_show_every_figure_whole(live_server, phone: Page,
                                                      output_dir: Path) -> None:
    club = walls.ClubFactory(name="Harbour Pinochle", slug="harbour-night")
    night = event_create(club=club, name="Thursday club night", date=walls.DAY,
                         deals_per_round=None, format=Event.Format.CLUB_NIGHT, rounds_planned=5)
    for player in walls.players(club, 16):
        entry_check_in(event=night, player=player)
    for _ in range(5):
        play_to_the_target(walls.next_round(night))
    phone.goto(f"{live_server.url}/events/{night.pk}/standings/")
    points = phone.locator("table.standings td.points").first
    expect(points).to_be_visible()
    top = int(points.inner_text().split()[0])
    assert top >= 1000, f"the test wants four-digit points, not {top}"
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    shot(phone, output_dir, "standings-phone-club-night")
    assert phone.evaluate(CUT_FIGURES) == []

    day = walls.progressive_day(40, cut=8)
    walls.play_round(walls.next_round(day))
    phone.goto(f"{live_server.url}/events/{day.pk}/standings/")
    expect(phone.locator("table.standings td.points").first).to_be_visible()
    assert phone.evaluate(CUT_FIGURES) == []

    pairs = walls.pairs_swiss(16, cut=8)
    walls.play_round(walls.next_round(pairs))
    phone.goto(f"{live_server.url}/events/{pairs.pk}/standings/")
    expect(phone.locator("table.standings td.points").first).to_be_visible()
    assert phone.evaluate(CUT_FIGURES) == []
    shot(phone, output_dir, "standings-phone-pairs")

"""Where do I sit, in a real browser at phone size: a player types their name on the event page
and reads their table, seat and partner; the phone of a table whose game is confirmed waits
for the next round and, once the director seats it, says where each of its players goes next
without the page being reloaded; the wall's seating board redraws itself for the new round.
Expectations are read from the seats the services wrote."""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from common.rulesets import event_ruleset
from draw.services import round_create, round_set_status
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.scoring.factories import values
from tournaments.models import Bye, Event, Round, Seat
from tournaments.services import entry_check_in, event_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ACROSS = {"N": "S", "S": "N", "E": "W", "W": "E"}
SLOW = 20_000  # the pages poll every few seconds


def _where(round_: Round) -> dict[str, tuple[int, str, str]]:
    """player name -> (table, position, partner's name)."""
    seats = list(Seat.objects.filter(round=round_).select_related("table", "entry__player"))
    by_place = {(s.table.number, s.position): s.entry.player.name for s in seats}
    return {s.entry.player.name: (s.table.number, s.position,
                                  by_place[(s.table.number, ACROSS[s.position])]) for s in seats}


def test_a_player_finds_their_seat_and_the_phone_and_wall_follow_the_next_round(
    live_server, browser: Browser, phone: Page, output_dir: Path,
) -> None:
    club = ClubFactory(name="Harbour Pinochle", slug="harbour")
    event = event_create(club=club, name="Friday night", date=datetime.date(2026, 11, 27),
                         rounds_planned=3, deals_per_round=1)
    names = ["Ann Smith", "Bob Jones", "Cleo Park", "Dev Patel", "Eve Stone", "Finn Gray",
             "Gus Hale", "Hana Kim", "Ivy Lund"]
    for name in names:
        entry_check_in(event=event, player=PlayerFactory(club=club, name=name))
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    base = live_server.url
    seated = _where(first)
    player = sorted(seated)[0]
    table, position, partner = seated[player]

    # --- the player types part of their name on the event page: the answer follows the typing --
    phone.goto(f"{base}/events/{event.pk}/")
    phone.locator("#find-seat-name").press_sequentially(player.split()[0].lower(), delay=40)
    answer = phone.locator("#find-seat-answers li").first
    expect(answer).to_have_text(f"{player} — Round 1: table {table}, seat {position}, "
                                f"partner {partner}", timeout=SLOW)
    assert phone.url.endswith(f"/events/{event.pk}/")  # answered in place
    phone.screenshot(path=str(output_dir / "where-do-i-sit-search.png"), full_page=True)
    # the player sitting out is told so
    (rest,) = Bye.objects.filter(round=first).select_related("entry__player")
    phone.locator("#find-seat-name").fill(rest.entry.player.name)
    expect(phone.locator("#find-seat-answers li").first).to_contain_text(
        "bye: sits this round out", timeout=SLOW)

    # --- the wall's seating board shows round 1 -----------------------------------------------
    wall_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    wall = wall_context.new_page()
    wall.goto(f"{base}/events/{event.pk}/wall/seating/")
    expect(wall.locator("#seating-status")).to_contain_text("Round 1 is being played")
    expect(wall.locator(".seating-row")).to_have_count(len(names))
    wall.evaluate("window.stillTheSamePage = true")

    # --- every game is played and confirmed; the phone of the player's table waits ------------
    for game_table in first.tables.order_by("number"):
        hand_submit(game=game_table.game, number=1, values=values())
        game_confirm(game=game_table.game, position="N")
    token = first.tables.get(number=table).token
    phone.goto(f"{base}/t/{token}/")
    waiting = phone.locator("#where-next")
    expect(waiting).to_contain_text("round 2 is not seated yet")
    expect(phone.locator("#rules-link")).to_be_visible()
    phone.evaluate("window.stillTheSamePage = true")

    # --- the director closes round 1 and seats round 2 ----------------------------------------
    round_set_status(round_=first, status="closed")
    expect(wall.locator("#seating-status")).to_contain_text("round 2 is not seated yet",
                                                            timeout=SLOW)
    second = round_create(event=event)
    going = _where(second)
    expect(phone.locator("#where-next h2")).to_contain_text("Next: round 2", timeout=SLOW)
    block = phone.locator("#where-next")
    for seat in first.tables.get(number=table).seats.select_related("entry__player"):
        name = seat.entry.player.name
        if name in going:
            number, place, mate = going[name]
            expect(block).to_contain_text(f"{name}: table {number}, ")
            expect(block).to_contain_text(f"(seat {place}), partner {mate}")
        else:
            expect(block).to_contain_text(f"{name}: sits out")
    assert phone.evaluate("window.stillTheSamePage") is True  # no reload
    phone.screenshot(path=str(output_dir / "where-do-i-sit-phone-next.png"), full_page=True)

    # --- the wall redrew itself for round 2, without a reload ---------------------------------
    expect(wall.locator("#seating-status")).to_contain_text("Round 2 is seated", timeout=SLOW)
    ids = dict(event.entries.values_list("player__name", "pk"))
    for name, (number, place, mate) in going.items():
        row = wall.locator(f'.seating-row[data-entry="{ids[name]}"]')
        expect(row.locator(".name")).to_have_text(name)
        expect(row.locator(".table")).to_have_text(str(number))
        expect(row.locator(".seat")).to_have_text(place)
        expect(row.locator(".partner")).to_have_text(f"with {mate}")
    assert wall.evaluate("window.stillTheSamePage") is True
    wall.screenshot(path=str(output_dir / "where-do-i-sit-wall.png"), full_page=True)
    wall_context.close()
    assert Event.objects.get(pk=event.pk).rounds.count() == 2

    # --- the phone's "Rules" link: the evening's rules, readable at phone size ----------------
    phone.click("#rules-link")
    expect(phone.locator("h1")).to_have_text("The rules of the evening")
    ruleset = event_ruleset(event)
    expect(phone.locator('#meld-table tr[data-meld="meld.aces"] td')).to_have_text(
        [str(v) for v in ruleset.options["meld.aces"]])
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the rules page scrolls sideways on a phone ({width}px)"
    phone.screenshot(path=str(output_dir / "where-do-i-sit-rules.png"), full_page=True)
    phone.locator("#rules-meld").screenshot(path=str(output_dir / "where-do-i-sit-meld.png"))

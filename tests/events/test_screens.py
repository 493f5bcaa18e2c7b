"""Screens for a big day: the director's screen (every table at a glance, level games' cuts,
the advance hold, re-draw, withdrawals, alternates) and the wall's movement board."""

from __future__ import annotations

import datetime
import re
from typing import TYPE_CHECKING

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from draw.selectors import rounds_total
from draw.services import entry_withdraw, round_create, round_set_status
from events.screens import director_screen
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import member, values
from tournaments.models import Entry, Event, Round, Seat
from tournaments.services import entry_check_in, event_create

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
LEVEL = {"meld": {"NS": 24, "EW": 28}}  # NS bid 51 and made: 24 + 27 = 51, EW 28 + 23 = 51


def _day(players: int, *, slug: str = "npa", is_public: bool = True, **kwargs):
    club, director = club_with_director(slug=slug, is_public=is_public)
    event = event_create(club=club, name="NPA day", date=DAY, deals_per_round=1,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, **kwargs)
    for _ in range(players):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    return event, director


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _classes(tile: str) -> list[str]:
    return tile.split('"')[1].split()


def _tile(html: str, number: int) -> str:
    found = re.search(rf'<li class="dtile[^"]*" id="table-{number}".*?</li>', html, re.S)
    assert found, f"no tile for table {number}"
    return found.group(0)


def test_the_director_screen_shows_every_table_with_its_players_and_state(client) -> None:
    event, director = _day(16)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    tables = list(first.tables.order_by("number"))
    hand_submit(game=tables[0].game, number=1, values=values())
    game_confirm(game=tables[0].game, position="N")
    hand_submit(game=tables[1].game, number=1, values=values())
    client.force_login(director)
    response = client.get(reverse("event-director", args=[event.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="dtile ') == 4
    assert 'id="count-playing">2<' in html
    assert 'id="count-finished">1<' in html
    assert 'id="count-confirmed">1<' in html
    for table in tables:
        tile = _tile(html, table.number)
        seats = {s.position: s.entry.player.name for s in table.seats.select_related("entry__player")}
        assert f"{seats['N']} &amp; {seats['S']}" in tile and f"{seats['E']} &amp; {seats['W']}" in tile
    assert "st-confirmed" in _tile(html, 1) and 'title="deals played of the 1 planned">1/1<' in _tile(html, 1)
    assert "st-finished" in _tile(html, 2) and "to confirm" in _tile(html, 2)
    assert "st-playing" in _tile(html, 3) and ' planned">0/1<' in _tile(html, 3)
    # the unconfirmed list names the finished table, not the ones still playing
    unconfirmed = html.split('id="unconfirmed"')[1].split("</section>")[0]
    assert "Unconfirmed games (1)" in unconfirmed
    assert unconfirmed.count("<tr class=\"game-") == 1
    # it refreshes itself without an inline script
    assert 'data-auto-refresh="25"' in html and "js/screens.js" in html
    assert "<script>" not in html
    # the event page links to it
    detail = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert reverse("event-director", args=[event.pk]) in detail
    assert reverse("event-wall-movement", args=[event.pk]) in detail


def test_a_level_game_gets_a_cut_form_and_the_cut_seats_the_next_game(
    client, django_capture_on_commit_callbacks,
) -> None:
    event, director = _day(8, format_settings={"ties": "table_cut"})
    first = round_create(event=event)
    one, two = first.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        hand_submit(game=one.game, number=1, values=values(**LEVEL))
        game_confirm(game=one.game, position="N")
        hand_submit(game=two.game, number=1, values=values())
        game_confirm(game=two.game, position="N")
    one.game.refresh_from_db()
    assert one.game.winner == "" and one.game.status == Game.Status.CONFIRMED
    assert not event.rounds.filter(number=2).exists()  # waits for the table's cut
    client.force_login(director)
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    # no game is open: the screen shows the last one, its level table with the cut form
    assert "Game 1 of" in _text(html)
    tile = _tile(html, 1)
    assert f'action="{reverse("event-director-cut", args=[event.pk])}"' in tile
    assert 'name="winner" value="NS"' in tile and 'name="winner" value="EW"' in tile
    assert "event-director-cut" not in _tile(html, 2) and "dtile-cut" not in _tile(html, 2)
    assert "1</b> level, awaiting a cut" in html
    assert "was not seated" in html and "enter who won the cut" in html
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("event-director-cut", args=[event.pk]),
                               {"round": "1", "table": "1", "winner": "EW"})
    assert response.status_code == 302
    one.game.refresh_from_db()
    assert one.game.cut_winner == "EW"
    assert event.rounds.filter(number=2).exists()  # the cut let the advance follow
    page = client.get(reverse("event-director", args=[event.pk]))
    assert "Table 1: EW won the cut." in page.content.decode()
    # a cut for a game that was not level is refused with the reason
    response = client.post(reverse("event-director-cut", args=[event.pk]),
                           {"round": "1", "table": "2", "winner": "NS"}, follow=True)
    assert "did not end level" in response.content.decode()


def test_withdrawals_late_arrivals_and_alternates_are_listed(client) -> None:
    event, director = _day(8)
    club = event.club
    first_alt = entry_check_in(event=event, player=PlayerFactory(club=club, name="Alma Alternate"),
                               alternate=True)
    first = round_create(event=event)
    for table in first.tables.all():
        hand_submit(game=table.game, number=1, values=values())
        game_confirm(game=table.game, position="N")
    # on commit callbacks did not run: close and seat game 2 by hand
    round_set_status(round_=first, status="closed")
    late = entry_check_in(event=event, player=PlayerFactory(club=club, name="Lars Late"),
                          alternate=True)
    second = round_create(event=event)
    leaver = Seat.objects.filter(round=second).select_related("entry__player").first().entry
    entry_withdraw(entry=leaver, actor=director)
    assert Seat.objects.filter(round=second, entry=first_alt).exists()  # took the seat
    client.force_login(director)
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    withdrawn = _text(html.split('id="withdrawn"')[1].split("</section>")[0])
    leaver.refresh_from_db()
    assert leaver.status == Entry.Status.LEFT
    assert "Withdrawals (1)" in withdrawn
    assert f"{leaver.player.name} after game {leaver.left_after_round}" in withdrawn
    late_list = _text(html.split('id="late"')[1].split("</section>")[0])
    assert "Lars Late from game 2 · alternate" in late_list
    assert late.joined_round == 2
    waiting = _text(html.split('id="alternates"')[1].split("</section>")[0])
    assert "Alternates waiting (1)" in waiting and "Lars Late" in waiting
    assert "Alma Alternate" not in waiting  # seated in game 2
    assert "Alma Alternate" in _text(html.split('class="ds-tiles"')[1])


def test_hold_and_release_the_automatic_advance(client) -> None:
    event, director = _day(8)
    round_create(event=event)
    client.force_login(director)
    url = reverse("event-director-advance", args=[event.pk])
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert 'id="advance-hold"' in html
    response = client.post(url, {"held": "1"})
    assert response.status_code == 302 and response["Location"] == reverse("event-director",
                                                                            args=[event.pk])
    event.refresh_from_db()
    assert event.advance_held
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert 'id="advance-release"' in html and "Advance held" in html
    assert event.log.filter(action="advance_held").exists()
    client.post(url, {"held": "0"})
    event.refresh_from_db()
    assert not event.advance_held
    assert client.get(url).status_code == 405


def test_redraw_before_hands_and_refused_once_hands_are_entered(client) -> None:
    event, director = _day(8)
    first = round_create(event=event)
    client.force_login(director)
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert 'id="redraw-round"' in html and 'name="reseat" value="1"' in html
    assert 'id="start-round"' in html
    assert 'name="reason" required' in html
    response = client.post(reverse("round-seat", args=[event.pk]),
                           {"reseat": "1", "reason": "a player arrived late"})
    assert response.status_code == 302
    assert event.log.get(action="round_redrawn").details["reason"] == "a player arrived late"
    redrawn = event.rounds.get(number=1)
    assert redrawn.pk != first.pk
    hand_submit(game=redrawn.tables.first().game, number=1, values=values())
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert 'id="redraw-round"' not in html
    assert "Game 1 cannot be re-drawn: hands have been entered." in _text(html)
    # asked anyway (a stale page): refused, and the reason is shown
    response = client.post(reverse("round-seat", args=[event.pk]),
                           {"reseat": "1", "reason": "again"}, follow=True)
    assert "cannot be reseated" in response.content.decode()
    assert event.rounds.get(number=1).pk == redrawn.pk


def test_seat_next_game_when_none_is_open(client) -> None:
    event, director = _day(8)
    client.force_login(director)
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert "Nothing seated yet" in html and 'id="seat-round"' in html
    response = client.post(reverse("round-seat", args=[event.pk]), {"number": "1"})
    assert response.status_code == 302
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert html.count('class="dtile ') == 2 and 'id="seat-round"' not in html


def test_tables_running_long_are_marked(client) -> None:
    event, director = _day(16, format_settings={"game_minutes": 30})
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    Round.objects.filter(pk=first.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=35))
    tables = list(first.tables.order_by("number"))
    hand_submit(game=tables[0].game, number=1, values=values())
    client.force_login(director)
    html = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert "long" not in _classes(_tile(html, 1))  # finished: not running long
    for number in (2, 3, 4):
        tile = _tile(html, number)
        assert "long" in _classes(tile) and "past the 30-minute limit" in tile
    assert "3</b> running long" in html


def test_past_the_median_of_the_finished_tables_is_running_long() -> None:
    event, _ = _day(16)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    started = timezone.now() - datetime.timedelta(minutes=10)
    Round.objects.filter(pk=first.pk).update(started_at=started)
    tables = list(first.tables.order_by("number"))
    for table in tables[:3]:
        hand_submit(game=table.game, number=1, values=values())
    event.refresh_from_db()
    screen = director_screen(event, now=timezone.now() + datetime.timedelta(minutes=5))
    assert screen["median"] == 10
    tiles = {t["number"]: t for t in screen["tiles"]}
    # well past the median: by a quarter and by at least LONG_MARGIN_MINUTES (10 + 5)
    assert tiles[4]["minutes"] == 15 and not tiles[4]["long"]
    screen = director_screen(event, now=timezone.now() + datetime.timedelta(minutes=6))
    tiles = {t["number"]: t for t in screen["tiles"]}
    assert tiles[4]["minutes"] == 16 and tiles[4]["long"]
    assert "median" in tiles[4]["long_reason"]
    assert not any(tiles[n]["long"] for n in (1, 2, 3))
    assert screen["game_minutes"] is None


def test_the_first_quick_tables_do_not_flag_every_other_table_as_running_long() -> None:
    """Early in a game of a big day only the quick tables have finished: no median yet, so no
    table is flagged until half have finished by play (a walkover takes no time and does not
    count)."""
    event, _ = _day(40)  # 10 tables
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    Round.objects.filter(pk=first.pk).update(started_at=timezone.now() - datetime.timedelta(minutes=8))
    tables = list(first.tables.order_by("number"))
    for table in tables[:4]:
        hand_submit(game=table.game, number=1, values=values())
    event.refresh_from_db()
    later = timezone.now() + datetime.timedelta(minutes=12)
    screen = director_screen(event, now=later)
    assert screen["median"] is None
    assert not any(t["long"] for t in screen["tiles"])
    hand_submit(game=tables[4].game, number=1, values=values())
    screen = director_screen(event, now=later)
    assert screen["median"] == 8
    assert all(t["long"] for t in screen["tiles"][5:]) and "median" in screen["tiles"][5]["long_reason"]


def test_the_director_screen_is_for_the_clubs_directors_only(client) -> None:
    event, _ = _day(8)
    round_create(event=event)
    url = reverse("event-director", args=[event.pk])
    assert client.get(url).status_code == 302  # to the login page
    scorer = member(event.club, "scorer", "home-scorer")
    client.force_login(scorer)
    assert client.get(url).status_code == 403
    other_club, other_director = club_with_director(slug="other")
    client.force_login(other_director)
    assert client.get(url).status_code == 403
    assert client.post(reverse("event-director-advance", args=[event.pk]),
                       {"held": "1"}).status_code == 403
    assert client.post(reverse("event-director-cut", args=[event.pk]),
                       {"round": "1", "table": "1", "winner": "NS"}).status_code == 403
    event.refresh_from_db()
    assert not event.advance_held
    private, _ = _day(8, slug="private", is_public=False)
    other_scorer = member(other_club, "scorer", "other-scorer")
    client.force_login(other_scorer)
    assert client.get(reverse("event-director", args=[private.pk])).status_code == 404
    assert client.get(reverse("event-wall-movement", args=[private.pk])).status_code == 404


def test_the_wall_board_lists_every_seated_player_alphabetically(client) -> None:
    event, _ = _day(16, format_settings={"game_minutes": 45})
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    response = client.get(reverse("event-wall-movement", args=[event.pk]))  # anyone, no login
    assert response.status_code == 200
    html = response.content.decode()
    assert '<body class="wall wall-screen">' in html
    rows = re.findall(r'<li class="movement-row[^"]*"><span class="name">([^<]*)</span>'
                      r'<span class="where">(\d+)</span><span class="seat"[^>]*>([NESW])</span>',
                      html)
    seats = Seat.objects.filter(round=first).select_related("entry__player", "table")
    expected = sorted(((s.entry.player.name, str(s.table.number), s.position) for s in seats),
                      key=lambda r: r[0].casefold())
    assert [tuple(r) for r in rows] == expected and len(rows) == 16
    # the countdown: the game's start + 45 minutes, counted down by the page's script
    first.refresh_from_db()
    deadline = int((first.started_at + datetime.timedelta(minutes=45)).timestamp() * 1000)
    assert f'data-deadline="{deadline}"' in html
    # it redraws itself in place when the seating board's version moves (no reload)
    assert "js/screens.js" in html and "js/seating_board.js" in html
    assert "data-auto-refresh" not in html and 'data-region="movement-board"' in html
    version = client.get(reverse("event-wall-seating-version", args=[event.pk])).json()["version"]
    assert f'id="movement-board" data-version="{version}"' in html


def test_the_wall_board_without_a_time_limit_has_no_clock_and_names_the_final(
    client, django_capture_on_commit_callbacks,
) -> None:
    event, _ = _day(8, rounds_planned=1, format_settings={"cut": 4})
    first = round_create(event=event)
    html = client.get(reverse("event-wall-movement", args=[event.pk])).content.decode()
    assert "data-deadline" not in html
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            hand_submit(game=table.game, number=1, values=values())
            game_confirm(game=table.game, position="N")
    html = client.get(reverse("event-wall-movement", args=[event.pk])).content.decode()
    assert "Game 2 · Final" in html
    assert html.count('<span class="where">Final</span>') == 4
    sitting_out = Entry.objects.filter(event=event).count() - 4
    assert sitting_out == 4
    assert html.count('<li class="movement-row') == 4  # only the final table's players


def test_the_director_screen_costs_the_same_queries_for_more_tables(client) -> None:
    counts = []
    for players, slug in ((8, "small"), (32, "big")):
        event, director = _day(players, slug=slug)
        first = round_create(event=event)
        for table in first.tables.all():
            hand_submit(game=table.game, number=1, values=values())
        client.force_login(director)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("event-director", args=[event.pk])).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] and counts[1] <= 24, counts


FIRST = ["Ann", "Bob", "Cora", "Dale", "Edna", "Fritz", "Gail", "Hank", "Ida", "Jake", "Kay",
         "Lou", "Mae", "Ned", "Opal", "Pete"]
LAST = ["Baker", "Olsen", "Schmidt", "Novak"]


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_sixteen_table_day_in_the_browser(live_server, desktop: Page, output_dir) -> None:
    """The director's screen with 16 tables on a laptop, and the wall board's clock."""
    from playwright.sync_api import expect

    club, director = club_with_director(slug="big-day")
    director.set_password("dana-pass-123")
    director.save()
    event = event_create(club=club, name="Saturday progressive", date=DAY, deals_per_round=4,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE,
                         format_settings={"game_minutes": 30, "ties": "table_cut"})
    for first_name in FIRST:
        for last_name in LAST:
            entry_check_in(event=event, player=PlayerFactory(club=club,
                                                             name=f"{first_name} {last_name}"))
    entry_check_in(event=event, player=PlayerFactory(club=club, name="Vera Alternate"),
                   alternate=True)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    Round.objects.filter(pk=first.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=24))
    tables = list(first.tables.order_by("number"))
    level = {"meld": {"NS": 24, "EW": 28}}
    for i, table in enumerate(tables):
        for number in range(1, [4, 4, 2, 3][i % 4] + 1):
            hand_submit(game=table.game, number=number,
                        values=values(dealer="NESW"[(number + 1) % 4], **(level if i == 5 else {})))
        if i % 4 == 0:
            game_confirm(game=table.game, position="N")
    base = live_server.url
    page = desktop
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_login", director.username)
    page.fill("#id_password", "dana-pass-123")
    page.click("button[type=submit]")
    page.goto(f"{base}/events/{event.pk}/director/")
    expect(page.locator(".dtile")).to_have_count(16)
    expect(page.locator("#count-confirmed")).to_have_text("4")
    expect(page.locator("#table-6 .dtile-cut button")).to_have_count(2)
    # all 16 tiles fit on a laptop screen without scrolling sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    page.screenshot(path=str(output_dir / "director-screen-16-tables.png"), full_page=True)

    page.goto(f"{base}/events/{event.pk}/wall/movement/")
    expect(page.locator("li.movement-row")).to_have_count(64)
    expect(page.locator("#game-clock [data-countdown]")).to_have_text(re.compile(r"^[56]:\d\d$"))
    page.screenshot(path=str(output_dir / "wall-movement.png"))
    Round.objects.filter(pk=first.pk).update(
        started_at=timezone.now() - datetime.timedelta(minutes=31))
    page.reload()
    expect(page.locator("#game-clock [data-countdown]")).to_have_text("Time")


def test_seating_from_the_director_screen_stays_there_and_the_switch_goes_after_the_last_game(
        client) -> None:
    event, director = _day(8, rounds_planned=2, format_settings={"cut": 0})
    assert rounds_total(event) == 2
    client.force_login(director)
    url = reverse("event-director", args=[event.pk])
    response = client.post(reverse("round-seat", args=[event.pk]),
                           {"number": "1", "from": "director"})
    assert response.status_code == 302 and response["Location"] == url
    html = client.get(url).content.decode()
    assert "Game 1 is seated" in html and 'id="advance-hold"' in html
    Event.objects.filter(pk=event.pk).update(advance_held=True)  # the director seats game 2
    first = event.rounds.get(number=1)
    round_set_status(round_=first, status="playing")
    for table in first.tables.all():
        hand_submit(game=table.game, number=1, values=values())
    round_set_status(round_=first, status="closed", close_unfinished=True)
    response = client.post(reverse("round-seat", args=[event.pk]),
                           {"number": "2", "from": "director"})
    assert response["Location"] == url
    html = client.get(url).content.decode()
    assert "Game 2 is seated" in html
    # game 2 of 2 is the last: nothing is left for the automatic advance to hold
    assert 'id="advance-hold"' not in html and 'id="advance-release"' not in html
    assert 'id="advance-form"' not in html
    # asked from the event page, the director still lands on the tables
    assert client.post(reverse("round-seat", args=[event.pk]), {"number": "3"}).status_code == 302

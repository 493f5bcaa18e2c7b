"""Where do I sit: the wall's seating board, the event page's name search and the seating API,
for a club night (a bye), a progressive day (an alternate), a Swiss pair event (a bye pair),
a single-elimination bracket (a pair waiting for its match, then a pair knocked out) and a
private club's event (404 for outsiders on every path). Every expectation is read from the
seats, byes and rounds the services wrote, never written down by hand."""

from __future__ import annotations

import datetime
import html as html_lib
import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from draw.services import round_create, round_set_status
from events.where import seating, seating_version
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import ClubFactory, PlayerFactory, club_with_director
from tests.scoring.factories import member, values
from tests.tournaments.factories import event_with_players, progressive_event
from tournaments.models import Bye, Entry, Event, Round, Seat, Table
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)
ACROSS = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _text(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def _board(client, event: Event) -> str:
    response = client.get(reverse("event-wall-seating", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _row(html: str, entry_id: int) -> str:
    found = re.search(rf'<li class="seating-row [^"]*" data-entry="{entry_id}">.*?</li>', html, re.S)
    assert found, f"no board row for entry {entry_id}"
    return _text(found.group(0))


def _answers(client, event: Event, name: str) -> list[str]:
    response = client.get(reverse("event-detail", args=[event.pk]), {"find": name})
    assert response.status_code == 200
    block = response.content.decode().split('id="find-seat-answers"')[1].split("</ul>")[0]
    return [_text(li) for li in re.findall(r"<li[^>]*>(.*?)</li>", block, re.S)]


def _where(round_: Round) -> dict[int, tuple[int, str, str]]:
    """entry -> (table, position, partner's name), from the stored seats."""
    seats = list(Seat.objects.filter(round=round_).select_related("table", "entry__player"))
    by_place = {(s.table.number, s.position): s.entry.player.name for s in seats}
    return {s.entry_id: (s.table.number, s.position, by_place[(s.table.number, ACROSS[s.position])])
            for s in seats}


def _play(round_: Round) -> None:
    for table in round_.tables.order_by("number"):
        hand_submit(game=table.game, number=1, values=values())  # EW win 55 to 51
        game_confirm(game=table.game, position="N")


# --- a club night ------------------------------------------------------------------------------
def test_a_club_night_board_lists_everyone_by_name_with_table_seat_partner_and_the_bye(client):
    event = event_with_players(players=9, status="running", deals_per_round=1)
    first = round_create(event=event)
    placed = _where(first)
    resting = set(Bye.objects.filter(round=first).values_list("entry_id", flat=True))
    assert len(placed) == 8 and len(resting) == 1
    html = _board(client, event)
    assert "Round 1 is seated" in _text(html)
    names = [e.player.name for e in event.entries.select_related("player")]
    shown = re.findall(r'<span class="name">(.*?)</span>', html)
    assert shown == sorted(names, key=str.casefold)
    for entry_id, (table, position, partner) in placed.items():
        row = _row(html, entry_id)
        assert f" {table} {position} with {partner}" in f" {row}"
    (rest,) = resting
    assert "bye: sits this round out" in _row(html, rest)
    # the page links the pages a player needs next
    assert reverse("event-standings-wall", args=[event.pk]) in html


def test_the_event_page_answers_a_name_typed_in_its_search_box(client):
    event = event_with_players(players=5, status="running", deals_per_round=1)
    first = round_create(event=event)
    seat = Seat.objects.filter(round=first).select_related("table", "entry__player").first()
    table, position, partner = _where(first)[seat.entry_id]
    name = seat.entry.player.name
    # any case, part of the name
    (answer,) = _answers(client, event, name.upper())
    assert answer == f"{name} — Round 1: table {table}, seat {position}, partner {partner}"
    bye = Bye.objects.filter(round=first).select_related("entry__player").get()
    (answer,) = _answers(client, event, bye.entry.player.name)
    assert answer == f"{bye.entry.player.name} — Round 1: bye: sits this round out"
    (answer,) = _answers(client, event, "Nobody Here")
    assert answer == "Nobody called “Nobody Here” is in this event."
    # no search: no answers, and the box is there for anyone
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert 'name="find"' in page and "find-seat-answers" in page
    assert 'id="rules-link"' in page and 'id="seating-board-link"' in page
    # a name longer than the box takes is refused, naming the field
    assert _answers(client, event, "x" * 101) == ["find: type at most 100 characters of your name."]


def test_a_closed_round_says_the_next_is_not_seated_and_a_new_round_moves_the_version(client):
    event = event_with_players(players=8, status="running", deals_per_round=1)
    first = round_create(event=event)
    seated_version = seating_version(event)
    round_set_status(round_=first, status="playing")
    playing_version = seating_version(event)
    assert playing_version != seated_version
    assert "Round 1 is being played." in _text(_board(client, event))
    _play(first)
    round_set_status(round_=first, status="closed")
    closed = seating_version(event)
    assert closed != playing_version
    html = _board(client, event)
    assert "Round 1 is over; round 2 is not seated yet." in _text(html)
    assert 'class="seating-row' not in html  # last round's seats are not shown as the next
    seat = Seat.objects.filter(round=first).select_related("table", "entry__player").first()
    (answer,) = _answers(client, event, seat.entry.player.name)
    assert answer.endswith("round 2 is not seated yet.")
    version = client.get(reverse("event-wall-seating-version", args=[event.pk])).json()
    assert version == {"version": closed}
    second = round_create(event=event)
    assert seating_version(event) != closed
    html = _board(client, event)
    assert "Round 2 is seated" in _text(html)
    for entry_id, (table, position, partner) in _where(second).items():
        assert f" {table} {position} with {partner}" in f" {_row(html, entry_id)}"


# --- a progressive day with an alternate --------------------------------------------------------
def test_a_progressive_board_says_who_waits_as_an_alternate(client):
    event = progressive_event(9, deals_per_round=1)
    first = round_create(event=event)
    placed = _where(first)
    (alternate,) = Entry.objects.filter(event=event).exclude(pk__in=placed)
    html = _board(client, event)
    assert "Game 1 is seated" in _text(html)
    assert "alternate: waits for a free seat" in _row(html, alternate.pk)
    (answer,) = _answers(client, event, alternate.player.name)
    assert answer == f"{alternate.player.name} — Game 1: alternate: waits for a free seat"
    for entry_id, (table, position, partner) in placed.items():
        assert f" {table} {position} with {partner}" in f" {_row(html, entry_id)}"


# --- pair events -------------------------------------------------------------------------------
def _pairs(fmt: str, count: int, *, slug: str = "pairs", **kwargs):
    club, director = club_with_director(slug=slug)
    event = event_create(club=club, name="Partners", date=DAY, format=fmt, deals_per_round=1,
                         **kwargs)
    pairs = [pair_register(event=event, players=[PlayerFactory(club=club),
                                                 PlayerFactory(club=club)], seed=n)
             for n in range(1, count + 1)]
    return event, pairs


def test_a_pair_event_seats_each_player_with_their_own_partner_and_the_bye_pair_sits_out(client):
    event, pairs = _pairs(Event.Format.SWISS, 5, rounds_planned=3)
    first = round_create(event=event)
    members = {pair.pk: [m for m in pair.members.select_related("player")] for pair in pairs}
    mate = {a.pk: b.player.name for two in members.values() for a, b in (two, two[::-1])}
    placed = _where(first)
    resting = set(Bye.objects.filter(round=first).values_list("entry_id", flat=True))
    assert len(placed) == 8 and len(resting) == 2
    board = seating(event)
    rows = {r["entry_id"]: r for r in board["rows"]}
    for entry_id, (table, position, _) in placed.items():
        assert rows[entry_id]["partner"] == mate[entry_id]  # the pair plays together
        assert (rows[entry_id]["table"], rows[entry_id]["position"]) == (table, position)
        assert len(rows[entry_id]["opponents"]) == 2
        assert mate[entry_id] not in rows[entry_id]["opponents"]
    html = _board(client, event)
    for entry_id in resting:
        assert rows[entry_id]["state"] == "bye"
        assert "bye: sits this round out" in _row(html, entry_id)
    # the API answers the same, filtered by name
    some = next(iter(placed))
    name = Entry.objects.get(pk=some).player.name
    answer = APIClient().get(f"/api/events/{event.pk}/seating/", {"name": name}).json()
    assert answer["round"] == 1 and answer["status"] == "seated"
    (player,) = answer["players"]
    table, position, _ = placed[some]
    assert (player["table"], player["position"], player["partner"]) == (table, position, mate[some])
    assert player["answer"] == (f"{name} — Round 1: table {table}, seat {position}, "
                                f"partner {mate[some]}")
    everyone = APIClient().get(f"/api/events/{event.pk}/seating/").json()
    assert len(everyone["players"]) == 10 and everyone["version"] == seating_version(Event.objects.get(pk=event.pk))


def test_a_bracket_wave_tells_the_waiting_pair_and_later_the_pair_knocked_out(
    client, django_capture_on_commit_callbacks,
):
    event, pairs = _pairs(Event.Format.SINGLE_ELIMINATION, 3, slug="bracket")
    first = round_create(event=event)
    assert list(first.tables.values_list("match", flat=True)) == ["W1-2"]
    playing = {s.entry.pair_id for s in Seat.objects.filter(round=first).select_related("entry")}
    (waiting,) = [p for p in pairs if p.pk not in playing]
    rows = {r["entry_id"]: r for r in seating(event)["rows"]}
    for entry in waiting.members.all():
        assert rows[entry.pk]["state"] == "waiting"
    for entry_id, (table, _, _) in _where(first).items():
        assert rows[entry_id]["match"] == "W1-2"
        assert rows[entry_id]["answer"].startswith(f"{rows[entry_id]['name']} — Round 1 "
                                                   f"(bracket): table {table} (match W1-2)")
    with django_capture_on_commit_callbacks(execute=True):
        _play(first)  # E-W win: the second pair of the match goes on
    final = event.rounds.get(number=2)
    table = Table.objects.get(round=final)
    ew = Seat.objects.filter(round=first, position="E").select_related("entry").get().entry.pair_id
    ns = Seat.objects.filter(round=first, position="N").select_related("entry").get().entry.pair_id
    in_final = {s.entry.pair_id for s in Seat.objects.filter(round=final).select_related("entry")}
    assert in_final == {waiting.pk, ew}
    rows = {r["entry_id"]: r for r in seating(event)["rows"]}
    html = _board(client, event)
    for entry in Entry.objects.filter(pair_id=ns):
        assert rows[entry.pk]["state"] == "out"
        # the wall shows who plays where: the players knocked out are counted in one line
        assert f'data-entry="{entry.pk}"' not in html
    assert "Everyone else (2 players): out of the bracket." in _text(html)
    for entry in Entry.objects.filter(pair_id__in=in_final):
        assert rows[entry.pk]["table"] == table.number and rows[entry.pk]["match"] == table.match
    # the phone of the first wave's table: the winners' next table with their own partner, the
    # losers told they have no match
    phone = client.get(reverse("table-entry", args=[first.tables.get().token])).content.decode()
    block = _text(phone.split('id="where-next"')[1].split("</section>")[0])
    going = _where(final)
    for seat in Seat.objects.filter(round=first).select_related("entry__player"):
        name = seat.entry.player.name
        if seat.entry.pair_id == ns:
            assert f"{name}: no match this round (see the bracket)" in block
        else:
            number, position, partner = going[seat.entry_id]
            assert partner == rows[seat.entry_id]["partner"]
            assert f"{name}: table {number}, " in block and f"(seat {position}), partner {partner}" in block


# --- the phone at the table: the next round, without a reload -----------------------------------
def test_the_phone_polls_its_table_state_which_says_when_the_next_round_is_seated(client):
    event = event_with_players(players=8, status="running", deals_per_round=1)
    first = round_create(event=event)
    table = first.tables.order_by("number").first()
    _play(first)
    round_set_status(round_=first, status="closed")
    api = APIClient()
    state = api.get(f"/api/tables/{table.token}/").json()
    assert state["next_round"] == {"number": 2, "seated": False}
    page = client.get(reverse("table-entry", args=[table.token])).content.decode()
    assert "data-where-next" in page and "js/where_next.js" in page
    assert "round 2 is not seated yet" in _text(page)
    assert reverse("event-rules", args=[event.pk]) in page
    second = round_create(event=event)
    assert api.get(f"/api/tables/{table.token}/").json()["next_round"] == {"number": 2,
                                                                          "seated": True}
    page = client.get(reverse("table-entry", args=[table.token])).content.decode()
    block = _text(page.split('id="where-next"')[1].split("</section>")[0])
    going = _where(second)
    for seat in table.seats.select_related("entry__player"):
        number, position, partner = going[seat.entry_id]
        assert (f"{seat.entry.player.name}: table {number}, " in block
                and f"(seat {position}), partner {partner}" in block)
    assert "data-where-next" not in page  # nothing left to wait for


# --- permissions --------------------------------------------------------------------------------
def test_a_private_clubs_seating_and_rules_are_404_for_outsiders_on_pages_and_api(client):
    club, director = club_with_director(slug="private", is_public=False)
    event = event_with_players(club=club, players=4, status="running", deals_per_round=1)
    round_create(event=event)
    pages = [reverse("event-wall-seating", args=[event.pk]),
             reverse("event-wall-seating-version", args=[event.pk]),
             reverse("event-rules", args=[event.pk]),
             reverse("event-detail", args=[event.pk]) + "?find=Player",
             f"/api/events/{event.pk}/seating/", f"/api/events/{event.pk}/seating/?name=Player"]
    for url in pages:
        assert client.get(url).status_code == 404, url
    client.force_login(member(ClubFactory(slug="elsewhere"), "member", "outsider"))
    for url in pages:
        assert client.get(url).status_code == 404, url
    client.force_login(member(club, "member", "insider"))
    for url in pages:
        assert client.get(url).status_code == 200, url
    api = APIClient()
    api.force_authenticate(director)
    refused = api.get(f"/api/events/{event.pk}/seating/", {"name": "x" * 101})
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "name"


# --- cost: the wall polls every few seconds ---------------------------------------------------
def test_the_version_and_the_board_cost_the_same_few_queries_whatever_the_size(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for players in (8, 40):
        event = event_with_players(players=players, status="running", deals_per_round=1)
        round_create(event=event)
        with CaptureQueriesContext(connection) as version:
            client.get(reverse("event-wall-seating-version", args=[event.pk]))
        with CaptureQueriesContext(connection) as board:
            _board(client, event)
        with CaptureQueriesContext(connection) as api:
            APIClient().get(f"/api/events/{event.pk}/seating/")
        counts.append((len(version), len(board), len(api)))
    assert counts[0] == counts[1], counts
    # the event, its latest round, the seats, the byes (and the site's time zone lookup), and
    # the event's key for caches (public.caching: a 304 costs that one query alone)
    assert counts[0][0] <= 6 and counts[0][0] < counts[0][1], counts

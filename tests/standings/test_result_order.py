"""One result everywhere: once an event has its final places, every view that ranks (the
standings API, the CSV, the standings page and wall, the player's profile, the season's firsts)
presents them in their order; the totals over all games stay a named view. During the event
the standings follow the stage: the qualifying standings with the cut line, then the
semi-final tables, the final table or the bracket's places above them.

Both days are driven through the REST API alone, as a director's script and the tables' phones
would: a 16-player progressive day (two qualifying games, the semi-final tables, a final of
three games) and six pairs in a Swiss cut to a single-elimination playoff.
"""

from __future__ import annotations

import csv
import html as html_text
import io
import random
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.selectors import season_leaderboard, year_season
from tests.events.test_api_pairs import PairEvent, roster
from tests.events.test_api_progressive import _ok, _random_hand, director_api
from tournaments.models import Event

pytestmark = pytest.mark.django_db
__all__ = ["director_api", "roster"]  # the fixtures, shared with the draw's API tests

DEALS = 2


def _side(position: str) -> str:
    return "NS" if position in ("N", "S") else "EW"


def _steered_hand(favoured: str, state: dict[str, Any]) -> dict[str, Any]:
    """A hand the ``favoured`` side wins by two points (56 to 54)."""
    other = "EW" if favoured == "NS" else "NS"
    return {"outcome": "played", "bidder": favoured[0], "bid": 50, "trump": "H",
            "meld": {favoured: 30, other: 30}, "counters": {favoured: 26, other: 24},
            "dealer": state["next_dealer"], "number": state["next_number"]}


class Day:
    """A progressive day's script: the director's token and the tables' phones."""

    def __init__(self, api: APIClient, event_id: int, capture: Any) -> None:
        self.api, self.event_id, self.capture = api, event_id, capture
        self.tables_api = APIClient()
        self.rng = random.Random(2026)

    def url(self, tail: str = "") -> str:
        return f"/api/events/{self.event_id}/{tail}"

    def round(self, number: int) -> dict[str, Any]:
        return _ok(self.api.get(self.url(f"rounds/{number}/")))

    def standings(self, query: str = "") -> dict[str, Any]:
        return _ok(self.api.get(self.url("standings/") + query))

    def play(self, round_: dict[str, Any], *, favour: int | None = None) -> None:
        """Every table enters its deals and the other side confirms; with ``favour``, the side
        of that entry wins every hand by two points."""
        for table in round_["tables"]:
            token = table["token"]
            seats = {s["entry_id"]: s["position"] for s in table["seats"]}
            _ok(self.tables_api.post(f"/api/tables/{token}/scorer/", {"position": "N"},
                                     format="json"))
            for _ in range(DEALS):
                state = _ok(self.tables_api.get(f"/api/tables/{token}/"))
                body = (_steered_hand(_side(seats[favour]), state) if favour in seats
                        else {**_random_hand(self.rng), "dealer": state["next_dealer"],
                              "number": state["next_number"]})
                _ok(self.tables_api.post(f"/api/tables/{token}/hands/", body, format="json"),
                    201)
            with self.capture(execute=True):
                _ok(self.tables_api.post(f"/api/tables/{token}/confirm/", {"position": "E"},
                                         format="json"))


def _keys(rows: list[dict[str, Any]], key: str = "entry_id") -> list[int]:
    return [int(r[key]) for r in rows]


def _board(html: str, key: str) -> str:
    """The HTML of one board of a standings page or wall."""
    start = html.index(f'data-board="{key}"')
    end = html.find("data-board=", start + 12)
    return html[start:end if end > 0 else len(html)]


def _signed_in(client: Any) -> Any:
    client.force_login(get_user_model().objects.get(username="td"))
    return client


def test_a_progressive_day_ranks_by_its_places_everywhere_once_finished(
        director_api: APIClient, client: Any, django_capture_on_commit_callbacks: Any) -> None:
    api = director_api
    slug = _ok(api.post("/api/clubs/", {"name": "Progressive Club"}, format="json"), 201)["slug"]
    players = [_ok(api.post(f"/api/clubs/{slug}/players/", {"name": f"Player {n:02d}"},
                            format="json"), 201)["id"] for n in range(1, 18)]
    event = _ok(api.post("/api/events/", {
        "club": slug, "name": "Autumn Progressive", "date": "2026-11-22",
        "format": "individual_progressive", "ruleset_preset": "npa_double_deck",
        "rounds_planned": 2, "deals_per_round": DEALS}, format="json"), 201)
    assert [s["stage"] for s in event["stages"]] == ["qualifying", "semifinal", "final"]
    day = Day(api, event["id"], django_capture_on_commit_callbacks)
    entries = [_ok(api.post(day.url("entries/"), {"player_id": pk}, format="json"), 201)["id"]
               for pk in players[:16]]
    alternate = _ok(api.post(day.url("entries/"), {"player_id": players[16], "alternate": True},
                             format="json"), 201)["id"]
    player_of = dict(zip([*entries, alternate], players, strict=True))
    pages = _signed_in(client)
    page_url = f"/events/{day.event_id}/standings/"

    # Qualifying: one board, ranked by the qualifying games, the cut line under the 8th player
    # who can go through (the alternate, who has not played, does not count).
    day.play(_ok(api.post(day.url("rounds/"), {}, format="json"), 201))
    during = day.standings()
    assert [b["key"] for b in during["boards"]] == ["qualifying"]
    board = during["boards"][0]
    through = [r for r in board["rows"][:board["cut"]] if not r["alternate"]]
    assert len(through) == 8 and not board["rows"][board["cut"] - 1]["alternate"]
    assert during["final"] is False and during["view"] == "result"
    assert _keys(during["rows"]) == _keys(board["rows"])
    html = pages.get(page_url).content.decode()
    assert 'class="cut-line"' in html and "go on to the semi-final tables" in html
    wall = pages.get(page_url + "wall/").content.decode()
    assert 'class="wall-cut"' in wall

    # The semi-final tables are seated by the advance: their boards come first, before any
    # of their hands, the qualifying standings and the cut below.
    day.play(day.round(2))
    semis = day.round(3)
    assert semis["stage"] == "semifinal"
    during = day.standings()
    assert [b["key"] for b in during["boards"]] == ["semifinal-1", "semifinal-2", "qualifying"]
    for table, board in zip(sorted(semis["tables"], key=lambda t: t["number"]),
                            during["boards"][:2], strict=True):
        assert set(_keys(board["rows"])) == {s["entry_id"] for s in table["seats"]}
        assert board["title"] == f"Semi-final · table {table['number']}"
    qualifying = during["boards"][2]
    semi_players = {s["entry_id"] for t in semis["tables"] for s in t["seats"]}
    assert {r["entry_id"] for r in qualifying["rows"][:qualifying["cut"]]} - {alternate} \
        == semi_players
    assert qualifying == {**day.standings("?stage=qualifying")["boards"][0]}
    html = pages.get(page_url).content.decode()
    assert html.index('data-board="semifinal-1"') < html.index('data-board="qualifying"')
    assert 'id="tab-totals"' in html and "?view=totals" in html and "?stage=semifinal" in html

    # The final table: its board first; the final is steered so that its champion is the
    # finalist with the fewest points so far (the day the wall got wrong).
    day.play(semis)
    final = day.round(4)
    assert final["stage"] == "final"
    finalists = {s["entry_id"] for s in final["tables"][0]["seats"]}
    board = day.standings()["boards"][0]
    assert (board["key"], board["title"], set(_keys(board["rows"]))) == (
        "final-1", "Final table", finalists)
    so_far = {r["entry_id"]: r["points"] for r in day.standings("?view=totals")["rows"]}
    underdog = min(finalists, key=lambda e: (so_far[e], e))
    day.play(final, favour=underdog)
    for number in (5, 6):
        day.play(day.round(number), favour=underdog)

    finished = _ok(api.post(day.url("finish/")))
    placements = finished["placements"]
    places = _keys(placements)
    assert places[0] == underdog and alternate not in places
    totals = day.standings("?view=totals")
    assert totals["view"] == "totals" and totals["final"] is False
    points = [r["points"] for r in totals["rows"]]
    assert points == sorted(points, reverse=True)  # the totals view still ranks by points
    assert totals["rows"][0]["entry_id"] != underdog  # …and would crown someone else
    assert _keys(totals["rows"]) != places[:len(totals["rows"])]

    # The API's default standings: the places in order, the rank column the place, then the
    # entry not placed; every row keeps its totals over all games.
    result = day.standings()
    assert result["final"] is True and [b["key"] for b in result["boards"]] == ["result"]
    assert _keys(result["rows"]) == [*places, alternate]
    assert [r["rank"] for r in result["rows"]] == [p["place"] for p in placements] + [None]
    assert [r["stage"] for r in result["rows"][:8]] == ["final"] * 4 + ["semifinal"] * 4
    total_of = {r["entry_id"]: r["points"] for r in totals["rows"]}
    assert all(r["points"] == total_of[r["entry_id"]] for r in result["rows"])

    # The CSV, the page and the wall: the same order.
    sheet = list(csv.DictReader(io.StringIO(
        pages.get(f"/events/{day.event_id}/standings.csv").content.decode())))
    names = {r["entry_id"]: r["name"] for r in result["rows"]}
    assert [r["player"] for r in sheet] == [names[e] for e in [*places, alternate]]
    assert [r["rank"] for r in sheet[:4]] == ["1", "2", "3", "4"] and sheet[-1]["rank"] == ""
    assert {r["section"] for r in sheet} == {"Final results"}
    totals_sheet = list(csv.DictReader(io.StringIO(pages.get(
        f"/events/{day.event_id}/standings.csv?view=totals").content.decode())))
    assert [r["player"] for r in totals_sheet] == [names[e] for e in _keys(totals["rows"])]
    html = _board(pages.get(page_url).content.decode(), "result")
    linked = [int(e) for e in re.findall(rf"/events/{day.event_id}/players/(\d+)/", html)]
    assert linked == [*places, alternate]
    wall = pages.get(page_url + "wall/").content.decode()
    assert "Final results" in wall
    shown = re.findall(r'<span class="name">([^<]+?)\s*(?:<small|</span>)',
                       _board(wall, "result"))
    assert shown == [names[e] for e in [*places, alternate]]
    fragment = pages.get(f"/events/{day.event_id}/standings/fragment/?view=phone")
    assert re.findall(rf"/events/{day.event_id}/players/(\d+)/",
                      fragment.content.decode())[:3] == [str(e) for e in places[:3]]
    totals_page = pages.get(page_url + "?view=totals").content.decode()
    assert 'data-board="totals"' in totals_page and "Totals over all games" in totals_page

    # The champion's profile says first; the season counts the event as the champion's win.
    profile = _ok(api.get(f"/api/players/{player_of[underdog]}/profile/"))
    mine = next(e for e in profile["events"] if e["event_id"] == day.event_id)
    assert (mine["place"], mine["of"]) == (1, len(placements))
    leader = _ok(api.get(f"/api/players/{player_of[totals['rows'][0]['entry_id']]}/profile/"))
    assert next(e for e in leader["events"] if e["event_id"] == day.event_id)["place"] != 1
    board = season_leaderboard(season=year_season(
        club=Event.objects.get(pk=day.event_id).club, year=2026))
    firsts = {r["player_id"]: r["firsts"] for r in board["ranked"]}
    assert firsts[player_of[underdog]] == 1 and sum(firsts.values()) == 1


def test_a_swiss_playoff_ranks_the_bracket_places_first(
        director_api: APIClient, roster: tuple[str, list[int]], client: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 31,
                  format="swiss", rounds_planned=3,
                  format_settings={"playoff": {"kind": "single", "cut": 4}})
    pairs = [t.register(players[2 * i:2 * i + 2]) for i in range(6)]
    current = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    t.play(current)
    during = _ok(director_api.get(t.url("standings/")))
    board = during["boards"][0]
    assert [b["key"] for b in during["boards"]] == ["qualifying"] and board["cut"] == 4
    for number in (2, 3):
        t.play(t.round(number))

    # The semi-finals are seated: the bracket's board first, every pair in it still playing
    # for places 1 to 4; the qualifying standings below, cut after the four.
    semis = t.round(4)
    assert semis["stage"] == "bracket"
    during = _ok(director_api.get(t.url("standings/")))
    assert [b["key"] for b in during["boards"]] == ["bracket", "qualifying"]
    bracket, qualifying = during["boards"]
    seeds = _keys(qualifying["rows"], "pair_id")[:4]
    assert _keys(bracket["rows"], "pair_id") == seeds
    assert {r["rank"] for r in bracket["rows"]} == {None} and qualifying["cut"] == 4
    t.play(semis)
    during = _ok(director_api.get(t.url("standings/")))
    bracket = during["boards"][0]
    assert [r["rank"] for r in bracket["rows"]] == [None, None, 3, 3]
    assert all(r["tied"] for r in bracket["rows"][2:])
    page = _signed_in(client).get(f"/events/{t.id}/standings/").content.decode()
    assert "1–2" in _board(page, "bracket")

    t.play_bracket(t.round(5))
    finished = _ok(director_api.post(t.url("finish/")))
    places = _keys(finished["placements"], "pair_id")
    assert sorted(places) == sorted(pairs)
    result = _ok(director_api.get(t.url("standings/")))
    assert result["final"] is True
    assert _keys(result["rows"], "pair_id") == places
    assert [r["rank"] for r in result["rows"]] == [p["place"] for p in finished["placements"]]
    assert [r["rank"] for r in result["rows"][:4]] == [1, 2, 3, 3]
    assert {r["stage"] for r in result["rows"][:4]} == {"bracket"}
    totals = _ok(director_api.get(t.url("standings/") + "?view=totals"))
    order = [(r["wins"], r["points"]) for r in totals["rows"]]
    assert order == sorted(order, reverse=True)  # the totals rank by wins, then points
    sheet = list(csv.DictReader(io.StringIO(
        client.get(f"/events/{t.id}/standings.csv").content.decode())))
    names = {r["pair_id"]: r["name"] for r in result["rows"]}
    assert [r["pair"] for r in sheet] == [names[p] for p in places]
    html = _board(client.get(f"/events/{t.id}/standings/").content.decode(), "result")
    linked = [int(p) for p in re.findall(rf"/events/{t.id}/pairs/(\d+)/", html)]
    assert linked == places
    wall = client.get(f"/events/{t.id}/standings/wall/").content.decode()
    shown = re.findall(r'<span class="name">([^<]+?)\s*(?:<small|</span>)', _board(wall, "result"))
    assert [html_text.unescape(name) for name in shown] == [names[p] for p in places]


def test_the_version_moves_when_a_later_stage_is_seated_or_places_are_written() -> None:
    """What the pages show changes then without a change of the rows: the version moves, so
    the pages redraw and no region cached for the version before is served."""
    from standings.models import StandingsSnapshot
    from standings.services import placements_store, standings_rebuild
    from tests.tournaments.factories import progressive_event
    from tournaments.models import Round

    event = progressive_event(8)
    standings_rebuild(event_id=event.pk)

    def version() -> int:
        return StandingsSnapshot.objects.get(event=event).version

    before = version()
    Round.objects.create(event=event, number=1, stage=Round.Stage.QUALIFYING,
                         status=Round.Status.CLOSED)
    assert version() == before
    Round.objects.create(event=event, number=2, stage=Round.Stage.SEMIFINAL)
    assert version() == before + 1
    placements_store(event_id=event.pk, placements=[])
    assert version() == before + 2

"""A 32-player individual progressive tournament run through the REST API alone: six qualifying
games with the automatic advance, the cut to two semi-final tables, the final table and the
placements, as a director's script and the tables' phones would drive it.

After every game the movement is checked against the results entered (losers stay and are
split, winners move one table toward table 1 with the wrap, each stayer partners one arrival,
a repeat partnership only when the other pairing would repeat too); the standings are recomputed
here from the points the API answered for each hand; the semi-final tables must hold the top 8,
the final table the semi-final winners, and the places must follow the rule the event states.
Bad requests on the way (seating while games are unconfirmed, a cut larger than the field, a
withdrawn player who would stay seated) are refused and change nothing.
"""

from __future__ import annotations

import io
import random
from collections import Counter, defaultdict
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db

PLAYERS = 32
MELDS = [0, 20, 24, 30, 32, 40, 16]


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:600])
    return response.json()


def _refused(response: Any, field: str) -> dict[str, Any]:
    assert response.status_code == 400, (response.status_code, response.content[:600])
    error = response.json()["errors"][0]
    assert error["field"] == field, error
    assert error["message"]
    return error


def _side(position: str) -> str:
    return "NS" if position in ("N", "S") else "EW"


def _partners(table: dict[str, Any]) -> list[frozenset[int]]:
    seats = {s["position"]: s["entry_id"] for s in table["seats"]}
    return [frozenset((seats["N"], seats["S"])), frozenset((seats["E"], seats["W"]))]


def _random_hand(rng: random.Random) -> dict[str, Any]:
    ns = rng.randint(0, 50)
    return {"outcome": "played", "bidder": rng.choice("NESW"), "bid": rng.choice([50, 51, 55, 60]),
            "trump": rng.choice("HSDC"),
            "meld": {"NS": rng.choice(MELDS), "EW": rng.choice(MELDS)},
            "counters": {"NS": ns, "EW": 50 - ns}}


@pytest.fixture
def director_api() -> APIClient:
    UserFactory(username="td")
    call_command("drf_create_token", "td", stdout=io.StringIO())
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user__username='td').key}")
    return api


class Tournament:
    """The director's script and the tables' phones, with what they recorded on the way."""

    def __init__(self, api: APIClient, event_id: int, capture: Any) -> None:
        self.api, self.event_id, self.capture = api, event_id, capture
        self.tables_api = APIClient()
        self.rng = random.Random(20261122)
        self.points: dict[int, dict[int, int]] = defaultdict(dict)  # entry -> round -> points
        self.partnered: Counter[frozenset[int]] = Counter()

    def url(self, tail: str = "") -> str:
        return f"/api/events/{self.event_id}/{tail}"

    def round(self, number: int) -> dict[str, Any]:
        return _ok(self.api.get(self.url(f"rounds/{number}/")))

    def play(self, round_: dict[str, Any], *, hold_before_last: bool = False) -> None:
        """Every table enters its four deals and confirms (the other side confirms)."""
        for i, table in enumerate(round_["tables"]):
            token = table["token"]
            seats = {s["position"]: s["entry_id"] for s in table["seats"]}
            _ok(self.tables_api.post(f"/api/tables/{token}/scorer/", {"position": "N"},
                                     format="json"))
            for _ in range(4):
                state = _ok(self.tables_api.get(f"/api/tables/{token}/"))
                body = {**_random_hand(self.rng), "dealer": state["next_dealer"],
                        "number": state["next_number"]}
                stored = _ok(self.tables_api.post(f"/api/tables/{token}/hands/", body,
                                                  format="json"), 201)
                for position, entry in seats.items():
                    mine = self.points[entry]
                    mine[round_["number"]] = (mine.get(round_["number"], 0)
                                              + stored["points"][_side(position)])
            if i == len(round_["tables"]) - 1:
                if hold_before_last:
                    assert _ok(self.api.post(self.url("advance/"), {"held": True},
                                             format="json"))["advance_held"] is True
                # seating the next game while a game is unconfirmed is refused
                early = self.api.post(self.url("rounds/"), {}, format="json")
                _refused(early, "round")
            with self.capture(execute=True):
                _ok(self.tables_api.post(f"/api/tables/{token}/confirm/", {"position": "E"},
                                         format="json"))
        for partners in (p for t in round_["tables"] for p in _partners(t)):
            self.partnered[partners] += 1

    def totals(self, rounds: range | list[int]) -> dict[int, int]:
        return {e: sum(v for n, v in per.items() if n in rounds) for e, per in self.points.items()}


def _check_movement(before: dict[str, Any], after: dict[str, Any],
                    history: Counter[frozenset[int]]) -> None:
    """Winners move to the next table toward table 1 (table 1's to the last), losers stay and
    are split, and each stayer partners one arrival; a repeat only when both pairings repeat."""
    count = len(before["tables"])
    assert len(after["tables"]) == count
    new = {t["number"]: t for t in after["tables"]}
    for table in before["tables"]:
        game = table["game"]
        assert game["status"] == "confirmed"
        side = game["winner"] or game["cut_winner"]
        assert side in ("NS", "EW")
        if game["winner"] is None:
            assert game["totals"]["NS"] == game["totals"]["EW"]
        seats = {s["position"]: s["entry_id"] for s in table["seats"]}
        winners = {e for p, e in seats.items() if _side(p) == side}
        losers = set(seats.values()) - winners
        number = table["number"]
        stay_at = {s["entry_id"] for s in new[number]["seats"]}
        assert losers <= stay_at, f"losers of table {number} must stay"
        goes_to = count if number == 1 else number - 1
        assert winners <= {s["entry_id"] for s in new[goes_to]["seats"]}
        partners = _partners(new[number])
        assert frozenset(losers) not in partners, f"stayers at table {number} not split"
        arrivals = stay_at - losers
        a, b = sorted(losers)
        x, y = sorted(arrivals)
        chosen = {frozenset((a, x)), frozenset((b, y))}
        other = {frozenset((a, y)), frozenset((b, x))}
        actual = chosen if chosen <= set(partners) else other
        alternative = other if actual is chosen else chosen
        repeats = sum(history[p] > 0 for p in actual)
        assert repeats <= sum(history[p] > 0 for p in alternative)


def test_a_32_player_progressive_tournament_through_the_api_alone(
        director_api: APIClient, django_capture_on_commit_callbacks: Any) -> None:
    api = director_api
    club = _ok(api.post("/api/clubs/", {"name": "Progressive Pinochle"}, format="json"), 201)
    slug = club["slug"]
    players = [_ok(api.post(f"/api/clubs/{slug}/players/", {"name": f"P{n:02d}"},
                            format="json"), 201)["id"] for n in range(1, PLAYERS + 4)]

    # a cut larger than the field is refused when the first game would be seated
    small = _ok(api.post("/api/events/", {"club": slug, "name": "Small", "date": "2026-11-21",
                                          "format": "individual_progressive"},
                         format="json"), 201)
    for pk in players[:4]:
        _ok(api.post(f"/api/events/{small['id']}/entries/", {"player_id": pk}, format="json"),
            201)
    _refused(api.post(f"/api/events/{small['id']}/rounds/", {}, format="json"),
             "format_settings.cut")
    assert _ok(api.get(f"/api/events/{small['id']}/rounds/")) == []
    _refused(api.post("/api/events/", {"club": slug, "name": "Bad", "date": "2026-11-21",
                                       "format": "individual_progressive",
                                       "format_settings": {"cut": 6}}, format="json"),
             "format_settings.cut")

    # only the format given: the NPA's defaults
    event = _ok(api.post("/api/events/", {"club": slug, "name": "Fall Classic",
                                          "date": "2026-11-22",
                                          "format": "individual_progressive",
                                          "ruleset_preset": "npa_double_deck"},
                         format="json"), 201)
    settings = event["format_settings"]
    assert (event["deals_per_round"], settings["qualifying_games"], settings["cut"]) == (4, 6, 8)
    assert (settings["movement"], settings["draw"]) == ("winners_move", "system")
    assert [(s["stage"], s["rounds"]) for s in event["stages"]] == [
        ("qualifying", [1, 2, 3, 4, 5, 6]), ("semifinal", [7]), ("final", [8, 9, 10])]
    assert event["rounds_total"] == 10 and event["rules"]
    t = Tournament(api, event["id"], django_capture_on_commit_callbacks)
    entries = [_ok(api.post(t.url("entries/"), {"player_id": pk}, format="json"), 201)["id"]
               for pk in players[:PLAYERS]]

    first = _ok(api.post(t.url("rounds/"), {}, format="json"), 201)
    assert (first["stage"], len(first["tables"])) == ("qualifying", PLAYERS // 4)
    assert sorted(s["entry_id"] for tb in first["tables"] for s in tb["seats"]) == sorted(entries)

    withdrawn = alternate = None
    current = first
    for number in range(1, 7):
        t.play(current, hold_before_last=(number == 4))
        if number == 4:
            # held: the round is closed, the next game waits for the director
            assert t.round(4)["status"] == "closed"
            assert api.get(t.url("rounds/5/")).status_code == 404
            nxt = _ok(api.post(t.url("rounds/"), {}, format="json"), 201)
            _ok(api.post(t.url("advance/"), {"held": False}, format="json"))
        else:
            nxt = t.round(number + 1)
            # a script that closes the round and asks for the next one, not knowing the
            # advance did both, gets the round it already has
            _ok(api.post(t.url(f"rounds/{number}/close/")))
            assert _ok(api.post(t.url("rounds/"), {}, format="json"), 200) == nxt
        before = t.round(number)
        if number < 6:
            assert nxt["stage"] == "qualifying"
            _check_movement(before, nxt, t.partnered - Counter(
                p for tb in before["tables"] for p in _partners(tb)))
        if number == 2:
            # a withdrawal before game 3 starts: refused without an alternate (nobody is ever
            # both withdrawn and seated), then the alternate takes the seat
            withdrawn = nxt["tables"][3]["seats"][0]["entry_id"]
            _refused(api.post(t.url(f"entries/{withdrawn}/leave/")), "entry")
            assert t.round(3) == nxt
            alternate = _ok(api.post(t.url("entries/"), {"player_id": players[PLAYERS],
                                                         "alternate": True}, format="json"),
                            201)["id"]
            left = _ok(api.post(t.url(f"entries/{withdrawn}/leave/")))
            assert left["status"] == "left"
            nxt = t.round(3)
            seated = [s["entry_id"] for tb in nxt["tables"] for s in tb["seats"]]
            assert withdrawn not in seated and alternate in seated
        current = nxt

    # the cut: round 7 holds exactly the top 8 by the qualifying standings
    semis = current
    assert semis["number"] == 7 and semis["stage"] == "semifinal" and len(semis["tables"]) == 2
    qualifying = _ok(api.get(t.url("standings/") + "?stage=qualifying"))
    recomputed = t.totals(range(1, 7))
    assert {r["entry_id"]: r["points"] for r in qualifying["rows"]} == {
        e: recomputed.get(e, 0) for e in entries + [alternate]}
    eligible = [r["entry_id"] for r in qualifying["rows"]
                if r["entry_id"] not in (withdrawn, alternate)]
    points_order = [recomputed[e] for e in eligible]
    assert points_order == sorted(points_order, reverse=True)
    top8 = eligible[:8]
    if len(eligible) > 8:
        assert recomputed[eligible[7]] >= recomputed[eligible[8]]
    t1, t2 = sorted(semis["tables"], key=lambda tb: tb["number"])
    assert set(_partners(t1)) == {frozenset((top8[0], top8[7])), frozenset((top8[3], top8[4]))}
    assert set(_partners(t2)) == {frozenset((top8[1], top8[6])), frozenset((top8[2], top8[5]))}

    t.play(semis)
    final1 = t.round(8)
    semis = t.round(7)
    semi_winners = set()
    for table in semis["tables"]:
        side = table["game"]["winner"] or table["game"]["cut_winner"]
        semi_winners |= {s["entry_id"] for s in table["seats"] if _side(s["position"]) == side}
    assert final1["stage"] == "final" and len(final1["tables"]) == 1
    assert {s["entry_id"] for s in final1["tables"][0]["seats"]} == semi_winners

    finals = [final1]
    t.play(final1)
    for number in (9, 10):
        finals.append(t.round(number))
        assert {s["entry_id"] for s in finals[-1]["tables"][0]["seats"]} == semi_winners
        t.play(finals[-1])
    # every finalist partnered each other finalist once
    final_pairs = Counter(p for r in finals for p in _partners(r["tables"][0]))
    assert len(final_pairs) == 6 and set(final_pairs.values()) == {1}
    # the event plays ten rounds: no eleventh
    _refused(api.post(t.url("rounds/"), {}, format="json"), "number")

    finished = _ok(api.post(t.url("finish/")))
    placements = finished["placements"]
    assert [p["place"] for p in placements[:8]] == list(range(1, 9))
    final_totals = t.totals([8, 9, 10])
    seed = {e: i for i, e in enumerate(eligible)}
    champion_rule = sorted(semi_winners, key=lambda e: (-final_totals[e], seed[e]))
    assert [p["entry_id"] for p in placements[:4]] == champion_rule
    assert {p["stage"] for p in placements[:4]} == {"final"}
    semi_points = t.totals([7])
    losers = sorted(set(top8) - semi_winners, key=lambda e: (-semi_points[e], seed[e]))
    assert [p["entry_id"] for p in placements[4:8]] == losers
    assert [p["entry_id"] for p in placements[8:]] == eligible[8:]
    assert alternate not in {p["entry_id"] for p in placements}

    overall = _ok(api.get(t.url("standings/")))
    everything = t.totals(range(1, 11))
    assert {r["entry_id"]: r["points"] for r in overall["rows"]} == {
        e: everything.get(e, 0) for e in entries + [alternate]}

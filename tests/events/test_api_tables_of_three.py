"""Three-handed and cutthroat events run through the REST API alone: club nights at tables of three
(and of four with the dealer sitting out each hand, or with byes), every hand entered by the
table's phone with each player's meld, counters and tricks, and a progressive day at tables of
three to its final table and a champion. The other tables too: club nights head to head (ten
players over nine rounds: everyone meets everyone once), five-handed, six-handed triple deck
(twelve and thirteen players), racehorse (sixteen over two rounds) and eight-handed double deck,
and a two-handed Swiss (nine over three rounds, ten over four), their standings' every figure
(points, games, wins, byes and bye points, hands bid, made and set, points per round) from the
hands.

The standings are checked against the rules engine's own scoring of the hands entered (not
against what the server stored): every player's total is the sum of the engine's points for
their seat at each of their tables. Every player is seated or on a bye in every round, byes and
the seats at tables of four are spread, and opponents repeat no more than the counting bound
allows plus the margin the builder states (``pairing.threes.repeat_margin``).
"""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter, defaultdict
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest
from django.core.management import call_command
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from pairing.rotation import RoundPlan
from pairing.threes import measure, repeat_margin
from rules_engine import RulesError, get_ruleset, parse_hand, score_game
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db


def _ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, (response.status_code, response.content[:600])
    return response.json()


@pytest.fixture
def director_api() -> APIClient:
    UserFactory(username="td3")
    call_command("drf_create_token", "td3", stdout=io.StringIO())
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get(user__username='td3').key}")
    return api


def _split(rng: random.Random, total: int, parts: int, unit: int = 1) -> list[int]:
    cuts = sorted(rng.randint(0, total // unit) for _ in range(parts - 1))
    bounds = [0, *cuts, total // unit]
    return [(b - a) * unit for a, b in itertools.pairwise(bounds)]


def random_hand(rng: random.Random, preset: str, seats: list[str], dealer: str) -> dict[str, Any]:
    """A hand a table could enter: each playing seat's meld, tricks and the counters those
    tricks hold (the engine refuses anything impossible; the table then types another)."""
    rs = get_ruleset(preset, {})
    out = rs.sitting_out(seats, dealer) if len(seats) > rs.players else None
    playing = [s for s in seats if s != out]
    while True:
        tricks = _split(rng, rs.hand_size, len(playing))
        takers = [s for s, t in zip(playing, tricks, strict=True) if t]
        counters = dict.fromkeys(playing, 0)
        for seat, value in zip(takers, _split(rng, rs.counters_total, len(takers), 10),
                               strict=True):
            counters[seat] = value
        values = {"dealer": dealer, "outcome": "played", "bidder": rng.choice(playing),
                  "bid": rng.choice([300, 310, 320, 350]), "trump": rng.choice("HSDC"),
                  "meld": {s: rng.choice([0, 0, 20, 40, 60, 80, 100, 150]) for s in playing},
                  "counters": counters, "tricks": dict(zip(playing, tricks, strict=True))}
        try:
            parse_hand(values, rs, seats=seats)
        except RulesError:
            continue
        return values


def team_hand(rng: random.Random, preset: str, seats: list[str], dealer: str) -> dict[str, Any]:
    """A hand at a table of teams (or players): meld and counters per side, the bid on the
    ladder; the engine refuses anything impossible and the table types another."""
    rs = get_ruleset(preset, {})
    sides = list(rs.sides_for(len(seats)))
    unit = 10 if rs.counters_total % 10 == 0 and rs.counters_total >= 250 else 1
    while True:
        counters = dict(zip(sides, _split(rng, rs.counters_total, len(sides), unit), strict=True))
        meld = {side: rng.choice([0, 0, 4, 10, 20, 40]) * (10 if unit == 10 else 1)
                for side in sides}
        values = {"dealer": dealer, "outcome": "played", "bidder": rng.choice(seats),
                  "bid": rs.min_bid + rs.bid_step * rng.randint(0, 3), "trump": rng.choice("HSDC"),
                  "meld": meld, "counters": counters}
        if rs.called_partner:  # five-handed: who held the called card
            values["partner"] = rng.choice(seats)
        try:
            parse_hand(values, rs, seats=seats)
        except RulesError:
            continue
        return values


class Night:
    """A director's script and the tables' phones, keeping the hands each table entered."""

    def __init__(self, api: APIClient, slug: str, *, preset: str, players: int,
                 overrides: dict[str, Any] | None = None, format: str = "club_night",
                 rounds: int | None = 4, settings: dict[str, Any] | None = None,
                 seed: int = 1) -> None:
        self.api, self.preset, self.tables = api, preset, APIClient()
        self.rng = random.Random(seed)
        body: dict[str, Any] = {"club": slug, "name": f"{preset} night", "date": "2026-11-28",
                                "format": format, "ruleset_preset": preset,
                                "deals_per_round": 3}
        if rounds is not None:
            body["rounds_planned"] = rounds
        if overrides:
            body["ruleset_overrides"] = overrides
        if settings:
            body["format_settings"] = settings
        self.event = _ok(api.post("/api/events/", body, format="json"), 201)
        self.slug = slug
        self.ruleset = get_ruleset(preset, overrides or {})
        names = [_ok(api.post(f"/api/clubs/{slug}/players/",
                              {"name": f"{preset[:3]} {seed}-{n:02d}"}, format="json"), 201)["id"]
                 for n in range(players)]
        self.entries = [_ok(api.post(self.url("entries/"), {"player_id": pk}, format="json"),
                            201)["id"] for pk in names]
        # round -> table number -> (seats, [engine hands])
        self.played: dict[int, dict[int, tuple[list[str], list[dict[str, Any]]]]] = {}
        self.rounds: list[dict[str, Any]] = []

    def url(self, tail: str = "") -> str:
        return f"/api/events/{self.event['id']}/{tail}"

    def seat(self) -> dict[str, Any]:
        found = self.api.get(self.url(f"rounds/{len(self.rounds) + 1}/"))
        if found.status_code == 404:  # not seated by the automatic advance
            _ok(self.api.post(self.url("rounds/"), {}, format="json"), 201)
        round_ = _ok(self.api.get(self.url(f"rounds/{len(self.rounds) + 1}/")))
        self.rounds.append(round_)
        return round_

    def play(self, round_: dict[str, Any]) -> None:
        """Every table names its keeper, enters its deals and another player confirms."""
        self.played[round_["number"]] = {}
        for table in round_["tables"]:
            token = table["token"]
            seats = [s["position"] for s in table["seats"]]
            _ok(self.tables.post(f"/api/tables/{token}/scorer/", {"position": seats[0]},
                                 format="json"))
            hands: list[dict[str, Any]] = []
            while True:
                state = _ok(self.tables.get(f"/api/tables/{token}/"))
                if state["game"]["status"] != "playing":
                    break
                deal = random_hand if self.ruleset.table_sizes[0] == 3 else team_hand
                values = deal(self.rng, self.preset, seats, state["next_dealer"])
                _ok(self.tables.post(f"/api/tables/{token}/hands/",
                                     {**values, "number": state["next_number"]}, format="json"),
                    201)
                hands.append(values)
            self.played[round_["number"]][table["number"]] = (seats, hands)
            state = _ok(self.tables.get(f"/api/tables/{token}/"))
            # the keeper's own confirmation never counts
            refused = self.tables.post(f"/api/tables/{token}/confirm/",
                                       {"position": seats[0]}, format="json")
            assert refused.status_code == 400, refused.content
            _ok(self.tables.post(f"/api/tables/{token}/confirm/", {"position": seats[1]},
                                 format="json"))

    def engine_totals(self) -> dict[int, int]:
        """Every player's points, from the engine's own scoring of the hands entered."""
        totals: dict[int, int] = defaultdict(int)
        for round_ in self.rounds:
            for table in round_["tables"]:
                seats, hands = self.played[round_["number"]][table["number"]]
                result = score_game([parse_hand(h, self.ruleset, seats=seats) for h in hands],
                                    self.ruleset, max_deals=3, seats=seats)
                for seat in table["seats"]:
                    side = self.ruleset.side_of(seat["position"])
                    totals[seat["entry_id"]] += result.totals[-1][side]
        return totals


    def expected_rows(self) -> dict[int, dict[str, Any]]:
        """Every player's standings figures from the hands alone: their side's total at each
        table, the games won (the side the engine names the winner), the hands they bid, made
        and were set on, and for a round on a bye the event's bye score (by default the
        average of the round's winning players' scores, rounded half up)."""
        rows: dict[int, dict[str, Any]] = defaultdict(lambda: {
            "points": 0, "games": 0, "wins": 0, "byes": 0, "bye_points": 0,
            "hands_declared": 0, "hands_made": 0, "hands_set": 0, "per_round": {}})
        for round_ in self.rounds:
            number = str(round_["number"])
            winning: list[int] = []
            for table in round_["tables"]:
                seats, hands = self.played[round_["number"]][table["number"]]
                result = score_game([parse_hand(h, self.ruleset, seats=seats) for h in hands],
                                    self.ruleset, max_deals=3, seats=seats)
                for seat in table["seats"]:
                    side = self.ruleset.side_of(seat["position"])
                    mine = result.totals[-1][side]
                    row = rows[seat["entry_id"]]
                    row["points"] += mine
                    row["games"] += 1
                    row["per_round"][number] = mine
                    if result.winner == side:
                        row["wins"] += 1
                        winning.append(mine)
                    bid = [sc for h, sc in zip(hands, result.scores, strict=True)
                           if h["bidder"] == seat["position"]]
                    row["hands_declared"] += len(bid)
                    row["hands_made"] += sum(1 for sc in bid if sc.made)
                    row["hands_set"] += sum(1 for sc in bid if sc.made is False)
            bye = int((Decimal(sum(winning)) / len(winning)).quantize(
                Decimal(1), rounding=ROUND_HALF_UP)) if winning else 0
            for b in round_.get("byes", []):
                row = rows[b["entry_id"] if isinstance(b, dict) else b]
                row["byes"] += 1
                row["bye_points"] += bye
                row["points"] += bye
                row["per_round"][number] = bye
        return rows


def _club(api: APIClient, name: str) -> str:
    return _ok(api.post("/api/clubs/", {"name": name}, format="json"), 201)["slug"]


@pytest.mark.parametrize(("preset", "players", "overrides"), [
    ("three_handed", 10, None),          # 3 + 3 + 4, the fourth sitting out as dealer
    ("cutthroat", 11, None),             # 3 + 4 + 4
    ("three_handed", 7, {"sit_out": "none"}),  # 3 + 3 and a bye each round
])
def test_a_club_night_at_tables_of_three(director_api: APIClient, preset: str, players: int,
                                         overrides: dict[str, Any] | None,
                                         django_capture_on_commit_callbacks: Any) -> None:
    api = director_api
    night = Night(api, _club(api, f"Threes {preset} {players}"), preset=preset, players=players,
                  overrides=overrides, seed=players)
    sizes = night.ruleset.table_sizes
    byes: Counter[int] = Counter()
    fours: Counter[int] = Counter()
    met: Counter[frozenset[int]] = Counter()
    playing = list(night.entries)
    late: list[int] = []
    for number in range(1, 5):
        if number == 3:
            # after two rounds one player leaves and another arrives
            gone = playing.pop(0)
            _ok(api.post(night.url(f"entries/{gone}/leave/")))
            newcomer = _ok(api.post(f"/api/clubs/{night.slug}/players/", {"name": "Latecomer"},
                                    format="json"), 201)["id"]
            late.append(_ok(api.post(night.url("entries/"), {"player_id": newcomer},
                                     format="json"), 201)["id"])
            playing += late
        round_ = night.seat()
        seated = [s["entry_id"] for t in round_["tables"] for s in t["seats"]]
        resting = [b["entry_id"] if isinstance(b, dict) else b for b in round_.get("byes", [])]
        # every player here is placed: at a table or on a bye, once; the leaver is not
        assert sorted(seated + resting) == sorted(playing)
        for table in round_["tables"]:
            assert len(table["seats"]) in sizes
            assert [s["position"] for s in table["seats"]] == list(
                night.ruleset.seats_for(len(table["seats"])))
            ids = [s["entry_id"] for s in table["seats"]]
            if len(ids) == 4:
                fours.update(ids)
            met.update(frozenset(p) for p in itertools.combinations(ids, 2))
        byes.update(resting)
        with django_capture_on_commit_callbacks(execute=True):
            night.play(round_)
        # each game is won by one player (bid-and-out in cutthroat) or by the top score
        for table in _ok(api.get(night.url(f"rounds/{round_['number']}/")))["tables"]:
            assert set(table["game"]["totals"]) == {s["position"] for s in table["seats"]}
    steady = [e for e in playing if e not in late]  # here all night
    spread = [byes[e] for e in steady] if overrides else [fours[e] for e in steady]
    assert max(spread) - min(spread) <= 1
    quality = measure([RoundPlan(tables=tuple(tuple(s["entry_id"] for s in t["seats"])
                                              for t in r["tables"]),
                                 byes=tuple(b["entry_id"] if isinstance(b, dict) else b
                                            for b in r.get("byes", [])))
                       for r in night.rounds])
    repeats = sum(n - 1 for n in met.values() if n > 1)
    assert repeats == quality.repeat_opponents
    assert repeats <= quality.opponents_lower_bound + repeat_margin(players, 4, sizes)
    standings = _ok(api.get(night.url("standings/")))
    expected = night.engine_totals()
    # a bye (and a round missed) scores what the event's bye policy gives: compare the others
    rows = {r["entry_id"]: r["points"] for r in standings["rows"]}
    assert set(rows) == set(night.entries + late)
    compared = [e for e in night.entries if not byes[e] and e not in late]
    assert len(compared) >= len(night.entries) // 2
    assert {e: rows[e] for e in compared} == {e: expected[e] for e in compared}
    _ok(api.post(night.url("rounds/4/close/")))
    finished = _ok(api.post(night.url("finish/")))
    assert sorted(p["entry_id"] for p in finished["placements"]) == sorted(night.entries + late)


def test_a_progressive_day_at_tables_of_three_reaches_a_champion(
        director_api: APIClient, django_capture_on_commit_callbacks: Any) -> None:
    api = director_api
    day = Night(api, _club(api, "Progressive threes"), preset="cutthroat", players=9,
                format="individual_progressive", rounds=None,
                settings={"qualifying_games": 3, "cut": 3, "final_rule": "single_game"})
    assert day.event["format_settings"]["cut"] == 3
    for _ in range(3):
        round_ = day.seat()
        assert round_["stage"] == "qualifying" and len(round_["tables"]) == 3
        with django_capture_on_commit_callbacks(execute=True):
            day.play(round_)
    qualifying = _ok(api.get(day.url("standings/") + "?stage=qualifying"))
    top3 = [r["entry_id"] for r in qualifying["rows"][:3]]
    final = day.seat()
    assert final["stage"] == "final" and len(final["tables"]) == 1
    assert {s["entry_id"] for s in final["tables"][0]["seats"]} == set(top3)
    with django_capture_on_commit_callbacks(execute=True):
        day.play(final)
    finished = _ok(api.post(day.url("finish/")))
    champion = finished["placements"][0]
    game = _ok(api.get(day.url(f"rounds/{final['number']}/")))["tables"][0]
    winner_seat = game["game"]["winner"] or game["game"]["cut_winner"]
    assert champion["place"] == 1 and champion["stage"] == "final"
    assert champion["entry_id"] == next(s["entry_id"] for s in game["seats"]
                                        if s["position"] == winner_seat)
    assert len(finished["placements"]) == 9


@pytest.mark.parametrize(("preset", "players", "rounds"), [
    ("six_handed_triple_deck", 13, 3),    # two tables of six (teams of three) and a bye
    ("six_handed_triple_deck", 12, 3),    # two tables of six, nobody out
    ("two_handed", 7, 3),                 # three tables head to head and a bye
    ("two_handed", 10, 9),                # head to head: everyone meets everyone once
    ("eight_handed_double_deck", 16, 3),  # two tables of eight, four teams of two
    ("racehorse", 16, 2),                 # two tables of six (teams of three), four out
    ("five_handed", 11, 3),               # two tables of five, a called partner per hand
])
def test_a_club_night_at_tables_of_other_sizes(director_api: APIClient, preset: str,
                                               players: int, rounds: int,
                                               django_capture_on_commit_callbacks: Any) -> None:
    """Tables of two, five, six and eight through the API: every player placed each round,
    teams seated as the rules say, teammates changing, head to head nobody met twice while
    the field allows, the standings (byes included) equal to the engine's sums of the hands."""
    api = director_api
    night = Night(api, _club(api, f"Tables {preset} {players}"), preset=preset,
                  players=players, seed=players, rounds=rounds)
    rs = night.ruleset
    size = rs.table_sizes[0]
    mates: Counter[frozenset[int]] = Counter()
    met: Counter[frozenset[int]] = Counter()
    byes: Counter[int] = Counter()
    for _ in range(rounds):
        round_ = night.seat()
        seated = [s["entry_id"] for t in round_["tables"] for s in t["seats"]]
        resting = [b["entry_id"] if isinstance(b, dict) else b for b in round_.get("byes", [])]
        assert sorted(seated + resting) == sorted(night.entries)
        assert len(resting) == players % size
        byes.update(resting)
        for table in round_["tables"]:
            at = {s["position"]: s["entry_id"] for s in table["seats"]}
            assert list(at) == list(rs.seats_for(size))
            for side in rs.sides_for(size):
                team = [at[p] for p in rs.seats_of(side)]
                mates.update(frozenset(p) for p in itertools.combinations(team, 2))
            if size == 2:
                met[frozenset(at.values())] += 1
        with django_capture_on_commit_callbacks(execute=True):
            night.play(round_)
    assert max(byes[e] for e in night.entries) - min(byes[e] for e in night.entries) <= 1
    if rs.side_size > 1:  # teammates change: nobody plays a whole night with the same team
        assert max(mates.values()) < 3
    if size == 2:  # head to head, at most the round robin's n - 1 rounds: nobody meets twice
        assert max(met.values()) == 1
        if rounds == players - 1:
            assert len(met) == players * (players - 1) // 2
    rows = _ok(api.get(night.url("standings/")))["rows"]
    expected = night.expected_rows()
    assert {r["entry_id"] for r in rows} == set(night.entries) == set(expected)
    assert {r["entry_id"]: {k: r[k] for k in expected[r["entry_id"]]} for r in rows} == expected
    assert any(byes.values()) == bool(players % size)
    assert sum(r["games"] + r["byes"] for r in rows) == players * rounds


@pytest.mark.parametrize(("players", "rounds"), [(9, 3), (10, 4)])
def test_a_two_handed_swiss_head_to_head(director_api: APIClient, players: int, rounds: int,
                                        django_capture_on_commit_callbacks: Any) -> None:
    """Players head to head in a Swiss (nine over three rounds, ten over four): each checked in
    as a side of one, paired by wins (never twice), a bye in turn with an odd field; the
    standings are the engine's sums of the hands."""
    api = director_api
    slug = _club(api, f"Two-handed Swiss {players}")
    event = _ok(api.post("/api/events/", {
        "club": slug, "name": "Head to head", "date": "2026-11-28", "format": "swiss",
        "ruleset_preset": "two_handed", "rounds_planned": rounds, "deals_per_round": 2},
        format="json"), 201)
    url = f"/api/events/{event['id']}/"
    sides = {}
    for n in range(players):
        player = _ok(api.post(f"/api/clubs/{slug}/players/", {"name": f"Duel {n}"},
                              format="json"), 201)["id"]
        side = _ok(api.post(url + "entries/", {"player_id": player}, format="json"), 201)
        sides[side["id"]] = [m["entry_id"] if isinstance(m, dict) else m
                             for m in side.get("members", side.get("entries", []))]
    rs = get_ruleset("two_handed")
    rng = random.Random(players)
    tables_api = APIClient()
    met: Counter[frozenset[int]] = Counter()
    points: dict[int, int] = defaultdict(int)
    byes: Counter[int] = Counter()
    wins: Counter[int] = Counter()
    against: Counter[int] = Counter()
    per_round: dict[int, dict[str, int]] = defaultdict(dict)
    for number in range(1, rounds + 1):
        if api.get(url + f"rounds/{number}/").status_code == 404:
            _ok(api.post(url + "rounds/", {}, format="json"), 201)
        round_ = _ok(api.get(url + f"rounds/{number}/"))
        seated = [s["entry_id"] for t in round_["tables"] for s in t["seats"]]
        resting = [b["entry_id"] if isinstance(b, dict) else b for b in round_.get("byes", [])]
        assert len(seated) == players - players % 2 and len(resting) == players % 2
        byes.update(resting)
        for table in round_["tables"]:
            assert [s["position"] for s in table["seats"]] == list(rs.seats_for(2))
            met[frozenset(s["entry_id"] for s in table["seats"])] += 1
            token, seats = table["token"], [s["position"] for s in table["seats"]]
            _ok(tables_api.post(f"/api/tables/{token}/scorer/", {"position": "N"},
                                format="json"))
            hands = []
            while True:
                state = _ok(tables_api.get(f"/api/tables/{token}/"))
                if state["game"]["status"] != "playing":
                    break
                values = team_hand(rng, "two_handed", seats, state["next_dealer"])
                _ok(tables_api.post(f"/api/tables/{token}/hands/",
                                    {**values, "number": state["next_number"]}, format="json"),
                    201)
                hands.append(values)
            result = score_game([parse_hand(h, rs, seats=seats) for h in hands], rs,
                                max_deals=2, seats=seats)
            for s in table["seats"]:
                mine = result.totals[-1][s["position"]]
                points[s["entry_id"]] += mine
                per_round[s["entry_id"]][str(number)] = mine
                against[s["entry_id"]] += sum(result.totals[-1].values()) - mine
            game = _ok(tables_api.get(f"/api/tables/{token}/"))["game"]
            assert game["winner"] == (result.winner or "")
            if not game["winner"]:  # level: the cut of the cards decides who moves on
                _ok(api.post(url + f"rounds/{number}/tables/{table['number']}/cut/",
                             {"winner": "N"}, format="json"))
            won = result.winner or "N"
            wins.update(s["entry_id"] for s in table["seats"] if s["position"] == won)
            with django_capture_on_commit_callbacks(execute=True):
                _ok(tables_api.post(f"/api/tables/{token}/confirm/", {"position": "S"},
                                    format="json"))
        if api.get(url + f"rounds/{number}/").json()["status"] != "closed":
            _ok(api.post(url + f"rounds/{number}/close/"))
    assert max(met.values()) == 1, "nobody meets the same opponent twice"
    assert max(byes.values(), default=0) == players % 2
    assert sum(met.values()) == rounds * (players // 2)
    standings = _ok(api.get(url + "standings/"))
    rows = standings["rows"]
    assert len(rows) == players
    if not players % 2:  # nobody sat out: every figure is the hands' own
        assert {r["entry_id"]: r["points"] for r in rows} == dict(points)
        assert sum(wins.values()) == rounds * players // 2
        assert {r["entry_id"]: (r["wins"], r["games"], r["against"], r["per_round"])
                for r in rows} == {e: (wins[e], rounds, against[e], per_round[e]) for e in points}
        # ranked by wins, then points (the Swiss's order)
        order = [(r["wins"], r["points"]) for r in rows]
        assert order == sorted(order, reverse=True)
    for row in rows:
        entry = row.get("entry_id")
        if entry in byes:
            continue
        assert row["points"] == points[entry], row


def test_check_pinochle_keeps_the_checks_beside_the_points(
        director_api: APIClient, django_capture_on_commit_callbacks: Any) -> None:
    """A check pinochle night of six: each hand names the melds that earn checks (a run shown
    with 150 meld), the standings total every player's checks as the engine counts them."""
    api = director_api
    night = Night(api, _club(api, "Checks"), preset="check_pinochle", players=6, seed=6,
                  overrides={"sit_out": "none"})
    original = night.play

    def with_checks(round_: dict[str, Any]) -> None:
        # the table shows a run wherever a player melded 150 (the run's value)
        global random_hand
        plain = random_hand

        def hand(rng: random.Random, preset: str, seats: list[str], dealer: str
                 ) -> dict[str, Any]:
            values = plain(rng, preset, seats, dealer)
            runs = {s: ["run"] for s, m in values["meld"].items() if m == 150}
            if runs:
                values["check_melds"] = runs
            return values

        random_hand = hand
        try:
            original(round_)
        finally:
            random_hand = plain

    rs = night.ruleset
    for _ in range(2):
        round_ = night.seat()
        with django_capture_on_commit_callbacks(execute=True):
            with_checks(round_)
    expected: dict[int, int] = defaultdict(int)
    shown = 0
    for round_ in night.rounds:
        for table in round_["tables"]:
            seats, hands = night.played[round_["number"]][table["number"]]
            shown += sum(len(h.get("check_melds", {})) for h in hands)
            result = score_game([parse_hand(h, rs, seats=seats) for h in hands], rs,
                                max_deals=3, seats=seats)
            assert result.check_totals is not None
            for s in table["seats"]:
                expected[s["entry_id"]] += result.check_totals.get(s["position"], 0)
    assert shown, "some hands showed a run"
    rows = _ok(api.get(night.url("standings/")))["rows"]
    assert {r["entry_id"]: r["checks"] for r in rows} == {e: expected[e] for e in night.entries}
    assert any(expected.values())

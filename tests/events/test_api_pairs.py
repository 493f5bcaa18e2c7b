"""Fixed-partnership events run through the REST API alone, as a director's script and the
tables' phones would drive them: a 12-pair Swiss of 5 rounds, a 13-pair double elimination with
a consolation bracket played to its champion, and 6 Swiss rounds cut to a single-elimination
playoff. Results are random; what the API answers is checked against what was entered:
standings recomputed here from the hands' points, no Swiss rematch, byes spread, every pair
placed once per round, bracket winners and losers routed as the plan says, eliminations after
one or two losses, the champion winning the deciding match. Bad requests change nothing.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.events.test_api_progressive import _ok, _random_hand, _refused, director_api

pytestmark = pytest.mark.django_db
__all__ = ["director_api"]  # the fixture, shared with the progressive tournament's test

DEALS = 2


class PairEvent:
    """A pair event's director script and table phones, with the points they saw."""

    def __init__(self, api: APIClient, slug: str, capture: Any, seed: int, **event: Any) -> None:
        self.api, self.capture = api, capture
        self.rng = random.Random(seed)
        self.tables_api = APIClient()
        body = {"club": slug, "name": f"Pairs {seed}", "date": "2026-11-22",
                "deals_per_round": DEALS, **event}
        self.event = _ok(api.post("/api/events/", body, format="json"), 201)
        self.id = self.event["id"]
        # (round, table) -> (N-S pair, E-W pair, points per side)
        self.points: dict[tuple[int, int], tuple[int, int, dict[str, int]]] = {}
        self.met: Counter[frozenset[int]] = Counter()
        self.byes: Counter[int] = Counter()

    def url(self, tail: str = "") -> str:
        return f"/api/events/{self.id}/{tail}"

    def register(self, players: list[int], **extra: Any) -> int:
        body = {"player_ids": players, **extra}
        return int(_ok(self.api.post(self.url("entries/"), body, format="json"), 201)["id"])

    def round(self, number: int) -> dict[str, Any]:
        return _ok(self.api.get(self.url(f"rounds/{number}/")))

    def pairs_of(self, round_: dict[str, Any]) -> tuple[list[tuple[int, int]], list[int]]:
        """The round's matches (N-S pair, E-W pair) and its bye pairs."""
        entry_pair = {p["entry_id"]: pair["id"] for pair in _ok(self.api.get(self.url("pairs/")))
                      for p in pair["players"]}
        matches = []
        for table in round_["tables"]:
            seats = {s["position"]: s["entry_id"] for s in table["seats"]}
            ns, ew = entry_pair[seats["N"]], entry_pair[seats["E"]]
            assert entry_pair[seats["S"]] == ns and entry_pair[seats["W"]] == ew
            assert table["pairs"] == [ns, ew]
            matches.append((ns, ew))
        byes = sorted({entry_pair[e] for e in round_["byes"]})
        return matches, byes

    def play(self, round_: dict[str, Any]) -> None:
        """Every table enters its deals and the other side confirms."""
        matches, byes = self.pairs_of(round_)
        for pair in byes:
            self.byes[pair] += 1
        for table, (ns, ew) in zip(round_["tables"], matches, strict=True):
            token = table["token"]
            _ok(self.tables_api.post(f"/api/tables/{token}/scorer/", {"position": "N"},
                                     format="json"))
            points = {"NS": 0, "EW": 0}
            for _ in range(DEALS):
                state = _ok(self.tables_api.get(f"/api/tables/{token}/"))
                body = {**_random_hand(self.rng), "dealer": state["next_dealer"],
                        "number": state["next_number"]}
                stored = _ok(self.tables_api.post(f"/api/tables/{token}/hands/", body,
                                                  format="json"), 201)
                points = {s: points[s] + stored["points"][s] for s in points}
            with self.capture(execute=True):
                _ok(self.tables_api.post(f"/api/tables/{token}/confirm/", {"position": "E"},
                                         format="json"))
            self.points[(round_["number"], table["number"])] = (ns, ew, points)
            self.met[frozenset((ns, ew))] += 1

    def play_bracket(self, current: dict[str, Any]) -> dict[str, Any]:
        """Play wave after wave (each seated by the advance, every table a bracket match) until
        the bracket is decided; returns the bracket."""
        while True:
            self.play(current)
            bracket = _ok(self.api.get(self.url("bracket/")))
            if bracket["complete"]:
                return bracket
            current = self.round(current["number"] + 1)
            assert current["stage"] == "bracket" and all(tb["match"] for tb in current["tables"])

    @property
    def games(self) -> dict[int, dict[int, tuple[int, int, bool]]]:
        """pair -> round -> (points for, points against, won), the winner read back once the
        round is over (a level game's cut is made when the next round is seated)."""
        out: dict[int, dict[int, tuple[int, int, bool]]] = defaultdict(dict)
        rounds: dict[int, dict[str, Any]] = {}
        for (number, table), (ns, ew, points) in self.points.items():
            if number not in rounds:
                rounds[number] = self.round(number)
            game = rounds[number]["tables"][table - 1]["game"]
            side = game["winner"] or game["cut_winner"]
            if game["winner"] is None:
                assert points["NS"] == points["EW"]
            else:
                assert points[side] > points["EW" if side == "NS" else "NS"]
            out[ns][number] = (points["NS"], points["EW"], side == "NS")
            out[ew][number] = (points["EW"], points["NS"], side == "EW")
        return out

    def expected_standings(self, rounds: set[int], bye_points: dict[int, int]) -> dict[int, Any]:
        """(wins, points, against) per pair from the points entered; a bye is a win."""
        out = {}
        games = self.games
        for pair in set(games) | set(self.byes):
            mine = [g for n, g in games[pair].items() if n in rounds]
            out[pair] = (sum(1 for g in mine if g[2]) + self.byes[pair],
                         sum(g[0] for g in mine) + bye_points.get(pair, 0),
                         sum(g[1] for g in mine))
        return out


@pytest.fixture
def roster(director_api: APIClient) -> tuple[str, list[int]]:
    club = _ok(director_api.post("/api/clubs/", {"name": "Partners Club"}, format="json"), 201)
    players = [_ok(director_api.post(f"/api/clubs/{club['slug']}/players/",
                                     {"name": f"Player {n:02d}"}, format="json"), 201)["id"]
               for n in range(1, 31)]
    return club["slug"], players


def test_pair_registration_refuses_bad_pairs_and_changes_nothing(
        director_api: APIClient, roster: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 1,
                  format="single_elimination")
    assert t.event["partnership"] == "fixed"
    api = director_api
    _refused(api.post(t.url("entries/"), {"player_ids": [players[0], players[0]]},
                      format="json"), "player_ids")
    _refused(api.post(t.url("entries/"), {"player_ids": [players[0]]}, format="json"),
             "player_ids")
    _refused(api.post(t.url("entries/"), {"player_id": players[0]}, format="json"), "player_ids")
    first = t.register(players[:2], name="The Aces", seed=1)
    _refused(api.post(t.url("entries/"), {"player_ids": [players[1], players[2]]},
                      format="json"), "player_ids")
    _refused(api.post(t.url("entries/"), {"player_ids": [players[2], players[3]], "seed": 1},
                      format="json"), "seed")
    pairs = _ok(api.get(t.url("pairs/")))
    assert [(p["id"], p["name"], p["seed"]) for p in pairs] == [(first, "The Aces", 1)]
    assert len(_ok(api.get(t.url("entries/")))) == 2
    # a bracket of one pair
    _refused(api.post(t.url("rounds/"), {}, format="json"), "pairs")
    assert _ok(api.get(t.url("rounds/"))) == []
    # settings name their field
    _refused(api.post("/api/events/", {"club": slug, "name": "X", "date": "2026-11-22",
                                       "format": "double_elimination",
                                       "format_settings": {"third_place": True}},
                      format="json"), "format_settings.third_place")
    _refused(api.post("/api/events/", {"club": slug, "name": "X", "date": "2026-11-22",
                                       "format": "swiss",
                                       "format_settings": {"playoff": {"cut": 1}}},
                      format="json"), "format_settings.playoff.cut")


def test_a_12_pair_swiss_of_5_rounds(director_api: APIClient, roster: tuple[str, list[int]],
                                     django_capture_on_commit_callbacks: Any) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 12,
                  format="swiss", rounds_planned=5, bye_scoring="average_winning")
    pairs = [t.register(players[2 * i:2 * i + 2]) for i in range(12)]
    assert t.event["rounds_total"] == 5
    current = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    wins: Counter[int] = Counter()
    for number in range(1, 6):
        assert current["number"] == number
        matches, byes = t.pairs_of(current)
        placed = [p for m in matches for p in m] + byes
        assert sorted(placed) == sorted(pairs), "every pair placed exactly once"
        assert all(t.met[frozenset(m)] == 0 for m in matches), "no rematch"
        groups = Counter(wins[p] for p in pairs)
        cross = sum(1 for a, b in matches if wins[a] != wins[b])
        assert cross <= sum(1 for size in groups.values() if size % 2) + 2
        t.play(current)
        if number < 5:
            current = t.round(number + 1)  # seated by the advance: the cuts are made
            played = t.games
            wins = Counter({p: sum(g[2] for g in played[p].values()) for p in pairs})
    assert director_api.get(t.url("rounds/6/")).status_code == 404
    standings = _ok(director_api.get(t.url("standings/")))
    expected = t.expected_standings(set(range(1, 6)), {})
    got = {r["pair_id"]: (r["wins"], r["points"], r["against"]) for r in standings["rows"]}
    assert got == expected
    keys = [(r["wins"], r["points"]) for r in standings["rows"]]
    assert keys == sorted(keys, reverse=True)
    finished = _ok(director_api.post(t.url("finish/")))
    places = finished["placements"]
    assert sorted(p["pair_id"] for p in places) == sorted(pairs)
    assert places[0]["pair_id"] == standings["rows"][0]["pair_id"]


def _bracket_losses(bracket: dict[str, Any]) -> tuple[Counter[int], list[dict[str, Any]]]:
    """Main-bracket losses per pair and every finished match (checked against the routing)."""
    losses: Counter[int] = Counter()
    played = []
    matches = {m["code"]: m for part in bracket["brackets"] for col in part["rounds"]
               for m in col["matches"]}
    for m in matches.values():
        if m["status"] != "finished":
            continue
        played.append(m)
        sides = {s["pair"] for s in m["sides"]}
        assert {m["winner"], m["loser"]} == sides
        if m["bracket"] != "consolation":
            losses[m["loser"]] += 1
        for pair, to in ((m["winner"], m["winner_to"]), (m["loser"], m["loser_to"])):
            if to and matches[to]["status"] != "skipped":
                assert pair in {s["pair"] for s in matches[to]["sides"]}, (m["code"], to)
    return losses, played


def test_a_13_pair_double_elimination_with_consolation(
        director_api: APIClient, roster: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 13,
                  format="double_elimination", format_settings={"consolation": [1, 2]})
    pairs = [t.register(players[2 * i:2 * i + 2], seed=i + 1) for i in range(13)]
    bracket = _ok(director_api.get(t.url("bracket/")))
    later = [m["code"] for part in bracket["brackets"] for col in part["rounds"]
             for m in col["matches"] if m["depth"] > 1][0]
    # a result for a match whose pairs are not known yet
    hand = {**_random_hand(t.rng), "dealer": "N", "number": 1, "match": later}
    _refused(director_api.post(t.url("hands/"), hand, format="json"), "match")
    current = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    # three byes to the top seeds: 5 first-round matches
    assert len(current["tables"]) == 5
    seated = {tb["match"] for tb in current["tables"]}
    assert seated == {m["code"] for part in bracket["brackets"] for col in part["rounds"]
                      for m in col["matches"] if m["depth"] == 1}
    # a pair seated at a game of the open round forfeits it rather than withdraws
    _refused(director_api.post(t.url(f"pairs/{pairs[12]}/leave/")), "pair")
    # the bracket's shape is fixed once it has started; the time limit may still change
    _refused(director_api.patch(t.url(), {"format_settings": {"consolation": [1]}},
                                format="json"), "format_settings.consolation")
    assert _ok(director_api.patch(t.url(), {"format_settings": {
        "consolation": [1, 2], "game_minutes": 40}}, format="json"))["format_settings"][
        "game_minutes"] == 40
    bracket = t.play_bracket(current)
    losses, played = _bracket_losses(bracket)
    main = [m for m in played if m["bracket"] != "consolation"]
    assert len(main) in (2 * 13 - 2, 2 * 13 - 1)
    champion = bracket["champion"]
    assert losses[champion] <= 1
    assert all(losses[p] == 2 for p in pairs if p != champion)
    deciding = max((m for m in main if m["bracket"] == "final"), key=lambda m: m["depth"])
    assert deciding["winner"] == champion
    consolation = [m for m in played if m["bracket"] == "consolation"]
    assert consolation and bracket["consolation_placements"]
    finished = _ok(director_api.post(t.url("finish/")))
    assert sorted(p["pair_id"] for p in finished["placements"]) == sorted(pairs)
    assert finished["placements"][0]["pair_id"] == champion


def test_swiss_rounds_cut_to_a_single_elimination_playoff(
        director_api: APIClient, roster: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 10,
                  format="swiss", rounds_planned=6,
                  format_settings={"playoff": {"kind": "single", "cut": 4, "third_place": True}})
    pairs = [t.register(players[2 * i:2 * i + 2]) for i in range(9)]
    assert [s["stage"] for s in _ok(director_api.get(t.url()))["stages"]] == [
        "qualifying", "bracket"]
    current = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    for number in range(1, 7):
        t.play(current)
        current = t.round(number + 1)
    # odd count: one bye a round, nobody twice while another has none
    assert sum(t.byes.values()) == 6 and max(t.byes.values()) == 1
    assert current["stage"] == "bracket"
    qualifying = _ok(director_api.get(t.url("standings/") + "?stage=qualifying"))
    order = [r["pair_id"] for r in qualifying["rows"]]
    top4 = order[:4]
    matches, _ = t.pairs_of(current)
    assert {frozenset(m) for m in matches} == {frozenset((top4[0], top4[3])),
                                               frozenset((top4[1], top4[2]))}
    bracket = t.play_bracket(current)
    losses, played = _bracket_losses(bracket)
    assert len(played) == 4  # two semi-finals, the final, the third-place match
    finished = _ok(director_api.post(t.url("finish/")))
    places = finished["placements"]
    assert sorted(p["pair_id"] for p in places) == sorted(pairs)
    assert [p["pair_id"] for p in places[:4]] == [pair for _, pair in sorted(
        (p["place"], p["pair"]) for p in bracket["placements"])]
    assert {p["pair_id"] for p in places[4:]} == set(order[4:])


@pytest.mark.parametrize(("fmt", "settings", "count"), [
    ("round_robin", {}, 7),
    ("round_robin", {"groups": 2}, 9),
    ("ab_movement", {}, 8),
    ("winners_stay", {}, 7),
])
def test_fixed_schedules_meet_each_pair_once_and_rank_from_the_hands(
        director_api: APIClient, roster: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any, fmt: str, settings: dict[str, Any],
        count: int) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, count,
                  format=fmt, format_settings=settings, rounds_planned=3,
                  bye_scoring="fixed", bye_points=100)
    pairs = [t.register(players[2 * i:2 * i + 2]) for i in range(count)]
    total = _ok(director_api.get(t.url()))["rounds_total"]
    if fmt == "round_robin":
        groups = settings.get("groups", 1)
        largest = -(-count // groups)
        assert total == (largest if largest % 2 else largest - 1)
    else:
        assert total == 3
    current = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    stationary: dict[int, int] = {}
    for number in range(1, total + 1):
        matches, byes = t.pairs_of(current)
        placed = [p for m in matches for p in m] + byes
        assert len(placed) == len(set(placed)), "nobody placed twice in a round"
        if not settings:
            assert sorted(placed) == sorted(pairs), "every pair placed exactly once"
        assert all(t.met[frozenset(m)] == 0 for m in matches), "no rematch"
        if fmt == "ab_movement":
            for table, (a, _) in enumerate(matches, start=1):
                assert stationary.setdefault(table, a) == a, "A pairs never move"
        t.play(current)
        if number < total:
            current = t.round(number + 1)
        if fmt == "winners_stay" and number == 1:
            first = {tb["number"]: tb for tb in t.round(1)["tables"]}
            second = {tb["number"]: tb for tb in current["tables"]}
            for n, tb in first.items():
                side = tb["game"]["winner"] or tb["game"]["cut_winner"]
                winner = tb["pairs"][0] if side == "NS" else tb["pairs"][1]
                assert winner in second[n]["pairs"], "first game's winners stay at their table"
    assert director_api.get(t.url(f"rounds/{total + 1}/")).status_code == 404
    if fmt == "round_robin":  # every pair met each pair of its group once
        groups = settings.get("groups", 1)
        sizes = [count // groups + (1 if g < count % groups else 0) for g in range(groups)]
        assert sum(t.met.values()) == sum(size * (size - 1) // 2 for size in sizes)
    standings = _ok(director_api.get(t.url("standings/")))
    bye_points = Counter({p: 100 * n for p, n in t.byes.items()})
    expected = t.expected_standings(set(range(1, total + 1)), bye_points)
    got = {r["pair_id"]: (r["wins"], r["points"], r["against"]) for r in standings["rows"]}
    assert got == {p: expected.get(p, (0, 0, 0)) for p in pairs}


def test_a_timed_round_to_the_target_ends_when_time_is_called_and_the_pair_ahead_wins(
        director_api: APIClient, roster: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any) -> None:
    """"50 minutes or 500, whichever first": games to the target, time called by the director;
    the wall's movement board counts down."""
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 50,
                  format="ab_movement", rounds_planned=2, deals_per_round=None,
                  format_settings={"game_minutes": 50})
    for i in range(4):
        t.register(players[2 * i:2 * i + 2])
    assert "50 minutes" in " ".join(_ok(director_api.get(t.url()))["rules"])
    first = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    points = []
    for table in first["tables"]:
        state = _ok(t.tables_api.get(f"/api/tables/{table['token']}/"))
        _ok(t.tables_api.post(f"/api/tables/{table['token']}/scorer/", {"position": "N"},
                              format="json"))
        body = {**_random_hand(t.rng), "dealer": state["next_dealer"], "number": 1}
        points.append(_ok(t.tables_api.post(f"/api/tables/{table['token']}/hands/", body,
                                            format="json"), 201)["points"])
    board = director_api.get(f"/events/{t.id}/wall/movement/")
    assert board.status_code == 200 and b"data-deadline" in board.content
    with django_capture_on_commit_callbacks(execute=True):
        ended = _ok(director_api.post(t.url("rounds/1/time/")))
    for table, scored in zip(ended["tables"], points, strict=True):
        game = table["game"]
        assert game["status"] == "finished"
        if scored["NS"] != scored["EW"]:
            assert game["winner"] == max(scored, key=scored.__getitem__)

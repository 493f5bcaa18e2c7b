"""The soak benchmark's pure parts (bench/soak): the report's arithmetic (simulated hours, the
per-hour buckets, the memory slope), the stable names of recycled processes, the smaps
parsing, the hands' checksum and the independent recomputation of the standings, checked on a
tiny day against the live path (``standings_compute`` over the rows the services wrote). The
soak itself is `make bench-soak`."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bench.load.hands import random_hand
from bench.load.harness import ProcStat, Sample
from bench.soak.procs import Slots, children_of, group_ticks, parse_smaps_rollup
from bench.soak.recompute import (
    PlayedGame,
    game_results,
    hands_checksum,
    hands_differences,
    recompute_standings,
    rows_differences,
)
from bench.soak.report import (
    hour_of,
    hours_spanned,
    memory_slopes,
    per_hour_cpu,
    per_hour_gauges,
    per_hour_requests,
    slope,
)
from rules_engine import get_ruleset, parse_hand, score_hand

ROOT = Path(__file__).resolve().parents[2]


def soak_script() -> ModuleType:
    """bench/soak.py (a script beside the bench/soak package of the same name)."""
    spec = importlib.util.spec_from_file_location("soak_script", ROOT / "bench" / "soak.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- simulated hours and the slope ---------------------------------------------------------------
def test_simulated_hours_follow_the_pace() -> None:
    assert hour_of(100.0 + 120.0, 100.0, 30.0) == pytest.approx(1.0)  # 2 real minutes at 30×
    assert hour_of(100.0, 100.0, 30.0) == 0.0
    assert hours_spanned(0.0, 120.0, 30.0) == 1
    assert hours_spanned(0.0, 121.0, 30.0) == 2
    assert hours_spanned(0.0, 10.0, 30.0) == 1


def test_slope_is_the_least_squares_line() -> None:
    assert slope([(0.0, 100.0), (1.0, 102.0), (2.0, 104.0), (3.0, 106.0)]) == pytest.approx(2.0)
    assert slope([(0.0, 5.0), (1.0, 5.0), (2.0, 5.0)]) == pytest.approx(0.0)
    # noise around a flat line stays near zero; a sawtooth of recycled workers does too
    assert slope([(0.0, 100.0), (1.0, 110.0), (2.0, 100.0), (3.0, 110.0), (4.0, 100.0)]) == \
        pytest.approx(0.0)
    assert slope([(0.0, 1.0), (0.0, 3.0)]) is None
    assert slope([(1.0, 1.0)]) is None


def sample(hour: float, rss: dict[str, float], **more: Any) -> dict[str, Any]:
    return {"hour": hour, "t": hour * 120.0, "rss": rss,
            "uss": {k: v / 2 for k, v in rss.items()}, "pg_connections": 5,
            "redis_clients": 10, "redis_used_mb": 2.0, **more}


def test_memory_slope_counts_only_the_samples_after_the_first_game() -> None:
    samples = [sample(0.0, {"push": 50.0, "web": 80.0}), sample(0.5, {"push": 90.0, "web": 90.0}),
               sample(1.0, {"push": 90.0, "web": 100.0}), sample(2.0, {"push": 90.0, "web": 104.0}),
               sample(3.0, {"push": 90.0, "web": 108.0})]
    slopes = memory_slopes(samples, after_hour=1.0)
    assert slopes["push"]["slope_mb_per_h"] == pytest.approx(0.0)  # the warm-up is left out
    assert slopes["web"]["slope_mb_per_h"] == pytest.approx(4.0)
    assert slopes["web"]["samples"] == 3
    assert (slopes["web"]["first_mb"], slopes["web"]["last_mb"]) == (100.0, 108.0)
    private = memory_slopes(samples, after_hour=1.0, key="uss")
    assert private["web"]["slope_mb_per_h"] == pytest.approx(2.0)
    everything = memory_slopes(samples, after_hour=0.0)
    assert everything["push"]["slope_mb_per_h"] > 0


def test_requests_are_grouped_by_the_simulated_hour_they_started_in() -> None:
    t0, pace = 1000.0, 30.0  # an hour is 120 real seconds
    samples = [Sample("submit", t0 + 10, 50.0, 201, 300), Sample("submit", t0 + 100, 150.0, 201, 300),
               Sample("submit", t0 + 130, 70.0, 500, 0), Sample("check", t0 + 200, 20.0, 400, 90),
               Sample("submit", t0 - 5, 999.0, 201, 300)]  # before the day: not counted
    hours = per_hour_requests(samples, t0, pace, 2, {"check": {400}})
    first = {row["kind"]: row for row in hours[0]}
    second = {row["kind"]: row for row in hours[1]}
    assert first["submit"]["count"] == 2 and first["submit"]["errors"] == 0
    assert first["submit"]["p50_ms"] == pytest.approx(100.0)
    assert second["submit"]["errors"] == 1 and second["submit"]["statuses"] == {"500": 1}
    assert second["check"]["expected"] == 1 and second["check"]["errors"] == 0
    assert second["submit"]["rate"] == pytest.approx(1 / 120)


def test_gauges_and_cores_per_hour() -> None:
    samples = [
        sample(0.1, {"push": 50.0}, pg_connections=4, ticks={"push": 0}, cpu=[0, 0]),
        sample(0.9, {"push": 55.0}, pg_connections=9, redis_clients=12, ticks={"push": 960},
               cpu=[19200, 192]),
        sample(1.2, {"push": 56.0}, ticks={"push": 1000}, cpu=[20000, 200]),
    ]
    gauges = per_hour_gauges(samples, 3)
    assert gauges[0]["rss_mb"] == {"push": 55.0}  # the hour's last sample
    assert gauges[0]["pg_connections_max"] == 9 and gauges[0]["redis_clients_max"] == 12
    assert gauges[1]["rss_mb"] == {"push": 56.0}
    assert gauges[2] == {"hour": 2, "samples": 0}
    cpu = per_hour_cpu(samples, 2, hz=100)
    # 960 ticks at 100 Hz over 0.8 h × 120 s = 96 real seconds: 0.1 core; 1 % stolen
    assert cpu[0]["cores"] == {"push": pytest.approx(0.1)}
    assert cpu[0]["steal_percent"] == pytest.approx(1.0)
    assert cpu[1]["cores"] == {}  # a single sample says nothing
    # the machine: of 19,200 ticks, 9,600 idle and 192 stolen: 49 % busy, of 2 cores
    samples[0]["cpu_idle"], samples[1]["cpu_idle"] = 0, 9600
    machine = per_hour_cpu(samples, 1, hz=100, cores_of_machine=2)[0]
    assert machine["machine_busy_cores"] == pytest.approx(2 * (19200 - 9600 - 192) / 19200,
                                                          abs=0.01)


# --- processes -----------------------------------------------------------------------------------
def test_smaps_rollup_fields() -> None:
    text = ("55d0c0a00000-7ffd5a3fe000 ---p 00000000 00:00 0    [rollup]\n"
            "Rss:              109420 kB\nPss:               60211 kB\n"
            "Private_Clean:       204 kB\nPrivate_Dirty:     88012 kB\nVmFlags: rd wr\n")
    fields = parse_smaps_rollup(text)
    assert fields == {"Rss": 109420, "Pss": 60211, "Private_Clean": 204, "Private_Dirty": 88012}


def test_a_recycled_worker_keeps_its_slot_and_counts_a_restart() -> None:
    slots = Slots("gunicorn worker")
    assert slots.assign([201, 202, 203]) == {"gunicorn worker 1": 201, "gunicorn worker 2": 202,
                                             "gunicorn worker 3": 203}
    # worker 202 reached max_requests: 250 replaces it
    assert slots.assign([201, 203, 250]) == {"gunicorn worker 1": 201, "gunicorn worker 2": 250,
                                             "gunicorn worker 3": 203}
    assert slots.restarted() == {"gunicorn worker 1": 0, "gunicorn worker 2": 1,
                                 "gunicorn worker 3": 0}
    stats = {1: ProcStat(1, 0, 0), 201: ProcStat(201, 1, 0), 250: ProcStat(250, 1, 0),
             300: ProcStat(300, 201, 0)}
    assert children_of(stats, 1) == [201, 250]


# --- the hands' checksum ---------------------------------------------------------------------
HAND = {"dealer": "S", "bidder": "N", "bid": 51, "trump": "H", "outcome": "played",
        "meld": {"NS": 24, "EW": 32}, "counters": {"NS": 27, "EW": 23}}


def test_the_checksum_ignores_order_and_sees_any_change() -> None:
    one = {(1, 1, 1): dict(HAND), (1, 2, 1): dict(HAND, bid=55)}
    other = {(1, 2, 1): dict(reversed(list(dict(HAND, bid=55).items()))), (1, 1, 1): dict(HAND)}
    assert hands_checksum(one) == hands_checksum(other)
    assert hands_checksum(one) != hands_checksum({**one, (1, 1, 1): dict(HAND, bid=52)})
    assert hands_checksum(one) != hands_checksum({(1, 1, 1): dict(HAND)})


def test_hand_differences_name_missing_extra_and_changed_hands() -> None:
    sent = {(1, 1, 1): dict(HAND), (1, 1, 2): dict(HAND), (1, 2, 1): dict(HAND)}
    stored = {(1, 1, 1): dict(HAND, renege_seat=None),  # a field the phone did not send
              (1, 2, 1): dict(HAND, counters={"NS": 28, "EW": 22}), (2, 1, 1): dict(HAND)}
    counts, notes = hands_differences(sent, stored)
    assert counts == {"missing": 1, "extra": 1, "changed": 1}
    assert any("game 1 table 1 hand 2" in n and "not stored" in n for n in notes)
    assert any("game 2 table 1 hand 1" in n for n in notes)
    assert hands_differences(sent, dict(sent)) == ({"missing": 0, "extra": 0, "changed": 0}, [])


# --- the recomputation ---------------------------------------------------------------------------
NPA = get_ruleset("npa_double_deck")


def tiny_day(seed: int = 5) -> tuple[dict[int, str], list[PlayedGame]]:
    """8 players, 2 tables, 2 games of 4 deals, random legal hands."""
    rng = random.Random(seed)
    entries = {100 + i: f"Player {i}" for i in range(8)}
    games = []
    for game in (1, 2):
        ids = list(entries)
        rng.shuffle(ids)
        for table in (1, 2):
            four = ids[(table - 1) * 4:table * 4]
            hands, dealer = [], "N"
            for _ in range(4):
                hands.append(random_hand(rng, NPA, dealer))
                dealer = str(NPA.next_dealer(dealer))
            games.append(PlayedGame(game, table, dict(zip("NESW", four, strict=True)), hands))
    return entries, games


def test_game_results_add_up_the_engines_hand_scores() -> None:
    _, games = tiny_day()
    for played in games:
        results = game_results(played, NPA, 4)
        side_points = {"NS": 0, "EW": 0}
        for hand in played.hands:
            for side, points in score_hand(parse_hand(hand, NPA), NPA).points.items():
                side_points[str(side)] += points
        assert len(results) == 4
        for r in results:
            assert r.points == side_points[r.side]
            assert r.opponents_points == side_points["EW" if r.side == "NS" else "NS"]
            assert r.finished  # four deals: the game is over
            assert r.won == (side_points[r.side] > side_points["EW" if r.side == "NS" else "NS"])
        assert sum(r.hands_declared for r in results) == 4


def test_recomputed_standings_rank_by_the_points_summed_over_the_games() -> None:
    entries, games = tiny_day()
    rows = recompute_standings(entries=entries, games=games, ruleset=NPA, deals=4,
                               tie_breaks=["points", "wins", "head_to_head", "highest_game"])
    assert len(rows) == 8
    totals = {e: 0 for e in entries}
    for played in games:
        for r in game_results(played, NPA, 4):
            totals[r.entry_id] += r.points
    assert {row["entry_id"]: row["points"] for row in rows} == totals
    assert [row["points"] for row in rows] == sorted(totals.values(), reverse=True)
    assert all(row["games"] == 2 for row in rows)
    # a single counter moved from one side to the other shows
    changed = [PlayedGame(g.game, g.table, g.seats, list(g.hands)) for g in games]
    first = dict(changed[0].hands[0])
    first["counters"] = {"NS": first["counters"]["NS"] - 1, "EW": first["counters"]["EW"] + 1}
    changed[0] = PlayedGame(changed[0].game, changed[0].table, changed[0].seats,
                            [first, *changed[0].hands[1:]])
    other = recompute_standings(entries=entries, games=changed, ruleset=NPA, deals=4,
                                tie_breaks=["points", "wins", "head_to_head", "highest_game"])
    assert rows_differences(rows, other)
    assert rows_differences(rows, rows) == []
    assert rows_differences(rows, rows[:-1])[0] == "8 rows recomputed, 7 in the snapshot"


@pytest.mark.django_db
def test_the_recomputation_equals_the_live_standings_of_a_tiny_day() -> None:
    """Played through the services (hands saved, games derived, seat results written), the
    standings the live path computes equal the pure recomputation from the same hands."""
    from common.rulesets import event_ruleset
    from draw.services import round_create, round_set_status
    from ranking import tie_breaks_in_force
    from scoring.services import game_confirm, hand_submit
    from standings.compute import standings_compute
    from tests.tournaments.factories import progressive_event
    from tournaments.models import Round, Seat

    event = progressive_event(8, rounds_planned=2, format_settings={"cut": 0})
    ruleset = event_ruleset(event)
    rng = random.Random(11)
    games: list[PlayedGame] = []
    for _ in range(2):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        for table in round_.tables.order_by("number"):
            seats = dict(Seat.objects.filter(table=table).values_list("position", "entry_id"))
            hands, dealer = [], "N"
            for number in range(1, event.deals_per_round + 1):
                hand = random_hand(rng, ruleset, dealer)
                hand_submit(game=table.game, number=number, values=hand)
                hands.append(hand)
                dealer = str(ruleset.next_dealer(dealer))
            game_confirm(game=table.game, position="E")  # the other side confirms
            games.append(PlayedGame(round_.number, table.number, seats, hands))
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    entries = dict(event.entries.values_list("pk", "player__name"))
    rows = recompute_standings(
        entries=entries, games=games, ruleset=ruleset, deals=event.deals_per_round,
        tie_breaks=tie_breaks_in_force(event.tie_breaks, partnership=event.partnership))
    live = standings_compute(event=event).rows
    assert rows_differences(rows, live) == []
    assert rows == live
    assert sum(row["points"] for row in rows) != 0


# --- the command line ------------------------------------------------------------------------
def test_the_command_line_defaults_to_the_room_of_512_and_refuses_nonsense() -> None:
    soak = soak_script()
    args = soak.parse_args([])
    assert (args.tables, args.games, args.pace) == (128, 10, 30.0)
    # 10 games of at most 3 + 4 × 6 × 1.3 + 1.5 simulated minutes at 30×: about 12 minutes
    assert soak.expected_minutes(args) == pytest.approx(10 * (3 + 31.2 + 1.5) / 30)
    assert args.time_limit == pytest.approx(3 * soak.expected_minutes(args) + 15)
    small = soak.parse_args(["--tables", "16", "--games", "3", "--time-limit", "20"])
    assert (small.tables, small.games, small.time_limit) == (16, 3, 20.0)
    for bad in (["--tables", "0"], ["--games", "41"], ["--pace", "0"], ["--hand-minutes", "0"],
                ["--max-requests", "-1"]):
        with pytest.raises(SystemExit):
            soak.parse_args(bad)


def test_a_private_memory_slope_over_the_limit_fails_the_run() -> None:
    soak = soak_script()
    result = {"memory_slopes": {"uss": {"push": {"slope_mb_per_h": 0.4},
                                        "gunicorn worker 1": {"slope_mb_per_h": 6.5},
                                        "beat": {"slope_mb_per_h": None}}}}
    assert soak.slope_failures(result, None) == []
    assert soak.slope_failures(result, 5.0) == ["gunicorn worker 1: private memory +6.50 MB/h"]


def test_the_generator_s_cpu_is_its_own_not_the_stack_it_started() -> None:
    stats = {pid: ProcStat(pid=pid, ppid=ppid, ticks=ticks) for pid, ppid, ticks in (
        (10, 1, 7), (20, 10, 100), (21, 20, 50), (30, 10, 40))}  # soak -> gunicorn (+worker), push
    assert group_ticks(stats, {"generator": [10], "gunicorn": [20], "push": [30],
                               "beat": [99]}) == {"generator": 7, "gunicorn": 150, "push": 40,
                                                  "beat": 0}

"""The load benchmark's pure parts (bench/load): percentiles, CPU accounting from /proc stat
lines, the end-to-end visibility rule, status classification, and the hand generator against
the rules engine. No server is started here: the load run itself is `make bench-load`."""

from __future__ import annotations

import random
import statistics
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.load.hands import random_hand, typing_steps
from bench.load.harness import (
    CpuGroup,
    Poll,
    ProcStat,
    Sample,
    classify,
    cores_busy,
    parse_proc_stat,
    percentile,
    read_all_stats,
    steal_profile,
    summarise,
    tag_attribute,
    tree_ticks,
    visibility,
)
from bench.load.run import parse_args
from rules_engine import RulesError, get_ruleset, list_rulesets, parse_hand, score_game, score_hand

FOUR_HANDED = [rs.name for rs in list_rulesets() if rs.players == 4]


def stat_line(pid: int, comm: str, ppid: int, utime: int, stime: int, cutime: int = 0,
              cstime: int = 0) -> str:
    """A /proc/<pid>/stat line as the kernel writes it (52 fields)."""
    fields = ["S", str(ppid), str(pid), str(pid), "0", "-1", "4194560", "1", "0", "0", "0",
              str(utime), str(stime), str(cutime), str(cstime), "20", "0", "1", "0", "100"]
    fields += ["0"] * (50 - len(fields))
    return f"{pid} ({comm}) " + " ".join(fields) + "\n"


# --- percentiles -----------------------------------------------------------------------------
def test_percentile_interpolates_between_ranks() -> None:
    values = [40.0, 10.0, 30.0, 20.0]  # sorted: 10 20 30 40
    assert percentile(values, 0) == 10.0
    assert percentile(values, 100) == 40.0
    assert percentile(values, 50) == 25.0
    assert percentile(values, 95) == pytest.approx(38.5)
    assert percentile([7.0], 99) == 7.0
    assert percentile([], 50) is None
    with pytest.raises(ValueError):
        percentile(values, 101)


@given(st.lists(st.floats(min_value=0, max_value=1e6, allow_nan=False), min_size=2,
                max_size=200))
def test_percentile_matches_the_inclusive_quantiles(values: list[float]) -> None:
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    for q in (50, 95, 99):
        assert percentile(values, q) == pytest.approx(cuts[q - 1], rel=1e-9, abs=1e-6)


# --- CPU accounting --------------------------------------------------------------------------
def test_proc_stat_line_with_spaces_and_parentheses_in_the_name() -> None:
    stat = parse_proc_stat(stat_line(4321, "gunicorn: worker (config) x", 4300, 150, 50, 7, 3))
    assert stat == ProcStat(pid=4321, ppid=4300, ticks=210)
    with pytest.raises(ValueError):
        parse_proc_stat("garbage without a command name")


def test_cpu_of_a_tree_counts_children_that_exit_through_the_parent() -> None:
    before = {
        10: ProcStat(10, 1, 100),  # gunicorn master
        11: ProcStat(11, 10, 500),  # worker
        12: ProcStat(12, 10, 300),  # worker that will exit during the run
        20: ProcStat(20, 1, 999),  # an unrelated process
    }
    # After: worker 12 exited with 360 ticks in all, now in the master's cutime; a new worker.
    after = {
        10: ProcStat(10, 1, 100 + 360),
        11: ProcStat(11, 10, 800),
        13: ProcStat(13, 10, 40),
        20: ProcStat(20, 1, 5000),
    }
    assert tree_ticks(before, [10]) == 900
    group = CpuGroup("gunicorn", lambda: [10])
    group.start(before)
    group.stop(after)
    # worker 11: +300, worker 12: +60 (through the master), worker 13: +40
    assert group.seconds(hz=100) == pytest.approx(4.0)
    assert cores_busy(group.seconds(hz=100), wall_seconds=2.0) == pytest.approx(2.0)
    assert CpuGroup("gone", lambda: []).seconds(hz=100) == 0


def test_read_all_stats_skips_what_cannot_be_read(tmp_path: Path) -> None:
    (tmp_path / "1").mkdir()
    (tmp_path / "1" / "stat").write_text(stat_line(1, "init", 0, 5, 5))
    (tmp_path / "2").mkdir()  # a process that exited between listing and reading: no stat
    (tmp_path / "3").mkdir()
    (tmp_path / "3" / "stat").write_text("not a stat line")
    (tmp_path / "self").mkdir()
    assert read_all_stats(tmp_path) == {1: ProcStat(1, 0, 10)}


def test_read_all_stats_sees_this_process() -> None:
    import os

    stats = read_all_stats()
    assert stats[os.getpid()].ppid == os.getppid()


# --- requests and visibility -----------------------------------------------------------------
def test_statuses_are_ok_expected_or_errors() -> None:
    expected = {"submit": {409}, "check": {400}}
    assert classify("submit", 201, expected) == "ok"
    assert classify("standings fragment", 304, expected) == "ok"
    assert classify("submit", 409, expected) == "expected"
    assert classify("check", 400, expected) == "expected"
    assert classify("submit", 400, expected) == "error"
    assert classify("table state", 429, expected) == "error"
    assert classify("submit", 0, expected) == "error"  # no answer at all


def test_summary_per_kind() -> None:
    samples = [Sample("submit", 0, ms, status, 400) for ms, status in
               [(10, 201), (20, 201), (30, 409), (40, 500)]]
    samples.append(Sample("check", 0, 5, 400, 100))
    rows = {row.kind: row for row in summarise(samples, 2.0, {"submit": {409}, "check": {400}})}
    submit = rows["submit"]
    assert (submit.count, submit.ok, submit.expected, submit.errors) == (4, 2, 1, 1)
    assert submit.p50_ms == 25 and submit.rate == 2.0 and submit.bytes_mean == 400
    assert submit.statuses == {"201": 2, "409": 1, "500": 1}
    assert (rows["check"].ok, rows["check"].expected, rows["check"].errors) == (0, 1, 0)


def test_a_hand_is_seen_once_a_snapshot_reaches_the_version_after_its_answer() -> None:
    polls = [
        Poll("phone", started=9.0, ended=9.1, hands_version=4, source_version=4),
        # the first poll that started after the 201 at t=10: the hand counts in version 5
        Poll("wall", started=10.2, ended=10.3, hands_version=5, source_version=4),
        Poll("phone", started=10.5, ended=10.6, hands_version=5, source_version=4),
        Poll("phone", started=11.4, ended=11.5, hands_version=6, source_version=5),
        Poll("wall", started=12.9, ended=13.0, hands_version=6, source_version=6),
    ]
    phone, phone_unseen = visibility([10.0], polls, "phone")
    wall, wall_unseen = visibility([10.0], polls, "wall")
    assert phone == [pytest.approx(1.5)] and phone_unseen == 0
    assert wall == [pytest.approx(3.0)] and wall_unseen == 0
    # A hand answered after the last poll started, or never reached: not seen.
    assert visibility([12.95], polls, "phone") == ([], 1)
    late = [*polls, Poll("phone", started=13.5, ended=13.6, hands_version=9, source_version=6)]
    assert visibility([13.2], late, "phone") == ([], 1)


def test_visibility_counts_every_device_and_does_not_date_hands_by_pushed_statuses() -> None:
    polls = [
        # composed before the hand's commit, arriving after its 201: must not date the hand
        Poll("phone:1", started=10.1, ended=10.2, hands_version=4, source_version=4, pushed=True),
        Poll("probe", started=10.4, ended=10.45, hands_version=5, source_version=4),
        Poll("phone:1", started=11.0, ended=11.2, hands_version=5, source_version=5, pushed=True),
        Poll("phone:2", started=11.0, ended=11.4, hands_version=5, source_version=5, pushed=True),
        Poll("wall:1", started=12.0, ended=12.5, hands_version=5, source_version=5),
    ]
    phones, unseen = visibility([10.0], polls, "phone")
    assert sorted(phones) == [pytest.approx(1.2), pytest.approx(1.4)] and unseen == 0
    assert visibility([10.0], polls, "wall") == ([pytest.approx(2.5)], 0)
    missing = [*polls, Poll("phone:3", started=10.5, ended=10.6, hands_version=5,
                            source_version=4)]
    assert visibility([10.0], missing, "phone")[1] == 1  # phone 3 never showed it


def test_tag_attribute_reads_the_element_by_id() -> None:
    html = ('<p data-version="1">x</p><div class="a" id="standings-live" aria-live="polite"\n'
            '     data-version="17" data-poll-seconds="3">')
    assert tag_attribute(html, "standings-live", "data-version") == "17"
    assert tag_attribute(html, "standings-live", "data-missing") is None
    assert tag_attribute(html, "seating-board", "data-version") is None


# --- hands -----------------------------------------------------------------------------------
@pytest.mark.parametrize("preset", FOUR_HANDED)
def test_generated_hands_are_accepted_by_the_rules_engine(preset: str) -> None:
    ruleset = get_ruleset(preset, {"game_target": None, "max_deals": 15})
    rng = random.Random(preset)
    dealer = "N"
    hands = []
    for _ in range(12):
        values = random_hand(rng, ruleset, dealer)
        hand = parse_hand(values, ruleset)  # raises RulesError on anything the server refuses
        score = score_hand(hand, ruleset)
        assert values["outcome"] == "played" and score.result in {"made", "set"}
        assert sum(values["counters"].values()) == ruleset.counters_total
        hands.append(hand)
        dealer = str(ruleset.next_dealer(dealer))
    # the benchmark's deal limit keeps every game going for the whole run
    assert not score_game(hands, ruleset, max_deals=15).to_dict()["finished"]


def test_typing_steps_end_with_the_whole_hand_and_start_half_typed() -> None:
    ruleset = get_ruleset("pagat_double_deck", {})
    values = random_hand(random.Random(1), ruleset, "E")
    steps = typing_steps(values, 3)
    assert len(steps) == 3 and steps[-1] == values
    for half_typed in steps[:-1]:
        with pytest.raises(RulesError):  # the check endpoint answers 400: still to fill in
            parse_hand(half_typed, ruleset)
    assert typing_steps(values, 0) == []


def test_a_run_too_long_for_one_game_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert parse_args(["--tables", "4,8", "--seconds", "60"]).table_counts == [4, 8]
    with pytest.raises(SystemExit):
        parse_args(["--seconds", "700"])
    assert "at most 60" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["--tables", "16,x"])


def test_steal_profile_finds_the_seconds_the_host_took() -> None:
    # (all ticks, stolen ticks) a second apart on 2 CPUs (200 ticks a second): 0 %, 50 %, 10 %,
    # then a sample that did not move (skipped), then 25 %.
    samples = [(1000, 10), (1200, 10), (1400, 110), (1600, 130), (1600, 130), (1800, 180)]
    assert steal_profile(samples) == {"worst_percent": 50.0, "seconds_over_20": 2}
    assert steal_profile([(1000, 10)]) is None


def test_report_names_every_kind_and_a_failed_checksum() -> None:
    from dataclasses import asdict

    from bench.load.harness import report_text

    rows = summarise([Sample("submit", 0, 12, 201, 480), Sample("check", 0, 5, 400, 300)], 10.0,
                     {"check": {400}})
    result = {
        "tables": 4, "seconds": 10.0, "users": 18, "after_save": "live",
        "revalidate": {"standings": True, "seating": False},
        "requests": [asdict(row) for row in rows],
        "cpu": {"gunicorn": {"seconds": 2.0, "cores": 0.2}}, "cpu_total_cores": 0.2,
        "machine_cores": 2, "steal_percent": 3.2,
        "steal_seconds": {"worst_percent": 41.0, "seconds_over_20": 3},
        "push": {"on": True, "streams": 3, "readers": 4, "messages": 20, "reconnects": 1},
        "visibility": {"phone": {"p50_s": 1.0, "p95_s": 1.5, "seen": 1, "unseen": 0},
                       "wall": {"p50_s": None, "p95_s": None, "seen": 0, "unseen": 1}},
        "checksum": {"ok": False, "answered": 1, "stored_hands": 0, "revisions": 0,
                     "standings_equal": True, "problems": ["table abc…: stored hands []"]},
    }
    text = report_text(result)
    assert "revalidating with ETags: standings)" in text
    assert "submit" in text and "check" in text and "gunicorn 0.20" in text
    assert "checksum: FAILED" in text and "stored hands []" in text
    assert "streams open 3 of 4 readers, 20 messages, 1 reconnects" in text
    result["push"].update(inline=True, regions=16, region_bytes=16 * 2048)
    assert "; 16 carried the page's region (inline, 2.0 KB each as base64)" in report_text(result)
    result["push"].update(inline=False, regions=0)
    assert "1 reconnects; regions not inline" in report_text(result)
    assert "3.2 % of the machine's CPU time; worst second 41 %, 3 seconds over 20 %" in text


def test_split_shares_the_workers_between_two_web_groups() -> None:
    from bench.load.stack import Stack

    assert Stack.split_workers(5) == (3, 2)
    assert Stack.split_workers(2) == (1, 1)
    assert Stack.split_workers(1) == (1, 1)
    assert parse_args(["--split"]).split and not parse_args([]).split


def test_split_proxy_config_is_valid_nginx_and_routes_push_apart(tmp_path: Path) -> None:
    import shutil
    import subprocess

    from bench.load.stack import NGINX, Stack

    stack = Stack(tmp_path, split=True)
    assert stack.base_url.endswith(f":{stack.proxy_port}")
    assert stack.env()["PUSH_URL"] == f"http://127.0.0.1:{stack.proxy_port}/push/"
    assert stack.env()["DJANGO_NUM_PROXIES"] == "1"
    config = stack.proxy_config()
    for port in (stack.web_port, stack.web2_port, stack.push_port, stack.push2_port):
        assert f"127.0.0.1:{port};" in config
    assert "location /push/" in config and "proxy_buffering off" in config
    single = Stack(tmp_path)
    assert single.env()["PUSH_URL"] == f"http://127.0.0.1:{single.push_port}/push/"
    assert "DJANGO_NUM_PROXIES" not in single.env()
    if shutil.which(NGINX) is None:
        return
    (tmp_path / "nginx").mkdir()
    conf = tmp_path / "nginx" / "nginx.conf"
    conf.write_text(config)
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path / "nginx"), "-c", str(conf),
                              "-e", str(tmp_path / "nginx" / "error.log")],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr


def test_microcache_proxy_config_keeps_only_public_answers(tmp_path: Path) -> None:
    import shutil
    import subprocess

    from bench.load.stack import MICROCACHE_SECONDS, NGINX, Stack

    stack = Stack(tmp_path, microcache=True)
    assert parse_args(["--microcache"]).microcache and not parse_args([]).microcache
    assert stack.proxied and stack.base_url.endswith(f":{stack.proxy_port}")
    assert stack.env()["DJANGO_NUM_PROXIES"] == "1"
    # without split the push process keeps its own port: only the web is behind the cache
    assert stack.env()["PUSH_URL"] == f"http://127.0.0.1:{stack.push_port}/push/"
    config = stack.proxy_config()
    assert f"127.0.0.1:{stack.web_port};" in config and "location /push/" not in config
    assert f"proxy_cache_valid 200 {MICROCACHE_SECONDS}s;" in config
    for directive in ("proxy_cache_lock on;", "proxy_cache_use_stale updating",
                      "proxy_cache_revalidate on;", str(tmp_path / "nginx" / "cache")):
        assert directive in config, directive
    # private, no-store and no-cache win over public; what says neither is not kept
    not_shared = config[config.index("map $upstream_http_cache_control"):]
    assert not_shared.index("private|no-store|no-cache") < not_shared.index("public")
    assert "default 1;" in not_shared
    assert "proxy_no_cache $not_shared $cookie_sessionid $http_authorization;" in config
    assert "proxy_cache_bypass $cookie_sessionid $http_authorization;" in config
    assert "access_log off;" not in config  # it would silence the cache's own log
    assert "proxy_cache " not in Stack(tmp_path, split=True).proxy_config()
    if shutil.which(NGINX) is None:
        return
    (tmp_path / "nginx").mkdir()
    conf = tmp_path / "nginx" / "nginx.conf"
    conf.write_text(config)
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path / "nginx"), "-c", str(conf),
                              "-e", str(tmp_path / "nginx" / "error.log")],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stderr


def test_the_microcache_log_is_counted_per_kind_of_address(tmp_path: Path) -> None:
    from bench.load.harness import report_text
    from bench.load.run import microcache_summary
    from bench.load.stack import Stack

    stack = Stack(tmp_path, microcache=True)
    (tmp_path / "nginx").mkdir()
    log = tmp_path / "nginx" / "cache.log"
    log.write_text("MISS GET /events/12/standings/version/ 200\n"
                   "HIT GET /events/12/standings/version/ 200\n"
                   "UPDATING GET /events/12/standings/version/ 200\n"
                   "- POST /api/tables/B0jPwcaVkNTmFJhi_jB0WAIo/hands/ 201\n")
    counts, offset = stack.cache_counts()
    assert counts == {"/events/N/standings/version/": {"MISS": 1, "HIT": 1, "UPDATING": 1},
                      "/api/tables/TOKEN/hands/": {"-": 1}}
    with log.open("a") as more:
        more.write("HIT GET /events/12/wall/seating/version/ 200\n")
    later, _ = stack.cache_counts(offset)
    assert later == {"/events/N/wall/seating/version/": {"HIT": 1}}
    summary = microcache_summary(counts)
    assert summary["all"]["requests"] == 4
    assert summary["all"]["hit_rate"] == 0.5  # HIT and UPDATING of 4
    assert summary["all"]["hit_rate_cacheable"] == round(2 / 3, 3)
    assert summary["kinds"]["/events/N/standings/version/"]["hit_rate"] == round(2 / 3, 3)
    result = {"tables": 1, "seconds": 1.0, "users": 1, "after_save": "live", "requests": [],
              "cpu": {}, "cpu_total_cores": 0, "machine_cores": 2,
              "visibility": {w: {"p50_s": None, "p95_s": None, "p99_s": None, "seen": 0,
                                 "unseen": 0} for w in ("phone", "wall")},
              "microcache": summary}
    assert "micro-cache: 4 answers, served from the cache 50 %" in report_text(result)

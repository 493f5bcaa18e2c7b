"""The two-node bench's pure parts (bench/load/twonodes.py, netns.py, outage.py): choosing free
private networks, nginx's configuration in front of the nodes, and the figures read from the
devices' timelines and nginx's upstream log. The run itself needs root (network namespaces):
``.venv/bin/python -m bench.load.twonodes``."""

from __future__ import annotations

import ipaddress
import shutil
import subprocess
from pathlib import Path

import pytest

from bench.load.netns import Node, free_subnets, used_networks
from bench.load.outage import gaps_across, longest_gaps, reconnect_times, served_by, spread
from bench.load.stack import NGINX
from bench.load.twonodes import parse_args, proxy_config

ADDRESSES = """\
1: lo    inet 127.0.0.1/8 scope host lo\\       valid_lft forever preferred_lft forever
4: eth0    inet 10.213.7.20/24 brd 10.213.7.255 scope global eth0\\       valid_lft forever
"""
ROUTES = """\
default via 192.0.2.1 dev eth0
10.213.8.0/23 via 192.0.2.1 dev eth0
local 10.213.7.20 dev eth0 table local proto kernel scope host src 10.213.7.20
broadcast 127.255.255.255 dev lo table local proto kernel scope link src 127.0.0.1
"""


def nodes() -> list[Node]:
    return [Node(number=i, netns=f"pinochle-1-{i}", host_link=f"pn1h{i}", node_link=f"pn1n{i}",
                 network=ipaddress.IPv4Network(f"10.213.{40 + i}.0/24")) for i in (1, 2)]


def test_used_networks_reads_addresses_and_routes_but_not_the_default() -> None:
    used = {str(n) for n in used_networks(ADDRESSES, ROUTES)}
    assert {"127.0.0.0/8", "10.213.7.0/24", "10.213.8.0/23", "10.213.7.20/32"} <= used
    assert "0.0.0.0/0" not in used


def test_free_subnets_skip_what_the_machine_uses() -> None:
    used = used_networks(ADDRESSES, ROUTES)
    chosen = free_subnets(2, used, start=7)
    # .7 is an address's network, .8 and .9 a route's: the first free ones are .10 and .11
    assert [str(n) for n in chosen] == ["10.213.10.0/24", "10.213.11.0/24"]
    assert all(not n.overlaps(u) for n in chosen for u in used)
    # wrapping around, and never .0 or .255
    assert [str(n) for n in free_subnets(2, used, start=255)] == ["10.213.1.0/24",
                                                                  "10.213.2.0/24"]
    with pytest.raises(RuntimeError):
        free_subnets(1, [ipaddress.IPv4Network("10.213.0.0/16")])


def test_a_node_listens_on_its_end_and_reaches_the_host_on_the_other() -> None:
    node = nodes()[0]
    assert (node.host_address, node.address) == ("10.213.41.1", "10.213.41.2")
    assert len(node.host_link) <= 15 and len(node.node_link) <= 15  # Linux's limit


def test_proxy_config_fails_over_and_streams_unbuffered(tmp_path: Path) -> None:
    config = proxy_config(tmp_path, 8080, nodes())
    assert "listen 127.0.0.1:8080" in config
    for address in ("10.213.41.2", "10.213.42.2"):
        assert f"server {address}:8000 max_fails=1 fail_timeout=" in config
        assert f"server {address}:8001 max_fails=1 fail_timeout=" in config
    assert "proxy_next_upstream error timeout http_502 http_504;" in config
    assert "non_idempotent" not in config  # a POST is never sent twice by the proxy
    push = config[config.index("location /push/"):config.index("location / ")]
    # two of the push process's 15 s pings: only a stream to a vanished node goes quiet so long
    assert "proxy_buffering off;" in push and "proxy_read_timeout 30s;" in push
    assert "proxy_read_timeout 3600s;" in proxy_config(tmp_path, 8080, nodes(), 3600)
    if shutil.which(NGINX) is None:
        return
    conf = tmp_path / "nginx.conf"
    conf.write_text(config)
    checked = subprocess.run([NGINX, "-t", "-p", str(tmp_path), "-c", str(conf), "-e",
                              str(tmp_path / "error.log")], capture_output=True, text=True,
                             check=False)
    assert checked.returncode == 0, checked.stderr


def test_longest_gaps_count_from_the_window_start() -> None:
    timelines = {"a": [1.0, 11.0, 31.0, 99.0], "b": [], "c": [5.0]}
    gaps = longest_gaps(timelines, start=0.0, stop=40.0)
    assert gaps == {"a": 20.0, "b": 40.0, "c": 5.0}
    assert longest_gaps({"a": [1.0, 11.0]}, 0.0, 40.0, from_start=False) == {"a": 10.0}


def test_gaps_across_a_moment() -> None:
    timelines = {"a": [1.0, 9.0, 25.0], "b": [2.0], "c": [30.0]}
    # a: from 9 (last before 20) to 25; b: nothing after, so to the end; c: nothing before
    assert gaps_across(timelines, at=20.0, stop=40.0) == {"a": 16.0, "b": 38.0}


def test_reconnect_times_pair_each_drop_with_the_next_open() -> None:
    streams: dict[str, list[list[float | None]]] = {
        "phone:1": [[0.0, 21.0], [23.1, None]],
        "phone:2": [[0.0, None]],
        "phone:3": [[0.0, 21.0]],
        "phone:4": [[0.0, 70.0], [72.0, None]],  # closed after the window: not counted
    }
    took, never = reconnect_times(streams, start=0.0, stop=60.0)
    assert took == [pytest.approx(2.1)] and never == 1


def test_served_by_counts_answers_per_node_and_retries(tmp_path: Path) -> None:
    log = tmp_path / "upstream.log"
    log.write_text("\n".join([
        "100.0|10.213.41.2:8000|200|GET|/a/",
        "100.5|10.213.42.2:8001|200|GET|/push/events/1/",
        "101.0|10.213.41.2:8000|502|POST|/api/tables/x/hands/",
        "102.0|10.213.41.2:8000, 10.213.42.2:8000|200|GET|/b/",
        "103.0|10.213.42.2:8000|201|POST|/api/tables/x/hands/",
        "100.8|10.213.41.2:8001|200|GET|/push/events/1/",
        "100.9|10.213.41.2:8001|200|GET|/push/health/",
        "garbage",
    ]))
    served = served_by(log, nodes(), kill_wall=100.8)
    # a stream's line is written as it ends: counted apart from the answers
    assert served["node 1"] == {"before": 1, "after": 3}
    assert served["node 2"] == {"before": 0, "after": 2}
    assert served["streams ended on node 1"] == {"before": 0, "after": 1}
    assert served["streams ended on node 2"] == {"before": 1, "after": 0}
    assert served["tried on the other node"] == {"before": 0, "after": 1}
    assert served["502"] == {"before": 0, "after": 1}


def test_spread_and_arguments() -> None:
    assert spread([1.0, 2.0, 3.0, 10.0]) == {"p50": 2.5, "p95": 8.95, "max": 10.0, "of": 4}
    assert spread([]) == {"p50": None, "p95": None, "max": None, "of": 0}
    args = parse_args([])
    assert (args.tables, args.ending, args.seconds) == (16, 4, 60.0)
    # the ending game's deals fit before the round's end with a turn to spare
    assert args.deals_end == int(60 * 0.7 // 10) - 1
    for bad in (["--kill-at", "0.8"], ["--seconds", "10"], ["--ending", "1"]):
        with pytest.raises(SystemExit):
            parse_args(bad)

"""The private network of the two-node bench (``bench/load/twonodes.py``): network namespaces
joined to the host by veth pairs, in /24 networks of 10.213.0.0/16 that the machine does not use.

A :class:`Node` is one namespace: its veth's host end is ``.1`` (where the node reaches the
host's PostgreSQL and Redis), the node's end ``.2`` (where its servers listen).
:meth:`Network.create` makes them with ``ip`` (root only); :meth:`Network.remove` undoes exactly
what it made, by the names it gave, whatever state it was left in. :func:`used_networks` and
:func:`free_subnets` are pure (tested without root).
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import random
import shutil
import signal
import subprocess
from dataclasses import dataclass, field

IP = shutil.which("ip") or "/usr/sbin/ip"
SUPERNET = ipaddress.IPv4Network("10.213.0.0/16")


def used_networks(addresses: str, routes: str) -> list[ipaddress.IPv4Network]:
    """The IPv4 networks the machine already uses, from ``ip -o -4 addr show`` and ``ip -4
    route show table all``: every address's network and every route's destination."""
    found: list[ipaddress.IPv4Network] = []
    for line in addresses.splitlines():
        words = line.split()
        if "inet" in words:
            with contextlib.suppress(ValueError, IndexError):
                found.append(ipaddress.IPv4Interface(words[words.index("inet") + 1]).network)
    for line in routes.splitlines():
        words = line.split()
        if not words:
            continue
        target = words[1] if words[0] in {"local", "broadcast", "unicast", "multicast",
                                          "anycast", "blackhole", "unreachable",
                                          "prohibit", "throw"} and len(words) > 1 else words[0]
        if target == "default":
            continue  # the default route covers everything; it is not a network in use
        with contextlib.suppress(ValueError):
            found.append(ipaddress.IPv4Network(target, strict=False))
    return found


def free_subnets(count: int, used: list[ipaddress.IPv4Network], start: int = 0
                 ) -> list[ipaddress.IPv4Network]:
    """``count`` /24 networks of 10.213.0.0/16 overlapping nothing in ``used``, searched from
    the ``start``-th /24 on (wrapping around), so two benches started together look apart."""
    subnets = list(SUPERNET.subnets(new_prefix=24))
    chosen: list[ipaddress.IPv4Network] = []
    for i in range(len(subnets)):
        candidate = subnets[(start + i) % len(subnets)]
        if candidate.network_address.packed[2] in (0, 255):
            continue  # keep clear of .0.0 and .255.0: easy to mistake for something else
        if not any(candidate.overlaps(net) for net in used):
            chosen.append(candidate)
            if len(chosen) == count:
                return chosen
    raise RuntimeError(f"no {count} free /24 networks left in {SUPERNET}")


@dataclass
class Node:
    """One application machine: a namespace, its veth pair and its two servers' ports."""

    number: int
    netns: str
    host_link: str  # the veth end on the host
    node_link: str  # the veth end inside the namespace
    network: ipaddress.IPv4Network
    web_port: int = 8000  # each node is a machine of its own: the usual ports
    push_port: int = 8001

    @property
    def host_address(self) -> str:
        """The host's end: where the node reaches PostgreSQL and Redis."""
        return str(self.network.network_address + 1)

    @property
    def address(self) -> str:
        """The node's own address: where its gunicorn and push process listen."""
        return str(self.network.network_address + 2)


def ip_command(*args: str) -> str:
    done = subprocess.run([IP, *args], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


@dataclass
class Network:
    """The namespaces and veth pairs of one run; :meth:`remove` undoes exactly what
    :meth:`create` made (by the names it gave), whatever state it was left in."""

    tag: str = field(default_factory=lambda: str(os.getpid()))
    made_netns: list[str] = field(default_factory=list)
    made_links: list[str] = field(default_factory=list)

    def create(self, count: int) -> list[Node]:
        existing = set(ip_command("netns", "list").split())
        used = used_networks(ip_command("-o", "-4", "addr", "show"),
                             ip_command("-4", "route", "show", "table", "all"))
        networks = free_subnets(count, used, start=random.Random(self.tag).randrange(256))
        nodes = []
        for number, network in enumerate(networks, start=1):
            node = Node(number=number, netns=f"pinochle-{self.tag}-{number}",
                        host_link=f"pn{self.tag[-7:]}h{number}",
                        node_link=f"pn{self.tag[-7:]}n{number}", network=network)
            if node.netns in existing:
                raise RuntimeError(f"a namespace {node.netns} exists already: not ours")
            ip_command("netns", "add", node.netns)
            self.made_netns.append(node.netns)
            ip_command("link", "add", node.host_link, "type", "veth", "peer", "name",
                       node.node_link)
            self.made_links.append(node.host_link)
            ip_command("link", "set", node.node_link, "netns", node.netns)
            prefix = f"/{network.prefixlen}"
            ip_command("addr", "add", node.host_address + prefix, "dev", node.host_link)
            ip_command("link", "set", node.host_link, "up")
            inside = ("netns", "exec", node.netns, IP)
            ip_command(*inside, "addr", "add", node.address + prefix, "dev", node.node_link)
            ip_command(*inside, "link", "set", node.node_link, "up")
            ip_command(*inside, "link", "set", "lo", "up")
            nodes.append(node)
        return nodes

    def remove(self) -> list[str]:
        """Kill what still runs in our namespaces, delete them and our host ends; never
        raises. Returns what could not be undone (empty when all is clean)."""
        left = []
        for netns in reversed(self.made_netns):
            with contextlib.suppress(RuntimeError):
                for pid in ip_command("netns", "pids", netns).split():
                    with contextlib.suppress(OSError, ValueError):
                        os.kill(int(pid), signal.SIGKILL)
            try:
                ip_command("netns", "del", netns)
            except RuntimeError as error:
                left.append(str(error))
        for link in self.made_links:
            if subprocess.run([IP, "link", "show", link], capture_output=True,
                              check=False).returncode == 0:
                try:
                    ip_command("link", "del", link)
                except RuntimeError as error:
                    left.append(str(error))
        self.made_netns.clear()
        self.made_links.clear()
        return left

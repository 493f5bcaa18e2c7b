"""The machine's own names and addresses on the local network, for the embedded default.

A club runs ``make run HOST=0.0.0.0`` on a laptop and the phones at the tables reach it over the
club's Wi-Fi by the laptop's address (``http://192.168.1.20:8000/``) or its name. Django refuses a
request whose Host it does not know (400, DisallowedHost), so the embedded default accepts the
loopback names plus whatever this module finds here: the host name, its ``.local`` name, every
IPv4 address of the machine's interfaces and the address of the route out. Production lists its
hosts explicitly (``DJANGO_ALLOWED_HOSTS``) and does not use this.

Standard library only and never raises: a machine with no network simply has no LAN names.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from pathlib import Path

LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]


def _route_address() -> str | None:
    """The address this machine uses to reach the network (no packet is sent: connecting a UDP
    socket only picks the route). None when there is no route."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: never answered, only routed
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _interface_addresses() -> set[str]:
    """Every local IPv4 address of the machine's interfaces (Linux: /proc/net/fib_trie)."""
    found: set[str] = set()
    try:
        lines = Path("/proc/net/fib_trie").read_text().splitlines()
    except OSError:
        return found
    for previous, line in zip(lines, lines[1:], strict=False):
        if "/32 host LOCAL" in line:
            candidate = previous.strip().lstrip("|-+` ").strip()
            try:
                found.add(str(ipaddress.IPv4Address(candidate)))
            except ValueError:
                continue
    return found


def _name_addresses(name: str) -> set[str]:
    try:
        infos = socket.getaddrinfo(name, None, socket.AF_INET)
    except OSError:
        return set()
    return {str(info[4][0]) for info in infos}


def lan_addresses() -> list[str]:
    """The machine's IPv4 addresses other than loopback, the route's address first."""
    route = _route_address()
    others = (_interface_addresses() | _name_addresses(socket.gethostname())) - {route}
    ordered = ([route] if route else []) + sorted(others)
    return [a for a in ordered if a and not ipaddress.IPv4Address(a).is_loopback]


def lan_host_names() -> list[str]:
    """Host names and addresses a phone on the local network may use to reach this machine."""
    names: list[str] = []
    host = socket.gethostname().strip().lower()
    if host and host != "localhost":
        short = host.split(".")[0]
        names += [host, short, f"{short}.local", f"{short}.lan", f"{short}.home"]
    names += lan_addresses()
    return list(dict.fromkeys(names))


# Whether the server answers on a LAN address, asked once per address and port for this long: a
# page of QR codes asks once, and a restart with another HOST is seen within seconds.
_ANSWERS_SECONDS = 5.0
_answers: dict[tuple[str, int], tuple[float, bool]] = {}


def answers_on(address: str, port: int) -> bool:
    """Whether something on this machine accepts connections on ``address:port``: a server
    started on ``0.0.0.0`` does, one started on ``127.0.0.1`` refuses at once (the machine's own
    address is reached through the loopback interface, so no packet leaves it)."""
    now = time.monotonic()
    known = _answers.get((address, port))
    if known is not None and now - known[0] < _ANSWERS_SECONDS:
        return known[1]
    try:
        with socket.create_connection((address, port), timeout=0.3):
            answered = True
    except OSError:
        answered = False
    _answers[(address, port)] = (now, answered)
    return answered


def main(argv: list[str] | None = None) -> int:
    """``python -m common.lan HOST PORT``: where the room's phones reach a server started on
    ``HOST:PORT`` (printed by ``make run``)."""
    import sys

    host, port = (argv if argv is not None else sys.argv[1:]) or ["127.0.0.1", "8000"]
    if host in {"0.0.0.0", "::"}:
        for address in lan_addresses():
            print(f"Phones on this network: http://{address}:{port}/")
    else:
        print(f"Serving on http://{host}:{port}/ only; for phones on the club's Wi-Fi run "
              f"`make run HOST=0.0.0.0`.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

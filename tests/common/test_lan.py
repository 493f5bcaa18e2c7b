"""The club's Wi-Fi: the embedded default answers the machine's LAN names and addresses, and QR
codes carry an address the phones can reach."""

from __future__ import annotations

import socket

import pytest
from django.conf import settings
from django.test import RequestFactory

from common import lan
from common.http import PublicAddress, public_address, public_url
from config.env import ConfigError, get_public_url


def test_the_machine_names_itself_and_its_addresses() -> None:
    names = lan.lan_host_names()
    host = socket.gethostname().lower()
    assert host in names and f"{host.split('.')[0]}.local" in names
    assert all(not a.startswith("127.") for a in lan.lan_addresses())
    assert len(names) == len(set(names))


def test_embedded_default_accepts_the_lan_host_name(client, db) -> None:
    host = socket.gethostname().lower()
    assert host in settings.ALLOWED_HOSTS
    assert client.get("/", HTTP_HOST=f"{host}:8000").status_code == 200
    assert client.get("/", HTTP_HOST="evil.example").status_code == 400


def test_fib_trie_addresses_are_parsed(tmp_path, monkeypatch) -> None:
    sample = (
        "Main:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 0.0.0.0\n        /0 universe UNICAST\n"
        "     +-- 192.168.1.0/24 2 0 2\n        |-- 192.168.1.20\n           /32 host LOCAL\n"
        "     |-- 127.0.0.1\n           /32 host LOCAL\n"
    )
    trie = tmp_path / "fib_trie"
    trie.write_text(sample)
    real_path = lan.Path
    monkeypatch.setattr(lan, "Path", lambda p: trie if p == "/proc/net/fib_trie" else real_path(p))
    assert lan._interface_addresses() == {"192.168.1.20", "127.0.0.1"}


@pytest.mark.parametrize("raw, expected", [
    ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
    ("https://scores.example.org/", "https://scores.example.org"),
    ("", ""),
])
def test_public_address_setting(monkeypatch, raw, expected) -> None:
    monkeypatch.setenv("PUBLIC_BASE_URL", raw)
    assert get_public_url("PUBLIC_BASE_URL") == expected


@pytest.mark.parametrize("raw", ["192.168.1.20:8000", "ftp://x", "http://host/path", "http://h:99999"])
def test_bad_public_address_names_the_variable(monkeypatch, raw) -> None:
    monkeypatch.setenv("PUBLIC_BASE_URL", raw)
    with pytest.raises(ConfigError, match="PUBLIC_BASE_URL"):
        get_public_url("PUBLIC_BASE_URL")


def test_qr_address_prefers_the_setting(settings) -> None:
    settings.PUBLIC_BASE_URL = "http://10.0.0.5:8000"
    request = RequestFactory().get("/events/1/table-cards/", HTTP_HOST="127.0.0.1:8000")
    assert public_url(request, "/c/abc/") == "http://10.0.0.5:8000/c/abc/"


def test_qr_address_from_a_lan_request_is_kept(settings) -> None:
    settings.PUBLIC_BASE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    request = RequestFactory().get("/", HTTP_HOST="192.168.1.20:8000")
    assert public_url(request, "/c/abc/") == "http://192.168.1.20:8000/c/abc/"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_qr_address_from_loopback_becomes_the_lan_address_the_server_answers_on(
        settings, monkeypatch) -> None:
    """A server listening on every address (``make run HOST=0.0.0.0``) answers on the LAN
    address too: QR codes carry it. 127.0.0.2 stands for the LAN address (any 127.x address
    reaches this machine, and a listener bound to it answers there only)."""
    settings.PUBLIC_BASE_URL = ""
    monkeypatch.setattr("common.http.lan_addresses", lambda: ["127.0.0.2"])
    with socket.socket() as listener:
        listener.bind(("127.0.0.2", 0))
        listener.listen()
        port = listener.getsockname()[1]
        request = RequestFactory().get("/", HTTP_HOST=f"127.0.0.1:{port}")
        address = public_address(request)
        assert address.phones_reach and address.fix == ""
        assert public_url(request, "/c/abc/") == f"http://127.0.0.2:{port}/c/abc/"


def test_qr_address_of_a_loopback_only_server_stays_loopback_and_says_so(
        settings, monkeypatch) -> None:
    """``make run`` on 127.0.0.1: nothing answers on the LAN address, so a code carrying it is
    dead. The loopback address stays (it opens on the laptop), and the page is told why phones
    cannot reach it and the command that fixes it."""
    settings.PUBLIC_BASE_URL = ""
    monkeypatch.setattr("common.http.lan_addresses", lambda: ["127.0.0.2"])
    port = _free_port()
    assert not lan.answers_on("127.0.0.2", port)
    request = RequestFactory().get("/", HTTP_HOST=f"127.0.0.1:{port}")
    address = public_address(request)
    assert public_url(request, "/c/abc/") == f"http://127.0.0.1:{port}/c/abc/"
    assert not address.phones_reach
    assert address.fix == f"make run HOST=0.0.0.0 PORT={port}"
    monkeypatch.setattr("common.http.lan_addresses", lambda: [])  # no network at all
    default = RequestFactory().get("/", HTTP_HOST="localhost:8000")
    assert public_address(default) == PublicAddress(
        "http://localhost:8000", phones_reach=False, fix="make run HOST=0.0.0.0")


def test_a_lan_request_is_its_own_proof(settings) -> None:
    """A page asked by a LAN address came from this server: no probe, phones reach it."""
    settings.PUBLIC_BASE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    address = public_address(RequestFactory().get("/", HTTP_HOST="laptop.local:8000"))
    assert address == PublicAddress("http://laptop.local:8000")

"""QR codes and invitation links carry only an address the server answers on: when the server
listens on this machine only (``make run`` on 127.0.0.1), the table cards, the day's table cards
and the invitation pages say phones cannot reach it, show the command that fixes it, and encode
the loopback address they were asked by instead of a LAN address nothing answers on."""

from __future__ import annotations

import socket

import pytest
from django.test import Client
from django.urls import reverse

from clubs.services import invitation_create
from draw.services import round_create
from tests.clubs.factories import club_with_director
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def loopback_only(settings, monkeypatch) -> str:
    """This machine's LAN address is 127.0.0.2 here (any 127.x address reaches the machine) and
    nothing listens on it: the host a page is asked by, 127.0.0.1 on a free port."""
    settings.PUBLIC_BASE_URL = ""
    monkeypatch.setattr("common.http.lan_addresses", lambda: ["127.0.0.2"])
    return f"127.0.0.1:{_free_port()}"


def _pages(client: Client) -> dict[str, str]:
    club, director = club_with_director(slug="night")
    event = event_with_players(club=club, players=8)
    round_create(event=event)
    invitation = invitation_create(club=club, role="member", actor=director)
    client.force_login(director)
    return {
        "cards": reverse("round-cards", args=[event.pk, 1]),
        "day cards": reverse("event-table-cards", args=[event.pk]),
        "invitation": reverse("invitation-detail", args=[club.slug, invitation.pk]),
        "manage": reverse("club-manage", args=[club.slug]),
    }


def test_a_loopback_only_server_says_phones_cannot_reach_it(client, loopback_only) -> None:
    port = loopback_only.split(":")[1]
    for name, path in _pages(client).items():
        html = client.get(path, HTTP_HOST=loopback_only).content.decode()
        assert 'id="phones-cannot-reach"' in html, name
        assert f"make run HOST=0.0.0.0 PORT={port}" in html, name
        assert f"http://{loopback_only}/" in html, name  # the address it does answer on
        assert "127.0.0.2" not in html, name  # never the dead LAN address


def test_a_server_reached_over_the_network_shows_no_warning(client, settings) -> None:
    settings.PUBLIC_BASE_URL = ""
    for name, path in _pages(client).items():
        html = client.get(path).content.decode()
        assert 'id="phones-cannot-reach"' not in html, name
        assert "http://testserver/" in html, name


def test_a_server_answering_on_the_lan_puts_that_address_on_the_cards(
        client, settings, monkeypatch) -> None:
    settings.PUBLIC_BASE_URL = ""
    monkeypatch.setattr("common.http.lan_addresses", lambda: ["127.0.0.2"])
    with socket.socket() as listener:
        listener.bind(("127.0.0.2", 0))
        listener.listen()
        port = listener.getsockname()[1]
        pages = _pages(client)
        html = client.get(pages["day cards"], HTTP_HOST=f"127.0.0.1:{port}").content.decode()
    assert 'id="phones-cannot-reach"' not in html
    assert f"http://127.0.0.2:{port}/c/" in html

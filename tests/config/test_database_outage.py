"""A database that does not answer (stopped, restarting): the table phone's hand entry answers
a JSON 503 with ``Retry-After`` (the phone keeps the hand queued and sends it again), not the
HTML 500 page. The outage is real: the connection is closed and pointed at a port where no
PostgreSQL listens, so the next query fails to connect, as when the server is down."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Hand
from tests.scoring.factories import seated_table, values

pytestmark = pytest.mark.django_db(transaction=True)


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def database_down() -> Iterator[None]:
    saved = dict(connection.settings_dict)
    connection.close()
    connection.settings_dict.update(HOST="127.0.0.1", PORT=str(_closed_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


def test_hand_entry_during_a_database_outage_is_a_json_503_with_retry_after() -> None:
    table = seated_table()
    api = APIClient()
    url = reverse("api-table-hands", args=[table.token])
    with database_down():
        response = api.post(url, {**values(), "number": 1}, format="json",
                            HTTP_IDEMPOTENCY_KEY="k-1")
        state = api.get(reverse("api-table", args=[table.token]))
    assert response.status_code == 503
    assert response["Content-Type"].startswith("application/json")
    assert int(response["Retry-After"]) > 0
    (error,) = response.json()["errors"]
    assert error["code"] == "database_unavailable"
    assert state.status_code == 503
    # back up: the same hand, sent again, is stored once
    again = api.post(url, {**values(), "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert again.status_code == 201, again.content
    assert Hand.objects.filter(game=table.game).count() == 1


def test_a_page_during_a_database_outage_is_a_503_too() -> None:
    table = seated_table()
    client = Client(raise_request_exception=False)
    with database_down():
        page = client.get(f"/events/{table.round.event_id}/")
    assert page.status_code == 503 and int(page["Retry-After"]) > 0
    assert "database is not answering" in page.content.decode()
    with database_down():  # said in the reader's language: the catalog needs no database
        german = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="de").get(
            f"/events/{table.round.event_id}/")
    assert german.status_code == 503
    assert german.content.decode().startswith("Die Datenbank antwortet gerade nicht")

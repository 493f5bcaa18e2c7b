"""What the table phone needs to work with a network that comes and goes: the service worker
(/t/sw.js: a JavaScript file whose scope covers the table pages, under the project's
Content-Security-Policy), the live fragment the page redraws itself from after a save
(/t/<token>/live/), and the API's answer to a resent idempotency key that the phone's queue
relies on. The browser side is tested in tests/e2e/test_offline_entry.py."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import services
from scoring.models import HandRevision
from tests.scoring.factories import close_round, seated_table, values

pytestmark = pytest.mark.django_db


def _policy(header: str) -> dict[str, list[str]]:
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def _allows(policy: dict[str, list[str]], directive: str, fallbacks: tuple[str, ...]) -> list[str]:
    """The sources a directive allows, following CSP's fallback chain."""
    for name in (directive, *fallbacks):
        if name in policy:
            return policy[name]
    return []


def test_the_service_worker_is_javascript_whose_scope_covers_the_table_pages(client) -> None:
    table = seated_table()
    url = reverse("table-service-worker")
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].split(";")[0] in ("text/javascript", "application/javascript")
    scope = response["Service-Worker-Allowed"]
    assert url.startswith(scope) and scope.endswith("/")
    assert reverse("table-entry", args=[table.token]).startswith(scope)
    assert reverse("table-entry-live", args=[table.token]).startswith(scope)
    assert "no-cache" in response["Cache-Control"]  # a new worker is picked up on the next visit
    body = response.content.decode()
    assert f'var SCOPE = "{scope}";' in body
    assert f'var STATIC = "{settings.STATIC_URL}";' in body


def test_the_service_worker_runs_under_the_projects_content_security_policy(client) -> None:
    response = client.get(reverse("table-service-worker"))
    policy = _policy(response["Content-Security-Policy"])
    assert policy["default-src"] == ["'self'"]
    # its own fetches (pages, static files) are same-origin
    assert _allows(policy, "connect-src", ("default-src",)) == ["'self'"]
    scripts = _allows(policy, "script-src", ("default-src",))
    assert "'self'" in scripts
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts


def test_the_table_page_may_register_its_worker_and_loads_the_queue(client) -> None:
    table = seated_table()
    response = client.get(reverse("table-entry", args=[table.token]))
    html = response.content.decode()
    # a worker from our own origin is allowed by the page's policy (worker-src falls back)
    policy = _policy(response["Content-Security-Policy"])
    assert "'self'" in _allows(policy, "worker-src", ("child-src", "script-src", "default-src"))
    assert f'data-sw-url="{reverse("table-service-worker")}"' in html
    assert f'data-live-url="{reverse("table-entry-live", args=[table.token])}"' in html
    assert f'data-submit-url="{reverse("api-table-hands", args=[table.token])}"' in html
    assert f'data-token="{table.token}"' in html
    for script in ("js/offline_queue.js", "js/table_offline.js", "js/entry.js", "js/live.js",
                   "js/table_live.js"):
        assert f"{settings.STATIC_URL}{script}" in html
    assert 'data-copy="network"' in html  # the worker marks the copies it answers with
    # without JavaScript the form still posts to the page itself
    assert f'<form method="post" class="hand-form" novalidate\n      action="{reverse("table-entry", args=[table.token])}"' in html


def test_the_page_says_which_seats_deal_in_turn(client) -> None:
    four = seated_table()
    three = seated_table(ruleset_preset="three_handed")
    assert 'data-dealer-order="N E S W"' in client.get(f"/t/{four.token}/").content.decode()
    # a three-handed table of four: the deal passes round all four (the dealer sits out)
    assert 'data-dealer-order="N E S W"' in client.get(f"/t/{three.token}/").content.decode()
    three.seats.filter(position="W").delete()
    assert 'data-dealer-order="N E S"' in client.get(f"/t/{three.token}/").content.decode()


def test_the_worker_answers_only_get(client) -> None:
    assert client.post(reverse("table-service-worker")).status_code == 405


def test_the_live_fragment_has_the_score_the_hands_and_the_next_hand(client) -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="k1")
    game = table.game
    game.refresh_from_db()
    response = client.get(reverse("table-entry-live", args=[table.token]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-version="{game.version}"' in html and 'data-status="playing"' in html
    assert 'data-next-number="2"' in html
    assert 'data-next-dealer="W"' in html  # S dealt hand 1
    assert 'data-can-enter="1"' in html
    for side, points in game.totals.items():
        assert f'data-total="{side}">{points}<' in html
    assert 'id="table-hands"' in html and "1 deal played" in html
    assert f'href="/t/{table.token}/hands/1/"' in html  # its Fix link while the round is open
    assert "<html" not in html and "data-hand-form" not in html  # a fragment, not the page


def test_the_live_fragment_of_a_closed_round_has_no_fix_links(client) -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="k1")
    close_round(table)
    html = client.get(reverse("table-entry-live", args=[table.token])).content.decode()
    assert 'data-can-enter="0"' in html
    assert "/hands/1/" not in html


def test_the_live_fragment_of_an_unknown_table_is_404_and_refuses_writes(client) -> None:
    assert client.get("/t/not-a-token/live/").status_code == 404
    table = seated_table()
    assert client.post(reverse("table-entry-live", args=[table.token])).status_code == 405


def test_a_queued_hand_resent_after_later_hands_answers_its_own_hand_and_stores_nothing() -> None:
    """The phone's queue removes a hand once its key is answered 200 or 201: a key the server
    already stored answers that hand (200), even after later hands, and stores nothing new."""
    table = seated_table()
    api = APIClient()
    url = reverse("api-table-hands", args=[table.token])
    first = api.post(url, {**values(), "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="q-one")
    assert first.status_code == 201
    second = api.post(url, {**values(dealer="W"), "number": 2}, format="json",
                      HTTP_IDEMPOTENCY_KEY="q-two")
    assert second.status_code == 201
    again = api.post(url, {**values(), "number": 1}, format="json", HTTP_IDEMPOTENCY_KEY="q-one")
    assert again.status_code == 200
    assert again.json()["number"] == 1 and again.json()["id"] == first.json()["id"]
    assert HandRevision.objects.count() == 2
    # another key for a number already taken is a conflict carrying the stored values
    taken = api.post(url, {**values(bid=60), "number": 2}, format="json",
                     HTTP_IDEMPOTENCY_KEY="q-other")
    assert taken.status_code == 409
    assert taken.json()["current"]["dealer"] == "W"
    assert HandRevision.objects.count() == 2

"""The write path's cost: one hand submission (API or form) stays within 14 queries in the
request, whatever the game's length; a rejected hand costs less and stores nothing. The last
query reads the round's and the event's statuses again once the hand holds the event's row
(``scoring.services.hands._still_open``): a director's close that committed meanwhile refuses
the hand."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Hand
from tests.scoring.factories import form_data, seated_table, values

pytestmark = pytest.mark.django_db

BUDGET = 14
DEALERS = ["S", "W", "N", "E"]


def _api_submit(client: APIClient, table, number: int, **over):
    return client.post(reverse("api-table-hands", args=[table.token]),
                       {**values(dealer=DEALERS[(number - 1) % 4], **over), "number": number},
                       format="json", HTTP_IDEMPOTENCY_KEY=f"key-{number}")


def _print(label: str, context: CaptureQueriesContext) -> None:
    print(f"\n{label}: {len(context)} queries")
    for query in context.captured_queries:
        print("   ", query["sql"][:160])


def test_an_api_submission_stays_within_budget(django_capture_on_commit_callbacks) -> None:
    table = seated_table(deals_per_round=8)
    client = APIClient()
    for number in (1, 2):
        assert _api_submit(client, table, number).status_code == 201
    with CaptureQueriesContext(connection) as context:
        response = _api_submit(client, table, 3)
    _print("API submission", context)
    assert response.status_code == 201
    assert len(context) <= BUDGET
    assert Hand.objects.filter(game__table=table).count() == 3


def test_a_form_submission_stays_within_budget() -> None:
    table = seated_table(deals_per_round=8)
    client = APIClient()
    _api_submit(client, table, 1)
    with CaptureQueriesContext(connection) as context:
        response = client.post(reverse("table-entry", args=[table.token]),
                               form_data(number=2, key="form-2", dealer="W"))
    _print("form submission", context)
    assert response.status_code == 302, response.content[:500]
    assert len(context) <= BUDGET
    assert Hand.objects.filter(game__table=table).count() == 2


def test_a_rejected_hand_stores_nothing_and_costs_less() -> None:
    table = seated_table(deals_per_round=8)
    client = APIClient()
    _api_submit(client, table, 1)
    with CaptureQueriesContext(connection) as context:
        response = _api_submit(client, table, 2, bid=63, meld={"NS": 24})
    _print("rejected hand", context)
    assert response.status_code == 400
    assert len(context) < BUDGET
    assert Hand.objects.filter(game__table=table).count() == 1

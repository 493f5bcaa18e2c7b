"""Tricks at the table: a ruleset that saves meld only with a trick, or counts every trick taken,
is played at events; the tricks each side took are entered, checked, stored and carried."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Game, HandRevision
from tests.scoring.factories import seated_table, values

pytestmark = pytest.mark.django_db


def _submit(table, number: int = 1, **over):
    return APIClient().post(reverse("api-table-hands", args=[table.token]),
                            {**values(**over), "number": number}, format="json")


def test_meld_saved_only_with_a_trick_needs_the_tricks_and_scores_by_them() -> None:
    table = seated_table(ruleset_overrides={"meld_needs_trick": True})
    missing = _submit(table)
    assert missing.status_code == 400
    assert "tricks" in {e["field"] for e in missing.json()["errors"]}
    assert HandRevision.objects.count() == 0
    # EW took no trick: their meld of 32 is lost; NS make their bid
    stored = _submit(table, counters={"NS": 50, "EW": 0}, tricks={"NS": 20, "EW": 0})
    assert stored.status_code == 201, stored.json()
    revision = HandRevision.objects.get()
    assert revision.tricks == {"NS": 20, "EW": 0}
    assert revision.points == {"NS": 74, "EW": 0}
    state = APIClient().get(reverse("api-table", args=[table.token])).json()
    assert state["hands"][0]["values"]["tricks"] == {"NS": 20, "EW": 0}
    # tricks that do not add up to the hand are refused, naming the field
    bad = _submit(table, number=2, dealer="W", tricks={"NS": 3, "EW": 3})
    assert bad.status_code == 400
    assert any(e["field"].startswith("tricks") for e in bad.json()["errors"])


def test_all_tricks_bonus_is_entered_and_scored() -> None:
    table = seated_table(ruleset_overrides={"all_tricks": "bonus", "all_tricks_bonus": 100})
    stored = _submit(table, counters={"NS": 50, "EW": 0}, tricks={"NS": 20, "EW": 0})
    assert stored.status_code == 201, stored.json()
    assert Game.objects.get(table=table).totals == {"NS": 24 + 50 + 100, "EW": 32}
    # a ruleset that does not need tricks refuses them, named
    plain = seated_table()
    refused = _submit(plain, tricks={"NS": 20, "EW": 0})
    assert refused.status_code == 400
    assert "tricks" in {e["field"] for e in refused.json()["errors"]}

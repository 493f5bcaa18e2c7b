"""Refusals in the reader's language: a rules-engine refusal (marked in the pure package with
``rules_engine.i18n``) is translated where the API answers it and where the table's form shows
it, with the same field and code; a service's own refusal is translated as it is raised."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from rules_engine import RulesError, get_ruleset, parse_hand
from rules_engine.i18n import Text, gettext_noop
from tests.scoring.factories import seated_table, values

pytestmark = pytest.mark.django_db


def _check(api: APIClient, table, **over) -> dict:
    response = api.post(reverse("api-table-check", args=[table.token]), values(**over),
                        format="json")
    assert response.status_code == 400
    return {e["field"]: e for e in response.json()["errors"]}


def test_a_rules_engine_refusal_is_german_for_a_german_reader_with_its_field_and_code() -> None:
    table = seated_table(ruleset_overrides={"min_bid": 60})
    english = _check(APIClient(), table, bid=40, counters={"NS": 30, "EW": 30})
    german = _check(APIClient(HTTP_ACCEPT_LANGUAGE="de"), table, bid=40,
                    counters={"NS": 30, "EW": 30})
    assert english.keys() == german.keys()
    assert english["counters"]["code"] == german["counters"]["code"] == "bad_sum"
    assert english["counters"]["message"] == "counters must add up to 50, got 60"
    assert german["counters"]["message"] == "counters muss zusammen 50 ergeben, eingegeben: 60"


def test_text_keeps_the_english_sentence_and_its_template() -> None:
    text = Text(gettext_noop("%(name)s must add up to %(total)s, got %(got)s"),
                name="tricks", total=12, got=13)
    assert text == "tricks must add up to 12, got 13"
    assert text.template.startswith("%(name)s") and text.params["got"] == 13
    with pytest.raises(RulesError) as refused:
        parse_hand({"dealer": "S", "bidder": "N", "bid": 51, "trump": "H", "outcome": "played",
                    "meld": {"NS": 20, "EW": 20}, "counters": {"NS": 30, "EW": 30}},
                   get_ruleset("pagat_double_deck"))
    assert refused.value.errors[0].message == "counters must add up to 50, got 60"

"""Refusals in the reader's language: a rules-engine refusal (marked in the pure package with
``rules_engine.i18n``) is translated where the API answers it and where the table's form shows
it, with the same field and code; a service's own refusal is translated as it is raised. Each
kind the API gives is read once in English and once in German (a bad hand, a bad event, a
format's settings, a serializer's validation, a registration and a permission refused, a
table that is not there): the
same fields and codes, German messages; a script signed in with a token reads its account's
language."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.services import account_language_set
from rules_engine import RulesError, get_ruleset, parse_hand
from rules_engine.i18n import Text, gettext_noop
from tests.clubs.factories import club_with_director
from tests.scoring.factories import seated_table, values
from tournaments.services import event_create

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


# --- every kind of refusal the API gives, read in English and in German ----------------------

def _read(make_client, method: str, url: str, body: object = None) -> tuple[list, list]:
    """The same refused request in English and in German: the two error lists, after checking
    they have the same status, fields and codes and that German was answered."""
    answers = {}
    for language in ("en", "de"):
        response = getattr(make_client(language), method)(url, body, format="json")
        assert response.status_code in (400, 403, 404, 409), (response.status_code,
                                                              response.content)
        answers[language] = response
    english, german = answers["en"], answers["de"]
    assert german.status_code == english.status_code and german["Content-Language"] == "de"
    e, g = english.json()["errors"], german.json()["errors"]
    assert [(x["field"], x["code"]) for x in e] == [(x["field"], x["code"]) for x in g]
    assert all(a["message"] != b["message"] for a, b in zip(e, g, strict=True)), (e, g)
    return e, g


def _signed_in(user):
    def make(language: str) -> APIClient:
        client = APIClient(HTTP_ACCEPT_LANGUAGE=language)
        client.force_authenticate(user)
        return client
    return make


def _anonymous(language: str) -> APIClient:
    return APIClient(HTTP_ACCEPT_LANGUAGE=language)


def test_a_bad_hand_sent_to_the_table_comes_back_in_german_with_every_field_and_code() -> None:
    table = seated_table(ruleset_overrides={"min_bid": 60})
    url = reverse("api-table-hands", args=[table.token])
    english, german = _read(_anonymous, "post", url,
                            {**values(bid=40, counters={"NS": 30, "EW": 30}), "number": 1})
    by_field = {e["field"]: e["message"] for e in german}
    assert by_field.get("counters") == "counters muss zusammen 50 ergeben, eingegeben: 60", german
    assert by_field["bid"].startswith("Das Gebot 40 liegt unter dem Mindestgebot von 60")
    assert {e["field"] for e in english} == set(by_field)


def test_a_bad_event_and_a_bad_format_setting_are_refused_in_german() -> None:
    club, director = club_with_director(slug="i18n-create")
    url = reverse("api-events")
    _, german = _read(_signed_in(director), "post", url,
                      {"club": club.slug, "name": "Turnier", "date": "2026-11-28",
                       "deals_per_round": 61})
    assert german == [{"field": "deals_per_round", "code": "invalid",
                       "message": "Die Spiele je Runde müssen zwischen 1 und 60 liegen."}]
    # a pure core's refusal (the format's settings), translated where the API answers it
    _, german = _read(_signed_in(director), "post", url,
                      {"club": club.slug, "name": "Turnier", "date": "2026-11-28",
                       "format": "swiss", "format_settings": {"colour": "blue"}})
    assert german[0]["field"].startswith("format_settings")
    assert german[0]["message"].startswith("Unbekannte Einstellung")
    # a serializer's own validation (DRF's text, said with "Sie" as the rest of the site)
    _, german = _read(_signed_in(director), "post", url,
                      {"club": club.slug, "name": "Turnier", "date": "28.11."})
    assert german[0]["field"] == "date"
    assert german[0]["message"].startswith("Das Datum hat das falsche Format. Verwenden Sie ")


def test_a_registration_refusal_and_a_permission_refusal_are_german() -> None:
    club, director = club_with_director(slug="i18n-register")
    event = event_create(club=club, name="Herbstturnier", date=datetime.date(2026, 11, 28))
    url = reverse("api-registrations", args=[event.pk])
    _, german = _read(_anonymous, "post", url, {"name": "Greta Keller",
                                                "email": "greta@example.org"})
    assert german[0]["message"] == "Die Anmeldung für diese Veranstaltung ist geschlossen."
    stranger = get_user_model().objects.create_user("stranger", "s@example.org", "x-Passwort-1")
    _, german = _read(_signed_in(stranger), "put", reverse("api-registration-settings",
                                                           args=[event.pk]), {"is_open": True})
    assert german[0]["message"] == "Sie sind nicht berechtigt, diese Aktion durchzuführen."


def test_a_table_that_is_not_there_is_a_german_404_with_the_same_field_and_code() -> None:
    english, german = _read(_anonymous, "post", "/api/tables/not-a-token/hands/",
                            {**values(), "number": 1})
    assert english == [{"field": "__all__", "code": "not_found", "message": "No such table"}]
    assert german == [{"field": "__all__", "code": "not_found",
                       "message": "Diesen Tisch gibt es nicht"}]


def test_an_accounts_german_beats_an_english_browser_for_a_script_with_a_token() -> None:
    club, director = club_with_director(slug="i18n-token")
    account_language_set(user=director, language="de")
    token = Token.objects.create(user=director)
    script = APIClient(HTTP_ACCEPT_LANGUAGE="en", HTTP_AUTHORIZATION=f"Token {token.key}")
    bad = {"club": club.slug, "name": "Turnier", "date": "2026-11-28", "deals_per_round": 61}
    response = script.post(reverse("api-events"), bad, format="json")
    assert response.status_code == 400 and response["Content-Language"] == "de"
    assert response.json()["errors"][0]["message"] == (
        "Die Spiele je Runde müssen zwischen 1 und 60 liegen.")
    # an account that chose no language is answered in the script's own
    account_language_set(user=director, language="")
    response = script.post(reverse("api-events"), bad, format="json")
    assert response["Content-Language"] == "en"
    assert response.json()["errors"][0]["message"] == "Deals per round must be between 1 and 60."

"""The split final through the REST API: 20 pairs play 3 Swiss rounds, then the top 4 an upper
bracket and the next 4 a lower bracket at the same time (``playoff.lower``). Both brackets are
seated in each wave, the bracket page and its API draw both, and the places at the finish are
the upper bracket's (1-4), the lower bracket's (5-8), then the other pairs by the qualifying
standings. Refusals name ``format_settings.playoff.lower``. Hands are random."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tests.events.test_api_pairs import PairEvent, _bracket_losses
from tests.events.test_api_progressive import _ok, _refused, director_api

pytestmark = pytest.mark.django_db
__all__ = ["director_api"]  # the fixture

PLAYOFF = {"kind": "single", "cut": 4, "lower": 4, "third_place": True}


@pytest.fixture
def club(director_api: APIClient) -> tuple[str, list[int]]:
    made = _ok(director_api.post("/api/clubs/", {"name": "Split Club"}, format="json"), 201)
    players = [_ok(director_api.post(f"/api/clubs/{made['slug']}/players/",
                                     {"name": f"Player {n:02d}"}, format="json"), 201)["id"]
               for n in range(1, 41)]
    return made["slug"], players


def _event(slug: str, **over: Any) -> dict[str, Any]:
    return {"club": slug, "name": "Split", "date": "2026-11-22", "format": "swiss", **over}


def test_bad_lower_brackets_are_refused_naming_the_field(
        director_api: APIClient, club: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = club
    api = director_api
    for lower in (1, "4", 300):
        _refused(api.post("/api/events/", _event(slug, format_settings={
            "playoff": {"kind": "single", "cut": 4, "lower": lower}}), format="json"),
            "format_settings.playoff.lower")
    _refused(api.post("/api/events/", _event(slug, format_settings={
        "playoff": {"kind": "single", "cut": 4, "lower": 3, "third_place": True}}),
        format="json"), "format_settings.playoff.lower")
    # 7 pairs cannot fill a cut of 4 and a lower bracket of 4: the first round says so
    t = PairEvent(api, slug, django_capture_on_commit_callbacks, 7, format="swiss",
                  rounds_planned=2, format_settings={"playoff": PLAYOFF})
    for i in range(7):
        t.register(players[2 * i:2 * i + 2])
    error = _refused(api.post(t.url("rounds/"), {}, format="json"),
                     "format_settings.playoff.lower")
    assert "8 pairs" in error["message"]
    assert _ok(api.get(t.url("rounds/"))) == []
    # a lower bracket of 2 is enough (settings change before play: the same field is checked)
    _refused(api.patch(t.url(), {"format_settings": {"playoff": {**PLAYOFF, "lower": 1}}},
                       format="json"), "format_settings.playoff.lower")
    changed = _ok(api.patch(t.url(), {"format_settings": {"playoff": {
        "kind": "single", "cut": 4, "lower": 2}}}, format="json"))
    assert changed["format_settings"]["playoff"]["lower"] == 2
    assert _ok(api.post(t.url("rounds/"), {}, format="json"), 201)["number"] == 1


def test_a_20_pair_swiss_cut_to_an_upper_and_a_lower_bracket(
        director_api: APIClient, club: tuple[str, list[int]], client,
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = club
    api = director_api
    t = PairEvent(api, slug, django_capture_on_commit_callbacks, 20, format="swiss",
                  rounds_planned=3, format_settings={"playoff": PLAYOFF},
                  prizes={"currency": "$", "payouts": [
                      {"place": 1, "amount": "100"}, {"place": 5, "amount": "40"}]})
    pairs = [t.register(players[2 * i:2 * i + 2]) for i in range(20)]
    detail = _ok(api.get(t.url()))
    assert detail["rounds_total"] == 5  # 3 qualifying rounds, two waves of both brackets
    assert any("lower bracket" in sentence for sentence in detail["rules"])
    waiting = _ok(api.get(t.url("bracket/")))
    assert not waiting["seeded"] and waiting["lower"]["entrants"] == 4
    assert [b["label"] for b in waiting["brackets"]] == [
        "Upper bracket", "Upper bracket: Third place",
        "Lower bracket", "Lower bracket: Third place"]

    current = _ok(api.post(t.url("rounds/"), {}, format="json"), 201)
    for number in range(1, 4):
        assert current["stage"] == "qualifying"
        t.play(current)
        current = t.round(number + 1)  # seated by the advance
    qualifying = _ok(api.get(t.url("standings/") + "?stage=qualifying"))["rows"]
    order = [r["pair_id"] for r in qualifying]
    upper, lower = order[:4], order[4:8]

    # the first wave seats both brackets at once: 1 v 4, 2 v 3 above, 5 v 8, 6 v 7 below
    assert current["number"] == 4 and current["stage"] == "bracket"
    matches, byes = t.pairs_of(current)
    assert byes == []
    assert {tb["match"]: frozenset(m) for tb, m in zip(current["tables"], matches,
                                                        strict=True)} == {
        "W1-1": frozenset((upper[0], upper[3])), "W1-2": frozenset((upper[1], upper[2])),
        "L-W1-1": frozenset((lower[0], lower[3])), "L-W1-2": frozenset((lower[1], lower[2]))}
    client.force_login(get_user_model().objects.get(username="td"))
    page = client.get(f"/events/{t.id}/bracket/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "<h2>Upper bracket</h2>" in html and "Winners&#x27; bracket" not in html
    assert "<h2>Lower bracket</h2>" in html
    assert 'data-group="lower"' in html and 'data-match="L-W1-1"' in html
    assert 'data-group="upper"' in html and 'data-match="W1-1"' in html

    t.play(current)
    second = t.round(5)
    assert sorted(tb["match"] for tb in second["tables"]) == ["3P", "L-3P", "L-W2-1", "W2-1"]
    bracket = t.play_bracket(second)
    assert bracket["complete"] and bracket["lower"]["complete"]
    _, played = _bracket_losses(bracket)  # winners and losers routed as the plans say
    assert len(played) == 8
    assert api.get(t.url("rounds/6/")).status_code == 404
    by_code = {m["code"]: m for part in bracket["brackets"] for col in part["rounds"]
               for m in col["matches"]}
    assert bracket["champion"] == by_code["W2-1"]["winner"] in upper
    assert bracket["lower"]["champion"] == by_code["L-W2-1"]["winner"] in lower

    finished = _ok(api.post(t.url("finish/")))
    places = finished["placements"]
    assert sorted(p["pair_id"] for p in places) == sorted(pairs)
    assert [(p["place"], p["pair_id"], p["group"]) for p in places[:8]] == [
        (1, by_code["W2-1"]["winner"], "upper"), (2, by_code["W2-1"]["loser"], "upper"),
        (3, by_code["3P"]["winner"], "upper"), (4, by_code["3P"]["loser"], "upper"),
        (5, by_code["L-W2-1"]["winner"], "lower"), (6, by_code["L-W2-1"]["loser"], "lower"),
        (7, by_code["L-3P"]["winner"], "lower"), (8, by_code["L-3P"]["loser"], "lower")]
    assert [p["place"] for p in bracket["placements"]] == list(range(1, 9))
    # the rest keep their qualifying places, after the two brackets'
    rank = {r["pair_id"]: r["rank"] for r in qualifying}
    assert [(p["pair_id"], p["place"], p["stage"]) for p in places[8:]] == [
        (pair, max(rank[pair], 9), "qualifying") for pair in order[8:]]
    # the prizes follow the overall places: the lower bracket's winner takes fifth's
    prize = {p["pair_id"]: p["prize"] for p in places}
    assert prize[by_code["W2-1"]["winner"]] == "100.00"
    assert prize[by_code["L-W2-1"]["winner"]] == "40.00"
    results = client.get(f"/events/{t.id}/results/").content.decode()
    assert "Lower bracket" in results and "Upper bracket" in results

"""Score entry API: table token endpoints, corrections with expected_revision, tenancy, schema."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import services
from scoring.models import Hand, HandRevision
from tests.clubs.factories import club_with_director
from tests.scoring.factories import close_round, member, seated_table, values
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    return APIClient()


def submit(api: APIClient, table, number: int = 1, key: str | None = "k-1", **over):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return api.post(reverse("api-table-hands", args=[table.token]),
                    {**values(**over), "number": number}, format="json", **headers)


def test_table_state(api) -> None:
    table = seated_table()
    submit(api, table)
    body = api.get(reverse("api-table", args=[table.token])).json()
    assert body["table"] == 1 and body["round"] == 1 and body["is_open"] is True
    assert [s["position"] for s in body["seats"]] == ["N", "E", "S", "W"]
    assert body["next_number"] == 2 and body["next_dealer"] == "W"
    assert body["game"]["totals"] == {"NS": 51, "EW": 55}
    assert body["hands"][0]["running"] == {"NS": 51, "EW": 55}
    assert api.get("/api/tables/nope/").status_code == 404


def test_check_validates_without_storing(api) -> None:
    table = seated_table()
    url = reverse("api-table-check", args=[table.token])
    ok = api.post(url, values(), format="json")
    assert ok.status_code == 200 and ok.json()["points"] == {"NS": 51, "EW": 55}
    bad = api.post(url, values(bid=63, meld={"NS": 24}), format="json")
    assert bad.status_code == 400
    fields = {e["field"] for e in bad.json()["errors"]}
    assert {"bid", "meld.EW"} <= fields
    shape = api.post(url, values(meld={"NS": "lots", "EW": 3}), format="json")
    assert shape.status_code == 400 and shape.json()["errors"][0]["field"] == "meld.NS"
    assert Hand.objects.count() == 0


def test_check_scores_by_the_events_own_rules_in_one_query(
    api, django_assert_num_queries
) -> None:
    table = seated_table(ruleset_overrides={"min_bid": 60})
    url = reverse("api-table-check", args=[table.token])
    with django_assert_num_queries(1):
        low = api.post(url, values(), format="json")
    assert low.status_code == 400 and "bid" in {e["field"] for e in low.json()["errors"]}
    assert api.post(url, values(bid=60, counters={"NS": 36, "EW": 14}),
                    format="json").status_code == 200
    missing = api.post(reverse("api-table-check", args=["nope"]), values(), format="json")
    assert missing.status_code == 404 and missing.json()["errors"]


def test_submit_and_retry_with_the_same_key(api) -> None:
    table = seated_table()
    first = submit(api, table, key="same")
    again = submit(api, table, key="same")
    assert first.status_code == 201 and again.status_code == 200
    assert first.json()["id"] == again.json()["id"]
    assert HandRevision.objects.count() == 1
    # the key may also come in the body
    body_key = api.post(reverse("api-table-hands", args=[table.token]),
                        {**values(dealer="W"), "number": 2, "idempotency_key": "body-key"},
                        format="json")
    assert body_key.status_code == 201 and HandRevision.objects.get(hand__number=2).idempotency_key == "body-key"


def test_a_key_used_at_another_table_is_not_replayed_here(api) -> None:
    table_a = seated_table()
    table_b = seated_table(event=table_a.round.event, table_number=2)
    assert submit(api, table_a, key="shared").status_code == 201
    response = submit(api, table_b, key="shared")
    assert response.status_code == 400
    assert not Hand.objects.filter(game=table_b.game).exists()


def test_second_device_gets_409_with_the_stored_values(api) -> None:
    table = seated_table()
    submit(api, table, key="a")
    response = submit(api, table, key="b", bid=55)
    assert response.status_code == 409
    body = response.json()
    assert body["errors"][0]["code"] == "conflict"
    assert body["current"]["bid"] == 51 and body["current"]["revision"] == 1


def test_rejected_hand_is_400_and_nothing_is_stored(api) -> None:
    table = seated_table()
    response = submit(api, table, counters={"NS": 30, "EW": 30})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"].startswith("counters")
    assert Hand.objects.count() == 0


def test_table_status_is_what_the_state_says_in_one_query(api, django_assert_num_queries) -> None:
    table = seated_table()
    url = reverse("api-table-status", args=[table.token])

    def status() -> dict:
        response = api.get(url)
        assert response.status_code == 200
        return response.json()

    def state() -> dict:
        return api.get(reverse("api-table", args=[table.token])).json()

    first = status()
    assert first == {"game": {"version": state()["game"]["version"], "status": "playing"},
                     "round": 1, "round_status": state()["round_status"], "is_open": True,
                     "next_round": {"number": 2, "seated": False}}
    submit(api, table)
    assert status()["game"]["version"] == state()["game"]["version"] > first["game"]["version"]
    with django_assert_num_queries(1):
        api.get(url)
    close_round(table)
    assert status()["is_open"] is False and status()["round_status"] == "closed"
    assert state()["is_open"] is False
    Round.objects.create(event=table.round.event, number=2)
    assert status()["next_round"] == {"number": 2, "seated": True} == state()["next_round"]
    response = api.get(reverse("api-table-status", args=["nope"]))
    assert response.status_code == 404 and response.json()["errors"]


def test_table_status_is_closed_once_the_event_is_over(api) -> None:
    table = seated_table()
    Event.objects.filter(pk=table.round.event_id).update(status=Event.Status.FINISHED)
    body = api.get(reverse("api-table-status", args=[table.token])).json()
    assert body["is_open"] is False and body["round_status"] != "closed"
    assert api.get(reverse("api-table", args=[table.token])).json()["is_open"] is False


def test_closed_round_refuses_table_writes(api) -> None:
    table = seated_table()
    close_round(table)
    response = submit(api, table)
    assert response.status_code == 403 and response.json()["errors"][0]["field"] == "round"
    assert api.get(reverse("api-table", args=[table.token])).json()["is_open"] is False


def _token(user) -> str:
    return Token.objects.create(user=user).key


def test_correction_by_a_director_with_token_auth(api) -> None:
    club, director = club_with_director(slug="club-a")
    table = seated_table(club=club)
    hand = services.hand_submit(game=table.game, number=1, values=values()).hand
    close_round(table)
    api.credentials(HTTP_AUTHORIZATION=f"Token {_token(director)}")
    url = reverse("api-hand", args=[hand.pk])
    changed = {**values(bid=52, meld={"NS": 25, "EW": 32}), "expected_revision": 1}
    no_reason = api.put(url, changed, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["errors"][0]["field"] == "note"
    ok = api.put(url, {**changed, "note": "bid was 52"}, format="json")
    assert ok.status_code == 200 and ok.json()["revision"] == 2 and ok.json()["source"] == "api"
    stale = api.put(url, {**changed, "bid": 53, "meld": {"NS": 26, "EW": 32}, "note": "again"},
                    format="json")
    assert stale.status_code == 409 and stale.json()["current"]["revision"] == 2
    revisions = api.get(reverse("api-hand-revisions", args=[hand.pk])).json()["revisions"]
    assert [(r["revision"], r["is_live"], r["values"]["bid"]) for r in revisions] == [
        (1, False, 51), (2, True, 52)]
    assert revisions[1]["author"] == director.username and revisions[1]["note"] == "bid was 52"


def test_scorer_cannot_correct_a_closed_round(api) -> None:
    club, _ = club_with_director(slug="club-a")
    table = seated_table(club=club)
    hand = services.hand_submit(game=table.game, number=1, values=values()).hand
    close_round(table)
    api.force_authenticate(member(club, "scorer", "scorer-a"))
    response = api.put(reverse("api-hand", args=[hand.pk]),
                       {**values(bid=52, meld={"NS": 25, "EW": 32}), "expected_revision": 1,
                        "note": "please"}, format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "round"


@pytest.mark.parametrize("is_public", [True, False])
def test_director_of_another_club_gets_403_or_404(api, is_public) -> None:
    club_a, _ = club_with_director(slug="club-a", is_public=is_public)
    _, director_b = club_with_director(slug="club-b")
    table = seated_table(club=club_a)
    hand = services.hand_submit(game=table.game, number=1, values=values()).hand
    api.credentials(HTTP_AUTHORIZATION=f"Token {_token(director_b)}")
    expected = 403 if is_public else 404
    put = api.put(reverse("api-hand", args=[hand.pk]),
                  {**values(bid=52, meld={"NS": 25, "EW": 32}), "expected_revision": 1},
                  format="json")
    assert put.status_code == expected
    assert api.get(reverse("api-hand-revisions", args=[hand.pk])).status_code == expected
    assert HandRevision.objects.count() == 1


def test_anonymous_cannot_correct(api) -> None:
    table = seated_table()
    hand = services.hand_submit(game=table.game, number=1, values=values()).hand
    response = api.put(reverse("api-hand", args=[hand.pk]), {**values(), "expected_revision": 1},
                       format="json")
    assert response.status_code in (401, 403)


def test_schema_describes_the_entry_endpoints(client) -> None:
    paths = client.get("/api/schema/?format=json").json()["paths"]
    for path in ["/api/tables/{token}/", "/api/tables/{token}/status/",
                 "/api/tables/{token}/check/", "/api/tables/{token}/hands/",
                 "/api/hands/{hand_id}/", "/api/hands/{hand_id}/revisions/"]:
        assert path in paths, path


def test_the_table_link_does_not_show_who_corrected_a_hand_or_why(api) -> None:
    club, director = club_with_director()
    table = seated_table(club=club)
    submit(api, table)
    hand = Hand.objects.get(game=table.game)
    services.hand_correct(hand=hand, values=values(bid=52), expected_revision=1,
                          author=director, note="private: sheet said 52", as_director=True)
    body = api.get(reverse("api-table", args=[table.token])).json()
    row = body["hands"][0]
    assert row["revision"] == 2 and row["values"]["bid"] == 52
    assert not {"author", "note", "source"} & set(row)
    assert "private" not in str(body) and director.get_username() not in str(body)


def test_the_scorer_stands_once_hands_are_entered(api, client) -> None:
    table = seated_table()
    url = f"/api/tables/{table.token}/scorer/"
    assert api.post(url, {"position": "N"}, format="json").status_code == 200
    submit(api, table)
    refused = api.post(url, {"position": "E"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "scorer"
    page = client.post(reverse("table-set-scorer", args=[table.token]), {"position": "E"})
    assert page.status_code == 400
    assert b"keeps score for this game since its first hand" in page.content
    table.game.refresh_from_db()
    assert table.game.scorer_position == "N"


def test_the_engines_stricter_checks_reach_the_api_as_400s_naming_the_field(api) -> None:
    three = seated_table(ruleset_preset="three_handed")
    three.seats.filter(position="W").delete()  # a table of three (at four, the dealer sits out)
    url = reverse("api-table-check", args=[three.token])
    hand = {"dealer": "S", "bidder": "N", "bid": 300, "trump": "H", "outcome": "played",
            "meld": {"N": 150, "E": 60, "S": 20}, "counters": {"N": 160, "E": 90, "S": 0}}
    # who saved meld is never guessed from counters: tricks are required
    response = api.post(url, hand, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert (error["field"], error["code"]) == ("tricks", "required")
    single = seated_table(ruleset_preset="single_deck_partnership")
    url = reverse("api-table-check", args=[single.token])
    base = {"dealer": "S", "bidder": "N", "bid": 250, "trump": "H", "outcome": "played",
            "meld": {"NS": 100, "EW": 60}, "counters": {"NS": 150, "EW": 100}}
    assert api.post(url, base, format="json").status_code == 200
    odd = api.post(url, {**base, "counters": {"NS": 155, "EW": 95}}, format="json")
    assert odd.status_code == 400
    assert {(e["field"], e["code"]) for e in odd.json()["errors"]} == {
        ("counters.NS", "not_multiple"), ("counters.EW", "not_multiple")}
    # one deck cannot give a side two hands' best: the message says the real limit
    high = api.post(url, {**base, "meld": {"NS": 3600, "EW": 0}}, format="json")
    assert high.status_code == 400
    (error,) = high.json()["errors"]
    assert error["field"] == "meld.NS" and "at most 2220" in error["message"]
    assert Hand.objects.count() == 0

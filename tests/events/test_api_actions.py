"""The director's actions in the API one by one: what they answer, and errors that name the
field (house shape ``{"errors": [{"field", "code", "message"}]}``)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from draw.services import round_create, round_set_status
from scoring import services as scoring
from scoring.models import Hand
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import values
from tests.tournaments.factories import EventFactory, event_with_players
from tournaments.models import Bye, Entry, Event, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def night() -> dict[str, Any]:
    club, director = club_with_director(slug="home")
    event = event_with_players(club=club, players=9, deals_per_round=2)
    api = APIClient()
    api.force_authenticate(director)
    return {"club": club, "director": director, "event": event, "api": api,
            "base": f"/api/events/{event.pk}"}


def _fields(response: Any) -> list[str]:
    return [e["field"] for e in response.json()["errors"]]


# --- events -------------------------------------------------------------------------------------
def test_event_create_takes_a_format_and_refuses_an_unknown_one(night: dict[str, Any]) -> None:
    api = night["api"]
    payload = {"club": "home", "name": "Cup", "date": "2026-12-04", "ruleset_preset":
               "pagat_double_deck", "deals_per_round": 2}
    bad = api.post("/api/events/", payload | {"format": "swiss_teams"}, format="json")
    assert bad.status_code == 400 and _fields(bad) == ["format"]
    ok = api.post("/api/events/", payload | {"format": "club_night"}, format="json")
    assert ok.status_code == 201
    body = ok.json()
    assert (body["format"], body["status"], body["placements"]) == ("club_night", "draft", [])
    unknown_preset = api.post("/api/events/", payload | {"ruleset_preset": "no-such-rules"},
                              format="json")
    assert unknown_preset.status_code == 400 and _fields(unknown_preset) == ["ruleset_preset"]
    # the name is needed; the date, left out, is today where the club plays
    missing = api.post("/api/events/", {"club": "home"}, format="json")
    assert missing.status_code == 400 and set(_fields(missing)) == {"name"}
    bad_date = api.post("/api/events/", {"club": "home", "name": "Cup", "date": "4 Dec"},
                        format="json")
    assert bad_date.status_code == 400 and _fields(bad_date) == ["date"]


def test_settings_patch_changes_only_what_is_sent(night: dict[str, Any]) -> None:
    api, event = night["api"], night["event"]
    before = Event.objects.get(pk=event.pk)
    response = api.patch(f"{night['base']}/", {"name": "Renamed", "deals_per_round": 3},
                         format="json")
    assert response.status_code == 200
    body = response.json()
    assert (body["name"], body["deals_per_round"]) == ("Renamed", 3)
    after = Event.objects.get(pk=event.pk)
    assert (after.name, after.deals_per_round) == ("Renamed", 3)
    assert (after.date, after.rounds_planned, after.bye_scoring, after.tie_breaks,
            after.is_public, after.ruleset_preset) == (
        before.date, before.rounds_planned, before.bye_scoring, before.tie_breaks,
        before.is_public, before.ruleset_preset)
    assert event.log.filter(action="settings").exists()


@pytest.mark.parametrize(("body", "field"), [
    ({"rounds_planned": 0}, "rounds_planned"),
    ({"bye_scoring": "lots"}, "bye_scoring"),
    ({"name": "   "}, "name"),
    ({"tie_breaks": ["coin_toss"]}, "tie_breaks"),
    ({"date": "soon"}, "date"),
])
def test_settings_errors_name_the_field(night: dict[str, Any], body: dict[str, Any],
                                        field: str) -> None:
    response = night["api"].patch(f"{night['base']}/", body, format="json")
    assert response.status_code == 400
    assert field in _fields(response)


def test_rules_cannot_change_once_hands_are_entered(night: dict[str, Any]) -> None:
    event = night["event"]
    round_ = round_create(event=event)
    scoring.hand_submit(game=round_.tables.get(number=1).game, number=1, values=values())
    response = night["api"].patch(f"{night['base']}/", {"ruleset_preset": "pagat_single_deck"},
                                  format="json")
    assert response.status_code == 400 and _fields(response) == ["ruleset_preset"]


def test_finish_needs_closed_rounds_and_reopen_needs_a_finished_event(night: dict[str, Any]) -> None:
    api, event = night["api"], night["event"]
    round_create(event=event)
    running = api.post(f"{night['base']}/reopen/")
    assert running.status_code == 400 and _fields(running) == ["status"]
    open_round = api.post(f"{night['base']}/finish/")
    assert open_round.status_code == 400 and _fields(open_round) == ["status"]
    assert Event.objects.get(pk=event.pk).status == "running"


def test_placements_share_a_place_on_a_tie(night: dict[str, Any]) -> None:
    """A night where nobody scored: every entry ties for first."""
    api, event = night["api"], night["event"]
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    round_set_status(round_=round_, status="closed", close_unfinished=True)
    body = api.post(f"{night['base']}/finish/").json()
    assert body["status"] == "finished"
    assert {p["place"] for p in body["placements"]} == {1}
    assert len(body["placements"]) == 9


# --- entries ------------------------------------------------------------------------------------
def test_check_in_refuses_another_clubs_player_without_naming_them(night: dict[str, Any]) -> None:
    club_b, _ = club_with_director(slug="secret-society", is_public=False)
    stranger = PlayerFactory(club=club_b, name="Zebulon Quartermaine")
    api = night["api"]
    response = api.post(f"{night['base']}/entries/", {"player_id": stranger.pk}, format="json")
    assert response.status_code == 400
    assert _fields(response) == ["player_id"]
    text = response.content.decode()
    for secret in ("Zebulon", "Quartermaine", "secret", "Secret Society"):
        assert secret not in text
    # the same answer as for an id that does not exist at all
    nobody = api.post(f"{night['base']}/entries/", {"player_id": 999_999_999}, format="json")
    assert nobody.json() == response.json()
    assert not Entry.objects.filter(player=stranger).exists()
    wrong_type = api.post(f"{night['base']}/entries/", {"player_id": "abc"}, format="json")
    assert wrong_type.status_code == 400 and _fields(wrong_type) == ["player_id"]


def test_check_in_and_leave(night: dict[str, Any]) -> None:
    api, event = night["api"], night["event"]
    newcomer = PlayerFactory(club=night["club"])
    created = api.post(f"{night['base']}/entries/", {"player_id": newcomer.pk}, format="json")
    assert created.status_code == 201
    entry_id = created.json()["id"]
    assert Entry.objects.get(pk=entry_id).event_id == event.pk
    left = api.post(f"{night['base']}/entries/{entry_id}/leave/")
    assert left.status_code == 200 and left.json()["status"] == "left"
    twice = api.post(f"{night['base']}/entries/{entry_id}/leave/")
    assert twice.status_code == 400 and _fields(twice) == ["entry"]
    other_event = event_with_players(club=night["club"], players=1)
    foreign = other_event.entries.get()
    assert api.post(f"{night['base']}/entries/{foreign.pk}/leave/").status_code == 404


# --- rounds -------------------------------------------------------------------------------------
def test_seat_start_swap_close_and_the_number_rules(night: dict[str, Any]) -> None:
    api, event, base = night["api"], night["event"], night["base"]
    wrong = api.post(f"{base}/rounds/", {"number": 3}, format="json")
    assert wrong.status_code == 400 and _fields(wrong) == ["number"]
    seated = api.post(f"{base}/rounds/", {}, format="json")
    assert seated.status_code == 201
    body = seated.json()
    assert [t["number"] for t in body["tables"]] == [1, 2]
    assert all(len(t["seats"]) == 4 and t["token"] for t in body["tables"])
    assert all({"position", "entry_id"} <= set(s) for t in body["tables"] for s in t["seats"])
    same = api.post(f"{base}/rounds/", {"number": 1}, format="json")
    assert same.status_code == 200 and same.json() == body
    busy = api.post(f"{base}/rounds/", {}, format="json")
    assert busy.status_code == 400 and _fields(busy) == ["round"]
    listed = api.get(f"{base}/rounds/").json()
    assert [(r["number"], r["status"]) for r in listed] == [(1, "seated")]

    seat = body["tables"][0]["seats"][0]
    bye = body["byes"][0]
    swapped = api.post(f"{base}/rounds/1/swap/", {"entry_a": seat["entry_id"], "entry_b": bye},
                       format="json")
    assert swapped.status_code == 200
    assert swapped.json()["byes"] == [seat["entry_id"]]
    assert Seat.objects.get(round__event=event, entry_id=bye).position == seat["position"]
    assert Bye.objects.filter(round__event=event, entry_id=seat["entry_id"]).exists()
    unknown = api.post(f"{base}/rounds/1/swap/", {"entry_a": bye, "entry_b": 999_999_999},
                       format="json")
    assert unknown.status_code == 400 and _fields(unknown) == ["entry_b"]
    same_entry = api.post(f"{base}/rounds/1/swap/", {"entry_a": bye, "entry_b": bye},
                          format="json")
    assert same_entry.status_code == 400 and _fields(same_entry) == ["entry_b"]

    close_early = api.post(f"{base}/rounds/1/close/")
    assert close_early.status_code == 400 and _fields(close_early) == ["status"]
    started = api.post(f"{base}/rounds/1/start/")
    assert started.status_code == 200 and started.json()["status"] == "playing"
    late_swap = api.post(f"{base}/rounds/1/swap/", {"entry_a": bye, "entry_b": seat["entry_id"]},
                         format="json")
    assert late_swap.status_code == 400 and _fields(late_swap) == ["round"]
    assert api.post(f"{base}/rounds/2/start/").status_code == 404
    refused = api.post(f"{base}/rounds/1/close/")
    assert refused.status_code == 400 and _fields(refused) == ["close_unfinished"]
    assert "table 1 (playing)" in refused.json()["errors"][0]["message"]
    closed = api.post(f"{base}/rounds/1/close/", {"close_unfinished": True}, format="json")
    assert closed.status_code == 200 and closed.json()["status"] == "closed"


def test_reseat_before_any_hand(night: dict[str, Any]) -> None:
    api, base = night["api"], night["base"]
    first = api.post(f"{base}/rounds/", {}, format="json").json()
    again = api.post(f"{base}/rounds/", {"reseat": True, "reason": "a late arrival"},
                     format="json")
    assert again.status_code == 201 and again.json()["number"] == 1
    tokens = {t["token"] for t in first["tables"]}
    assert tokens.isdisjoint(t["token"] for t in again.json()["tables"])


def test_a_finished_event_takes_no_more_rounds(night: dict[str, Any]) -> None:
    event = EventFactory(club=night["club"], status="finished")
    response = night["api"].post(f"/api/events/{event.pk}/rounds/", {}, format="json")
    assert response.status_code == 400 and _fields(response) == ["event"]


# --- tables and the director's desk -------------------------------------------------------------
def test_scorer_and_confirm_errors_name_the_field(night: dict[str, Any]) -> None:
    round_ = round_create(event=night["event"])
    round_set_status(round_=round_, status="playing")
    table = round_.tables.get(number=1)
    api = APIClient()
    url = f"/api/tables/{table.token}"
    bad = api.post(f"{url}/scorer/", {"position": "X"}, format="json")
    assert bad.status_code == 400 and _fields(bad) == ["position"]
    assert api.post(f"{url}/scorer/", {"position": "E"}, format="json").json()[
        "scorer_position"] == "E"
    not_done = api.post(f"{url}/confirm/", {"position": "N"}, format="json")
    assert not_done.status_code == 400 and _fields(not_done) == ["status"]
    scoring.hand_submit(game=table.game, number=1, values=values())
    fixed = api.post(f"{url}/scorer/", {"position": "N"}, format="json")
    assert fixed.status_code == 400 and _fields(fixed) == ["scorer"]
    missing = api.post(f"{url}/confirm/", {}, format="json")
    assert missing.status_code == 400 and _fields(missing) == ["position"]


def test_desk_entry_and_delete_last(night: dict[str, Any]) -> None:
    api, base, event = night["api"], night["base"], night["event"]
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    game = round_.tables.get(number=2).game
    stored = api.post(f"{base}/hands/", {**values(), "number": 1, "round": 1, "table": 2},
                      format="json", HTTP_IDEMPOTENCY_KEY="desk-1")
    assert stored.status_code == 201 and stored.json()["source"] == "api"
    replay = api.post(f"{base}/hands/", {**values(), "number": 1, "round": 1, "table": 2},
                      format="json", HTTP_IDEMPOTENCY_KEY="desk-1")
    assert replay.status_code == 200 and replay.json()["id"] == stored.json()["id"]
    no_table = api.post(f"{base}/hands/", {**values(), "number": 1, "round": 1, "table": 9},
                        format="json")
    assert no_table.status_code == 400 and _fields(no_table) == ["table"]
    gone = {"number": 1, "expected_revision": 1, "note": "typed twice"}
    no_round = api.post(f"{base}/hands/delete-last/", {"round": 4, "table": 1, **gone},
                        format="json")
    assert no_round.status_code == 400 and _fields(no_round) == ["round"]
    bad_hand = api.post(f"{base}/hands/", {**values(bid=63, meld={"NS": 24}), "number": 2,
                                           "round": 1, "table": 2}, format="json")
    assert bad_hand.status_code == 400 and "meld.EW" in _fields(bad_hand)
    assert Hand.objects.filter(game=game).count() == 1
    no_reason = api.post(f"{base}/hands/delete-last/",
                         {"round": 1, "table": 2, "number": 1, "expected_revision": 1},
                         format="json")
    assert no_reason.status_code == 400 and _fields(no_reason) == ["note"]
    stale = api.post(f"{base}/hands/delete-last/", {"round": 1, "table": 2, **gone,
                                                    "expected_revision": 2}, format="json")
    assert stale.status_code == 409 and _fields(stale) == ["number"]
    deleted = api.post(f"{base}/hands/delete-last/", {"round": 1, "table": 2, **gone},
                       format="json")
    assert deleted.status_code == 200 and deleted.json()["hands"] == []
    assert Hand.objects.filter(game=game, deleted_at__isnull=True).count() == 0
    assert Hand.objects.get(game=game).revisions.filter(is_deletion=True).count() == 1
    again = api.post(f"{base}/hands/delete-last/", {"round": 1, "table": 2, **gone},
                     format="json")  # a double submit deletes nothing more
    assert again.status_code == 400 and _fields(again) == ["number"]
    assert event.log.filter(action="hand_deleted").exists()


def test_finishing_on_the_page_also_fixes_the_placements(night: dict[str, Any], client) -> None:
    event = night["event"]
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    game = round_.tables.get(number=1).game
    scoring.hand_submit(game=game, number=1, values=values())
    round_set_status(round_=round_, status="closed", close_unfinished=True)
    client.force_login(night["director"])
    assert client.post(f"/events/{event.pk}/finish/").status_code == 400  # asks first
    assert client.post(f"/events/{event.pk}/finish/", {"confirm": "1"}).status_code == 302
    placements = night["api"].get(night["base"] + "/").json()["placements"]
    assert len(placements) == 9 and placements[0]["place"] == 1
    winners = set(Seat.objects.filter(table__game=game, position__in=["E", "W"]).values_list(
        "entry_id", flat=True))  # EW scored 55 to NS's 51
    assert {p["entry_id"] for p in placements if p["place"] == 1} == winners


@pytest.mark.parametrize("tie_breaks", [[""], ["   "], ["most_wins", ""]])
def test_a_blank_tie_break_is_a_clean_message_naming_the_field(
        night: dict[str, Any], tie_breaks: list[str]) -> None:
    response = night["api"].patch(f"{night['base']}/", {"tie_breaks": tie_breaks}, format="json")
    assert response.status_code == 400
    (error,) = response.json()["errors"]
    assert error["field"] == "tie_breaks"
    assert "ErrorDetail" not in error["message"] and "may not be blank" in error["message"]
    assert error["message"].startswith(f"Item {len(tie_breaks)}: ")


@pytest.mark.parametrize("body", [{}, {"other": 1}])
@pytest.mark.parametrize("as_form", [False, True])
def test_advance_without_held_is_a_400_naming_held(night: dict[str, Any], body: dict[str, Any],
                                                   as_form: bool) -> None:
    event = night["event"]
    before = Event.objects.get(pk=event.pk).advance_held
    url = f"{night['base']}/advance/"
    response = (night["api"].post(url, body) if as_form
                else night["api"].post(url, body, format="json"))
    assert response.status_code == 400
    assert _fields(response) == ["held"]
    assert Event.objects.get(pk=event.pk).advance_held == before

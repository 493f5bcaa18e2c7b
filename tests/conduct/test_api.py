"""The conduct API: recording, listing and withdrawing penalties, appeals, the penalty table and
adjusted results, for the club's directors only; a player's conduct record for the club's
directors and the player only. Every refusal names its field and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Membership
from conduct.models import Appeal, Penalty
from conduct.services import penalty_record
from scoring.models import Game
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.conduct.helpers import game, play, progressive_day, seat_first, seat_of
from tests.scoring.factories import member
from tournaments.models import Event
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    api = APIClient()
    token, _ = Token.objects.get_or_create(user=user)
    api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


@pytest.fixture
def day(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """A progressive day's first game: table 1 played and confirmed, table 2 still playing."""
    setup = progressive_day(slug="home-club")
    event, director = setup["event"], setup["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW", skip=2)
    other_club, other_director = club_with_director(slug="away-club")
    return {**setup, "first": first, "other_director": other_director,
            "scorer": member(setup["club"], "scorer", "home-scorer"),
            "member": member(setup["club"], "member", "home-member"),
            "talker": seat_of(event, 1, "E").entry, "other_club": other_club,
            "capture": django_capture_on_commit_callbacks}


def _writes(day: dict[str, Any], penalty: Penalty) -> list[tuple[str, str, dict[str, Any]]]:
    base = f"/api/events/{day['event'].pk}"
    return [
        ("post", f"{base}/penalties/", {"entry_id": day["talker"].pk, "round": 1,
                                        "kind": "table_talk", "points": 25, "reason": "Talk"}),
        ("post", f"{base}/penalties/{penalty.pk}/withdraw/", {"reason": "Mistaken"}),
        ("post", f"{base}/appeals/", {"penalty_id": penalty.pk, "contested": "Not me",
                                      "decision": "upheld"}),
        ("put", f"{base}/penalty-table/", {"points": {"table_talk": 5}}),
        ("post", f"{base}/rounds/1/tables/2/adjust/", {"kind": "points", "reason": "Ill",
                                                       "points": {"NS": 10, "EW": 20}}),
    ]


def _reads(day: dict[str, Any]) -> list[str]:
    base = f"/api/events/{day['event'].pk}"
    return [f"{base}/penalties/", f"{base}/appeals/", f"{base}/penalty-table/"]


def _state(day: dict[str, Any]) -> tuple[Any, ...]:
    return (tuple(Penalty.objects.order_by("pk").values_list("pk", "points", "withdrawn_at")),
            Appeal.objects.count(), Game.objects.get(pk=game(day["event"], 1, 2).pk).status,
            Event.objects.get(pk=day["event"].pk).hands_version)


def test_the_clubs_director_records_lists_and_withdraws_a_penalty(day: dict[str, Any]) -> None:
    api = _client(day["director"])
    base = f"/api/events/{day['event'].pk}"
    with day["capture"](execute=True):
        made = api.post(f"{base}/penalties/", {"entry_id": day["talker"].pk, "round": 1,
                                               "table": 1, "kind": "table_talk", "points": 30,
                                               "reason": "Signalled a lead"}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["entry_id"], body["round"], body["table"], body["points"], body["kind"]) == (
        day["talker"].pk, 1, 1, 30, "table_talk")
    listed = api.get(f"{base}/penalties/").json()
    assert [p["id"] for p in listed] == [body["id"]]
    standings = api.get(f"/api/events/{day['event'].pk}/standings/").json()
    row = next(r for r in standings["rows"] if r["entry_id"] == day["talker"].pk)
    assert row["points"] == 55 - 30
    refused = api.post(f"{base}/penalties/{body['id']}/withdraw/", {}, format="json")
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "reason"
    with day["capture"](execute=True):
        gone = api.post(f"{base}/penalties/{body['id']}/withdraw/", {"reason": "Misheard"},
                        format="json")
    assert gone.status_code == 200 and gone.json()["withdrawn"] is True
    again = api.post(f"{base}/penalties/{body['id']}/withdraw/", {"reason": "Twice"},
                     format="json")
    assert again.status_code == 400 and again.json()["errors"][0]["code"] == "withdrawn"
    standings = api.get(f"/api/events/{day['event'].pk}/standings/").json()
    row = next(r for r in standings["rows"] if r["entry_id"] == day["talker"].pk)
    assert row["points"] == 55 and row["penalty_points"] == 0
    # appeals: logged with the decision and who decided; overturning withdraws the penalty
    with day["capture"](execute=True):
        second = api.post(f"{base}/penalties/", {"entry_id": day["talker"].pk, "round": 1,
                                                 "kind": "slow_play", "reason": "Slow"},
                          format="json").json()
        appeal = api.post(f"{base}/appeals/", {"penalty_id": second["id"],
                                               "contested": "The table was waiting for a card",
                                               "decision": "overturned",
                                               "note": "The deck was short"}, format="json")
    assert appeal.status_code == 201, appeal.content
    assert appeal.json()["decided_by"] == day["director"].username
    assert Penalty.objects.get(pk=second["id"]).withdrawn
    assert [a["decision"] for a in api.get(f"{base}/appeals/").json()] == ["overturned"]


def test_bad_requests_name_their_field_and_change_nothing(day: dict[str, Any]) -> None:
    api = _client(day["director"])
    base = f"/api/events/{day['event'].pk}"
    talker = day["talker"]
    at_table_2 = seat_of(day["event"], 1, "N", table=2).entry
    good = {"entry_id": talker.pk, "round": 1, "kind": "misconduct", "points": 50,
            "reason": "Swore"}
    cases = [
        ({"points": -50}, "points"), ({"points": 0}, "points"), ({"points": 100000}, "points"),
        ({"points": "fifty"}, "points"), ({"points": 2.5}, "points"),
        ({"reason": ""}, "reason"), ({"kind": "cheating"}, "kind"),
        ({"round": 7}, "round"), ({"round": "one"}, "round"),
        ({"entry_id": 999999}, "entry_id"), ({"entry_id": None}, "entry_id"),
        ({"pair_id": 3}, "entry_id"),  # both named
        ({"table": 2}, "table"),  # the player sat at table 1
    ]
    before = _state(day)
    for change, field in cases:
        response = api.post(f"{base}/penalties/", {**good, **change}, format="json")
        assert response.status_code == 400, (change, response.content)
        assert response.json()["errors"][0]["field"] == field, (change, response.json())
    # a player not at that game's table, and a player who did not play in that round
    response = api.post(f"{base}/penalties/", {**good, "entry_id": at_table_2.pk, "table": 1},
                        format="json")
    assert response.status_code == 400 and response.json()["errors"][0]["field"] == "table"
    late = entry_check_in(event=day["event"], player=PlayerFactory(club=day["club"]))
    response = api.post(f"{base}/penalties/", {**good, "entry_id": late.pk}, format="json")
    assert response.status_code == 400
    assert (response.json()["errors"][0]["field"], response.json()["errors"][0]["code"]) == (
        "round", "not_seated")
    # adjusting without a reason, or with bad points
    for body, field in (({"kind": "points", "points": {"NS": 1, "EW": 2}}, "reason"),
                        ({"kind": "points", "points": {"NS": -10**6, "EW": 2},
                          "reason": "r"}, "points.NS"),
                        ({"kind": "forfeit", "side": "NS", "reason": "r"}, "kind")):
        response = api.post(f"{base}/rounds/1/tables/2/adjust/", body, format="json")
        assert response.status_code == 400 and response.json()["errors"][0]["field"] == field
    assert _state(day) == before
    # a finished event's results are final
    with day["capture"](execute=True):
        Event.objects.filter(pk=day["event"].pk).update(status="finished")
    response = api.post(f"{base}/penalties/", good, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "event_final"
    assert Penalty.objects.count() == 0


def test_only_the_clubs_directors_record_adjust_and_rule(day: dict[str, Any]) -> None:
    with day["capture"](execute=True):
        penalty = Penalty.objects.create(event=day["event"], round_number=1, entry=day["talker"],
                                         kind="other", points=5, reason="seed")
    table_link = Client()
    table_link.get(reverse("table-entry", args=[game(day["event"], 1, 2).table.token]))
    callers = {
        "other club's director": (_client(day["other_director"]), 403),
        "scorer": (_client(day["scorer"]), 403),
        "member": (_client(day["member"]), 403),
        "anonymous": (APIClient(), 401),
    }
    before = _state(day)
    for who, (api, status) in callers.items():
        for method, path, body in _writes(day, penalty):
            response = getattr(api, method)(path, body, format="json")
            assert response.status_code == status, (who, method, path, response.content)
        for path in _reads(day):
            assert api.get(path).status_code == status, (who, path)
    # the table's link (its page's session) gives no authority either: no credentials, 401
    for method, path, body in _writes(day, penalty):
        response = getattr(table_link, method)(path, body, content_type="application/json")
        assert response.status_code == 401, (method, path)
    assert _state(day) == before
    # a private club's event: 404 to another club's director
    Event.objects.filter(pk=day["event"].pk).update(is_public=False)
    day["club"].is_public = False
    day["club"].save(update_fields=["is_public"])
    api = _client(day["other_director"])
    for method, path, body in _writes(day, penalty):
        assert getattr(api, method)(path, body, format="json").status_code == 404, path
    assert _state(day) == before


def test_the_conduct_record_is_for_the_clubs_directors_and_the_player(
        day: dict[str, Any]) -> None:
    talker = day["talker"]
    with day["capture"](execute=True):
        penalty_record(event=day["event"], round_number=1, kind="table_talk", points=40,
                       reason="Talk", entry_id=talker.pk, actor=day["director"])
    player = talker.player
    own = UserFactory(username="the-player")
    player.user = own
    player.save(update_fields=["user"])
    path = f"/api/clubs/{day['club'].slug}/players/{player.pk}/conduct/"
    page = reverse("player-conduct", args=[day["club"].slug, player.pk])
    for who, user, status in (("director", day["director"], 200), ("player", own, 200),
                              ("other club's director", day["other_director"], 404),
                              ("scorer", day["scorer"], 403), ("member", day["member"], 403),
                              ("anonymous", None, 404)):
        api = _client(user) if user is not None else APIClient()
        response = api.get(path)
        assert response.status_code == status, (who, response.content)
        browser = Client()
        if user is not None:
            browser.force_login(user)
        assert browser.get(page).status_code == status, who
        if status == 200:
            record = response.json()
            assert (record["count"], record["points"], record["recent"]) == (1, 40, 1)
            assert record["penalties"][0]["reason"] == "Talk"
    # another club's page for the same player: nothing there
    other = day["other_club"]
    api = _client(day["director"])
    assert api.get(f"/api/clubs/{other.slug}/players/{player.pk}/conduct/").status_code == 404
    # the check-in page marks the player (directors only)
    browser = Client()
    browser.force_login(day["director"])
    checkin = browser.get(reverse("event-checkin", args=[day["event"].pk])).content.decode()
    assert checkin.count("conduct-mark") >= 1 and page in checkin
    # a member of the club is not a director
    assert Membership.objects.get(user=day["member"]).role == "member"
    # the player's own profile lists the record; nobody else's view does
    browser = Client()
    browser.force_login(own)
    profile = browser.get(reverse("player-profile", args=[player.pk])).content.decode()
    assert "Your conduct record" in profile
    browser.force_login(day["director"])
    assert "Your conduct record" not in browser.get(
        reverse("player-profile", args=[player.pk])).content.decode()
    # withdrawn penalties stay in the record; a finished event keeps them too
    Event.objects.filter(pk=day["event"].pk).update(status="finished")
    assert _client(day["director"]).get(path).json()["count"] == 1

"""Calls for a director: a table calls from its phone (its link's token), a director of the
event's club takes the call and closes it with the ruling, which the table's phone shows until
it is put away or the next hand is stored. One open call per table (the service and the
database); every refusal names its field and changes nothing; every step is in the event's
log and goes out on the event's push stream."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
import redis
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from common.errors import DomainError
from conduct.models import DirectorCall
from conduct.selectors import table_call_state
from conduct.services import (
    director_call_close,
    director_call_dismiss,
    director_call_raise,
    director_call_take,
)
from draw.services import round_set_status
from scoring.services import game_set_scorer, hand_submit
from standings.push import channel
from tests.clubs.factories import club_with_director
from tests.conduct.helpers import progressive_day, seat_first
from tests.scoring.factories import member, values
from tournaments.models import EventLog, Round

pytestmark = pytest.mark.django_db


def _api(user: Any = None) -> APIClient:
    api = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        api.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return api


@pytest.fixture
def day(django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    """A progressive day's first game, seated: two tables, nobody called yet; and a second
    club's day with a call of its own."""
    setup = progressive_day(slug="home-club")
    event, director = setup["event"], setup["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    one, two = first.tables.order_by("number")
    away = progressive_day(slug="away-club")
    away_first = seat_first(away["event"], away["director"], django_capture_on_commit_callbacks)
    away_call = director_call_raise(table=away_first.tables.order_by("number")[0])
    return {**setup, "round": first, "one": one, "two": two, "away": away,
            "away_call": away_call,
            "scorer": member(setup["club"], "scorer", "home-scorer"),
            "member": member(setup["club"], "member", "home-member"),
            "capture": django_capture_on_commit_callbacks}


def _calls() -> list[tuple[Any, ...]]:
    return list(DirectorCall.objects.order_by("pk").values_list(
        "pk", "table_id", "taken_by_id", "taken_at", "closed_at", "note", "dismissed_at"))


def _refused(action: Any, field: str) -> DomainError:
    before = (_calls(), EventLog.objects.count())
    with pytest.raises(DomainError) as caught:
        action()
    assert caught.value.field == field, caught.value
    assert (_calls(), EventLog.objects.count()) == before
    return caught.value


# --- the services -------------------------------------------------------------------------------
def test_a_call_is_raised_taken_and_closed_with_the_ruling_each_step_logged(
        day: dict[str, Any]) -> None:
    director = day["director"]
    call = director_call_raise(table=day["one"], reason="renege", words=" Spades revoked ")
    assert (call.state, call.reason, call.words, call.event_id) == (
        "waiting", "renege", "Spades revoked", day["event"].pk)
    taken = director_call_take(call=call, actor=director)
    assert (taken.state, taken.taken_by_id) == ("taken", director.pk)
    assert director_call_take(call=call, actor=director).taken_at == taken.taken_at  # no-op
    closed = director_call_close(call=call, note=" Renege: two tricks to E-W. ", actor=director)
    assert (closed.state, closed.note, closed.closed_by_id) == (
        "closed", "Renege: two tricks to E-W.", director.pk)
    logged = list(EventLog.objects.filter(event=day["event"]).order_by("pk").values_list(
        "action", "details"))
    calls = [(a, d) for a, d in logged if "call" in a]
    assert [a for a, _ in calls] == ["director_called", "director_call_taken",
                                     "director_call_closed"]
    assert calls[0][1] == {"call": call.pk, "round": 1, "table": 1, "reason": "renege",
                           "words": "Spades revoked"}
    assert calls[2][1]["note"] == "Renege: two tricks to E-W."
    # the table may call again once the call is closed
    again = director_call_raise(table=day["one"])
    assert again.state == "waiting" and again.reason == ""


def test_one_open_call_per_table_and_the_refusals_name_their_field(day: dict[str, Any]) -> None:
    director = day["director"]
    call = director_call_raise(table=day["one"], reason="dispute")
    error = _refused(lambda: director_call_raise(table=day["one"], reason="misdeal"), "table")
    assert error.code == "call_open" and "still open" in error.message
    director_call_take(call=call, actor=director)
    error = _refused(lambda: director_call_raise(table=day["one"]), "table")
    assert "is on the way" in error.message
    other = director_call_raise(table=day["two"])  # another table calls meanwhile
    _refused(lambda: director_call_raise(table=day["two"], reason="cheating"), "reason")
    _refused(lambda: director_call_raise(table=day["one"], words="x" * 141), "words")
    _refused(lambda: director_call_raise(table=day["one"], words=["a list"]), "words")
    _refused(lambda: director_call_close(call=call, note="   ", actor=director), "note")
    _refused(lambda: director_call_close(call=call, note="x" * 501, actor=director), "note")
    second = member(day["club"], "director", "second-director")
    error = _refused(lambda: director_call_take(call=call, actor=second), "call")
    assert error.code == "taken"
    director_call_close(call=call, note="Play on.", actor=director)
    assert _refused(lambda: director_call_close(call=call, note="Again", actor=director),
                    "call").code == "closed"
    assert _refused(lambda: director_call_take(call=call, actor=director), "call").code == "closed"
    _refused(lambda: director_call_dismiss(call=other), "call")


def test_closing_a_call_nobody_took_takes_it(day: dict[str, Any]) -> None:
    call = director_call_raise(table=day["one"])
    closed = director_call_close(call=call, note="Misdeal: redeal.", actor=day["director"])
    assert closed.taken_by_id == closed.closed_by_id == day["director"].pk
    assert closed.taken_at == closed.closed_at


def test_the_database_keeps_one_open_call_per_table_and_a_note_on_a_closed_call(
        day: dict[str, Any]) -> None:
    DirectorCall.objects.create(event=day["event"], table=day["one"])
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(event=day["event"], table=day["one"])
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.create(event=day["event"], table=day["two"], reason="bogus")
    with pytest.raises(IntegrityError), transaction.atomic():
        DirectorCall.objects.filter(table=day["one"]).update(closed_at=day["one"].round.created_at,
                                                             taken_at=day["one"].round.created_at)


def test_a_closed_round_or_a_finished_event_takes_no_call(day: dict[str, Any]) -> None:
    round_ = day["round"]
    Round.objects.filter(pk=round_.pk).update(status=Round.Status.CLOSED)
    day["one"].round.refresh_from_db()
    error = _refused(lambda: director_call_raise(table=day["one"]), "round")
    assert "Ask a director in person" in error.message
    state = table_call_state(day["one"])
    assert state["can_call"] is False and state["state"] == "idle"


def test_the_phone_shows_the_ruling_until_it_is_put_away_or_the_next_hand(
        day: dict[str, Any]) -> None:
    director, table = day["director"], day["one"]
    assert table_call_state(table)["can_call"] is True
    call = director_call_raise(table=table, reason="misdeal")
    state = table_call_state(table)
    assert (state["state"], state["can_call"], state["call"].pk) == ("waiting", False, call.pk)
    director_call_take(call=call, actor=director)
    state = table_call_state(table)
    assert (state["state"], state["taken_by"]) == ("taken", director.get_username())
    director_call_close(call=call, note="Redeal, same dealer.", actor=director)
    state = table_call_state(table)
    assert (state["state"], state["ruling"].note, state["can_call"]) == (
        "closed", "Redeal, same dealer.", True)
    director_call_dismiss(call=call)
    assert table_call_state(table)["ruling"] is None
    # a second ruling goes away at the next hand instead
    second = director_call_raise(table=table)
    director_call_close(call=second, note="Play on.", actor=director)
    assert table_call_state(table)["ruling"].pk == second.pk
    round_set_status(round_=day["round"], status="playing")
    game_set_scorer(game=table.game, position="N")
    with day["capture"](execute=True):
        hand_submit(game=table.game, number=1, values=values(), table_device=True)
    assert table_call_state(table)["ruling"] is None


def test_a_call_and_each_step_go_out_on_the_event_s_push_stream(
        day: dict[str, Any], settings: Any) -> None:
    """The real Redis: the directors' screens hear ``{"calls": ...}`` on the event's channel
    (the message names nothing: the stream's token is anyone's who may see the event)."""
    assert settings.REDIS_URL, "the in-process tests run with the test Redis (scripts/test.sh)"
    settings.PUSH_URL = "/push/"
    listener = redis.Redis.from_url(settings.REDIS_URL).pubsub()
    listener.subscribe(channel(day["event"].pk))
    listener.get_message(timeout=2)  # the subscription's confirmation

    def heard() -> list[Any]:
        found: list[Any] = []
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline:
            message = listener.get_message(timeout=0.2)
            if message and message["type"] == "message":
                data = json.loads(message["data"])
                if "calls" in data:
                    found.append(data)
            elif found:
                break
        return found

    try:
        with day["capture"](execute=True):
            call = director_call_raise(table=day["one"], reason="dispute", words="Who led?")
        assert heard() == [{"calls": "moved"}]
        with day["capture"](execute=True):
            director_call_take(call=call, actor=day["director"])
        assert heard() == [{"calls": "moved"}]
        with day["capture"](execute=True):
            director_call_close(call=call, note="Dispute settled.", actor=day["director"])
        assert heard() == [{"calls": "moved"}]
        with day["capture"](execute=True):
            director_call_dismiss(call=call)
        assert heard() == []  # the table put its ruling away: no director's screen draws that
    finally:
        listener.close()


# --- the API ------------------------------------------------------------------------------------
def test_the_api_raises_lists_takes_and_closes_a_call(day: dict[str, Any]) -> None:
    event, one, two = day["event"], day["one"], day["two"]
    phone = _api()
    made = phone.post(f"/api/tables/{one.token}/calls/", {"reason": "renege", "words": "Hearts"},
                      format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["table"], body["round"], body["state"], body["open"], body["reason"],
            body["reason_label"], body["words"]) == (1, 1, "waiting", True, "renege", "Renege",
                                                     "Hearts")
    second = phone.post(f"/api/tables/{one.token}/calls/", {}, format="json")
    assert second.status_code == 400
    assert [e["field"] for e in second.json()["errors"]] == ["table"]
    assert DirectorCall.objects.filter(table=one).count() == 1
    assert phone.post(f"/api/tables/{two.token}/calls/", {"reason": "nonsense"},
                      format="json").json()["errors"][0]["field"] == "reason"
    assert phone.post(f"/api/tables/{two.token}/calls/", {"words": "w" * 141},
                      format="json").json()["errors"][0]["field"] == "words"
    assert phone.post(f"/api/tables/{two.token}/calls/", format="json").status_code == 201

    director = _api(day["director"])
    base = f"/api/events/{event.pk}/calls"
    listed = director.get(f"{base}/").json()
    assert [(c["table"], c["state"]) for c in listed] == [(1, "waiting"), (2, "waiting")]
    call_id = body["id"]
    taken = director.post(f"{base}/{call_id}/take/")
    assert taken.status_code == 200 and taken.json()["state"] == "taken"
    assert taken.json()["taken_by"] == day["director"].get_username()
    # the phone sees its own call taken, and only its own calls
    mine = phone.get(f"/api/tables/{one.token}/calls/").json()
    assert [(c["id"], c["state"], c["taken_by"]) for c in mine] == [
        (call_id, "taken", day["director"].get_username())]
    assert {c["table"] for c in phone.get(f"/api/tables/{two.token}/calls/").json()} == {2}

    no_note = director.post(f"{base}/{call_id}/close/", {}, format="json")
    assert no_note.status_code == 400 and no_note.json()["errors"][0]["field"] == "note"
    closed = director.post(f"{base}/{call_id}/close/", {"note": "Two tricks to E-W."},
                           format="json")
    assert closed.status_code == 200
    assert (closed.json()["state"], closed.json()["note"]) == ("closed", "Two tricks to E-W.")
    twice = director.post(f"{base}/{call_id}/close/", {"note": "Again"}, format="json")
    assert twice.status_code == 400 and twice.json()["errors"][0]["field"] == "call"
    take_closed = director.post(f"{base}/{call_id}/take/")
    assert take_closed.status_code == 400 and take_closed.json()["errors"][0]["field"] == "call"
    assert DirectorCall.objects.get(pk=call_id).note == "Two tricks to E-W."

    # open first (table 2 still waiting), then the closed one; and the filters
    assert [(c["table"], c["state"]) for c in director.get(f"{base}/").json()] == [
        (2, "waiting"), (1, "closed")]
    assert [c["table"] for c in director.get(f"{base}/?state=open").json()] == [2]
    assert [c["table"] for c in director.get(f"{base}/?state=closed").json()] == [1]
    assert director.get(f"{base}/?state=taken").json() == []
    bad = director.get(f"{base}/?state=someday")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "state"

    # the table puts the ruling away; another table's token cannot
    other = phone.post(f"/api/tables/{two.token}/calls/{call_id}/dismiss/")
    assert other.status_code == 404 and other.json()["errors"][0]["field"] == "call_id"
    dismissed = phone.post(f"/api/tables/{one.token}/calls/{call_id}/dismiss/")
    assert dismissed.status_code == 200 and dismissed.json()["dismissed"] is True


def test_a_call_of_another_event_is_not_found_and_nothing_changes(day: dict[str, Any]) -> None:
    director = _api(day["director"])
    away_call = day["away_call"]
    before = _calls()
    for path in (f"{away_call.pk}/take/", f"{away_call.pk}/close/", "999999/take/"):
        answer = director.post(f"/api/events/{day['event'].pk}/calls/{path}", {"note": "No"},
                               format="json")
        assert answer.status_code == 404, path
        assert answer.json()["errors"][0]["field"] == "call_id"
    assert _calls() == before


def test_a_closed_round_refuses_the_phone_s_call_with_403(day: dict[str, Any]) -> None:
    Round.objects.filter(pk=day["round"].pk).update(status=Round.Status.CLOSED)
    answer = _api().post(f"/api/tables/{day['one'].token}/calls/", {}, format="json")
    assert answer.status_code == 403
    assert answer.json()["errors"][0]["field"] == "round"
    assert not DirectorCall.objects.filter(table=day["one"]).exists()


# --- permissions on every path ------------------------------------------------------------------
def _who(day: dict[str, Any]) -> dict[str, Any]:
    private_club, private_director = club_with_director(slug="private-club", is_public=False)
    return {"director": day["director"], "other_director": day["away"]["director"],
            "private_director": private_director, "scorer": day["scorer"],
            "member": day["member"], "anonymous": None}


EXPECTED_API = {"director": 200, "other_director": 403, "private_director": 403, "scorer": 403,
                "member": 403, "anonymous": 401}


def test_only_the_event_s_directors_list_take_and_close_calls_in_the_api(
        day: dict[str, Any]) -> None:
    call = director_call_raise(table=day["one"])
    base = f"/api/events/{day['event'].pk}/calls"
    for who, user in _who(day).items():
        api = _api(user)
        before = _calls()
        listed = api.get(f"{base}/")
        take = api.post(f"{base}/{call.pk}/take/")
        close = api.post(f"{base}/{call.pk}/close/", {"note": "Ruled"}, format="json")
        if who == "director":
            assert (listed.status_code, take.status_code, close.status_code) == (200, 200, 200)
            continue
        expected = EXPECTED_API[who]
        assert (listed.status_code, take.status_code, close.status_code) == (
            expected, expected, expected), who
        assert _calls() == before, who


def test_a_private_club_s_calls_are_not_found_for_outsiders(
        django_capture_on_commit_callbacks: Any) -> None:
    setup = progressive_day(slug="closed-club")
    setup["club"].is_public = False
    setup["club"].save()
    first = seat_first(setup["event"], setup["director"], django_capture_on_commit_callbacks)
    call = director_call_raise(table=first.tables.order_by("number")[0])
    _, outsider = club_with_director(slug="outside-club")
    api = _api(outsider)
    base = f"/api/events/{setup['event'].pk}/calls"
    assert api.get(f"{base}/").status_code == 404
    assert api.post(f"{base}/{call.pk}/take/").status_code == 404
    assert DirectorCall.objects.get(pk=call.pk).taken_at is None
    page = Client()
    page.force_login(outsider)
    assert page.get(f"/events/{setup['event'].pk}/calls/").status_code == 404


def test_only_the_event_s_directors_see_the_calls_pages_and_rule(day: dict[str, Any]) -> None:
    call = director_call_raise(table=day["one"], reason="dispute", words="Who led?")
    pk = day["event"].pk
    for who, user in _who(day).items():
        page = Client()
        if user is not None:
            page.force_login(user)
        before = _calls()
        answers = [page.get(f"/events/{pk}/calls/"), page.get(f"/events/{pk}/calls/live/"),
                   page.get(f"/events/{pk}/director/"),
                   page.post(f"/events/{pk}/calls/{call.pk}/take/"),
                   page.post(f"/events/{pk}/calls/{call.pk}/close/", {"note": "Ruled"})]
        codes = [a.status_code for a in answers]
        if who == "director":
            assert codes[:3] == [200, 200, 200]
            html = answers[0].content.decode()
            assert f'data-call="{call.pk}"' in html and "Who led?" in html
            assert "Table 1" in answers[2].content.decode()
            assert codes[3:] == [302, 302]
            continue
        if who == "anonymous":
            assert all(c == 302 and "/accounts/login/" in a["Location"]
                       for c, a in zip(codes, answers, strict=True)), codes
        else:
            assert codes == [403] * 5, (who, codes)
        assert _calls() == before, who
    assert DirectorCall.objects.get(pk=call.pk).note == "Ruled"


def test_a_table_link_calls_and_sees_only_its_own_call(day: dict[str, Any]) -> None:
    one, two = day["one"], day["two"]
    phone = Client()
    raised = phone.post(f"/t/{one.token}/call/", {"reason": "misdeal", "words": "Short deck"},
                        HTTP_X_REQUESTED_WITH="fetch")
    assert raised.status_code == 201
    assert 'data-state="waiting"' in raised.content.decode()
    again = phone.post(f"/t/{one.token}/call/", {}, HTTP_X_REQUESTED_WITH="fetch")
    assert again.status_code == 400 and "already called the director" in again.content.decode()
    # without script the form goes back to the table's page, which shows the call's state
    plain = phone.post(f"/t/{two.token}/call/", {"reason": "dispute"})
    assert plain.status_code == 302 and plain["Location"] == f"/t/{two.token}/"
    table_two = phone.get(f"/t/{two.token}/").content.decode()
    assert "Director called" in table_two and "Call the director now" not in table_two
    assert "Short deck" not in table_two  # table 1's call is not table 2's business
    call = DirectorCall.objects.get(table=one)
    # another table's link cannot put table 1's ruling away
    director_call_close(call=call, note="Redeal.", actor=day["director"])
    assert phone.post(f"/t/{two.token}/call/{call.pk}/dismiss/").status_code == 404
    shown = phone.get(f"/t/{one.token}/").content.decode()
    assert "Ruling:" in shown and "Redeal." in shown and "Call the director now" in shown
    assert phone.post(f"/t/{one.token}/call/{call.pk}/dismiss/").status_code == 302
    assert "Redeal." not in phone.get(f"/t/{one.token}/").content.decode()
    assert phone.get("/t/not-a-token/call/").status_code == 404

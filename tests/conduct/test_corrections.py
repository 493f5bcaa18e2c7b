"""The event's public list of corrections: every change to a result after the players were
shown it (a confirmed game's hand corrected or deleted, an adjusted result, a forfeit, a penalty
given or withdrawn, a reopen and a re-finish) is one entry with when, who (by role), why, what it
was, what it became and whose standings moved; the list is as public as the standings; a club's
correction window locks a finished event's results (the owner alone reopens)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from clubs.models import Membership
from common.errors import DomainError
from conduct.models import Correction
from conduct.services import penalty_record, penalty_withdraw
from draw.services import event_status_set, round_set_status
from scoring.models import Hand, HandRevision
from scoring.services import (
    game_adjust,
    game_forfeit,
    hand_correct,
    hand_delete_last,
    hand_submit,
)
from standings.compute import standings_compute
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.conduct.helpers import (
    WINS,
    game,
    pair_event,
    play,
    progressive_day,
    seat_first,
    seat_of,
)
from tests.scoring.factories import values
from tests.series.builders import one_table_night
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db


def _points(event: Event) -> dict[str, tuple[int, int]]:
    """Each entrant's (points, rank) as the standings compute them now."""
    key = "pair" if event.is_pairs else "entry"
    return {f"{key}:{r[f'{key}_id']}": (r["points"], r["rank"])
            for r in standings_compute(event=event).rows}


def _moved(correction: Correction) -> dict[str, tuple[Any, Any]]:
    return {m["key"]: (m["before"] and (m["before"]["points"], m["before"]["rank"]),
                       m["after"] and (m["after"]["points"], m["after"]["rank"]))
            for m in correction.standings_moved}


def _expected_moves(before: dict[str, tuple[int, int]],
                    after: dict[str, tuple[int, int]]) -> dict[str, tuple[Any, Any]]:
    return {k: (before.get(k), after.get(k)) for k in set(before) | set(after)
            if before.get(k) != after.get(k)}


def _api(client: Client, event: Event) -> Any:
    response = client.get(f"/api/events/{event.pk}/corrections/")
    assert response.status_code == 200, response.content
    return response.json()


def test_a_confirmed_games_hand_corrected_by_a_director_is_listed_with_before_and_after(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="fix-hand")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW", skip=2)
    confirmed = game(event, 1, 1)
    assert confirmed.status == "confirmed" and confirmed.totals == {"NS": 51, "EW": 55}
    before = _points(event)
    hand = Hand.objects.get(game=confirmed, number=1)
    with django_capture_on_commit_callbacks(execute=True):
        hand_correct(hand=hand, values=WINS["NS"], expected_revision=1, author=director,
                     note="The score sheet was misread", as_director=True)
    after = _points(event)
    correction = Correction.objects.get(event=event)
    assert correction.kind == "hand_corrected" and correction.role == "director"
    assert correction.reason == "The score sheet was misread"
    assert (correction.round_number, correction.table_number) == (1, 1)
    assert correction.before["points"] == {"NS": 51, "EW": 55}
    assert correction.after["points"] == {"NS": 67, "EW": 33}
    assert correction.before["game"]["winner"] == "EW"
    assert correction.after["game"] == {"status": "finished", "totals": {"NS": 67, "EW": 33},
                                        "winner": "NS"}
    assert correction.before["values"]["meld"] == {"NS": 24, "EW": 32}
    assert correction.after["values"]["meld"] == {"NS": 40, "EW": 10}
    assert "NS +67 · EW +33" in correction.became and "EW 55" in correction.was
    # the four players of table 1 moved, table 2's did not
    moves = _expected_moves(before, after)
    assert len(moves) == 4 and _moved(correction) == moves
    # the API answers the same, without the director's name (the club does not show it)
    listed = _api(Client(), event)
    assert len(listed) == 1
    item = listed[0]
    assert (item["kind"], item["role"], item["by"], item["name"]) == (
        "hand_corrected", "director", "director", None)
    assert item["reason"] == "The score sheet was misread" and item["reason_given"] is True
    assert item["after"]["points"] == {"NS": 67, "EW": 33}
    assert {m["entry_id"] for m in item["standings_moved"]} == {
        int(k.split(":")[1]) for k in moves}


def test_a_hand_corrected_before_confirmation_is_not_a_correction(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="fix-early")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    round_set_status(round_=first, status="playing")
    table = first.tables.get(number=1)
    revision = hand_submit(game=table.game, number=1, values=WINS["EW"])
    hand_correct(hand=revision.hand, values=WINS["NS"], expected_revision=1, author=director,
                 as_director=True)
    assert not Correction.objects.filter(event=event).exists()
    assert HandRevision.objects.filter(hand=revision.hand).count() == 2


def test_a_deleted_hand_of_a_confirmed_game_is_listed(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="del-hand")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="NS", skip=2)
    before = _points(event)
    with django_capture_on_commit_callbacks(execute=True):
        hand_delete_last(game=game(event, 1, 1), number=1, expected_revision=1,
                         note="Entered at the wrong table", author=director, as_director=True)
    correction = Correction.objects.get(event=event)
    assert correction.kind == "hand_deleted" and correction.reason == "Entered at the wrong table"
    assert correction.before["points"] == {"NS": 67, "EW": 33}
    assert correction.after["deleted"] is True
    assert correction.after["game"]["status"] == "playing"
    assert "deleted" in correction.became
    assert _moved(correction) == _expected_moves(before, _points(event)) != {}


def test_an_adjusted_result_is_listed_with_the_game_before_and_after(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="adj-list")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW", skip=2)
    before = _points(event)
    with django_capture_on_commit_callbacks(execute=True):
        game_adjust(game=game(event, 1, 2), kind="points", points={"NS": 60, "EW": 40},
                    reason="E taken ill after the deal", actor=director)
    correction = Correction.objects.get(event=event, kind="game_adjusted")
    assert correction.before["game"]["status"] == "playing"
    assert correction.after["game"] == {"status": "confirmed", "totals": {"NS": 60, "EW": 40},
                                        "winner": "NS"}
    assert correction.after["adjusted"]["kind"] == "points"
    assert correction.became == "adjusted (points): NS 60 · EW 40 (NS won)"
    assert correction.reason == "E taken ill after the deal"
    moves = _moved(correction)
    assert moves == _expected_moves(before, _points(event))
    # table 2's players scored (0 -> 60 or 40); table 1's kept their points but lost places
    assert sorted(after[0] for before_, after in moves.values() if before_[0] == 0) == [
        40, 40, 60, 60]
    assert len(moves) == 8


def test_a_forfeit_is_listed(django_capture_on_commit_callbacks: Any) -> None:
    made = pair_event(slug="forfeit-list")
    event, director = made["event"], made["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    round_set_status(round_=first, status="playing")
    with django_capture_on_commit_callbacks(execute=True):
        game_forfeit(game=game(event, 1, 1), side="NS", reason="A partner went home ill",
                     actor=director)
    correction = Correction.objects.get(event=event)
    assert correction.kind == "game_forfeited" and correction.role == "director"
    assert correction.after["forfeit"] == "NS" and correction.after["game"]["winner"] == "EW"
    assert correction.before["game"]["status"] == "playing"
    assert "forfeited" in correction.became
    assert correction.standings_moved  # the winners score a bye's points
    assert all(m["key"].startswith("pair:") for m in correction.standings_moved)


def test_a_penalty_given_and_withdrawn_are_listed(
        django_capture_on_commit_callbacks: Any) -> None:
    day = progressive_day(slug="pen-list")
    event, director = day["event"], day["director"]
    first = seat_first(event, director, django_capture_on_commit_callbacks)
    play(first, django_capture_on_commit_callbacks, winner="EW", skip=2)
    seat = seat_of(event, 1, "N")
    before = _points(event)
    with django_capture_on_commit_callbacks(execute=True):
        penalty = penalty_record(event=event, round_number=1, kind="slow_play", points=20,
                                 reason="Third warning", entry_id=seat.entry_id, actor=director)
    given = Correction.objects.get(event=event, kind="penalty_given")
    key = f"entry:{seat.entry_id}"
    points, rank = before[key]
    assert _moved(given)[key][0] == (points, rank)
    assert _moved(given)[key][1][0] == points - 20
    assert given.after["penalty"]["points"] == 20 and given.before == {"penalty": None}
    assert given.became == f"{seat.entry.player.name}: −20 (slow play)"
    with django_capture_on_commit_callbacks(execute=True):
        penalty_withdraw(penalty=penalty, reason="The clock was wrong", actor=director)
    withdrawn = Correction.objects.get(event=event, kind="penalty_withdrawn")
    assert withdrawn.after["penalty"]["withdrawn"] is True
    assert _moved(withdrawn)[key][1] == (points, rank)
    assert withdrawn.reason == "The clock was wrong"
    # newest first
    assert [c["kind"] for c in _api(Client(), event)] == ["penalty_withdrawn", "penalty_given"]


def _finished_night(slug: str, **club: Any) -> dict[str, Any]:
    made, director = club_with_director(slug=slug)
    for name, value in club.items():
        setattr(made, name, value)
    made.save()
    players = [PlayerFactory(club=made) for _ in range(4)]
    event = one_table_night(made, players, ns_wins=True)
    assert event.status == "finished"
    owner = UserFactory(username=f"owner-{slug}")
    Membership.objects.create(club=made, user=owner, role=Membership.Role.OWNER)
    return {"club": made, "director": director, "owner": owner, "event": event,
            "players": players}


def test_a_reopen_and_a_refinish_are_listed_with_the_places_and_the_standings_moved() -> None:
    night = _finished_night("reopen-list")
    event, director = night["event"], night["director"]
    standings_at_finish = _points(event)
    event_status_set(event=event, status="running", actor=director,
                     reason="Table 1's sheet was added up wrong")
    reopened = Correction.objects.get(event=event)
    assert reopened.kind == "event_reopened" and reopened.standings_moved == []
    assert reopened.before["status"] == "finished" and reopened.after["places"] == []
    assert [p["place"] for p in reopened.before["places"]] == [1, 1, 3, 3]
    hand = Hand.objects.get(game__table__round__event=event, number=1)
    hand_correct(hand=hand, values=values(), expected_revision=1, author=director,
                 note="EW won it", as_director=True)
    event_status_set(event=event, status="finished", actor=director)
    again = Correction.objects.filter(event=event).first()
    assert again is not None and again.kind == "event_refinished"
    assert again.reason == "" and again.before["places"] == reopened.before["places"]
    winners = {p["entry_id"] for p in again.after["places"] if p["place"] == 1}
    assert winners == {e for e in (int(k.split(":")[1]) for k in standings_at_finish)
                       if standings_at_finish[f"entry:{e}"][1] == 3}
    # the re-finish compares with the standings when the event was reopened
    assert _moved(again) == _expected_moves(standings_at_finish, _points(event))
    assert len(_moved(again)) == 4
    listed = _api(Client(), event)
    assert [c["kind"] for c in listed] == ["event_refinished", "hand_corrected",
                                           "event_reopened"]
    assert listed[0]["reason"] == "no reason given" and listed[0]["reason_given"] is False
    assert "standings" not in listed[-1]["before"]  # the baseline is not part of the answer


def _past_window(event: Event, minutes: int) -> None:
    EventLog.objects.filter(event=event, action="status", details__status="finished").update(
        created_at=timezone.now() - datetime.timedelta(minutes=minutes))


def test_the_correction_window_locks_results_and_only_the_owner_reopens() -> None:
    night = _finished_night("window", correction_window_minutes=30)
    event, director, owner = night["event"], night["director"], night["owner"]
    _past_window(event, 20)  # inside the window: a director may still reopen
    event_status_set(event=event, status="running", actor=director, reason="A late appeal")
    event_status_set(event=event, status="finished", actor=director)
    _past_window(event, 31)
    with pytest.raises(DomainError) as refused:
        event_status_set(event=event, status="running", actor=director, reason="Too late")
    assert (refused.value.code, refused.value.field) == ("locked", "status")
    # a change to the results says the same
    hand = Hand.objects.get(game__table__round__event=event, number=1)
    with pytest.raises(DomainError) as refused:
        hand_correct(hand=hand, values=values(), expected_revision=1, author=director,
                     note="late", as_director=True)
    assert refused.value.code == "locked"
    # the API: a clear 400 with the code
    client = Client()
    client.force_login(director)
    response = client.post(f"/api/events/{event.pk}/reopen/", {"reason": "Too late"},
                           content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "locked"
    event.refresh_from_db()
    assert event.status == "finished"
    # the owner reopens, and the list shows it
    client.force_login(owner)
    response = client.post(f"/api/events/{event.pk}/reopen/", {"reason": "The appeal upheld"},
                           content_type="application/json")
    assert response.status_code == 200, response.content
    latest = _api(client, event)[0]
    assert (latest["kind"], latest["role"], latest["reason"]) == (
        "event_reopened", "owner", "The appeal upheld")


def test_no_window_no_lock() -> None:
    night = _finished_night("no-window")
    event = night["event"]
    _past_window(event, 60 * 24 * 30)
    event_status_set(event=event, status="running", actor=night["director"], reason="Appeal")
    assert Event.objects.get(pk=event.pk).status == "running"


def test_director_names_show_only_where_the_club_allows_it() -> None:
    night = _finished_night("names", show_director_names=True)
    event, director = night["event"], night["director"]
    director.first_name, director.last_name = "Dana", "Director"
    director.save()
    event_status_set(event=event, status="running", actor=director, reason="Appeal")
    item = _api(Client(), event)[0]
    assert (item["by"], item["name"]) == ("director Dana Director", "Dana Director")
    night["club"].show_director_names = False
    night["club"].save()
    item = _api(Client(), event)[0]
    assert (item["by"], item["name"]) == ("director", None)


def test_the_list_is_as_public_as_the_standings() -> None:
    night = _finished_night("private-list")
    event, director = night["event"], night["director"]
    event_status_set(event=event, status="running", actor=director, reason="Appeal")
    anyone = Client()
    assert anyone.get(f"/api/events/{event.pk}/corrections/").status_code == 200
    page = anyone.get(f"/events/{event.pk}/corrections/")
    assert page.status_code == 200 and b"Appeal" in page.content
    assert b"event_reopened" in page.content or b"Event reopened" in page.content
    club = night["club"]
    club.is_public = False
    club.save()
    assert anyone.get(f"/api/events/{event.pk}/corrections/").status_code == 404
    assert anyone.get(f"/events/{event.pk}/corrections/").status_code == 404
    assert anyone.get(f"/events/{event.pk}/standings/").status_code == 404
    member = UserFactory(username="member-private-list")
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    anyone.force_login(member)
    assert anyone.get(f"/api/events/{event.pk}/corrections/").status_code == 200
    assert anyone.get(f"/events/{event.pk}/corrections/").status_code == 200


def test_the_event_page_links_the_list_and_the_standings_say_when_last_corrected() -> None:
    night = _finished_night("links-list")
    event, director = night["event"], night["director"]
    client = Client()
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Corrections (0)" in page
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert "Last corrected" not in standings
    event_status_set(event=event, status="running", actor=director, reason="Appeal")
    page = client.get(f"/events/{event.pk}/").content.decode()
    assert "Corrections (1)" in page and f"/events/{event.pk}/corrections/" in page
    standings = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert 'id="last-corrected"' in standings and "Last corrected" in standings


def test_the_schema_documents_the_list() -> None:
    schema = Client().get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/events/{id}/corrections/"]["get"]
    assert operation["operationId"] == "event_corrections"
    item = operation["responses"]["200"]["content"]["application/json"]["schema"]
    ref = item["items"]["$ref"].rsplit("/", 1)[1]
    fields = schema["components"]["schemas"][ref]["properties"]
    assert {"at", "role", "by", "reason", "was", "became", "before", "after",
            "standings_moved"} <= set(fields)


def test_owners_set_the_clubs_rules_for_corrections_on_the_page_and_the_api() -> None:
    night = _finished_night("rules-set")
    club, director, owner = night["club"], night["director"], night["owner"]
    client = Client()
    client.force_login(director)
    response = client.patch(f"/api/clubs/{club.slug}/", {"correction_window_minutes": 30},
                            content_type="application/json")
    assert response.status_code == 403
    assert client.post(f"/clubs/{club.slug}/manage/corrections/",
                       {"correction_window_minutes": "30"}).status_code == 403
    client.force_login(owner)
    response = client.patch(f"/api/clubs/{club.slug}/", {"correction_window_minutes": -5},
                            content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "correction_window_minutes"
    response = client.patch(f"/api/clubs/{club.slug}/", {"correction_window_minutes": "soon"},
                            content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "correction_window_minutes"
    response = client.patch(f"/api/clubs/{club.slug}/", {"show_director_names": True,
                                                          "correction_window_minutes": 45},
                            content_type="application/json")
    assert response.status_code == 200, response.content
    assert (response.json()["show_director_names"],
            response.json()["correction_window_minutes"]) == (True, 45)
    response = client.patch(f"/api/clubs/{club.slug}/", {"correction_window_minutes": None},
                            content_type="application/json")
    assert response.json()["correction_window_minutes"] is None
    assert response.json()["show_director_names"] is True  # left out: unchanged
    page = client.post(f"/clubs/{club.slug}/manage/corrections/",
                       {"correction_window_minutes": "90"})
    assert page.status_code == 302
    club.refresh_from_db()
    assert (club.show_director_names, club.correction_window_minutes) == (False, 90)
    assert 'id="corrections-form"' in client.get(f"/clubs/{club.slug}/manage/").content.decode()

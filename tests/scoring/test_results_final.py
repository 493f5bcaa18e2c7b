"""A finished event's results are final on every path until a director reopens it, saying why:
no hand is corrected or deleted, no game confirmed, forfeited, settled or timed, no seat swapped,
nobody withdrawn. Reopened with a reason (kept in the log), the fix goes through."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import DomainError
from draw.services import entry_withdraw, event_status_set
from draw.swaps import seat_swap
from scoring.models import Hand, HandRevision
from scoring.services import (
    game_confirm,
    game_set_scorer,
    game_settle_tie,
    hand_correct,
    hand_delete_last,
    hand_submit,
    round_call_time,
)
from tests.clubs.factories import club_with_director
from tests.scoring.factories import seated_table, values
from tournaments.models import Event, EventLog, Round

pytestmark = pytest.mark.django_db


def _finished() -> dict[str, Any]:
    """A club night of one table: a hand entered, the game finished and confirmed, the round
    closed and the event finished."""
    club, director = club_with_director(slug="final")
    table = seated_table(club=club, deals_per_round=1)
    game = table.game
    game_set_scorer(game=game, position="N")
    hand_submit(game=game, number=1, values=values())
    game_confirm(game=game, position="E")
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    event = table.round.event
    event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    event.refresh_from_db()
    game.refresh_from_db()
    api = APIClient()
    api.force_authenticate(director)
    return {"event": event, "table": table, "game": game, "director": director, "api": api,
            "hand": Hand.objects.get(game=game, number=1)}


def _refused_as_final(call: Any) -> None:
    with pytest.raises(DomainError) as caught:
        call()
    assert caught.value.field == "event" and caught.value.code == "event_final", caught.value


def test_a_finished_events_hands_cannot_change_through_the_api() -> None:
    done = _finished()
    api, hand, event = done["api"], done["hand"], done["event"]
    revisions = HandRevision.objects.count()
    corrected = api.put(reverse("api-hand", args=[hand.pk]),
                        {**values(bid=60, counters={"NS": 36, "EW": 14}),
                         "expected_revision": 1, "note": "sheet"}, format="json")
    assert corrected.status_code == 400, corrected.content
    assert corrected.json()["errors"][0]["field"] == "event"
    deleted = api.post(reverse("api-event-hand-delete-last", args=[event.pk]),
                       {"round": 1, "table": 1, "number": 1, "expected_revision": 1,
                        "note": "sheet"}, format="json")
    assert deleted.status_code == 400, deleted.content
    assert deleted.json()["errors"][0]["field"] == "event"
    assert HandRevision.objects.count() == revisions
    assert Hand.objects.filter(game=done["game"]).count() == 1


def test_every_service_that_writes_results_refuses_a_finished_event() -> None:
    done = _finished()
    game, hand, director = done["game"], done["hand"], done["director"]
    round_ = done["table"].round
    entries = [seat.entry for seat in done["table"].seats.order_by("position")]
    _refused_as_final(lambda: hand_correct(hand=hand, values=values(bid=60, counters={
        "NS": 36, "EW": 14}), expected_revision=1, note="x", as_director=True, author=director))
    _refused_as_final(lambda: hand_delete_last(game=game, number=1, expected_revision=1,
                                               note="x", as_director=True, author=director))
    _refused_as_final(lambda: hand_submit(game=game, number=2, values=values(dealer="W"),
                                          as_director=True, author=director))
    _refused_as_final(lambda: game_settle_tie(game=game, winner="NS", actor=director))
    _refused_as_final(lambda: round_call_time(round_=round_, actor=director))
    _refused_as_final(lambda: entry_withdraw(entry=entries[0], actor=director))
    _refused_as_final(lambda: seat_swap(round_=round_, entry_a=entries[0], entry_b=entries[1],
                                        actor=director))


def test_reopening_needs_a_reason_and_then_the_fix_goes_through() -> None:
    done = _finished()
    api, event, hand = done["api"], done["event"], done["hand"]
    silent = api.post(reverse("api-event-reopen", args=[event.pk]), {}, format="json")
    assert silent.status_code == 400 and silent.json()["errors"][0]["field"] == "reason"
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    reason = "Table 1's sheet was keyed wrongly"
    reopened = api.post(reverse("api-event-reopen", args=[event.pk]), {"reason": reason},
                        format="json")
    assert reopened.status_code == 200 and reopened.json()["status"] == "running"
    log = EventLog.objects.filter(event=event, action="status").latest("pk")
    assert log.details["reason"] == reason and log.actor == done["director"]
    corrected = api.put(reverse("api-hand", args=[hand.pk]),
                        {**values(bid=60, counters={"NS": 36, "EW": 14}),
                         "expected_revision": 1, "note": "sheet"}, format="json")
    assert corrected.status_code == 200, corrected.content


def test_the_reopen_page_asks_why(client) -> None:
    done = _finished()
    client.force_login(done["director"])
    event = done["event"]
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert 'name="reason"' in page
    client.post(reverse("event-reopen", args=[event.pk]), {"reason": ""})
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    client.post(reverse("event-reopen", args=[event.pk]), {"reason": "a wrong hand"})
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING

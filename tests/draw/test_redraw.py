"""A director's re-draw of a round not yet played: the reason is required (a 400 naming
``reason``, a message on the page, nothing changed without it) and logged with the draw it
moved to; the new seating is the next value of the event's draw stream (the seed plus the
draw count above its bits), never a fresh random number, so a second re-draw gives the next
one again and anyone can rebuild each."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import Membership
from common.errors import DomainError
from draw.managers import manager_for
from draw.selectors import event_results, round_draw_seed
from draw.services import event_history, round_create, round_set_status
from pairing.rotation import RoundPlan
from tests.clubs.factories import UserFactory, club_with_director
from tests.e2e.walls import play_round
from tests.tournaments.factories import event_with_players
from tournaments.models import DRAW_SEED_BITS, Event, EventLog, Round

pytestmark = pytest.mark.django_db


def _night(slug: str = "redraw-club", *, is_public: bool = True, players: int = 8,
           **kwargs: Any) -> tuple[Event, Any]:
    club, director = club_with_director(slug=slug, is_public=is_public)
    return event_with_players(club=club, players=players, deals_per_round=1, **kwargs), director


def _stored(round_: Round) -> RoundPlan[int]:
    return event_history(round_.event)[round_.number - 1]


def _built_with(event: Event, number: int, seed: int) -> RoundPlan[int]:
    """Round ``number`` as the format builds it from ``seed`` (the rounds before it played)."""
    spec = event.spec
    manager = manager_for(spec)(event=event, spec=spec, number=number, stage="qualifying",
                                history=event_history(event)[:number - 1], seed=seed)
    results = tuple(r for r in event_results(event) if r.round_number < number)
    return spec.build(manager.situation(results)).plan


def test_a_redraw_takes_the_next_draw_of_the_stream_each_time() -> None:
    event, director = _night(players=9)
    first = round_create(event=event, actor=director)
    seed = event.draw_seed
    assert round_draw_seed(event, 1) == seed
    assert _stored(first) == _built_with(event, 1, seed)

    second = round_create(event=event, actor=director, reseat=True, reason="  Ann came late  ")
    third = round_create(event=event, actor=director, reseat=True, reason="wrong table cards")
    assert not Round.objects.filter(pk__in=[first.pk, second.pk]).exists()
    assert round_draw_seed(event, 1) == seed + (2 << DRAW_SEED_BITS)
    logged = list(EventLog.objects.filter(event=event, action="round_redrawn").order_by("pk"))
    assert [(e.details, e.actor) for e in logged] == [
        ({"round": 1, "reason": "Ann came late", "draw": 1}, director),
        ({"round": 1, "reason": "wrong table cards", "draw": 2}, director)]
    # the stored seating is draw 2 of the stream; draws 0, 1 and 2 are three different seatings
    draws = [_built_with(event, 1, seed + (d << DRAW_SEED_BITS)) for d in range(3)]
    assert _stored(third) == draws[2]
    assert len({(plan.tables, plan.byes) for plan in draws}) == 3
    # the rounds after it go on from the same draw
    round_set_status(round_=third, status=Round.Status.PLAYING)
    play_round(third)
    round_set_status(round_=third, status=Round.Status.CLOSED)
    fourth = round_create(event=event, actor=director)
    assert round_draw_seed(event, 2) == seed + (2 << DRAW_SEED_BITS)
    assert _stored(fourth) == _built_with(event, 2, seed + (2 << DRAW_SEED_BITS))


def test_a_club_nights_whist_schedule_survives_a_redraw_of_the_first_round() -> None:
    event, director = _night(players=8, rounds_planned=3)
    round_create(event=event, actor=director)
    redrawn = round_create(event=event, actor=director, reseat=True, reason="late arrival")
    round_set_status(round_=redrawn, status=Round.Status.PLAYING)
    play_round(redrawn)
    round_set_status(round_=redrawn, status=Round.Status.CLOSED)
    round_create(event=event, actor=director)
    methods = list(EventLog.objects.filter(event=event, action="round_seated").order_by("pk")
                   .values_list("details__round", "details__method"))
    assert methods == [(1, "whist_design"), (1, "whist_design"), (2, "whist_design")]


@pytest.mark.parametrize("reason", [None, "", "   ", 42, "x" * 501])
def test_the_service_refuses_a_redraw_without_a_reason(reason: Any) -> None:
    event, director = _night()
    first = round_create(event=event, actor=director)
    kwargs = {} if reason is None else {"reason": reason}
    with pytest.raises(DomainError) as refused:
        round_create(event=event, actor=director, reseat=True, **kwargs)
    assert refused.value.field == "reason"
    assert Round.objects.get(event=event, number=1).pk == first.pk
    assert not EventLog.objects.filter(event=event, action="round_redrawn").exists()


def test_the_api_asks_for_the_reason_and_logs_it() -> None:
    event, director = _night()
    first = round_create(event=event, actor=director)
    api = APIClient()
    api.force_authenticate(director)
    url = f"/api/events/{event.pk}/rounds/"
    for body in ({"reseat": True}, {"reseat": True, "reason": " "}):
        refused = api.post(url, body, format="json")
        assert refused.status_code == 400
        assert [e["field"] for e in refused.json()["errors"]] == ["reason"]
    assert Round.objects.get(event=event, number=1).pk == first.pk
    done = api.post(url, {"reseat": True, "reason": "a player left before the start"},
                    format="json")
    assert done.status_code == 201 and done.json()["number"] == 1
    assert EventLog.objects.get(event=event, action="round_redrawn").details == {
        "round": 1, "reason": "a player left before the start", "draw": 1}
    told = APIClient().get(f"/api/events/{event.pk}/draw/").json()
    assert told["redraws"] == [{"round": 1, "draw": 1}]


def test_the_pages_ask_for_the_reason(client: Client) -> None:
    event, director = _night()
    first = round_create(event=event, actor=director)
    client.force_login(director)
    page = client.get(reverse("round-detail", args=[event.pk, 1])).content.decode()
    assert 'id="redraw-reason" name="reason" required' in page
    refused = client.post(reverse("round-seat", args=[event.pk]), {"reseat": "1"}, follow=True)
    assert "Say why the round is drawn again" in refused.content.decode()
    assert Round.objects.get(event=event, number=1).pk == first.pk
    client.post(reverse("round-seat", args=[event.pk]),
                {"reseat": "1", "reason": "Bob arrived", "from": "director"})
    assert EventLog.objects.get(event=event, action="round_redrawn").details["reason"] == \
        "Bob arrived"
    assert Round.objects.get(event=event, number=1).pk != first.pk
    # the event page lists the re-draw for everyone checking the draw
    html = Client().get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "round 1 (draw 1)" in html.split('id="draw-redraws"', 1)[1].split("</p>", 1)[0]


@pytest.mark.parametrize("is_public, status", [(True, 403), (False, 404)])
def test_only_the_events_director_redraws(is_public: bool, status: int) -> None:
    event, _ = _night(slug="their-club", is_public=is_public)
    first = round_create(event=event)
    other, _ = club_with_director(slug="elsewhere")
    scorer = UserFactory(username="scorer-elsewhere")
    Membership.objects.create(club=other, user=scorer, role=Membership.Role.SCORER)
    own_scorer = UserFactory(username="scorer-here")
    Membership.objects.create(club=event.club, user=own_scorer, role=Membership.Role.SCORER)
    body = {"reseat": True, "reason": "I prefer another draw"}
    for user, expected in ((scorer, status), (own_scorer, 403)):
        api = APIClient()
        api.force_authenticate(user)
        assert api.post(f"/api/events/{event.pk}/rounds/", body, format="json").status_code \
            == expected
        client = Client()
        client.force_login(user)
        page = client.post(reverse("round-seat", args=[event.pk]),
                           {"reseat": "1", "reason": "I prefer another draw"})
        assert page.status_code == expected
    assert Round.objects.get(event=event, number=1).pk == first.pk
    assert not EventLog.objects.filter(event=event, action="round_redrawn").exists()

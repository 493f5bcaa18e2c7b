"""An automatic advance lost on the way (the state a killed worker or an absent broker leaves:
every game of the round confirmed, the round open, the next round not seated) is found by the
reconcile, shown to the director as overdue, and done by "seat now" in one step."""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from common.errors import DomainError
from draw.selectors import advance_due, advances_due
from draw.services import round_create
from draw.tasks import reconcile_advances
from events.screens import director_screen
from scoring.models import Game
from scoring.services import hand_submit
from tests.clubs.factories import club_with_director
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import EventLog, Round
from tournaments.services import event_hold_advance

pytestmark = pytest.mark.django_db


def _lost_advance(players: int = 8, *, ago: int = 60):
    """A progressive day whose game 1 is all confirmed but whose advance never ran."""
    club, director = club_with_director(slug="lost")
    event = progressive_event(players, club=club, deals_per_round=1, format_settings={"cut": 4})
    first = round_create(event=event)
    for table in first.tables.all():
        hand_submit(game=table.game, number=1, values=values())
    Game.objects.filter(table__round=first).update(
        status=Game.Status.CONFIRMED, confirmed_at=timezone.now() - datetime.timedelta(seconds=ago))
    event.refresh_from_db()
    event.director = director
    return event, first


def test_the_lost_advance_is_found_and_the_reconcile_seats_it_once() -> None:
    event, first = _lost_advance()
    assert advance_due(event) is not None and advance_due(event)["next"] == 2
    assert (event.pk, 1) in advances_due()
    reconcile_advances.apply().get()
    reconcile_advances.apply().get()  # a second tick finds nothing owed
    assert event.rounds.filter(number=2).count() == 1
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED
    assert advance_due(event) is None and (event.pk, 1) not in advances_due()
    assert EventLog.objects.filter(event=event, action="round_seated", details__round=2).count() == 1


def test_nothing_is_owed_while_a_game_is_unconfirmed_or_the_advance_is_held() -> None:
    event, first = _lost_advance()
    Game.objects.filter(pk=first.tables.first().game.pk).update(status=Game.Status.FINISHED)
    assert advance_due(event) is None
    Game.objects.filter(table__round=first).update(status=Game.Status.CONFIRMED)
    event_hold_advance(event=event, held=True)
    event.refresh_from_db()
    assert advance_due(event) is None
    assert (event.pk, 1) not in advances_due()


def test_the_director_sees_an_overdue_advance_and_seats_it_in_one_step(client) -> None:
    event, first = _lost_advance(ago=120)
    client.force_login(event.director)
    page = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert 'id="advance-stalled"' in page and "has not been seated" in page
    answer = client.post(reverse("round-seat", args=[event.pk]), {"number": "2"})
    assert answer.status_code == 302
    first.refresh_from_db()
    assert first.status == Round.Status.CLOSED
    assert event.rounds.filter(number=2).count() == 1
    page = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert 'id="advance-stalled"' not in page


def test_a_fresh_confirmation_is_not_shown_as_stalled_yet() -> None:
    event, _ = _lost_advance(ago=1)
    assert director_screen(event)["stalled"] is None
    later = timezone.now() + datetime.timedelta(seconds=60)
    assert director_screen(event, now=later)["stalled"]["next"] == 2


def test_seating_the_next_round_refuses_while_a_game_is_unconfirmed() -> None:
    event, first = _lost_advance()
    Game.objects.filter(pk=first.tables.first().game.pk).update(status=Game.Status.FINISHED)
    with pytest.raises(DomainError, match="still open"):
        round_create(event=event, number=2)


def test_beat_runs_the_advance_reconcile() -> None:
    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "draw.tasks.reconcile_advances" in tasks

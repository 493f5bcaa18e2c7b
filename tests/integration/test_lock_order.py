"""Writers beside a table's first hand, on the real PostgreSQL.

The first hand of a round takes its game's row, then the event's (``hands_version_bump``, the
hand's last write), then the round's (it starts the round). A writer that holds a round's or a
table's row while a hand is under way must not then ask for the event's row: the two would wait
for each other, and PostgreSQL's deadlock detector would cancel one of them (a phone's hand, or
the worker's job). A ``SELECT ... FOR UPDATE`` over a join locks every joined row, so a lock of a
round joined to its event did exactly that (``tests/conftest.py`` checks every lock's scope).

Each test stops a real first hand where it holds the event's row, runs the other writer with a
lock timeout (a wait for the event's row fails it at once; a lock nobody holds is granted at
once, so this is no timing), then lets the hand finish."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from django.db import connection, transaction

from conduct.models import DirectorCall
from conduct.services import director_call_raise, director_call_take
from draw.services import round_create
from following.models import Notice
from following.services import _claim
from scoring.models import Game
from scoring.services import hand_submit
from tests.integration.races import WAIT, HandHeld
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players
from tournaments.models import Round, Table

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _claim_notices(round_: Round) -> object:
    return _claim(round_.pk)


def _raise_call(round_: Round) -> object:
    return director_call_raise(table=Table.objects.get(round=round_, number=2), reason="misdeal")


def _take_call(round_: Round) -> object:
    call = DirectorCall.objects.get(table__round=round_)
    return director_call_take(call=call, actor=None)


@pytest.mark.parametrize("writer", [_claim_notices, _raise_call, _take_call],
                         ids=["round notices", "director call", "director takes the call"])
def test_a_writer_beside_a_first_hand_never_waits_for_the_event_row(
        servers, monkeypatch, writer: Callable[[Round], object]) -> None:
    event = event_with_players(players=8, deals_per_round=2)
    round_ = round_create(event=event)
    if writer is _take_call:
        director_call_raise(table=Table.objects.get(round=round_, number=2), reason="misdeal")
    game = Game.objects.get(table__round=round_, table__number=1)
    held = HandHeld(monkeypatch, event_row_taken=True)
    outcome: dict[str, object] = {}
    phone = held.submitted(outcome, lambda: hand_submit(game=game, number=1,
                                                         values=values()).hand.number)
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            writer(round_)
    finally:
        held.go_on.set()
        phone.join(WAIT)
    assert outcome["hand"] == 1
    assert Round.objects.get(pk=round_.pk).status == Round.Status.PLAYING
    if writer is _claim_notices:
        assert Notice.objects.filter(round=round_, kind=Notice.Kind.SEATED).exists()
    else:
        call = DirectorCall.objects.get(table__round=round_)
        assert (call.taken_at is not None) == (writer is _take_call)

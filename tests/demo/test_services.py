"""The demo data `make run` loads: every page has something to show, and loading twice adds
nothing."""

from __future__ import annotations

import pytest

from clubs.models import Club, Player
from demo.services import load_demo
from scoring.models import Game, HandRevision
from standings.models import StandingsSnapshot
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db


def test_demo_data_is_complete_and_loads_once(django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        assert load_demo() is True
    counts = (Club.objects.count(), Player.objects.count(), Event.objects.count(),
              HandRevision.objects.count())
    assert load_demo() is False
    assert (Club.objects.count(), Player.objects.count(), Event.objects.count(),
            HandRevision.objects.count()) == counts
    assert Player.objects.count() == 24
    finished = Event.objects.get(status=Event.Status.FINISHED)
    running = Event.objects.get(status=Event.Status.RUNNING)
    assert not finished.rounds.exclude(status=Round.Status.CLOSED).exists()
    current = running.rounds.get(status=Round.Status.PLAYING)
    assert current.number == 2 and running.rounds_planned == 4
    statuses = set(Game.objects.filter(table__round=current).values_list("status", flat=True))
    assert statuses == {Game.Status.PLAYING, Game.Status.FINISHED}
    for event in (finished, running):
        snapshot = StandingsSnapshot.objects.get(event=event)
        assert snapshot.source_version == Event.objects.get(pk=event.pk).hands_version
        assert any(row["points"] for row in snapshot.rows)

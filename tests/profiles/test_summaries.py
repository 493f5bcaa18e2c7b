"""The profile read from the per-entry summaries (``profiles.models.EventSummary``) is the
profile computed live from the hands: the same dict for a mix of events (a club night, a pair
event, misdeals, reneges, corrected and deleted hands, a private club's event), a summary left
behind by a later change is not read, and the summaries are written on commit when an event is
over."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import Membership
from draw.services import event_status_set, round_set_status
from league.ratings import ratings_rebuild
from privacy.walk import collect
from profiles.models import EventSummary
from profiles.selectors import player_profile
from profiles.services import event_summaries_backfill
from scoring.models import Game
from tests.clubs.factories import UserFactory
from tests.profiles.builders import correct
from tests.profiles.test_profile import World, build_world
from tournaments.models import Entry, Event, Round

pytestmark = pytest.mark.django_db


def finish(event: Event) -> None:
    for round_ in Round.objects.filter(event=event).exclude(status=Round.Status.CLOSED):
        round_set_status(round_=round_, status=Round.Status.CLOSED, close_unfinished=True)
    event_status_set(event=event, status=Event.Status.FINISHED)


def everything_over() -> World:
    """The profile tests' world with its pair event and its private club's night finished."""
    world = build_world()
    for event in (*world.public_events, world.private_event):
        if event.status != Event.Status.FINISHED:
            finish(event)
    ratings_rebuild()
    return world


def profile(player_id: int, user: Any) -> tuple[dict[str, Any], list[str]]:
    """The API's dict of the profile, and the SQL it sent."""
    with CaptureQueriesContext(connection) as captured:
        found = player_profile(player_id=player_id, user=user).to_dict()
    return found, [q["sql"] for q in captured.captured_queries]


def live(player_id: int, user: Any) -> dict[str, Any]:
    """The profile with no summary at all (everything computed from the hands)."""
    saved = list(EventSummary.objects.all())
    EventSummary.objects.all().delete()
    found, sql = profile(player_id, user)
    assert any("tournaments_seat" in q for q in sql)
    EventSummary.objects.bulk_create(saved)
    return found


def test_the_profile_from_summaries_is_the_profile_computed_live() -> None:
    world = everything_over()
    member = UserFactory(username="hill-member")
    Membership.objects.create(club=world.members_club, user=member, role=Membership.Role.MEMBER)
    viewers = [AnonymousUser(), member]
    players = [world.subject.pk, *{p for g in world.ledger.games.values() for p in g.seats.values()
                                   if p != world.subject.pk}]
    wanted = {(pk, i): live(pk, user) for pk in players for i, user in enumerate(viewers)
              if Entry.objects.filter(player_id=pk, event__club__is_public=True).exists()
              or i == 1}

    events, written = event_summaries_backfill()
    assert events == 3 and written == Entry.objects.count()
    assert event_summaries_backfill() == (0, 0)  # all current: nothing to write

    for (pk, i), expected in wanted.items():
        found, sql = profile(pk, viewers[i])
        assert not any("tournaments_seat" in q or "scoring_handrevision" in q for q in sql)
        assert found == expected, (pk, i)
    subject = wanted[(world.subject.pk, 1)]
    # the mix the world was built for is in what was compared
    assert len(subject["events"]) == 3 and any(e["is_pairs"] for e in subject["events"])
    figures = subject["analytics"][0]
    assert figures["misdeals"] and figures["reneges"] and figures["board_set"]
    assert subject["partners"] and subject["opponents"]


def test_a_hand_corrected_after_the_summary_was_written_is_counted_live() -> None:
    world = everything_over()
    night = world.public_events[0]
    event_summaries_backfill()
    before, _ = profile(world.subject.pk, AnonymousUser())

    # the night is reopened, the director corrects the subject's hand (30 more meld for N/S)
    # and finishes it again: its summaries (no task ran) are behind
    event_status_set(event=night, status=Event.Status.RUNNING, reason="a meld was misread")
    hand = world.corrected
    game = Game.objects.get(pk=hand.game_id)
    values = dict(world.ledger.games[game.pk].hands[hand.number - 1].values)
    values["meld"] = {"NS": values["meld"]["NS"] + 30, "EW": values["meld"]["EW"]}
    correct(world.ledger, game, hand.number, values)
    event_status_set(event=night, status=Event.Status.FINISHED)
    night.refresh_from_db()
    stale = EventSummary.objects.filter(entry__event=night)
    assert stale.exists() and all(s.source_version < night.hands_version for s in stale)

    found, sql = profile(world.subject.pk, AnonymousUser())
    assert any("tournaments_seat" in q for q in sql)  # the night is computed live
    assert found == live(world.subject.pk, AnonymousUser())
    assert found["analytics"][0]["meld_per_hand"] != before["analytics"][0]["meld_per_hand"]

    # written again, the summaries are read once more, with the corrected hand
    assert event_summaries_backfill()[0] == 1
    again, sql = profile(world.subject.pk, AnonymousUser())
    assert not any("tournaments_seat" in q for q in sql)
    assert again == found


def test_an_event_in_play_is_computed_live_and_reopening_one_stops_reading_its_summaries() -> None:
    world = build_world()  # the pair event and the private night are still running
    event_summaries_backfill()
    summarised = set(EventSummary.objects.values_list("entry__event_id", flat=True))
    assert summarised == {world.public_events[0].pk}
    event_status_set(event=world.public_events[0], status=Event.Status.RUNNING,
                     reason="a score was misread")
    found, sql = profile(world.subject.pk, AnonymousUser())
    assert any("tournaments_seat" in q for q in sql)
    assert found == live(world.subject.pk, AnonymousUser())


def test_finishing_an_event_writes_its_summaries_on_commit(django_capture_on_commit_callbacks
                                                           ) -> None:
    world = build_world()
    swiss = world.public_events[1]
    with django_capture_on_commit_callbacks(execute=True):
        finish(swiss)
    rows = EventSummary.objects.filter(entry__event=swiss)
    assert rows.count() == Entry.objects.filter(event=swiss).count()
    swiss.refresh_from_db()
    assert {r.source_version for r in rows} == {swiss.hands_version}
    assert not EventSummary.objects.filter(entry__event=world.private_event).exists()


def test_summaries_are_in_the_players_export() -> None:
    world = everything_over()
    event_summaries_backfill()
    records, _ = collect([world.subject])
    mine = set(Entry.objects.filter(player=world.subject).values_list("pk", flat=True))
    assert {row["entry_id"] for row in records["profiles.EventSummary"]} == mine

"""Every event draws its own seed: two evenings of the same regulars, checked in in the same order,
are not seated the same way, whichever path made the event (service, page, API); an event made
before the seed was random keeps the number it was played with, and so do archives."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import Club
from draw.services import round_create
from tests.clubs.factories import PlayerFactory, club_with_director
from tournaments.models import DRAW_SEED_BITS, Event, new_draw_seed
from tournaments.services import entry_check_in, event_create

pytestmark = pytest.mark.django_db

FRIDAY = datetime.date(2026, 11, 20)


def _seating(event: Event) -> set[frozenset[frozenset[int]]]:
    """Round 1 as who partners whom at which table (table numbers aside)."""
    round_ = round_create(event=event)
    tables = set()
    for table in round_.tables.prefetch_related("seats__entry"):
        seats = {s.position: s.entry.player_id for s in table.seats.all()}
        tables.add(frozenset({frozenset({seats["N"], seats["S"]}),
                              frozenset({seats["E"], seats["W"]})}))
    return tables


def _check_in_all(event: Event, players: list[Any]) -> None:
    for player in players:  # the same order every week
        entry_check_in(event=event, player=player)


def test_a_new_seed_has_128_random_bits() -> None:
    seeds = {new_draw_seed() for _ in range(50)}
    assert len(seeds) == 50
    assert all(s.isdigit() and 0 <= int(s) < 2 ** DRAW_SEED_BITS for s in seeds)
    # about half of the seeds need the top bits: not a small number written as text
    assert max(int(s) for s in seeds) > 2 ** (DRAW_SEED_BITS - 8)


def test_the_same_regulars_get_a_different_evening_each_week() -> None:
    club, director = club_with_director(slug="regulars")
    players = [PlayerFactory(club=club) for _ in range(16)]
    weeks = [event_create(club=club, name=f"Friday {n}", date=FRIDAY + datetime.timedelta(7 * n),
                          actor=director, rounds_planned=4, deals_per_round=4)
             for n in range(3)]
    assert len({w.seed for w in weeks}) == 3
    seatings = []
    for week in weeks:
        _check_in_all(week, players)
        seatings.append(_seating(week))
    assert seatings[0] != seatings[1] != seatings[2] != seatings[0]


def test_the_demo_and_benchmarks_may_fix_a_seed_and_replay_its_draw() -> None:
    club, director = club_with_director(slug="fixed")
    players = [PlayerFactory(club=club) for _ in range(8)]
    twins = [event_create(club=club, name=f"Replay {n}", date=FRIDAY, actor=director, seed=42)
             for n in range(2)]
    for twin in twins:
        _check_in_all(twin, players)
    assert twins[0].seed == twins[1].seed == "42"
    assert _seating(twins[0]) == _seating(twins[1])


def test_the_page_and_the_api_draw_a_seed_the_director_cannot_choose(client) -> None:
    club, director = club_with_director(slug="paths")
    players = [PlayerFactory(club=club) for _ in range(8)]
    client.force_login(director)
    for n in range(2):
        response = client.post(reverse("event-create", args=[club.slug]), {
            "name": f"Page night {n}", "date": "2026-11-20", "ruleset_preset": "pagat_double_deck",
            "rounds_planned": 3, "deals_per_round": 4, "bye_scoring": "average_winning",
            "bye_points": 0, "is_public": "on", "seed": "0",
        })
        assert response.status_code == 302
    api = APIClient()
    api.force_authenticate(director)
    for n in range(2):
        response = api.post("/api/events/", {
            "club": club.slug, "name": f"API night {n}", "date": "2026-11-20",
            "format": "club_night", "ruleset_preset": "pagat_double_deck", "seed": 0,
        }, format="json")
        assert response.status_code == 201, response.content
        assert "seed" not in response.json()  # never shown while it could predict a draw
    events = list(Event.objects.filter(club=club).order_by("pk"))
    assert len(events) == 4
    assert len({e.seed for e in events}) == 4
    assert all(int(e.seed) > 2 ** 64 for e in events)  # 0 was asked for; nobody got it
    seatings = []
    for event in (events[0], events[2]):
        _check_in_all(event, players)
        seatings.append(_seating(event))
    assert seatings[0] != seatings[1]


def test_the_database_refuses_a_seed_that_is_not_a_number() -> None:
    from django.db import IntegrityError, transaction

    club = Club.objects.create(name="Guarded", slug="guarded")
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(club=club, name="Bad", date=FRIDAY, seed="12ab")


@pytest.mark.django_db(transaction=True)
def test_the_migration_keeps_the_seed_an_event_was_played_with() -> None:
    executor = MigrationExecutor(connection)
    before = [("tournaments", "0007_entry_verbose_name_plural")]
    after = [("tournaments", "0008_event_seed_random")]
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps
        OldClub = old.get_model("clubs", "Club")
        OldEvent = old.get_model("tournaments", "Event")
        club = OldClub.objects.create(name="Old", slug="old-club")
        played = OldEvent.objects.create(club=club, name="Played", date=FRIDAY, seed=0)
        fixed = OldEvent.objects.create(club=club, name="Fixed", date=FRIDAY, seed=2_147_483_647)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(after)
    try:
        assert Event.objects.get(pk=played.pk).seed == "0"
        assert Event.objects.get(pk=fixed.pk).draw_seed == 2_147_483_647
    finally:
        # Going back to 0007 also took back every later migration that depends on it (in
        # every app); the tests after this one run on the whole schema again.
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())


"""The full rebuild from the hands gives exactly what the incremental path built."""

from __future__ import annotations

import random

import pytest

from common.rulesets import event_ruleset
from demo.services import demo_hand
from draw.services import round_create, round_set_status
from scoring.models import Game, SeatResult
from scoring.services import event_recompute, hand_submit
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db

FIELDS = ("game_id", "entry_id", "round_number", "position", "side", "points",
          "opponents_points", "won", "finished", "hands_declared", "hands_made", "hands_set")


def _snapshot(event):
    return sorted(SeatResult.objects.filter(event=event).values_list(*FIELDS))


def test_event_recompute_matches_the_incremental_results() -> None:
    event = event_with_players(players=13, deals_per_round=4)
    ruleset = event_ruleset(event)
    rng = random.Random(5)
    for _ in range(2):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status="playing")
        for index, table in enumerate(round_.tables.order_by("number")):
            dealer = "N"
            for number in range(1, 5 - index):  # some games finish, some do not
                hand_submit(game=table.game, number=number, values=demo_hand(rng, ruleset, dealer))
                dealer = ruleset.next_dealer(dealer)
        round_set_status(round_=round_, status="closed", close_unfinished=True)
    incremental = _snapshot(event)
    games = sorted(Game.objects.filter(table__round__event=event).values_list(
        "pk", "status", "totals", "winner", "hands_count"))
    assert incremental and any(row[8] for row in incremental) and not all(row[8] for row in incremental)

    SeatResult.objects.filter(event=event).delete()
    Game.objects.filter(table__round__event=event).update(totals={}, hands_count=0)
    assert event_recompute(event=event) == len(games)
    assert _snapshot(event) == incremental
    assert sorted(Game.objects.filter(table__round__event=event).values_list(
        "pk", "status", "totals", "winner", "hands_count")) == games

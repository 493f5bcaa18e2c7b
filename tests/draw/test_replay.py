"""Every draw comes from the event's seed and its data alone: the seatings of a played event
are rebuilt here from what anyone may read once it is finished (the seed from
``GET /api/events/{id}/draw/`` with its re-draws, who sat where, every game's result, the
pairs in seed order, the qualifying order after a cut) by the same pure builders
(``formats``), without the round managers, and come out as stored, round by round: a club night
with rotating partners and a re-draw, a Swiss pair event with a random first draw, and
progressive days (the system draw of the movement, a re-drawn first game, the semi-final
partners' draw). The builders' answer does not move with Python's string
hash seed either (no set or dict order of strings decides a draw)."""

from __future__ import annotations

import datetime
import hashlib
import os
import pickle
import subprocess
import sys
from typing import Any

import pytest
from django.db.models import F
from rest_framework.test import APIClient

from common.rulesets import event_ruleset, table_teams, two_sides
from draw.selectors import event_results
from draw.services import event_history, event_status_set, round_create, round_set_status
from formats import Situation
from pairing.rotation import RoundPlan
from standings.selectors import qualifying_order, stage_rounds
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.e2e.walls import play_round
from tournaments.models import DRAW_SEED_BITS, Bye, Entry, Event, Round, Seat
from tournaments.services import entries_create_many, event_create, pair_register

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def _play(event: Event, rounds: int, *, redraw: int | None = None) -> None:
    """Seat, play and close ``rounds`` rounds (round ``redraw`` drawn again first, with a
    reason), then finish."""
    for number in range(1, rounds + 1):
        latest = event.rounds.order_by("-number").first()
        # a format that seats itself may have seated it when the last round was confirmed
        round_ = latest if latest is not None and latest.status != Round.Status.CLOSED \
            else round_create(event=event)
        assert round_.number == number
        if number == redraw:
            round_ = round_create(event=event, reseat=True, reason="a player was at the bar")
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        play_round(round_)
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    event_status_set(event=event, status=Event.Status.FINISHED)


def _published_seed(event: Event, number: int) -> int:
    """The seed round ``number`` was drawn with, from what the draw API tells anyone: the seed
    (checked against the commitment) and the re-draws, as the algorithm says."""
    told = APIClient().get(f"/api/events/{event.pk}/draw/").json()
    assert hashlib.sha256(told["seed"].encode()).hexdigest() == told["commitment"]
    redraws = sum(1 for r in told["redraws"] if r["round"] <= number)
    return int(told["seed"]) + (redraws << DRAW_SEED_BITS)


def _situation(event: Event, number: int) -> Situation:
    """Round ``number``'s situation from the stored data: who sat or sat out in it (players in
    check-in order; a pair event's pairs in seed order), the rounds before it and their
    results."""
    ruleset = event_ruleset(event)
    stage = Round.objects.get(event=event, number=number).stage
    # after a cut: everyone who played the qualifying rounds, in qualifying order
    rounds = [number] if stage == Round.Stage.QUALIFYING else \
        list(stage_rounds(event, Round.Stage.QUALIFYING))
    here = set(Seat.objects.filter(round__event=event, round__number__in=rounds)
               .values_list("entry_id", flat=True))
    here |= set(Bye.objects.filter(round__event=event, round__number__in=rounds)
                .values_list("entry_id", flat=True))
    extra: dict[str, Any] = {}
    if stage != Round.Stage.QUALIFYING:
        extra["ranking"] = tuple(entry for entry, _ in qualifying_order(event))
    if event.is_pairs:
        pairs = {pair.pk: tuple(sorted(pair.members.values_list("pk", flat=True)))
                 for pair in event.pairs.order_by(F("seed").asc(nulls_last=True), "pk")}
        extra |= {"pairs": pairs, "active_pairs": tuple(pairs)}
        entries = tuple(e for members in pairs.values() for e in members if e in here)
    else:
        entries = tuple(Entry.objects.filter(pk__in=here).order_by("checked_in_at", "pk")
                        .values_list("pk", flat=True))
    return Situation(
        number=number, seed=_published_seed(event, number),
        rounds_planned=event.rounds_planned, entries=entries,
        history=tuple(event_history(event)[:number - 1]),
        results=tuple(r for r in event_results(event) if r.round_number < number),
        settings=dict(event.format_settings or {}), table_sizes=ruleset.table_sizes,
        individual=ruleset.individual, teams=table_teams(ruleset), **two_sides(ruleset),
        **extra)


def _replayed(event: Event) -> list[tuple[Situation, RoundPlan[int]]]:
    """Each round rebuilt by the format's builder, checked against the stored round."""
    stored = event_history(event)
    assert stored, "nothing was played"
    rebuilt = []
    for number, plan in enumerate(stored, start=1):
        situation = _situation(event, number)
        built = event.spec.build(situation).plan
        assert built.tables == plan.tables, f"round {number}'s tables"
        assert tuple(sorted(built.byes)) == plan.byes, f"round {number}'s byes"
        rebuilt.append((situation, built))
    return rebuilt


def _built_elsewhere(format_name: str, situation: Situation, hash_seed: str) -> RoundPlan[int]:
    """The same build in a fresh interpreter with another string hash seed."""
    code = ("import pickle, sys, formats; s = pickle.load(sys.stdin.buffer); "
            f"sys.stdout.buffer.write(pickle.dumps(formats.get({format_name!r}).build(s).plan))")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(situation),
                          capture_output=True, check=True, timeout=120,
                          env={**os.environ, "PYTHONHASHSEED": hash_seed})
    plan: RoundPlan[int] = pickle.loads(done.stdout)
    return plan


def test_a_club_night_with_rotating_partners_and_a_redraw_is_rebuilt_from_its_seed() -> None:
    club, _ = club_with_director(slug="replay-night")
    event = event_create(club=club, name="Friday", date=DAY, deals_per_round=1,
                         rounds_planned=3)
    # nine players: a bye each round, partners rotating
    entries_create_many(event=event, players=[PlayerFactory(club=club) for _ in range(9)])
    _play(event, 3, redraw=2)
    assert event.log.filter(action="round_redrawn", details__round=2).count() == 1
    rebuilt = _replayed(event)
    assert all(len(plan.byes) == 1 for _, plan in rebuilt)
    # the redrawn round 2 came from the next draw of the stream: the first draw is another
    first_draw = Situation(**{**rebuilt[1][0].__dict__, "seed": event.draw_seed})
    assert event.spec.build(first_draw).plan != rebuilt[1][1]
    for hash_seed in ("1", "4242"):
        assert _built_elsewhere("club_night", rebuilt[2][0], hash_seed) == rebuilt[2][1]


def test_a_swiss_pair_event_with_a_random_first_draw_is_rebuilt_from_its_seed() -> None:
    club, _ = club_with_director(slug="replay-pairs")
    event = event_create(club=club, name="Pairs", date=DAY, deals_per_round=1,
                         format=Event.Format.SWISS, rounds_planned=3,
                         format_settings={"first_draw": "random"})
    for n in range(7):  # an odd number: a pair sits out each round
        pair_register(event=event, players=[PlayerFactory(club=club), PlayerFactory(club=club)],
                      seed=n + 1 if n < 4 else None)
    _play(event, 3)
    rebuilt = _replayed(event)
    assert all(len(plan.tables) == 3 and len(plan.byes) == 2 for _, plan in rebuilt)
    for hash_seed in ("0", "977"):
        assert _built_elsewhere("swiss", rebuilt[0][0], hash_seed) == rebuilt[0][1]
        assert _built_elsewhere("swiss", rebuilt[2][0], hash_seed) == rebuilt[2][1]


def test_a_progressive_day_with_its_system_draw_is_rebuilt_from_its_seed() -> None:
    club, _ = club_with_director(slug="replay-npa")
    event = event_create(club=club, name="NPA day", date=DAY, deals_per_round=1,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=3,
                         format_settings={"cut": 0})
    entries_create_many(event=event, players=[PlayerFactory(club=club) for _ in range(12)])
    _play(event, 3, redraw=1)
    rebuilt = _replayed(event)
    assert [len(plan.tables) for _, plan in rebuilt] == [3, 3, 3]


def test_a_progressive_days_semi_final_draw_and_final_are_rebuilt_from_its_seed() -> None:
    club, _ = club_with_director(slug="replay-cut")
    event = event_create(club=club, name="NPA final", date=DAY, deals_per_round=1,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=2,
                         format_settings={"cut": 8, "semi_partners": "draw",
                                          "final_rule": "single_game"})
    entries_create_many(event=event, players=[PlayerFactory(club=club) for _ in range(16)])
    _play(event, 4)
    stages = list(event.rounds.order_by("number").values_list("stage", flat=True))
    assert stages == ["qualifying", "qualifying", "semifinal", "final"]
    rebuilt = _replayed(event)
    assert [len(plan.tables) for _, plan in rebuilt] == [4, 4, 2, 1]
    # the semi-final partners were drawn: another seed draws others
    semis, plan = rebuilt[2]
    assert event.spec.build(Situation(**{**semis.__dict__, "seed": semis.seed + 1})).plan != plan

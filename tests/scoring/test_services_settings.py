"""Event settings that re-derive games and standings."""

from __future__ import annotations

import pytest

from common.errors import DomainError
from draw.services import round_create, round_set_status
from scoring.services import event_settings_update
from tests.tournaments.factories import event_with_players
from tournaments.models import Bye

pytestmark = pytest.mark.django_db


def _settings(event, **over):
    data = {"name": event.name, "date": event.date, "ruleset_preset": event.ruleset_preset,
            "rounds_planned": event.rounds_planned, "deals_per_round": event.deals_per_round,
            "bye_scoring": event.bye_scoring, "bye_points": event.bye_points,
            "tie_breaks": event.tie_breaks, "is_public": event.is_public}
    return data | over


def _played_round(event, hands: int):
    from scoring.services import hand_submit

    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    game = round_.tables.get(number=1).game
    dealer = "N"
    for number in range(1, hands + 1):
        hand_submit(game=game, number=number, values={
            "dealer": dealer, "bidder": "N", "bid": 51, "trump": "H", "meld": {"NS": 24, "EW": 32},
            "counters": {"NS": 27, "EW": 23}, "outcome": "played"})
        dealer = {"N": "E", "E": "S", "S": "W", "W": "N"}[dealer]
    return round_, game


def test_changing_bye_scoring_moves_the_standings(django_capture_on_commit_callbacks) -> None:
    from standings.models import StandingsSnapshot

    event = event_with_players(players=9, deals_per_round=2)
    with django_capture_on_commit_callbacks(execute=True):
        round_, _ = _played_round(event, hands=2)
    bye = Bye.objects.get(round=round_).entry_id
    row = next(r for r in StandingsSnapshot.objects.get(event=event).rows if r["entry_id"] == bye)
    assert row["points"] == 110  # the average winning score: EW 55 + 55
    with django_capture_on_commit_callbacks(execute=True):
        event_settings_update(event=event, **_settings(event, bye_scoring="fixed", bye_points=40))
    row = next(r for r in StandingsSnapshot.objects.get(event=event).rows if r["entry_id"] == bye)
    assert row["points"] == 40
    assert event.log.filter(action="settings").exists()


def test_rules_cannot_change_once_hands_are_entered() -> None:
    event = event_with_players(players=8, deals_per_round=4)
    _played_round(event, hands=1)
    with pytest.raises(DomainError) as info:
        event_settings_update(event=event, **_settings(event, ruleset_preset="club_double_deck"))
    assert info.value.field == "ruleset_preset"
    event.refresh_from_db()
    assert event.ruleset_preset == "pagat_double_deck"


def test_a_shorter_deal_count_ends_games_or_is_refused() -> None:
    event = event_with_players(players=8, deals_per_round=4)
    _, game = _played_round(event, hands=3)
    event_settings_update(event=event, **_settings(event, deals_per_round=3))
    game.refresh_from_db()
    assert game.status == "finished" and game.totals == {"NS": 153, "EW": 165}
    with pytest.raises(DomainError) as info:
        event_settings_update(event=event, **_settings(event, deals_per_round=2))
    assert info.value.field == "deals_per_round"
    event.refresh_from_db()
    assert event.deals_per_round == 3

"""Results nobody can quietly change: a confirmed game is locked, a misdeal is not a deal,
a finished event's results cannot be rewritten through its settings."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import DomainError
from scoring import services
from scoring.models import Game, HandRevision
from scoring.selectors import table_state
from tests.clubs.factories import club_with_director
from tests.scoring.factories import form_data, seated_table, values
from tournaments.models import Event, EventLog

pytestmark = pytest.mark.django_db


def _confirmed_game(deals: int = 2):
    club, director = club_with_director()
    table = seated_table(club=club, deals_per_round=deals)
    services.hand_submit(game=table.game, number=1, values=values())
    services.hand_submit(game=table.game, number=2, values=values(dealer="W"))
    services.game_set_scorer(game=table.game, position="N")
    services.game_confirm(game=table.game, position="E")
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.CONFIRMED
    return table, director


def test_the_table_link_cannot_change_a_confirmed_game(client) -> None:
    table, _ = _confirmed_game()
    response = client.post(reverse("table-hand-correct", args=[table.token, 2]),
                           form_data(number=2, key="fix-2", dealer="W", bid=52,
                                     expected_revision=1))
    assert response.status_code == 400
    assert b"only a director can change it" in response.content
    api = APIClient()
    hand = table.game.hands.get(number=2)
    put = api.put(reverse("api-hand", args=[hand.pk]),
                  {**values(dealer="W", bid=52), "expected_revision": 1}, format="json")
    assert put.status_code in (401, 403)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.CONFIRMED
    assert HandRevision.objects.filter(hand=hand).count() == 1


def test_a_director_changes_a_confirmed_game_with_a_reason_and_clears_the_confirmation() -> None:
    table, director = _confirmed_game()
    hand = table.game.hands.get(number=2)
    with pytest.raises(DomainError) as info:
        services.hand_correct(hand=hand, values=values(dealer="W", bid=52), expected_revision=1,
                              author=director, as_director=True)
    assert info.value.field == "note"
    revision = services.hand_correct(
        hand=hand, values=values(dealer="W", bid=52), expected_revision=1, author=director,
        as_director=True, note="bid was 52 on the sheet",
    )
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    assert table.game.confirmed_by is None and table.game.confirmed_at is None
    assert revision.note == "bid was 52 on the sheet" and revision.author == director
    log = EventLog.objects.get(action="confirmation_cleared")
    assert log.details["table"] == table.number and log.details["note"] == revision.note


def test_a_misdeal_is_redealt_by_the_same_dealer_and_is_not_a_deal(client) -> None:
    table = seated_table(deals_per_round=2)
    services.hand_submit(game=table.game, number=1, values=values(dealer="S"))
    services.hand_submit(game=table.game, number=2,
                         values={"dealer": "W", "outcome": "misdeal"})
    state = table_state(table=table)
    assert state["deals_played"] == 1 and state["misdeals"] == 1
    assert state["next_dealer"] == "W"  # the same dealer deals again
    page = client.get(reverse("table-entry", args=[table.token]))
    assert b"1 deal played" in page.content and b"1 misdeal redealt" in page.content
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.PLAYING
    services.hand_submit(game=table.game, number=3, values=values(dealer="W"))
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.FINISHED
    assert table_state(table=table)["deals_played"] == 2


def _settings(event: Event, **over):
    base = {"name": event.name, "date": event.date, "ruleset_preset": event.ruleset_preset,
            "ruleset_overrides": event.ruleset_overrides, "rounds_planned": event.rounds_planned,
            "deals_per_round": event.deals_per_round, "bye_scoring": event.bye_scoring,
            "bye_points": event.bye_points, "tie_breaks": event.tie_breaks,
            "is_public": event.is_public}
    return base | over


def test_a_finished_events_results_cannot_change_through_its_settings() -> None:
    table, director = _confirmed_game(deals=2)
    event = table.round.event
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    for change in ({"deals_per_round": 1}, {"bye_scoring": "zero"}, {"tie_breaks": ["wins"]}):
        with pytest.raises(DomainError) as info:
            services.event_settings_update(event=event, actor=director,
                                           **_settings(event, **change))
        assert info.value.field == next(iter(change))
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.CONFIRMED
    renamed = services.event_settings_update(event=event, actor=director,
                                             **_settings(event, name="Renamed"))
    assert renamed.name == "Renamed"


def test_a_running_events_deal_count_never_undoes_a_confirmation_silently(client) -> None:
    table, director = _confirmed_game(deals=2)
    event = table.round.event
    client.force_login(director)
    data = _settings(event, deals_per_round=3, date="2026-11-20", tie_breaks=[])
    data = {k: v for k, v in data.items() if k not in ("ruleset_overrides", "tie_breaks")}
    data["is_public"] = "on"
    response = client.post(reverse("event-edit", args=[event.pk]), data, follow=True)
    assert response.status_code == 200
    assert b"need confirming" in response.content
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.PLAYING
    log = EventLog.objects.get(event=event, action="confirmations_cleared")
    assert log.details["games"] == [[table.round.number, table.number]]

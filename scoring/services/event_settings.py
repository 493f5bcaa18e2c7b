"""An event's settings changed by its director (the checks of the change, and the games rebuilt
when the scoring rules change)."""

from __future__ import annotations

from typing import Unpack

from django.db import transaction
from django.utils.translation import gettext

from common.errors import DomainError
from common.types import Actor
from rules_engine import RulesError
from tournaments.models import Event
from tournaments.services import (
    EventSettings,
    check_event_settings_change,
    event_lock,
    event_log,
    event_results_changed,
)

from ..models import Game, Hand
from .derive import event_games_lock_idle, event_recompute


@transaction.atomic
def event_settings_update(*, event: Event, actor: Actor | None = None,
                          **settings: Unpack[EventSettings]) -> Event:
    """Change an event's settings (checked by ``tournaments.services.
    check_event_settings_change``) and re-derive what depends on them: a new deal count
    re-derives every game from its hands; the standings follow. The one service that changes an
    event's settings (the pages, the API and the demo all come here)."""
    games_first = _deal_count_changes(event, settings)
    if games_first:
        # A new deal count re-derives every game (event_recompute): the games' rows before the
        # event's, in the order a hand takes them, so a hand on its way is waited for.
        list(Game.objects.select_for_update(of=("self",)).filter(table__round__event=event)
             .order_by("pk").only("pk"))
    locked = event_lock(event)
    if not games_first and _deal_count_changes(locked, settings):
        event_games_lock_idle(locked)  # the caller's event was out of date: refused, not waited
    hands_entered = Hand.objects.filter(game__table__round__event=locked).exists()
    changed = _event_settings_write(locked, actor=actor, hands_entered=hands_entered,
                                    settings=settings)
    if not changed:
        return locked
    if hands_entered and "deals_per_round" in changed:
        confirmed = _confirmed_tables(locked)
        try:
            event_recompute(event=locked)
        except RulesError as exc:
            raise DomainError(
                gettext("Some games already have more hands than that (%(message)s).") % {"message": exc.errors[0].message},
                field="deals_per_round",
            ) from None
        reopened = sorted(confirmed - _confirmed_tables(locked))
        if reopened:
            # Never undo a confirmation silently: the log and the director's page say so.
            event_log(locked, actor, "confirmations_cleared", reason="deals_per_round",
                      games=[list(g) for g in reopened])
    event_results_changed(locked)
    return locked


def _deal_count_changes(event: Event, settings: EventSettings) -> bool:
    """The settings ask for another deal count than ``event`` holds."""
    return settings.get("deals_per_round", event.deals_per_round) != event.deals_per_round


def _event_settings_write(locked: Event, *, actor: Actor | None, hands_entered: bool,
                          settings: EventSettings) -> set[str]:
    """Store the checked settings on the locked event, with a log row; returns the names of the
    fields that changed."""
    changed = check_event_settings_change(event=locked, hands_entered=hands_entered, **settings)
    for field, value in changed.items():
        setattr(locked, field, value)
    if changed:
        locked.save(update_fields=list(changed))
        event_log(locked, actor, "settings", changed=sorted(changed))
    return set(changed)


def _confirmed_tables(event: Event) -> set[tuple[int, int]]:
    """(round, table) of the event's confirmed games."""
    return set(
        Game.objects.filter(table__round__event=event, status=Game.Status.CONFIRMED)
        .values_list("table__round__number", "table__number")
    )

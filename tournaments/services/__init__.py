"""Writes on an event's structure, by resource: creation, entries and pairs, the checks of its
settings (:mod:`.events`); check-in for a big room, alternates and self check-in
(:mod:`.checkin`).

Every function here is a service: keyword-only arguments, one transaction, a row lock on the
event where concurrent directors could collide, and an :class:`EventLog` row for the audit.
Rounds are built by the ``draw`` app (the bridge to the pure round builders). Operations whose
complete form needs a higher layer have their one public service there, never here: a settings
change is ``scoring.services.event_settings_update`` (it re-derives games; the settings are
checked by :func:`check_event_settings_change` here), a status change
``draw.services.event_status_set`` (finishing writes the placements), a player's withdrawal
``draw.services.entry_withdraw`` (an alternate takes the seat).

The names below are the package's public services; callers import them from here.
"""

from __future__ import annotations

from .checkin import (
    EntriesRefused,
    arrival_decide,
    entries_bulk_create,
    entry_set_alternate,
    event_self_check_in_set,
    self_check_in,
    self_check_in_refusal,
)
from .events import (
    RESULT_SETTINGS,
    UNSET,
    EventSettings,
    check_event_settings_change,
    check_format_settings,
    check_not_erased,
    check_prizes_field,
    check_table_shape,
    entries_check_in,
    entries_create_many,
    entry_check_in,
    event_create,
    event_hold_advance,
    event_lock,
    event_log,
    event_results_changed,
    hands_version_bump,
    pair_register,
    pair_withdraw,
)

__all__ = [
    "EntriesRefused",
    "EventSettings",
    "RESULT_SETTINGS",
    "UNSET",
    "arrival_decide",
    "check_event_settings_change",
    "check_format_settings",
    "check_not_erased",
    "check_prizes_field",
    "check_table_shape",
    "entries_bulk_create",
    "entries_check_in",
    "entries_create_many",
    "entry_check_in",
    "entry_set_alternate",
    "event_create",
    "event_hold_advance",
    "event_lock",
    "event_log",
    "event_results_changed",
    "event_self_check_in_set",
    "hands_version_bump",
    "pair_register",
    "pair_withdraw",
    "self_check_in",
    "self_check_in_refusal",
]

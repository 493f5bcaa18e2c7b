"""The standings snapshot: derived, versioned rows that the standings pages show."""

from __future__ import annotations

import json

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Expression

from tournaments.models import Event


class RowsField(models.JSONField):
    """A JSON document written and read whole, never queried inside: ``json`` on PostgreSQL,
    not ``jsonb``.

    PostgreSQL keeps a ``json`` value as the text it was given (checked, not parsed into a
    tree), so writing 250 rows costs it about a fifth of ``jsonb``'s work; the value comes back
    parsed by the driver. Other databases (SQLite) store JSON as text anyway: there this is
    ``JSONField``. PostgreSQL has no equality operator for ``json``: filter on other columns.
    """

    def db_type(self, connection: BaseDatabaseWrapper) -> str | None:
        if connection.vendor == "postgresql":
            return "json"
        return super().db_type(connection)

    def get_db_prep_value(self, value: object, connection: BaseDatabaseWrapper,
                          prepared: bool = False) -> object:
        if connection.vendor != "postgresql":
            return super().get_db_prep_value(value, connection, prepared)
        # The text itself, not the driver's jsonb adapter.
        return json.dumps(value if prepared else self.get_prep_value(value), cls=self.encoder)

    def from_db_value(self, value: str | None, expression: Expression,
                      connection: BaseDatabaseWrapper) -> object:
        if connection.vendor == "postgresql":
            return value  # the driver parses ``json`` itself
        return super().from_db_value(value, expression, connection)


class StandingsSnapshot(models.Model):
    """Derived: the ranked standings of an event, as shown on the standings pages."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="standings")
    # Bumped each time the rows change; pages poll it and redraw when it moves.
    version = models.PositiveIntegerField(default=0)
    # The event's hands_version these rows were built from; behind when smaller.
    source_version = models.PositiveIntegerField(default=0)
    # Written whole by the standings task on every change and read whole: ``json`` on
    # PostgreSQL (RowsField), compressed with lz4 where the server has it (migration 0003).
    rows = RowsField(default=list)
    tie_breaks = models.JSONField(default=list)
    # SHA-256 of the rows and tie-breaks as stored: an unchanged result is recognised without
    # loading or comparing the rows.
    digest = models.CharField(max_length=64, blank=True)
    # Final places, written when the event finishes (the format's rule: for a progressive event
    # with a cut, the final table, then the semi-finals, then the qualifying standings) and
    # cleared when it is reopened: [{"place", "entry_id", "name", "stage", "prize"?}].
    placements = models.JSONField(default=list, blank=True)
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        # The table predates the standings app (it was created by scoring's first migration).
        db_table = "scoring_standingssnapshot"

    def __str__(self) -> str:
        return f"standings of event {self.event_id} v{self.version}"

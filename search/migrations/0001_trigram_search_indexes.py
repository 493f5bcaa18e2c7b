"""The search's indexes on PostgreSQL: the ``pg_trgm`` extension, and on the names of clubs,
events and players a GIN trigram index (misspelt names: ``%>``) and a GIN full-text index (words
and their prefixes: ``to_tsvector('simple', name)``). The embedded SQLite default has neither
and searches with ``icontains`` (``search.selectors``): there this migration does nothing.

The indexes are on other apps' tables, made here so that those apps' models (and SQLite) do not
carry them; each index serves the search of one kind (``search.selectors._ranked``).
"""

from __future__ import annotations

from typing import Any

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.operations import TrigramExtension
from django.contrib.postgres.search import SearchVector
from django.db import migrations

# (app, model, index name prefix)
TABLES = [("clubs", "Club", "search_club"), ("tournaments", "Event", "search_event"),
          ("clubs", "Player", "search_player")]


def _indexes(prefix: str) -> list[GinIndex]:
    return [
        # misspelt and partial names: name %> q
        GinIndex(fields=["name"], opclasses=["gin_trgm_ops"], name=f"{prefix}_trgm_idx"),
        # whole words and their prefixes: to_tsvector('simple', name) @@ 'spr:* & op:*'
        GinIndex(SearchVector("name", config="simple"), name=f"{prefix}_fts_idx"),
    ]


def create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for app, model, prefix in TABLES:
        for index in _indexes(prefix):
            schema_editor.add_index(apps.get_model(app, model), index)


def drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for app, model, prefix in TABLES:
        for index in _indexes(prefix):
            schema_editor.remove_index(apps.get_model(app, model), index)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_club_correction_settings"),
        ("tournaments", "0010_seats_of_every_table"),
    ]

    operations = [
        TrigramExtension(),
        migrations.RunPython(create, drop),
    ]

"""The search's indexes on PostgreSQL: the ``pg_trgm`` extension, and on the names of clubs,
events and players a GIN trigram index (misspelt names: ``%>``) and a GIN full-text index (words
and their prefixes: ``to_tsvector('simple', name)``); and events by date across clubs (a query
that is a date). The embedded SQLite default has none of them and searches with ``icontains``
(``search.selectors``): there this migration does nothing.

The indexes are on other apps' tables, made here so that those apps' models (and SQLite) do not
carry them; each serves the search of one kind (``search.selectors._tiers``).
"""

from __future__ import annotations

from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.operations import TrigramExtension
from django.contrib.postgres.search import SearchVector
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

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


# events by date, the latest first, across clubs: a query that is a date ("May 2024")
DATE_INDEX = models.Index(fields=["-date", "-id"], name="search_event_date_idx")


def _all(apps: StateApps) -> list[tuple[type[models.Model], models.Index]]:
    out: list[tuple[type[models.Model], models.Index]] = [
        (apps.get_model(app, model), index)
        for app, model, prefix in TABLES for index in _indexes(prefix)]
    return [*out, (apps.get_model("tournaments", "Event"), DATE_INDEX)]


def create(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for model, index in _all(apps):
        schema_editor.add_index(model, index)


def drop(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for model, index in _all(apps):
        schema_editor.remove_index(model, index)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_club_correction_settings"),
        ("tournaments", "0010_seats_of_every_table"),
    ]

    operations = [
        TrigramExtension(),
        migrations.RunPython(create, drop),
    ]

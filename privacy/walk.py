"""Every row keyed to a person, found from the models themselves (``_meta``), not from a list.

A *subject* is the person's ``clubs.Player`` row or their account (the user). The walk starts at
the subjects and follows every reverse relation (foreign key, one-to-one, many-to-many; hidden
ones with ``related_name="+"`` too) of every installed model, so a model added later (a
registration, a follower) is found the day it is installed, with no change here.

* **Depth.** From a row the walk goes on to the rows keyed to *it* only when the row belongs
  to the person: its key to its parent is ``CASCADE`` or ``PROTECT`` (the row cannot outlive
  the person: an entry, a seat of that entry, a penalty of that entry, an appeal of that
  penalty), at most :data:`MAX_DEPTH` steps from a subject. A row that merely names the person
  (``SET_NULL``: an event they created, a hand they typed in as scorer, a log line of their
  director's action) is listed, but the walk does not go through it: an event's other entries
  are other people's data.
* **Scope.** A club's export (a director's, for a player who asked in person) keeps only the
  rows that lead to that club by foreign keys (:func:`club_path`); a model with no such path
  (a player's overall rating, kept across clubs) is left out and named in ``withheld``.
* **Secrets** (a password's hash, an API token's key, a session's key or data) are written as
  ``"(withheld)"``: the export says they exist, never what would let someone act as the person.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models.fields.reverse_related import ForeignObjectRel

from clubs.models import Club, Player

MAX_DEPTH = 3  # Player -> Entry -> Penalty -> Appeal
OWNING = (models.CASCADE, models.PROTECT)
WITHHELD = "(withheld)"
SECRET_FIELDS = {"password", "key", "token", "secret", "session_key", "session_data",
                 "idempotency_key"}


def _model(target: Any) -> type[models.Model] | None:
    """A relation's model class (None for a lazy reference not resolved)."""
    return target if isinstance(target, type) and issubclass(target, models.Model) else None


def subject_models() -> tuple[type[models.Model], ...]:
    return (Player, get_user_model())


def reverse_relations(model: type[models.Model]) -> list[ForeignObjectRel]:
    """The relations of other models' rows to ``model``'s (hidden ones included), without proxy
    models (the same rows twice) and auto-created many-to-many tables (their relation is
    followed as the many-to-many itself)."""
    found = []
    for rel in model._meta.get_fields(include_hidden=True):
        if not isinstance(rel, ForeignObjectRel):
            continue
        related = _model(rel.related_model)
        if related is None or related._meta.proxy or related._meta.auto_created:
            continue
        found.append(rel)
    return found


def models_keyed_to_subjects(subjects: Iterable[type[models.Model]] | None = None) -> set[str]:
    """Labels of every installed model with a key to a player or an account (or to the
    ``subjects`` models given): what an export must show (``records``), whatever app installed
    it."""
    subjects = tuple(subjects) if subjects is not None else subject_models()
    labels = set()
    for model in apps.get_models():
        if model._meta.proxy:
            continue
        for field in model._meta.get_fields():
            if field.is_relation and field.concrete and field.related_model in subjects:
                labels.add(model._meta.label)
    return labels


def club_path(model: type[models.Model], *, limit: int = 4) -> str | None:
    """The shortest lookup from ``model`` to its club through foreign keys (``event__club``,
    ``round__event__club``), not through a person; None when there is none."""
    if model is Club:
        return "pk"
    avoid = subject_models()
    queue: list[tuple[type[models.Model], str]] = [(model, "")]
    seen = {model}
    for _ in range(limit):
        following = []
        for current, path in queue:
            for field in current._meta.concrete_fields:
                target = _model(field.related_model)
                if not field.is_relation or target is None or target in avoid:
                    continue
                lookup = f"{path}__{field.name}" if path else field.name
                if target is Club:
                    return lookup
                if target not in seen:
                    seen.add(target)
                    following.append((target, lookup))
        queue = following
    return None


def _value(field: models.Field[Any, Any], value: Any) -> Any:
    if field.name in SECRET_FIELDS or field.attname in SECRET_FIELDS:
        return WITHHELD
    if isinstance(value, bytes | memoryview):
        return f"({len(value)} bytes)"
    return value


def row_of(obj: models.Model) -> dict[str, Any]:
    """A row as stored: each column by its name (a key by its ``_id``), secrets withheld."""
    row = {"pk": _value(obj._meta.pk, obj.pk)} if obj._meta.pk else {}
    for field in obj._meta.concrete_fields:
        row[field.attname] = _value(field, getattr(obj, field.attname))
    return row


def collect(subjects: Iterable[models.Model | None], *, club: Club | None = None
            ) -> tuple[dict[str, list[dict[str, Any]]], list[str]]:
    """Every row keyed to ``subjects`` (see the module's words), by model label, oldest first;
    and the labels left out of a club's scope. Each model keyed to a subject has its label,
    with no row when there is none. One query per relation and level, whatever the rows."""
    subject_list = [s for s in subjects if s is not None]
    # the model of each subject (a request's user is a lazy object, not of the model's type)
    subject_classes = {s._meta.model for s in subject_list}
    found: dict[str, dict[Any, dict[str, Any]]] = defaultdict(dict)
    withheld: set[str] = set()
    frontier: dict[type[models.Model], set[Any]] = defaultdict(set)
    for subject in subject_list:
        frontier[subject._meta.model].add(subject.pk)
    for label in models_keyed_to_subjects(subject_classes):
        found.setdefault(label, {})
    for depth in range(1, MAX_DEPTH + 1):
        following: dict[type[models.Model], set[Any]] = defaultdict(set)
        for model, pks in frontier.items():
            for rel in reverse_relations(model):
                child = _model(rel.related_model)
                if child is None or child in subject_classes:  # a subject of its own (the account's player)
                    continue
                label = child._meta.label
                rows = child._default_manager.filter(**{f"{rel.field.name}__in": pks})
                if club is not None:
                    path = club_path(child)
                    if path is None:
                        withheld.add(label)
                        found.pop(label, None)
                        continue
                    rows = rows.filter(**{path: club})
                found.setdefault(label, {})
                owned = not rel.many_to_many and rel.on_delete in OWNING
                for obj in rows.order_by("pk"):
                    found[label].setdefault(obj.pk, row_of(obj))
                    if owned and depth < MAX_DEPTH:
                        following[child].add(obj.pk)
        frontier = following
    records = {label: [rows[pk] for pk in sorted(rows)] for label, rows in sorted(found.items())}
    return records, sorted(withheld)

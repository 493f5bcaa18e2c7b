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
* **Other people's parts.** A row keyed to the person may hold someone else's data: a
  registration that names the person as partner holds the registrant's name and address; a
  phone following the person's seat holds its owner's address and push keys. A model says whose
  each part of its rows is with a ``privacy_parts`` class attribute: ``{(key fields): (fields)}``,
  the fields that belong to the person the key fields name (``()``: a person the database does
  not know, such as a phone's owner). A part is the subject's when one of its keys names a
  subject or one of its addresses is the subject's; the fields of any other part are written as
  ``"(another person's)"``, and a row with no part of the subject's is written as ``{"pk",
  "exists": true}`` only, and never walked through. Rows of such models that carry one of the
  subject's addresses (a registration made without an account, a phone following a friend)
  are found by the address as well.
* **Secrets** (a password's hash, an API token's key, a session's key or data, a phone's push
  subscription) are written as ``"(withheld)"``: the export says they exist, never what would
  let someone act as (or reach) the person.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import TypeAlias

from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import QuerySet
from django.db.models.fields.reverse_related import ForeignObjectRel

from clubs.models import Club, Player

MAX_DEPTH = 3  # Player -> Entry -> Penalty -> Appeal
OWNING = (models.CASCADE, models.PROTECT)
WITHHELD = "(withheld)"
OTHERS = "(another person's)"
SECRET_FIELDS = {"password", "key", "token", "secret", "session_key", "session_data",
                 "idempotency_key", "token_digest", "push_subscription"}
Parts = dict[tuple[str, ...], tuple[str, ...]]
# A row's primary key: a number, or text (a session's key).
Pk: TypeAlias = int | str


def _model(target: object) -> type[models.Model] | None:
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
    return path_to(model, Club, limit=limit)


def path_to(model: type[models.Model], target: type[models.Model], *, limit: int = 6
            ) -> str | None:
    """The shortest lookup from ``model`` to ``target`` through foreign keys, not through a
    person (``pk`` for the target itself); None when there is none within ``limit`` steps.
    Keys that are always set come first (a game's table, not the entry that confirmed it)."""
    if model is target:
        return "pk"
    return (_path_to(model, target, limit=limit, nullable=False)
            or _path_to(model, target, limit=limit, nullable=True))


def _path_to(model: type[models.Model], target: type[models.Model], *, limit: int,
             nullable: bool) -> str | None:
    avoid = subject_models()
    queue: list[tuple[type[models.Model], str]] = [(model, "")]
    seen = {model}
    for _ in range(limit):
        following = []
        for current, path in queue:
            for field in current._meta.concrete_fields:
                to = _model(field.related_model)
                if (not field.is_relation or to is None or to in avoid
                        or (field.null and not nullable)):
                    continue
                lookup = f"{path}__{field.name}" if path else field.name
                if to is target:
                    return lookup
                if to not in seen:
                    seen.add(to)
                    following.append((to, lookup))
        queue = following
    return None


def _value(field: models.Field[object, object], value: object) -> object:
    if field.name in SECRET_FIELDS or field.attname in SECRET_FIELDS:
        return WITHHELD
    if isinstance(value, bytes | memoryview):
        return f"({len(value)} bytes)"
    return value


def row_of(obj: models.Model) -> dict[str, object]:
    """A row as stored: each column by its name (a key by its ``_id``), secrets withheld."""
    row: dict[str, object] = {"pk": _value(obj._meta.pk, obj.pk)} if obj._meta.pk else {}
    for field in obj._meta.concrete_fields:
        row[field.attname] = _value(field, getattr(obj, field.attname))
    return row


def parts_of(model: type[models.Model]) -> Parts | None:
    """Whose each part of ``model``'s rows is (its ``privacy_parts``), or None: all the row's."""
    parts: Parts | None = getattr(model, "privacy_parts", None)
    return parts


def _address_fields(model: type[models.Model], fields: Iterable[str]) -> list[str]:
    return [name for name in fields
            if isinstance(model._meta.get_field(name), models.EmailField)]


class Subjects:
    """Who an export is about: the subjects' rows by model, and their addresses."""

    def __init__(self, subjects: Iterable[models.Model], addresses: Iterable[str]) -> None:
        self.pks: dict[type[models.Model], set[Pk]] = defaultdict(set)
        for subject in subjects:
            self.pks[subject._meta.model].add(subject.pk)
        self.addresses = {a.strip().lower() for a in addresses if a and a.strip()}

    def owns_part(self, obj: models.Model, keys: tuple[str, ...], fields: tuple[str, ...]) -> bool:
        for key in keys:
            field = obj._meta.get_field(key)
            target = _model(field.related_model)
            value = getattr(obj, getattr(field, "attname", key))
            if target is not None and value in self.pks.get(target, ()):
                return True
        return any(str(getattr(obj, name) or "").strip().lower() in self.addresses
                   for name in _address_fields(type(obj), fields))

    def row(self, obj: models.Model) -> tuple[dict[str, object], bool]:
        """The row as the subject may see it, and whether any of it is the subject's."""
        row = row_of(obj)
        parts = parts_of(type(obj))
        if not parts:
            return row, True
        mine = False
        for keys, fields in parts.items():
            if self.owns_part(obj, keys, fields):
                mine = True
                continue
            for name in fields:
                attname = getattr(obj._meta.get_field(name), "attname", name)
                if row.get(attname) not in (None, "", WITHHELD):
                    row[attname] = OTHERS
        if not mine:
            return {"pk": row["pk"], "exists": True}, False
        return row, True


def _by_address(model: type[models.Model], addresses: set[str]) -> models.Q | None:
    """Rows of a model with ``privacy_parts`` that carry one of ``addresses``."""
    parts = parts_of(model)
    if not parts or not addresses:
        return None
    query = models.Q()
    for fields in parts.values():
        for name in _address_fields(model, fields):
            for address in addresses:
                query |= models.Q(**{f"{name}__iexact": address})
    return query or None


def collect(subjects: Iterable[models.Model | None], *, club: Club | None = None,
            addresses: Iterable[str] = ()
            ) -> tuple[dict[str, list[dict[str, object]]], list[str]]:
    """Every row keyed to ``subjects`` (see the module's words), by model label, oldest first,
    and the rows of models with ``privacy_parts`` carrying one of ``addresses``; and the labels
    left out of a club's scope. Each model keyed to a subject has its label, with no row when
    there is none. One query per relation and level, whatever the rows."""
    subject_list = [s for s in subjects if s is not None]
    who = Subjects(subject_list, addresses)
    # the model of each subject (a request's user is a lazy object, not of the model's type)
    subject_classes = {s._meta.model for s in subject_list}
    found: dict[str, dict[Pk, dict[str, object]]] = defaultdict(dict)
    withheld: set[str] = set()
    frontier: dict[type[models.Model], set[Pk]] = defaultdict(set)
    for subject in subject_list:
        frontier[subject._meta.model].add(subject.pk)
    for label in models_keyed_to_subjects(subject_classes):
        found.setdefault(label, {})

    def scoped(model: type[models.Model],
               rows: QuerySet[models.Model]) -> QuerySet[models.Model] | None:
        if club is None:
            return rows
        path = club_path(model)
        if path is None:
            withheld.add(model._meta.label)
            found.pop(model._meta.label, None)
            return None
        return rows.filter(**{path: club})

    for model in apps.get_models():
        query = _by_address(model, who.addresses)
        rows = scoped(model, model._default_manager.filter(query)) if query else None
        if rows is not None:
            for obj in rows.order_by("pk"):
                found[model._meta.label].setdefault(obj.pk, who.row(obj)[0])
    for depth in range(1, MAX_DEPTH + 1):
        following: dict[type[models.Model], set[Pk]] = defaultdict(set)
        for model, pks in frontier.items():
            for rel in reverse_relations(model):
                child = _model(rel.related_model)
                if child is None or child in subject_classes:  # a subject of its own (the account's player)
                    continue
                label = child._meta.label
                rows = scoped(child, child._default_manager.filter(
                    **{f"{rel.field.name}__in": pks}))
                if rows is None:
                    continue
                found.setdefault(label, {})
                owned = not rel.many_to_many and rel.on_delete in OWNING
                for obj in rows.order_by("pk"):
                    row, mine = who.row(obj)
                    found[label].setdefault(obj.pk, row)
                    if owned and mine and depth < MAX_DEPTH:
                        following[child].add(obj.pk)
        frontier = following
    records = {label: [rows[pk] for pk in sorted(rows)] for label, rows in sorted(found.items())}
    return records, sorted(withheld)

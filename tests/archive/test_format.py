"""The archive format covers every field of every model an event lives in: a field added to a
model of clubs, tournaments, scoring or standings fails here until the archive writes it or says
why it does not (``archive.format.SECTIONS``); so does a new model."""

from __future__ import annotations

import datetime
from typing import Any

from django.apps import apps

from archive.format import ARCHIVED_APPS, NOT_ARCHIVED, SECTIONS, Section, canonical, timestamp


def _uncovered(section: Section) -> tuple[set[str], set[str]]:
    """(model fields the section neither writes nor excludes, names it lists that the model
    does not have or lists twice)."""
    fields = {f.name for f in section.model._meta.concrete_fields}
    listed = [*section.layout, *section.excluded]
    return fields - set(listed), (set(listed) - fields) | {n for n in listed if listed.count(n) > 1}


def test_every_concrete_field_is_archived_or_excluded_with_a_reason() -> None:
    for key, section in SECTIONS.items():
        missing, wrong = _uncovered(section)
        assert missing == set(), f"{key}: {sorted(missing)} are neither archived nor excluded"
        assert wrong == set(), f"{key}: {sorted(wrong)} are not fields of the model (or twice)"
        assert all(reason.strip() for reason in section.excluded.values())
        assert set(section.refs) <= set(section.layout)


def test_a_field_the_archive_forgets_is_caught() -> None:
    entries = SECTIONS["entries"]
    forgetful = Section(entries.model, tuple(n for n in entries.layout if n != "alternate"),
                        refs=entries.refs, excluded=entries.excluded, local_id=True)
    assert _uncovered(forgetful)[0] == {"alternate"}


def test_every_model_of_the_event_apps_is_archived_or_left_out_with_a_reason() -> None:
    archived = {section.model._meta.label for section in SECTIONS.values()}
    found = {model._meta.label for label in ARCHIVED_APPS
             for model in apps.get_app_config(label).get_models()}
    for label in sorted(found):
        assert label in archived or label in NOT_ARCHIVED, (
            f"{label} is not in the archive; add a section or say why not")
    assert archived.isdisjoint(NOT_ARCHIVED)
    assert all(reason.strip() for reason in NOT_ARCHIVED.values())


def test_times_and_stored_json_are_written_one_way_only() -> None:
    berlin = datetime.timezone(datetime.timedelta(hours=1))
    moment = datetime.datetime(2026, 11, 20, 20, 3, 4, tzinfo=berlin)
    assert timestamp(moment) == "2026-11-20T19:03:04.000000Z"
    assert datetime.datetime.fromisoformat(timestamp(moment) or "") == moment
    in_utc = moment.astimezone(datetime.UTC)  # as the database gives times: the same text
    assert timestamp(in_utc) == timestamp(moment.replace(tzinfo=berlin))
    assert timestamp(in_utc.replace(microsecond=7)) == "2026-11-20T19:03:04.000007Z"
    early = datetime.datetime(999, 1, 2, 3, 4, 5, tzinfo=datetime.UTC)
    assert timestamp(early) == early.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
    nested: dict[str, Any] = {"b": [{"z": 1, "a": 2}], "a": {"y": None, "x": True}}
    assert list(canonical(nested)) == ["a", "b"]
    assert list(canonical(nested)["b"][0]) == ["a", "z"]

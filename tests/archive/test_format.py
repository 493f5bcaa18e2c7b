"""The archive format covers every field of every model an event lives in: a field added to a
model of clubs, tournaments, scoring or standings fails here until the archive writes it or says
why it does not (``archive.format.SECTIONS``); so does a new model."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.apps import apps

from archive.format import ARCHIVED_APPS, NOT_ARCHIVED, SECTIONS, Section, canonical, timestamp
from archive.selectors import _canonical_text, section_fields, section_rows
from tests.tournaments.factories import EventFactory
from tournaments.models import EventLog


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


@pytest.mark.django_db
def test_times_and_json_read_for_a_section_are_written_as_from_the_model() -> None:
    """A section's rows are read with their times as text (by PostgreSQL) and their stored JSON
    as text: written the same as :func:`timestamp` and :func:`canonical` write the model's
    values, whatever the microseconds, the time zone they were saved in or the keys' order."""
    event = EventFactory()
    berlin = datetime.timezone(datetime.timedelta(hours=1))
    moments = [datetime.datetime(2026, 11, 20, 20, 3, 4, tzinfo=berlin),
               datetime.datetime(2026, 1, 2, 3, 4, 5, 7, tzinfo=datetime.UTC),
               datetime.datetime(2026, 12, 31, 23, 59, 59, 999999, tzinfo=datetime.UTC)]
    details: list[Any] = [{"zeta": 1, "b": [{"z": None, "a": "é"}], "aa": {"y": 2.5, "x": True}},
                          {}, {"NS": 20, "EW": -3}]
    for moment, detail in zip(moments, details, strict=True):
        line = EventLog.objects.create(event=event, action="note", details=detail)
        EventLog.objects.filter(pk=line.pk).update(created_at=moment)
    section = SECTIONS["log"]
    rows = list(EventLog.objects.filter(event=event).order_by("pk")
                .values_list(*section_fields(section)))
    written = section_rows(section, rows, lambda kind, value: value)
    assert [row["created_at"] for row in written] == [timestamp(m) for m in moments]
    assert [row["details"] for row in written] == [canonical(d) for d in details]
    assert [list(row["details"]) for row in written] == [sorted(d) for d in details]
    assert list(written[0]["details"]["b"][0]) == ["a", "z"]


def test_stored_json_read_as_text_has_its_keys_sorted_and_nothing_after_it() -> None:
    text = json.dumps({"b": {"d": [1, {"f": 0, "e": None}], "c": "x"}, "a": []})
    assert _canonical_text(text) == canonical(json.loads(text))
    assert json.dumps(_canonical_text(text)) == json.dumps(canonical(json.loads(text)))
    with pytest.raises(ValueError, match="after"):
        _canonical_text('{"a": 1} {"b": 2}')

"""The commands a director runs (``export_event``, ``import_event``) say what they did in the
language asked for (``--language de``; English without it), as ``common.commands`` sets it."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from tests.clubs.factories import club_with_director
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db


def test_an_export_and_an_import_report_in_german(tmp_path: Path) -> None:
    event = event_with_players(players=4)
    path = tmp_path / "archive.json"
    told = io.StringIO()
    call_command("export_event", event.pk, "-o", str(path), "--language", "de", stderr=told)
    assert told.getvalue().startswith(f"Veranstaltung {event.pk} ({event.name}): ")
    assert f"Bytes nach {path} geschrieben" in told.getvalue()
    club_with_director(slug="ziel")
    out = io.StringIO()
    call_command("import_event", str(path), "--club", "ziel", "--language", "de", stdout=out)
    report = out.getvalue()
    assert report.startswith("Veranstaltung ") and "in ziel importiert: 4 Teilnahmen, " in report
    assert "Spieler: 4 in die Spielerliste aufgenommen, 0 dort gefunden." in report


def test_a_refusal_is_in_the_language_asked_for(tmp_path: Path) -> None:
    with pytest.raises(CommandError) as german:
        call_command("export_event", 999999, "--language", "de")
    assert str(german.value) == "Keine Veranstaltung mit der Nummer 999999."
    with pytest.raises(CommandError) as english:
        call_command("import_event", str(tmp_path / "none.json"), "--club", "x")
    assert str(english.value) == f"No file {tmp_path / 'none.json'}."
    with pytest.raises(CommandError) as refused:
        call_command("import_event", str(tmp_path / "none.json"), "--club", "x",
                     "--language", "fr")
    assert "invalid choice: 'fr'" in str(refused.value)

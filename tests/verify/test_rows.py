"""verify.rows types what verify.read checks: each section's TypedDict has as its required keys
exactly the keys the reader checks, so a key checked but not typed (or typed but never checked)
fails here."""

from __future__ import annotations

import pytest

from verify import read, rows

ROW_TYPES: dict[str, type] = {
    "event": rows.EventRow, "players": rows.PlayerRow, "pairs": rows.PairRow,
    "entries": rows.EntryRow, "rounds": rows.RoundRow, "tables": rows.TableRow,
    "seats": rows.SeatRow, "byes": rows.ByeRow, "games": rows.GameRow, "hands": rows.HandRow,
    "revisions": rows.RevisionRow, "penalties": rows.PenaltyRow,
    "standings": rows.StandingsSection,
}


def _required(typed: type) -> set[str]:
    # the module postpones its annotations: NotRequired is read from each annotation's text
    return {key for key, note in typed.__annotations__.items()
            if "NotRequired[" not in str(note)}


@pytest.mark.parametrize("section", sorted(read.SHAPES))
def test_the_checked_keys_are_the_typed_ones(section: str) -> None:
    typed = ROW_TYPES.get(section)
    if typed is None:  # a section of open rows (the log, appeals, table cards): nothing checked
        assert read.SHAPES[section] == {}
        return
    assert _required(typed) == set(read.SHAPES[section])


def test_every_section_of_the_archive_is_typed() -> None:
    sections = set(rows.ArchiveData.__annotations__) - {"format", "version"}
    assert sections == {"club", "event", "standings", *read.LIST_SECTIONS}


def test_a_checked_archive_reads_as_its_sections() -> None:
    archive = read.check({"format": read.FORMAT_NAME, "version": 1, "club": {},
                          "event": {"format": "club_night", "format_settings": {},
                                    "partnership": "rotating", "status": "draft",
                                    "ruleset_preset": "pagat_double_deck",
                                    "ruleset_overrides": {}, "rounds_planned": 1,
                                    "deals_per_round": None, "bye_scoring": "average",
                                    "bye_points": 0, "tie_breaks": [], "prizes": {}},
                          "standings": {"tie_breaks": [], "rows": [], "placements": []},
                          **{key: [] for key in read.LIST_SECTIONS
                             if key not in ("penalties", "appeals")}})
    # a version-1 archive: the sections added later read as empty
    assert archive.data["penalties"] == [] and archive.data["appeals"] == []
    assert archive["event"] is archive.data["event"]

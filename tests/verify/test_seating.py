"""The seats drawn again from the seed (``verify.seating``) where the archive alone cannot say
everything the draw read: a club night of a season read the partnerships of the club's earlier
nights, which its archive does not carry. Its ``round_seated`` lines say so, and a round whose
re-draw differs is counted as not re-checkable instead of failing; the season's first night
read none and is checked seat by seat."""

from __future__ import annotations

import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from archive.selectors import event_archive_bytes
from draw.services import event_status_set, round_create, round_set_status
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.e2e.walls import play_round
from tournaments.models import Event, Round
from tournaments.services import entries_create_many, event_create
from verify import check
from verify.cli import main
from verify.recompute import verify

pytestmark = pytest.mark.django_db


def _night(club: Any, players: list[Any], date: datetime.date) -> Event:
    event = event_create(club=club, name=f"Night {date}", date=date, deals_per_round=1,
                         rounds_planned=3, seed=77)
    entries_create_many(event=event, players=players)
    for _ in range(3):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        play_round(round_)
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    event_status_set(event=event, status=Event.Status.FINISHED)
    return event


def test_a_season_nights_draw_is_not_rechecked_from_its_archive_alone(tmp_path: Path,
                                                                     capsys: Any) -> None:
    club, _ = club_with_director(slug="season-verify")
    players = [PlayerFactory(club=club) for _ in range(8)]
    first = _night(club, players, datetime.date(2026, 3, 6))
    second = _night(club, players, datetime.date(2026, 3, 13))
    before = json.loads(event_archive_bytes(event=first))
    after = json.loads(event_archive_bytes(event=second))
    seated = [row["details"] for row in after["log"] if row["action"] == "round_seated"]
    assert all(d["season_partnerships"] > 0 for d in seated)
    assert not any("season_partnerships" in row["details"] for row in before["log"])

    report = verify(check(before))
    assert (report.seatings, report.not_recheckable, report.discrepancies) == (3, [], [])
    # the same seats with the season's partnerships left out of the draw: the rounds that
    # came out otherwise are not re-checkable, the others checked; nothing fails
    report = verify(check(after))
    assert report.discrepancies == []
    assert report.seatings + len(report.not_recheckable) == 3
    assert report.not_recheckable, "the season changed no draw: the test shows nothing"
    assert all(why == "it read the partnerships of the season's earlier nights"
               for _, why in report.not_recheckable)
    # had the log not said so, a different draw would be a discrepancy of the seats
    for row in after["log"]:
        row["details"].pop("season_partnerships", None)
    bare = verify(check(after))
    assert {d.what for d in bare.discrepancies} == {"seat"}
    path = tmp_path / "second.json"
    path.write_text(json.dumps(after))
    assert main([str(path)]) == 1
    assert capsys.readouterr().out.strip().endswith(
        f"{len(bare.discrepancies)} discrepancies")

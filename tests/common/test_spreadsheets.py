"""CSV downloads never hand a spreadsheet a formula: text starting with =, +, -, @, a tab or a
carriage return gets a leading ' (numbers stay numbers)."""

from __future__ import annotations

import csv
import io

import pytest

from clubs.models import Player
from common.spreadsheets import SafeCsvWriter, csv_cell
from draw.services import round_create, round_set_status
from scoring.models import HandRevision
from scoring.services import hand_submit
from tests.clubs.factories import club_with_director
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players

DANGEROUS = ['=HYPERLINK("http://evil.example","x")', "+1+1", "-2+3", "@SUM(A1)", "\t=1",
             "\r=1", "=cmd|' /C calc'!A0"]


@pytest.mark.parametrize("text", DANGEROUS)
def test_text_that_starts_like_a_formula_is_escaped(text: str) -> None:
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ann", "1=", "", "O'Brien", "a=b", -250, 0, 3.5, None])
def test_everything_else_is_unchanged(value: object) -> None:
    assert csv_cell(value) == value


def test_the_writer_escapes_every_cell() -> None:
    out = io.StringIO()
    SafeCsvWriter(out).writerow(["=1+1", -5, "ok"])
    assert out.getvalue() == "'=1+1,-5,ok\r\n"


def _night_with_names(names: list[str]) -> object:
    event = event_with_players(players=8, deals_per_round=1)
    players = Player.objects.filter(entries__event=event).order_by("pk")
    for player, name in zip(players, names, strict=False):
        Player.objects.filter(pk=player.pk).update(name=name)
    return event


@pytest.mark.django_db
def test_the_standings_csv_escapes_player_names(client, django_capture_on_commit_callbacks) -> None:
    event = _night_with_names(DANGEROUS)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status="playing")
        hand_submit(game=round_.tables.get(number=1).game, number=1, values=values(bid=60))
    response = client.get(f"/events/{event.pk}/standings.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    names = {row["player"] for row in rows}
    assert {"'" + name for name in DANGEROUS} <= names
    assert not any(name.startswith(("=", "+", "-", "@", "\t", "\r")) for name in names)
    assert any(row["points"] == "-60" for row in rows)  # a set side: a number, not text


@pytest.mark.django_db
def test_the_hands_csv_escapes_text_and_keeps_numbers(client) -> None:
    club, director = club_with_director(slug="csv")
    event = event_with_players(club=club, players=8, deals_per_round=2)
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    hand_submit(game=round_.tables.get(number=1).game, number=1, values=values(bid=60))
    # Text columns hold codes today; whatever they hold, a spreadsheet must not run it.
    HandRevision.objects.update(trump="=", bidder="@", renege_seat="+")
    client.force_login(director)
    response = client.get(f"/events/{event.pk}/hands.csv")
    assert response.status_code == 200
    row = next(csv.DictReader(io.StringIO(response.content.decode())))
    assert (row["trump"], row["bidder"], row["renege_seat"]) == ("'=", "'@", "'+")
    assert row["points_NS"] == "-60"

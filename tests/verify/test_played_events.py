"""``python -m verify`` on archives of events each test plays through the services itself
(the other tests share one club night, in ``test_verify``): they verify with no discrepancy,
and an average kept after a late correction is no discrepancy either."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from archive.selectors import event_archive_bytes
from tests.archive.play import club_night, pair_event, progressive_day
from tests.verify.test_verify import _run
from tournaments.models import Event

pytestmark = pytest.mark.django_db

EVENTS: dict[str, Callable[[Any], Event]] = {
    "club night with adjusted results and penalties":
        lambda capture: club_night(capture, decisions=True),
    "progressive day with a cut and alternates": progressive_day,
    "swiss with a playoff bracket and a withdrawn pair": lambda capture: pair_event(
        capture, "swiss", 10, rounds_planned=3, withdraw=True,
        format_settings={"playoff": {"kind": "single", "cut": 4, "third_place": True}}),
    "double elimination with a forfeit": lambda capture: pair_event(
        capture, "double_elimination", 6, forfeit=1),
}


@pytest.mark.parametrize("made", list(EVENTS.values()), ids=list(EVENTS))
def test_the_archive_of_a_played_event_verifies(
        made: Callable[[Any], Event], tmp_path: Path, capsys: Any,
        django_capture_on_commit_callbacks: Any) -> None:
    event = made(django_capture_on_commit_callbacks)
    data = event_archive_bytes(event=event)
    archive = json.loads(data)
    code, out = _run(data, tmp_path, capsys)
    assert code == 0, out
    hands, games, rows = (len(archive["hands"]), len(archive["games"]),
                          len(archive["standings"]["rows"]))
    # finished, so its archive carries the seed: every round's seats are drawn again
    assert out.strip() == (f"verified: {hands} hands, {games} games, {rows} standings rows, "
                           f"{len(archive['rounds'])} rounds' seats drawn again from the seed, "
                           "0 not re-checkable, 0 discrepancies")
    assert hands and games and rows and archive["standings"]["placements"]


def test_an_average_kept_when_a_result_changed_after_its_round_was_closed_verifies(
        django_capture_on_commit_callbacks: Any, tmp_path: Path, capsys: Any) -> None:
    """A round's average stops following the round's games once it is closed: the event
    reopened and another game of that round adjusted again, the average keeps the mean of the
    points before. The verifier does not take it for a wrong average (the corpus found this)."""
    from draw.services import event_status_set
    from scoring.models import Game
    from scoring.services import game_adjust

    event = club_night(django_capture_on_commit_callbacks, decisions=True)
    event_status_set(event=event, status=Event.Status.RUNNING, reason="a fouled deck's points")
    first = Game.objects.get(table__round__event=event, table__round__number=2,
                             table__number=1)
    with django_capture_on_commit_callbacks(execute=True):
        game_adjust(game=first, kind="points", points={"NS": 200, "EW": 100},
                    reason="the fouled deck, counted again")
    averaged = Game.objects.get(table__round__event=event, table__round__number=2,
                                table__number=2)
    assert averaged.adjusted is not None and averaged.adjusted["points"] == {"NS": 120, "EW": 120}
    event_status_set(event=event, status=Event.Status.FINISHED)
    code, out = _run(event_archive_bytes(event=event), tmp_path, capsys)
    assert code == 0, out
    assert "adjusted average" not in out




def test_the_event_page_offers_the_archive_and_the_command_that_checks_it(
        django_capture_on_commit_callbacks: Any, tmp_path: Path, capsys: Any) -> None:
    """A director finds the download and the command on the event's page; the file downloaded
    under the name the command shows verifies. A visitor of the public event sees neither (an
    archive holds the players' addresses), and the download refuses them."""
    from django.test import Client

    from clubs.models import Membership

    event = club_night(django_capture_on_commit_callbacks, decisions=True)
    director = Client()
    director.force_login(Membership.objects.get(club=event.club).user)
    page = director.get(f"/events/{event.pk}/").content.decode()
    download = director.get(f"/events/{event.pk}/archive.json")
    filename = download["Content-Disposition"].split('filename="')[1].rstrip('"')
    assert f'href="/events/{event.pk}/archive.json"' in page
    assert 'id="verify-hint"' in page and "Check this event yourself" in page
    assert f"<code>python -m verify {filename}</code>" in page
    code, out = _run(download.content, tmp_path, capsys, name=filename)
    assert code == 0 and out.startswith("verified: "), out

    visitor = Client()
    public = visitor.get(f"/events/{event.pk}/")
    assert public.status_code == 200
    assert "verify-hint" not in public.content.decode()
    assert visitor.get(f"/events/{event.pk}/archive.json").status_code in (302, 403, 404)

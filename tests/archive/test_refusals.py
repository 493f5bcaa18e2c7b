"""Bad archives are refused naming the field (a path into the file), its code and a message,
and leave the database exactly as it was: every row count of the project's apps is the same
after the refusal. Problems found while reading are all listed; an archive that contradicts its
own hands (a game's totals, a standings row) is refused after the rebuild, in the same
transaction, so nothing of it stays either."""

from __future__ import annotations

import copy
import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client, TestCase

from archive.format import VERSION
from archive.reader import MAX_PROBLEMS
from archive.selectors import event_archive
from archive.services import ARCHIVE_MAX_BYTES
from clubs.models import Club, Membership
from tests.archive.play import club_night, director_of, row_counts
from tests.shared import module_data

pytestmark = pytest.mark.django_db


@module_data
def played() -> tuple[dict[str, Any], Club, Any]:
    """A small played club night's archive, and another club with its director: built once
    for the module."""
    event = club_night(TestCase.captureOnCommitCallbacks, rounds=2, deals=1)
    club = Club.objects.create(name="Target", slug="target")
    return event_archive(event=event), club, director_of(club, "target-director")


@pytest.fixture
def setting(played: tuple[dict[str, Any], Club, Any]) -> tuple[dict[str, Any], Client, Club]:
    """The archive (a copy of the test's own), and a director's client of the other club."""
    archive, club, director = played
    client = Client()
    client.force_login(director)
    return copy.deepcopy(archive), client, club


def _post(client: Client, club: Club, archive: Any) -> Any:
    return client.post(f"/api/clubs/{club.slug}/events/import/", archive,
                       content_type="application/json")


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change to an archive: ``path`` like ``hands[0].revisions[0].bid``; value DELETE
    removes the key."""
    def change(archive: dict[str, Any]) -> None:
        parts = path.format(**_where(archive)).replace("[", ".").replace("]", "").split(".")
        target: Any = archive
        for part in parts[:-1]:
            target = target[int(part)] if part.isdigit() else target[part]
        last = parts[-1]
        if value is DELETE:
            del target[last]
        elif callable(value):
            target[int(last) if last.isdigit() else last] = value(
                target[int(last) if last.isdigit() else last], archive)
        else:
            target[int(last) if last.isdigit() else last] = value
    return change


DELETE = object()


def _where(archive: dict[str, Any]) -> dict[str, int]:
    """Indexes a path may name by what is there: {left} the first withdrawal in the log,
    {corrected} the first corrected hand, {played} the first hand played (not a misdeal)."""
    return {
        "left": next(i for i, line in enumerate(archive["log"]) if line["action"] == "left"),
        "corrected": next(i for i, h in enumerate(archive["hands"])
                          if len(h["revisions"]) > 1 and not h["deleted_at"]),
        "played": next(i for i, h in enumerate(archive["hands"])
                       if h["revisions"][0]["outcome"] == "played"),
    }


def _penalty(**changes: Any) -> dict[str, Any]:
    """A penalty row of the small night's first player in round 1 (with ``changes``)."""
    return {"id": 1, "round_number": 1, "game": None, "entry": 1, "pair": None,
            "kind": "slow_play", "points": 10, "reason": "slow", "created_by": None,
            "created_at": "2026-11-20T20:00:00.000000Z", "withdrawn_at": None,
            "withdrawn_by": None, "withdrawn_reason": "", **changes}


def _seat_twin(position: str) -> Callable[[Any, dict[str, Any]], Any]:
    return lambda _old, archive: archive["seats"][0][position]


CASES: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("a newer version", _set("version", VERSION + 1), "version", "newer_version"),
    ("not an archive", _set("format", "something-else"), "format", "unknown_format"),
    ("a section missing", _set("seats", DELETE), "seats", "required"),
    ("a missing field", _set("hands[0].revisions[0].bid", DELETE),
     "hands[0].revisions[0].bid", "required"),
    ("a hand on a table that does not exist", _set("hands[0].table", 99), "hands[0].table",
     "unknown"),
    ("a seat taken twice", _set("seats[1].position", _seat_twin("position")),
     "seats[1].position", "taken"),
    ("a player seated twice in a round", _set("seats[1].entry", _seat_twin("entry")),
     "seats[1].entry", "seated_twice"),
    ("an entry of a player not in the archive", _set("entries[0].player", 99),
     "entries[0].player", "unknown"),
    ("a local id used twice", _set("players[1].id", 1), "players[1].id", "duplicate"),
    ("a hand the rules refuse", _set("hands[{played}].revisions[0].trump", "X"),
     "hands[{played}].revisions[0].trump", "bad_suit"),
    ("a bid out of range", _set("hands[{played}].revisions[0].bid", 0),
     "hands[{played}].revisions[0].bid", "range"),
    ("a wrong type", _set("rounds[0].number", "one"), "rounds[0].number", "invalid"),
    ("an unknown status", _set("rounds[0].status", "paused"), "rounds[0].status",
     "invalid_choice"),
    ("two open rounds", lambda a: [r.update(status="playing") for r in a["rounds"]],
     "rounds[1].status", "open_round"),
    ("a naive time", _set("event.created_at", "2026-11-20T19:00:00"), "event.created_at",
     "invalid"),
    ("bad format settings", _set("event.format_settings", {"cut": 4}),
     "event.format_settings", "invalid"),
    ("an unknown user name type", _set("log[0].actor", 7), "log[0].actor", "invalid"),
    ("a log detail naming an unknown entry",
     lambda a: next(line for line in a["log"] if line["action"] == "left")["details"].update(
         entry=99), "log[{left}].details.entry", "unknown"),
    ("two live revisions",
     lambda a: [r.update(is_live=True) for h in a["hands"] for r in h["revisions"]
                if not r["is_deletion"]],
     "hands[{corrected}].revisions", "live"),
    ("a game whose totals its hands do not give",
     _set("games[0].totals", lambda old, _a: {k: v + 10 for k, v in old.items()}),
     "games[0].totals", "inconsistent"),
    ("a game with hands said never to have been scored", _set("games[0].totals", {}),
     "games[0].totals", "inconsistent"),
    ("a forfeit by no side", _set("games[0].forfeit", "N"), "games[0].forfeit", "invalid"),
    ("a forfeit of a game not confirmed",
     lambda a: a["games"][0].update(forfeit="NS", status="finished"), "games[0].forfeit",
     "invalid"),
    ("a forfeit the game's totals contradict", _set("games[0].forfeit", "EW"),
     "games[0].totals", "inconsistent"),
    ("the penalties missing from a version 2 archive", _set("penalties", DELETE), "penalties",
     "required"),
    ("a penalty of no one", lambda a: a["penalties"].append(_penalty(entry=None)),
     "penalties[0].entry", "required"),
    ("a penalty beyond the limit", lambda a: a["penalties"].append(_penalty(points=5000)),
     "penalties[0].points", "range"),
    ("a penalty at a game of another round",
     lambda a: a["penalties"].append(_penalty(game={"round": 2, "table": 1})),
     "penalties[0].game", "invalid"),
    ("a penalty at a table that does not exist",
     lambda a: a["penalties"].append(_penalty(game={"round": 1, "table": 9})),
     "penalties[0].game.table", "unknown"),
    ("a withdrawn penalty without a reason",
     lambda a: a["penalties"].append(_penalty(withdrawn_at="2026-11-20T21:00:00.000000Z")),
     "penalties[0].withdrawn_reason", "invalid"),
    ("an appeal of a penalty not in the archive",
     lambda a: a["appeals"].append({"id": 1, "penalty": 4, "game": None, "entry": None,
                                    "contested": "x", "decision": "upheld", "note": "",
                                    "decided_by": None,
                                    "decided_at": "2026-11-20T21:00:00.000000Z"}),
     "appeals[0].penalty", "unknown"),
    ("an adjusted result naming a side the table lacks",
     _set("games[0].adjusted", {"kind": "points", "points": {"NS": 1, "XY": 2}, "reason": "r"}),
     "games[0].adjusted.points", "invalid"),
    ("an adjusted result of an unknown kind",
     _set("games[0].adjusted", {"kind": "guess", "points": {"NS": 1, "EW": 2}, "reason": "r"}),
     "games[0].adjusted.kind", "invalid_choice"),
    ("an adjusted result the game's totals contradict",
     _set("games[0].adjusted", {"kind": "points", "points": {"NS": 1, "EW": 2}, "reason": "r"}),
     "games[0].totals", "inconsistent"),
    ("a standings row its hands do not give",
     _set("standings.rows[0].points", lambda old, _a: old + 1), "standings.rows[0].points",
     "inconsistent"),
]


@pytest.mark.parametrize(("what", "change", "field", "code"), CASES, ids=[c[0] for c in CASES])
def test_a_bad_archive_is_refused_naming_the_field_and_changes_nothing(
        setting: tuple[dict[str, Any], Client, Club], what: str,
        change: Callable[[dict[str, Any]], None], field: str, code: str) -> None:
    archive, client, club = setting
    bad = copy.deepcopy(archive)
    change(bad)
    field = field.format(**_where(archive))
    before = row_counts()
    answer = _post(client, club, bad)
    assert answer.status_code == 400, answer.content
    errors = answer.json()["errors"]
    assert {"field": field, "code": code} in [{"field": e["field"], "code": e["code"]}
                                              for e in errors], errors
    assert all(e["message"] for e in errors)
    assert row_counts() == before
    # the untouched archive imports (the refusal was about the change)
    assert _post(client, club, archive).status_code == 201


def test_every_problem_is_listed_up_to_a_limit(
        setting: tuple[dict[str, Any], Client, Club]) -> None:
    archive, client, club = setting
    bad = copy.deepcopy(archive)
    bad["hands"][0]["table"] = 99
    del bad["players"][0]["name"]
    errors = _post(client, club, bad).json()["errors"]
    assert {"hands[0].table", "players[0].name"} <= {e["field"] for e in errors}
    for section in ("seats", "log", "entries", "hands"):
        for row in bad[section]:
            row["round" if section == "seats" else "created_at" if section == "log"
                else "status" if section == "entries" else "number"] = "X"
    errors = _post(client, club, bad).json()["errors"]
    assert len(errors) == MAX_PROBLEMS


def test_files_that_are_not_archives_are_refused_on_the_page_and_the_command(
        setting: tuple[dict[str, Any], Client, Club], tmp_path: Path) -> None:
    archive, client, club = setting
    before = row_counts()
    for content, code in ((b"\xff\xfe not text", "encoding"), (b"{not json", "invalid_json"),
                          (b"[1, NaN]", "invalid_json"), (b'{"x": "\\ud800"}', "invalid"),
                          (b'{"a": ' * 40 + b"1" + b"}" * 40, "too_deep")):
        answer = client.post(f"/api/clubs/{club.slug}/events/import/",
                             {"file": SimpleUploadedFile("a.json", content)})
        assert answer.status_code == 400
        assert answer.json()["errors"][0]["code"] == code
    page = client.post(f"/clubs/{club.slug}/events/import/",
                       {"file": SimpleUploadedFile("a.json", b"{not json")})
    assert page.status_code == 400 and "Not imported" in page.content.decode()
    bad = copy.deepcopy(archive)
    bad["version"] = VERSION + 1
    page = client.post(f"/clubs/{club.slug}/events/import/",
                       {"file": SimpleUploadedFile("a.json", json.dumps(bad).encode())})
    assert page.status_code == 400 and "newer" in page.content.decode()
    path = tmp_path / "bad.json"
    bad["version"] = VERSION
    bad["seats"][1]["position"] = bad["seats"][0]["position"]
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(path), "--club", club.slug, stdout=io.StringIO())
    assert "seats[1].position" in str(info.value) and "nothing changed" in str(info.value)
    path.write_text(json.dumps(archive))
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(path), "--club", "no-such-club", stdout=io.StringIO())
    assert "club: No club 'no-such-club'" in str(info.value)
    assert row_counts() == before
    assert ARCHIVE_MAX_BYTES >= 10 * 1024 * 1024


def test_who_may_export_and_import(setting: tuple[dict[str, Any], Client, Club],
                                   django_capture_on_commit_callbacks: Any) -> None:
    archive, director_client, club = setting
    from tournaments.models import Event

    event = Event.objects.exclude(club=club).get()
    source = event.club
    urls = (f"/api/events/{event.pk}/archive/", f"/events/{event.pk}/archive.json")
    # the other club's director: not a director here
    for url in urls:
        assert director_client.get(url).status_code == 403
    scorer = Client()
    user = director_of(source, "a-scorer")
    Membership.objects.filter(user=user).update(role="scorer")
    scorer.force_login(user)
    for url in urls:
        assert scorer.get(url).status_code == 403
    anonymous = Client()
    assert anonymous.get(urls[0]).status_code == 403
    assert anonymous.get(urls[1]).status_code == 302  # to the sign-in page
    # a private club's event: 404 for outsiders
    Club.objects.filter(pk=source.pk).update(is_public=False)
    assert director_client.get(urls[0]).status_code == 404
    # importing needs the director role in the target club
    before = row_counts()
    assert scorer.post(f"/api/clubs/{source.slug}/events/import/", archive,
                       content_type="application/json").status_code == 403
    assert scorer.get(f"/clubs/{source.slug}/events/import/").status_code == 403
    assert anonymous.post(f"/api/clubs/{club.slug}/events/import/", archive,
                          content_type="application/json").status_code == 401  # no credential
    assert director_client.post(f"/api/clubs/{source.slug}/events/import/", archive,
                                content_type="application/json").status_code == 404
    assert row_counts() == before
    assert director_client.get(f"/clubs/{club.slug}/events/import/").status_code == 200


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] or [path]
    return [path]


def test_any_value_in_any_place_is_answered_never_crashes_and_never_half_imports(
        setting: tuple[dict[str, Any], Client, Club]) -> None:
    """200 archives, each with three values somewhere replaced by something of another type
    or out of range: every answer is 201 or a 400 naming fields, and a refused one leaves the
    database as it was."""
    import random

    archive, client, club = setting
    rng = random.Random(20261122)
    leaves = [p for p in _leaves(archive) if p]
    odd = [None, "", "x" * 300, -1, 0, 2**40, 1.5, True, [], {}, [1], {"a": None},
           "2026-02-30", "NESW", "\u0000"]
    for _ in range(200):
        bad = copy.deepcopy(archive)
        for path in rng.sample(leaves, 3):
            target: Any = bad
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = rng.choice(odd)
        before = row_counts()
        answer = _post(client, club, bad)
        assert answer.status_code in (201, 400), (answer.status_code, answer.content[:300])
        if answer.status_code == 400:
            assert all(e["field"] and e["message"] for e in answer.json()["errors"])
            assert row_counts() == before


def test_an_archive_written_before_forfeits_imports(
        setting: tuple[dict[str, Any], Client, Club]) -> None:
    """Games of an archive made before the ``forfeit`` field read as played out."""
    archive, client, club = setting
    older = copy.deepcopy(archive)
    for game in older["games"]:
        assert game.pop("forfeit") == ""
    answer = _post(client, club, older)
    assert answer.status_code == 201, answer.content


def _past_the_end(archive: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The archive with its first game going on after it was won: a low target, more deals
    allowed, and a second hand after the first (which reaches the target)."""
    bad = copy.deepcopy(archive)
    bad["event"]["ruleset_overrides"] = {**bad["event"]["ruleset_overrides"], "game_target": 1}
    bad["event"]["deals_per_round"] = 5
    game = bad["games"][0]
    first = next(i for i, h in enumerate(bad["hands"])
                 if (h["round"], h["table"]) == (game["round"], game["table"])
                 and not h["deleted_at"] and h["revisions"][-1]["outcome"] == "played")
    extra = copy.deepcopy(bad["hands"][first])
    extra["number"] = max(h["number"] for h in bad["hands"]
                          if (h["round"], h["table"]) == (game["round"], game["table"])) + 1
    bad["hands"].append(extra)
    return bad, f"hands[{len(bad['hands']) - 1}].revisions[{len(extra['revisions']) - 1}]"


def test_a_game_going_on_after_it_was_won_is_refused_on_every_path(
        setting: tuple[dict[str, Any], Client, Club], tmp_path: Path) -> None:
    """The API, the page and the command all refuse it naming the hand (the page answered 500
    and the command printed a traceback), and nothing is written."""
    archive, client, club = setting
    bad, where = _past_the_end(archive)
    before = row_counts()
    answer = _post(client, club, bad)
    assert answer.status_code == 400, answer.content
    errors = answer.json()["errors"]
    assert {"field": where, "code": "game_over"} in [
        {"field": e["field"], "code": e["code"]} for e in errors], errors
    page = client.post(f"/clubs/{club.slug}/events/import/",
                       {"file": SimpleUploadedFile("a.json", json.dumps(bad).encode())})
    assert page.status_code == 400
    assert "Not imported" in page.content.decode() and where in page.content.decode()
    path = tmp_path / "past.json"
    path.write_text(json.dumps(bad))
    with pytest.raises(CommandError) as info:
        call_command("import_event", str(path), "--club", club.slug, stdout=io.StringIO())
    assert where in str(info.value) and "already over" in str(info.value)
    assert row_counts() == before


def test_a_hand_s_points_are_derived_from_its_values_never_taken_from_the_archive(
        setting: tuple[dict[str, Any], Client, Club]) -> None:
    from scoring.models import HandRevision

    archive, client, club = setting
    played = _where(archive)["played"]
    honest = archive["hands"][played]["revisions"][0]
    forged = copy.deepcopy(archive)
    revision = forged["hands"][played]["revisions"][0]
    revision.update(points={side: 999 for side in honest["points"]}, made=not honest["made"],
                    reason="forged")
    answer = _post(client, club, forged)
    assert answer.status_code == 201, answer.content
    stored = HandRevision.objects.get(
        hand__game__table__round__event_id=answer.json()["id"],
        hand__game__table__round__number=archive["hands"][played]["round"],
        hand__game__table__number=archive["hands"][played]["table"],
        hand__number=archive["hands"][played]["number"], revision=revision["revision"],
        hand__deleted_at__isnull=archive["hands"][played]["deleted_at"] is None)
    assert stored.points == honest["points"]
    assert (stored.made, stored.result, stored.reason) == (
        honest["made"], honest["result"], honest["reason"])
    assert 999 not in stored.points.values()

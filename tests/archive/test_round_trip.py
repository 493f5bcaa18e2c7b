"""An event's archive imports into an empty database as the same event: exported, the
database emptied (events, clubs, players, users: nothing of the project's apps left), imported,
exported again, the two files are the same bytes, and the standings the import recomputed from
the hands are those stored before. Played events of several formats, each with deleted,
corrected and misdealt hands, byes, withdrawals, alternates (progressive), the cut and the final
table, a Swiss qualifying cut to a playoff bracket, a double-elimination bracket."""

from __future__ import annotations

import datetime
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from archive.format import FORMAT_NAME, VERSION
from archive.models import EventImport
from archive.selectors import event_archive_bytes
from clubs.models import Club, Membership
from scoring.models import HandRevision
from tests.archive.play import (
    club_night,
    director_of,
    empty_database,
    pair_event,
    progressive_day,
    standings_by_name,
)
from tests.clubs.factories import UserFactory
from tournaments.models import Event, Table, TableCard

pytestmark = pytest.mark.django_db


def _export_command(event_id: int, tmp_path: Path) -> bytes:
    target = tmp_path / f"event-{event_id}.json"
    call_command("export_event", str(event_id), "-o", str(target), stderr=io.StringIO())
    return target.read_bytes()


def _only_event() -> Event:
    [event] = Event.objects.all()
    return event


def _check_content(archive: dict[str, Any], *, usernames: set[str]) -> None:
    """What the archive holds beyond the round trip: every revision of corrected and deleted
    hands, who did it, no secrets, local ids only."""
    assert archive["format"] == FORMAT_NAME and archive["version"] == VERSION
    hands = archive["hands"]
    deleted = [h for h in hands if h["deleted_at"]]
    assert deleted, "a deleted hand is kept"
    for hand in deleted:
        last = hand["revisions"][-1]
        assert last["is_deletion"] and not last["is_live"]
        assert last["note"] == "entered at the wrong table" and last["author"]
    corrected = [h for h in hands if len(h["revisions"]) > 1 and not h["deleted_at"]]
    assert corrected and all(sum(r["is_live"] for r in h["revisions"]) == 1 for h in corrected)
    assert any(r["outcome"] == "misdeal" and r["bid"] is None
               for h in hands for r in h["revisions"])
    named = {r["author"] for h in hands for r in h["revisions"]} | {
        line["actor"] for line in archive["log"]} | {archive["event"]["created_by"]}
    assert usernames <= named
    text = json.dumps(archive)
    for token in Table.objects.values_list("token", flat=True):
        assert token not in text
    for token in TableCard.objects.values_list("token", flat=True):
        assert token not in text
    assert "idempotency_key" not in text
    entry_ids = [e["id"] for e in archive["entries"]]
    assert entry_ids == list(range(1, len(entry_ids) + 1))
    # the log's ids are the archive's local ids: a checked-in player's id names that player
    player_names = {p["id"]: p["name"] for p in archive["players"]}
    entry_names = {e["id"]: player_names[e["player"]] for e in archive["entries"]}
    checked_in = [line["details"] for line in archive["log"] if line["action"] == "checked_in"]
    assert all(player_names[d["player"]] == d["name"] for d in checked_in)
    left = [line["details"] for line in archive["log"] if line["action"] == "left"]
    assert all(entry_names[d["entry"]] == d["name"] for d in left)
    registered = [line["details"] for line in archive["log"]
                  if line["action"] == "pair_registered"]
    pair_ids = {p["id"] for p in archive["pairs"]}
    assert all(d["pair"] in pair_ids and all(p in player_names for p in d["players"])
               for d in registered)
    assert len(checked_in) + len(registered) > 0


def test_a_club_night_round_trips_through_the_commands(
        tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    event = club_night(django_capture_on_commit_callbacks)
    first = _export_command(event.pk, tmp_path)
    archive = json.loads(first)
    _check_content(archive, usernames={"night-director", "table-phone"})
    assert archive["byes"], "nine players: a bye each round"
    assert [e["status"] for e in archive["entries"]].count("left") == 1
    cleared = [line for line in archive["log"] if line["action"] == "confirmation_cleared"]
    confirmer = next(s["entry"] for s in archive["seats"]
                     if (s["round"], s["table"], s["position"]) == (1, 2, "E"))
    assert len(cleared) == 1 and cleared[0]["details"]["confirmed_by"] == confirmer
    assert cleared[0]["actor"] == "night-director"
    assert archive["standings"]["placements"] and archive["event"]["status"] == "finished"
    before = standings_by_name(event)
    old_tokens = set(Table.objects.values_list("token", flat=True))
    (tmp_path / "archive.json").write_bytes(first)

    empty_database()
    out = io.StringIO()
    call_command("import_event", str(tmp_path / "archive.json"), "--club", "riverside",
                 "--create-club", stdout=out)
    assert "Imported event" in out.getvalue() and "9 added to the roster" in out.getvalue()
    imported = _only_event()
    assert _export_command(imported.pk, tmp_path) == first
    assert standings_by_name(imported) == before
    # users are names only: none exists here, the history still says who did it
    assert not Club.objects.get(slug="riverside").memberships.exists()
    kept = EventImport.objects.get(event=imported).usernames
    assert set(kept["revisions"].values()) == {"night-director", "table-phone"}
    assert HandRevision.objects.filter(hand__game__table__round__event=imported,
                                       author__isnull=False).count() == 0
    # table tokens are new secrets
    assert old_tokens.isdisjoint(Table.objects.values_list("token", flat=True))


def test_a_progressive_day_with_its_cut_and_final_round_trips_through_the_api(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_day(django_capture_on_commit_callbacks)
    client = Client()
    client.force_login(Membership.objects.get(club=event.club).user)
    response = client.get(f"/api/events/{event.pk}/archive/")
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="event-')
    first = response.content
    assert first == event_archive_bytes(event=event)
    archive = json.loads(first)
    _check_content(archive, usernames={"td", "phones"})
    assert sum(e["alternate"] for e in archive["entries"]) == 2
    assert [r["stage"] for r in archive["rounds"]] == ["qualifying"] * 3 + ["final"]
    assert [p["prize"] for p in archive["standings"]["placements"][:2]] == ["100.00", "50.50"]
    seated_alternate = [line for line in archive["log"] if line["action"] == "alternate_seated"]
    assert seated_alternate and seated_alternate[0]["details"]["entry"] in {
        e["id"] for e in archive["entries"] if e["alternate"]}
    before = standings_by_name(event)
    club = {k: archive["club"][k] for k in ("slug", "name", "time_zone", "ruleset_preset",
                                            "ruleset_overrides", "is_public")}

    empty_database()
    target = Club.objects.create(**club)
    importer = director_of(target, "new-director")
    client = Client()
    client.force_login(importer)
    answer = client.post(f"/api/clubs/{target.slug}/events/import/", {
        "file": _upload(first)})
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert len(body["players_added"]) == 10 and body["players_matched"] == []
    imported = Event.objects.get(pk=body["id"])
    assert client.get(f"/api/events/{imported.pk}/archive/").content == first
    assert standings_by_name(imported) == before
    assert EventImport.objects.get(event=imported).imported_by == importer


@pytest.mark.parametrize(("fmt", "pairs", "settings"), [
    ("swiss", 10, {"rounds_planned": 3, "withdraw": True,
                   "format_settings": {"playoff": {"kind": "single", "cut": 4,
                                                   "third_place": True}}}),
    ("double_elimination", 5, {}),
    # a forfeit (with a hand entered before it) and the withdrawn pair's later walkovers
    ("double_elimination", 6, {"forfeit": 1}),
    ("swiss", 6, {"rounds_planned": 3, "forfeit": 2}),
])
def test_a_pair_event_with_a_bracket_round_trips_through_the_pages(
        django_capture_on_commit_callbacks: Any, fmt: str, pairs: int,
        settings: dict[str, Any]) -> None:
    event = pair_event(django_capture_on_commit_callbacks, fmt, pairs, **settings)
    director = Membership.objects.get(club=event.club).user
    client = Client()
    client.force_login(director)
    page = client.get(f"/events/{event.pk}/")
    assert f'href="/events/{event.pk}/archive.json"' in page.content.decode()
    first = client.get(f"/events/{event.pk}/archive.json").content
    archive = json.loads(first)
    _check_content(archive, usernames={"pairs-director", "pair-phones"})
    if fmt != "swiss" or settings.get("format_settings"):
        assert {t["match"] for t in archive["tables"]} - {""}, "bracket matches are named"
    assert len(archive["pairs"]) == pairs and archive["pairs"][0]["name"] == "The Aces"
    if settings.get("withdraw"):
        assert archive["byes"] and [e["status"] for e in archive["entries"]].count("left") == 2
    if settings.get("forfeit"):
        forfeits = [g for g in archive["games"] if g["forfeit"]]
        assert forfeits and all(g["finish_reason"] == "forfeit" for g in forfeits)
        assert any(g["hands_count"] for g in forfeits)
        if fmt == "double_elimination":  # its losers' bracket match was a walkover
            assert len(forfeits) == 2
    before = standings_by_name(event)

    empty_database()
    target = Club.objects.create(**archive["club"])
    director = director_of(target, "someone-else")
    client = Client()
    client.force_login(director)
    answer = client.post(f"/clubs/{target.slug}/events/import/", {"file": _upload(first)})
    imported = _only_event()
    assert answer.status_code == 302 and answer["Location"] == f"/events/{imported.pk}/"
    assert client.get(f"/events/{imported.pk}/archive.json").content == first
    assert standings_by_name(imported) == before


def _upload(data: bytes, name: str = "archive.json") -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/json")


def test_importing_the_same_archive_twice_is_refused_and_players_are_matched(
        django_capture_on_commit_callbacks: Any) -> None:
    event = club_night(django_capture_on_commit_callbacks)
    archive = json.loads(event_archive_bytes(event=event))
    director = UserFactory(username="other-director")
    client = Client()
    client.force_login(director)
    Membership.objects.create(club=event.club, user=director, role="director")
    answer = client.post(f"/api/clubs/{event.club.slug}/events/import/", archive,
                         content_type="application/json")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "event"
    assert answer.json()["errors"][0]["code"] == "exists"
    # into another club: the players are added there; a second club night of that club with
    # the same players (by e-mail, else by name) finds them on its roster
    other = Club.objects.create(name="Other", slug="other")
    Membership.objects.create(club=other, user=director, role="director")
    answer = client.post(f"/api/clubs/{other.slug}/events/import/", archive,
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    assert len(answer.json()["players_added"]) == 9
    renamed = dict(archive, event=dict(archive["event"], name="Friday night (copy)"))
    renamed["players"] = [dict(p, name=p["name"].upper()) if p["email"] else p
                          for p in archive["players"]]
    answer = client.post(f"/api/clubs/{other.slug}/events/import/", renamed,
                         content_type="application/json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["players_added"] == []
    by = {m["name"]: m["matched_by"] for m in body["players_matched"]}
    assert by["PLAYER 1"] == "email" and by["Player 2"] == "name"
    assert Event.objects.filter(club=other).count() == 2


def test_a_running_event_and_a_draft_round_trip(
        tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    """A night caught in the middle (a round playing: one table's scorer chosen and a hand
    entered, the other table not started) and a draft with entries only."""
    from draw.services import round_create
    from scoring.services import game_set_scorer, hand_submit
    from tests.clubs.factories import PlayerFactory
    from tests.events.test_api_progressive import _random_hand
    from tournaments.services import entries_create_many, event_create

    club = Club.objects.create(name="Midweek", slug="midweek")
    players = [PlayerFactory(club=club, name=f"Mid {n}") for n in range(8)]
    running = event_create(club=club, name="Wednesday", date=datetime.date(2026, 11, 25))
    entries_create_many(event=running, players=players)
    first = round_create(event=running)
    game = first.tables.get(number=1).game
    game_set_scorer(game=game, position="S")
    hand_submit(game=game, number=1, values={**_random_hand(random.Random(1)), "dealer": "N"})
    draft = event_create(club=club, name="Next week", date=datetime.date(2026, 12, 2),
                         is_public=False, tie_breaks=["wins", "points"])
    entries_create_many(event=draft, players=players[:3])
    files = {e.name: _export_command(e.pk, tmp_path) for e in (running, draft)}
    archive = json.loads(files["Wednesday"])
    assert [r["status"] for r in archive["rounds"]] == ["playing"]
    assert archive["games"][0]["scorer_position"] == "S" and archive["standings"]["rows"]

    empty_database()
    for name, data in files.items():
        path = tmp_path / f"{name}.json"
        path.write_bytes(data)
        call_command("import_event", str(path), "--club", "midweek", "--create-club",
                     stdout=io.StringIO())
        assert _export_command(Event.objects.get(name=name).pk, tmp_path) == data


def test_an_archive_keeps_its_seed_and_one_written_with_a_numeric_seed_still_imports(
        tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    """The seed is 128 bits written as digits; archives written while it was a 32-bit number
    carry a JSON number there, which imports as the same digits (the same draws)."""
    event = club_night(django_capture_on_commit_callbacks)
    archive = json.loads(_export_command(event.pk, tmp_path))
    assert archive["event"]["seed"] == event.seed and event.seed.isdigit()
    older = {**archive, "event": {**archive["event"], "seed": 7}}
    bad = {**archive, "event": {**archive["event"], "seed": "7 or 8"}}
    (tmp_path / "older.json").write_text(json.dumps(older))
    (tmp_path / "bad.json").write_text(json.dumps(bad))

    empty_database()
    with pytest.raises(Exception, match="seed must be a whole number"):
        call_command("import_event", str(tmp_path / "bad.json"), "--club", "riverside",
                     "--create-club", stdout=io.StringIO(), stderr=io.StringIO())
    call_command("import_event", str(tmp_path / "older.json"), "--club", "riverside",
                 "--create-club", stdout=io.StringIO())
    imported = _only_event()
    assert imported.seed == "7" and imported.draw_seed == 7


def test_a_three_handed_night_with_a_table_of_four_round_trips(
        tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    """Tables of three and a table of four (the dealer sitting each hand out), every hand with
    each player's tricks: the archive carries them and the import scores them the same."""
    from draw.services import event_status_set, round_create, round_set_status
    from scoring.models import Game
    from scoring.services import game_confirm, game_set_scorer, hand_submit
    from tests.events.test_api_tables_of_three import random_hand
    from tournaments.services import entry_check_in, event_create

    rng = random.Random(36)
    club = Club.objects.create(name="Trios", slug="trios", time_zone="America/Chicago",
                               ruleset_overrides={}, is_public=True)
    director = director_of(club, "trio-director")
    event = event_create(club=club, name="Three-handed", date=datetime.date(2026, 11, 24),
                         ruleset_preset="three_handed", rounds_planned=2, deals_per_round=3,
                         actor=director)
    for n in range(10):
        entry_check_in(event=event, player=club.players.create(name=f"Trio {n}"))
    for _ in range(2):
        round_ = round_create(event=event, actor=director)
        for table in round_.tables.order_by("number"):
            seats = [s for s in ("N", "E", "S", "W")
                     if table.seats.filter(position=s).exists()]
            game_set_scorer(game=table.game, position=seats[0])
            for number in range(1, 4):
                dealer = seats[(number - 1) % len(seats)]
                hand_submit(game=table.game, number=number,
                            values=random_hand(rng, "three_handed", seats, dealer))
            with django_capture_on_commit_callbacks(execute=True):
                game_confirm(game=Game.objects.get(table=table), position=seats[1])
        round_set_status(round_=round_, status="closed", actor=director)
    event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    first = _export_command(event.pk, tmp_path)
    archive = json.loads(first)
    assert {len([s for s in archive["seats"] if (s["round"], s["table"]) == key])
            for key in {(s["round"], s["table"]) for s in archive["seats"]}} == {3, 4}
    revisions = [r for h in archive["hands"] for r in h["revisions"]]
    assert all(r["tricks"] and sum(r["tricks"].values()) == 15 for r in revisions)
    before = standings_by_name(event)
    (tmp_path / "archive.json").write_bytes(first)

    empty_database()
    call_command("import_event", str(tmp_path / "archive.json"), "--club", "trios",
                 "--create-club", stdout=io.StringIO())
    imported = _only_event()
    assert _export_command(imported.pk, tmp_path) == first
    assert standings_by_name(imported) == before


def test_adjusted_results_penalties_and_appeals_round_trip(
        tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    """The director's decisions beyond the hands travel with the event (format version 2): the
    imported event's standings take the same penalties off and count the same adjusted games,
    and its export is the same bytes."""
    event = club_night(django_capture_on_commit_callbacks, decisions=True)
    first = _export_command(event.pk, tmp_path)
    archive = json.loads(first)
    adjusted = [g for g in archive["games"] if g["adjusted"]]
    assert [(g["round"], g["table"], g["adjusted"]["kind"]) for g in adjusted] == [
        (2, 1, "points"), (2, 2, "average")]
    assert adjusted[0]["totals"] == {"EW": 90, "NS": 150} and adjusted[0]["winner"] == "NS"
    assert all(g["finish_reason"] == "adjusted" for g in adjusted)
    penalties = archive["penalties"]
    assert [(p["id"], p["kind"], p["points"], p["withdrawn_at"] is not None)
            for p in penalties] == [(1, "slow_play", 25, False), (2, "table_talk", 10, True),
                                    (3, "misconduct", 40, True)]
    assert penalties[0]["game"] == {"round": 2, "table": 1} and penalties[1]["game"] is None
    assert penalties[1]["withdrawn_by"] == "night-director"
    assert [(a["penalty"], a["decision"]) for a in archive["appeals"]] == [
        (1, "upheld"), (3, "overturned")]
    recorded = [line["details"] for line in archive["log"] if line["action"] == "penalty_recorded"]
    assert [d["penalty"] for d in recorded] == [1, 2, 3]
    assert recorded[0]["entry"] == penalties[0]["entry"]
    rows = {r["entry_id"]: r for r in archive["standings"]["rows"]}
    assert rows[penalties[0]["entry"]]["penalty_points"] == 25
    assert sum(r["penalty_points"] for r in rows.values()) == 25
    before = standings_by_name(event)
    (tmp_path / "archive.json").write_bytes(first)

    empty_database()
    call_command("import_event", str(tmp_path / "archive.json"), "--club", "riverside",
                 "--create-club", stdout=io.StringIO())
    imported = _only_event()
    assert _export_command(imported.pk, tmp_path) == first
    assert standings_by_name(imported) == before
    kept = EventImport.objects.get(event=imported).usernames
    assert set(kept["penalties_created"].values()) == {"night-director"}
    assert len(kept["penalties_withdrawn"]) == 2 and len(kept["appeals"]) == 2


def _older(archive: dict[str, Any], version: int) -> dict[str, Any]:
    """``archive`` as an earlier format version wrote it: version 1 had no adjusted results,
    penalties or appeals; version 2 differs from 3 only in the tables' draws a night has none of."""
    older = {**archive, "version": version}
    if version == 1:
        older = {k: v for k, v in older.items() if k not in ("penalties", "appeals")}
        older["games"] = [{k: v for k, v in g.items() if k != "adjusted"}
                          for g in archive["games"]]
    return older


@pytest.mark.parametrize("version", [1, 2])
def test_an_archive_of_an_earlier_version_imports_and_exports_as_the_current_one(
        version: int, tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    """An archive of an earlier format version imports as it did, and exports again in the
    current version (with version 1's missing sections empty)."""
    event = club_night(django_capture_on_commit_callbacks)
    archive = json.loads(_export_command(event.pk, tmp_path))
    assert archive["version"] == VERSION == 3
    (tmp_path / "older.json").write_text(json.dumps(_older(archive, version)))
    before = standings_by_name(event)

    empty_database()
    call_command("import_event", str(tmp_path / "older.json"), "--club", "riverside",
                 "--create-club", stdout=io.StringIO())
    imported = _only_event()
    assert standings_by_name(imported) == before
    assert json.loads(_export_command(imported.pk, tmp_path)) == archive
    assert EventImport.objects.get(event=imported).archive_version == version

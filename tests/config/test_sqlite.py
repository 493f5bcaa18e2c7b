"""The embedded default (no DATABASE_URL: a SQLite file) takes concurrent writers: ten phones
saving a hand at the same moment all get their hand stored, none sees "database is locked".

Runs in a subprocess under ``config.settings.base`` against a fresh SQLite *file* (the test
suite itself runs on PostgreSQL), with real threads posting to the table entry API.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys, threading, traceback
import django
django.setup()
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client

call_command("migrate", verbosity=0)
from clubs.models import Club, ClubPlayer, Player
from scoring.models import Game, HandRevision
from tournaments.models import Entry, Event, Round, Seat, Table

TABLES = 10
club = Club.objects.create(name="Busy club", slug="busy")
event = Event.objects.create(club=club, name="Busy night", date="2025-01-01", status="running")
round_ = Round.objects.create(event=event, number=1, status="playing")
tokens = []
for number in range(1, TABLES + 1):
    table = Table.objects.create(round=round_, number=number)
    Game.objects.create(table=table, scorer_position="N")  # the phone named its keeper
    for position in "NESW":
        player = Player.objects.create(name=f"P{number}{position}")
        ClubPlayer.objects.create(club=club, player=player)
        entry = Entry.objects.create(event=event, player=player)
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
    tokens.append(table.token)
connection.close()

hand = {"number": 1, "dealer": "S", "bidder": "N", "bid": 51, "trump": "H",
        "outcome": "played", "meld": {"NS": 24, "EW": 32}, "counters": {"NS": 27, "EW": 23}}
barrier = threading.Barrier(TABLES)
results = []

def phone(token):
    client = Client(HTTP_HOST="localhost")
    try:
        barrier.wait()
        response = client.post(f"/api/tables/{token}/hands/", json.dumps(hand),
                               content_type="application/json")
        results.append([response.status_code, response.content.decode()[:300]])
    except Exception:
        results.append([None, traceback.format_exc()[-600:]])
    finally:
        connection.close()

threads = [threading.Thread(target=phone, args=(t,)) for t in tokens]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({
    "options": settings.DATABASES["default"].get("OPTIONS", {}),
    "journal_mode": connection.cursor().execute("PRAGMA journal_mode").fetchone()[0],
    "results": results,
    "stored": HandRevision.objects.count(),
    "games": sorted(Game.objects.values_list("hands_count", flat=True)),
}))
"""


def test_ten_phones_saving_at_once_on_the_sqlite_default_all_get_stored(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    env.update({
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'embedded.sqlite3'}",
        "DJANGO_LOG_LEVEL": "ERROR",
    })
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert "database is locked" not in result.stdout + result.stderr
    assert [status for status, _ in report["results"]] == [201] * 10, report["results"]
    assert report["stored"] == 10
    assert report["games"] == [1] * 10
    assert report["journal_mode"] == "wal"
    assert report["options"]["transaction_mode"] == "IMMEDIATE"

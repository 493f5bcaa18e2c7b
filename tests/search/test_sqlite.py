"""The search on the embedded default (no DATABASE_URL: a SQLite file), where PostgreSQL's
full-text and trigram search are missing: the migration does nothing there and names are found
with ``icontains``, the same public rules applying.

Runs in a subprocess under ``config.settings.base`` against a fresh SQLite file (the test suite
itself runs on PostgreSQL), through the page and the API.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import datetime, json
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.test import Client

call_command("migrate", verbosity=0)
from clubs.models import Club, ClubPlayer, Player
from tournaments.models import Entry, Event

elm = Club.objects.create(name="Elm Street Pinochle", slug="elm", time_zone="America/Chicago")
secret = Club.objects.create(name="Elm Secret", slug="secret", is_public=False)
spring = Event.objects.create(club=elm, name="Spring Open", date="2024-05-11", status="finished")
hidden = Event.objects.create(club=elm, name="Spring Hidden", date="2024-05-12",
                              status="finished", is_public=False)
closed = Event.objects.create(club=secret, name="Spring Secret", date="2024-05-13",
                              status="finished")
for name, event in (("John Smith", spring), ("John Hidden", hidden), ("John Secret", closed)):
    player = Player.objects.create(name=name)
    ClubPlayer.objects.create(club=event.club, player=player)
    Entry.objects.create(event=event, player=player)

client = Client(HTTP_HOST="localhost")
def api(**params):
    response = client.get("/api/search/", params)
    body = response.json()
    return [response.status_code, [r["name"] for r in body.get("results", [])],
            body.get("errors")]
page = client.get("/search/", {"q": "spring"})
print(json.dumps({
    "vendor": connection.vendor,
    "john": api(q="john"),
    "smith_players": api(q="SMITH", kind="players"),
    "spring": api(q="spring"),
    "place": api(q="chicago"),
    "date": api(q="May 2024"),
    "two_words": api(q="open spring"),
    "blank": api(q=" "),
    "page": [page.status_code, "Spring Open" in page.content.decode(),
             "Spring Hidden" in page.content.decode()],
}))
"""


def test_the_sqlite_default_searches_with_icontains(tmp_path: Path) -> None:
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
    assert report["vendor"] == "sqlite"
    assert report["john"][:2] == [200, ["John Smith"]]
    assert report["smith_players"][:2] == [200, ["John Smith"]]
    assert report["spring"][:2] == [200, ["Spring Open"]]
    assert report["place"][:2] == [200, ["Elm Street Pinochle"]]
    assert report["date"][:2] == [200, ["Spring Open"]]
    assert report["two_words"][:2] == [200, ["Spring Open"]]
    assert report["blank"][0] == 400 and report["blank"][2][0]["field"] == "q"
    assert report["page"] == [200, True, False]

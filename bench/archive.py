"""Event archive benchmark on PostgreSQL: export and import of a big progressive day.

Run it with ``BENCH_SCRIPT=bench/archive.py bash bench/standings.sh`` (a throwaway PostgreSQL
on a free loopback port, stopped and deleted afterwards), or against an empty database of your
own: ``DATABASE_URL=postgres://... python bench/archive.py``. ``--players N`` (a multiple of 4,
default 256) and ``--games`` (qualifying games, default 6) size the day, played through the
services as ``bench/progressive.py`` plays it (4 deals a game, every table).

Measured (wall time, the fastest of ``--repeat`` runs, and the queries each runs): the export
(``archive.selectors.event_archive_bytes``), the import into another club
(``archive.services.event_import``: checks, players added to the roster, every row, the rebuild
of games and standings from the hands), and the archive's size. The imported event's archive
must equal the original's apart from the club (exit status 1 otherwise), and the export must
stay under 5 s and the import under 30 s for 256 players.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from progressive import ms_since, played_day  # noqa: E402  (sets Django up)

from archive.selectors import event_archive_bytes  # noqa: E402
from archive.services import event_import  # noqa: E402
from clubs.models import Club  # noqa: E402

TARGETS_MS = {"export": 5000.0, "import": 30000.0}


class Rollback(Exception):
    pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"Playing {args.players} players, {args.games} games…", flush=True)
    event = played_day(args.players, args.games)

    exports, imports = [], []
    data = b""
    for _ in range(args.repeat):
        with CaptureQueriesContext(connection) as export_queries:
            started = time.perf_counter()
            data = event_archive_bytes(event=event)
            exports.append(ms_since(started))
    archive = json.loads(data)
    same = True
    import_queries = 0
    for attempt in range(args.repeat):
        try:
            with transaction.atomic():
                Club.objects.create(name="Copy", slug="copy")
                with CaptureQueriesContext(connection) as queries:
                    started = time.perf_counter()
                    result = event_import(archive=archive, club_slug="copy")
                    imports.append(ms_since(started))
                import_queries = len(queries)
                if attempt == 0:
                    again = json.loads(event_archive_bytes(event=result.event))
                    same = ({k: v for k, v in again.items() if k != "club"}
                            == {k: v for k, v in archive.items() if k != "club"})
                raise Rollback
        except Rollback:
            pass
    hands = len(archive["hands"])
    print(f"\n{args.players} players, {args.games} games: {hands} hands, "
          f"{sum(len(h['revisions']) for h in archive['hands'])} revisions, "
          f"archive {len(data) / 1024:.0f} KB")
    print(f"  export: {min(exports):8.1f} ms (fastest of {args.repeat}), "
          f"{len(export_queries)} queries")
    print(f"  import: {min(imports):8.1f} ms (fastest of {args.repeat}), {import_queries} queries")
    print(f"  the imported event exports the same archive (but its club): {same}")
    missed = [name for name, took in (("export", min(exports)), ("import", min(imports)))
              if args.players <= 256 and took > TARGETS_MS[name]]
    if missed or not same:
        print(f"FAILED: {', '.join(missed) or 'round trip'}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

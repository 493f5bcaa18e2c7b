"""``manage.py rebuild_standings EVENT_ID [EVENT_ID ...]`` or ``--all``: standings from scratch.

Every game's seat results are recomputed from its live hands (``game_recompute``), then the
event's standings snapshot. Hands are the source of truth; this command makes the derived rows
agree with them whatever happened to the queue, the worker or the cache. Safe to run at any time:
a snapshot whose rows do not change keeps its version.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.models import Game
from standings.services import standings_rebuild
from tournaments.models import Event


class Command(BaseCommand):
    help = "Rebuild events' game results and standings snapshots from their hands."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_ids", nargs="*", type=int, metavar="EVENT_ID")
        parser.add_argument("--all", action="store_true", help="every event that has games")

    def handle(self, *args: Any, **options: Any) -> None:
        ids: list[int] = options["event_ids"]
        if options["all"]:
            if ids:
                raise CommandError("Give event ids or --all, not both.")
            ids = list(
                Game.objects.order_by().values_list("table__round__event_id", flat=True).distinct()
            )
            ids.sort()
        elif not ids:
            raise CommandError("Give one or more event ids, or --all.")
        missing = sorted(set(ids) - set(Event.objects.filter(pk__in=ids).values_list("pk", flat=True)))
        if missing:
            raise CommandError(f"No event with id {', '.join(map(str, missing))}.")
        for event_id in ids:
            started = time.perf_counter()
            before = Event.objects.get(pk=event_id)
            old_version = getattr(getattr(before, "standings", None), "version", 0)
            snapshot = standings_rebuild(event_id=event_id, from_hands=True)
            games = Game.objects.filter(table__round__event_id=event_id).count()
            state = "changed" if snapshot.version != old_version else "unchanged"
            self.stdout.write(
                f"event {event_id} ({before.name}): {games} games recomputed, "
                f"standings version {snapshot.version} ({state}), "
                f"{(time.perf_counter() - started) * 1000:.0f} ms"
            )
        if not ids:
            self.stdout.write("No events with games.")

"""``manage.py beat_health [--max-age SECONDS]``: is Celery beat alive? Exit 0 with the age of
its last heartbeat (``standings.beat``), or 1 saying what is wrong: a health check for the beat
process on whatever machine runs it (it reads the shared cache, Redis in production)."""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from standings.beat import HEARTBEAT_MAX_AGE, heartbeat_read


class Command(BaseCommand):
    help = "Exit 0 when Celery beat wrote its heartbeat recently, 1 otherwise."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--max-age", type=int, default=HEARTBEAT_MAX_AGE,
                            help=f"oldest acceptable heartbeat, seconds ({HEARTBEAT_MAX_AGE})")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            beat = heartbeat_read()
        except Exception as exc:  # noqa: BLE001 - the cache (Redis) is unreachable
            raise CommandError(f"beat: cannot read the heartbeat ({exc})") from None
        if beat is None:
            raise CommandError("beat: no heartbeat (is `celery -A config beat` running?)")
        age = time.time() - beat.at
        where = f"{beat.host} pid {beat.pid}"
        if age > options["max_age"]:
            raise CommandError(f"beat: last heartbeat {age:.0f} s ago from {where}, "
                               f"older than {options['max_age']} s")
        self.stdout.write(f"beat: alive, last heartbeat {age:.0f} s ago from {where}")

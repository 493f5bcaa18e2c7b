"""``manage.py generate_event --format F --players N --seed S [--out FILE]``: play a random
event through the services (``archive.generate``) and write its archive.

The first line printed names the seed and the command that plays the same event again, so a
failure found with it replays; the second the rules and settings drawn from the seed
(``--ruleset`` fixes the preset). The archive goes to FILE (default
``generated-<format>-<seed>.json``); ``python -m verify FILE`` checks it. Tasks run inline
(Celery's eager mode) so the automatic advance seats rounds in the generator's order, the same
for the same seed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from celery import current_app
from django.core.management.base import BaseCommand, CommandError, CommandParser

import formats
from archive.generate import MAX_PLAYERS, GenerateError, generate_event


class Command(BaseCommand):
    help = "Play a random event of a format through the services and write its archive."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--format", required=True, choices=formats.names(),
                            help="the event's format (a name of the formats registry)")
        parser.add_argument("--players", required=True, type=int,
                            help=f"players checked in (a pair format: two a pair), up to "
                                 f"{MAX_PLAYERS}")
        parser.add_argument("--seed", required=True, type=int,
                            help="the seed everything random comes from")
        parser.add_argument("--ruleset", metavar="PRESET",
                            help="the ruleset's preset (default: drawn from the seed among "
                                 "those the format plays)")
        parser.add_argument("--out", metavar="FILE", help="where the archive is written")

    def handle(self, *args: Any, **options: Any) -> None:
        name, players, seed = options["format"], options["players"], options["seed"]
        preset = options["ruleset"]
        self.stdout.write(f"seed {seed}: manage.py generate_event --format {name} "
                          f"--players {players} --seed {seed}"
                          + (f" --ruleset {preset}" if preset else ""))
        current_app.conf.task_always_eager = True
        try:
            made = generate_event(format_name=name, players=players, seed=seed,
                                  say=self.stdout.write, ruleset=preset)
        except GenerateError as exc:
            raise CommandError(str(exc)) from None
        out = Path(options["out"] or f"generated-{name}-{seed}.json")
        out.write_bytes(made.archive)
        self.stdout.write(f"event {made.event.pk}: {made.players} players, {made.rounds} rounds, "
                          f"{len(made.archive):,} bytes written to {out}")

"""``manage.py profile_summaries``: write the profile summaries of every finished or cancelled
event whose summaries are missing or behind (``--all``: every one again). The profile reads
current summaries and computes the other events live, so this is a speed-up, never a repair."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from profiles.services import event_summaries_backfill


class Command(BaseCommand):
    help = "Write the player profiles' per-event summaries that are missing or behind."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--all", action="store_true",
                            help="rewrite every summary, current or not")

    def handle(self, *args: Any, **options: Any) -> None:
        events, written = event_summaries_backfill(force=options["all"])
        self.stdout.write(f"{written} summaries written for {events} events.")

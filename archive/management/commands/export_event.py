"""``manage.py export_event EVENT_ID [-o FILE]``: the event's complete archive as JSON.

Written to FILE, or to standard output. The format is described in ``archive/format.py``; the
same event always gives the same bytes. ``import_event`` reads it back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from archive.selectors import event_archive_bytes
from tournaments.models import Event


class Command(BaseCommand):
    help = "Write an event's complete archive (JSON) to a file or to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int, metavar="EVENT_ID")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.select_related("club").filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event with id {options['event_id']}.")
        data = event_archive_bytes(event=event)
        if options["output"]:
            Path(options["output"]).write_bytes(data)
            self.stderr.write(f"event {event.pk} ({event.name}): {len(data):,} bytes written to "
                              f"{options['output']}")
        else:
            self.stdout.write(data.decode(), ending="")

"""``manage.py export_event EVENT_ID [-o FILE]``: the event's complete archive as JSON.

Written to FILE, or to standard output. The format is described in ``archive/format.py``; the
same event always gives the same bytes. ``import_event`` reads it back. ``--language de``
says what it did in German (``common.commands``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.formats import number_format
from django.utils.translation import gettext

from archive.selectors import event_archive_bytes
from common.commands import DirectorCommand
from tournaments.models import Event


class Command(DirectorCommand):
    help = "Write an event's complete archive (JSON) to a file or to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("event_id", type=int, metavar="EVENT_ID")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")

    def handle(self, *args: Any, **options: Any) -> None:
        event = Event.objects.select_related("club").filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(gettext("No event with id %(pk)s.") % {"pk": options["event_id"]})
        data = event_archive_bytes(event=event)
        if options["output"]:
            Path(options["output"]).write_bytes(data)
            self.stderr.write(gettext("Event %(pk)s (%(name)s): %(size)s bytes written to %(file)s")
                              % {"pk": event.pk, "name": event.name, "file": options["output"],
                                 "size": number_format(len(data), force_grouping=True)})
        else:
            self.stdout.write(data.decode(), ending="")

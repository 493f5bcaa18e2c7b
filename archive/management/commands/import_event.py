"""``manage.py import_event FILE --club SLUG [--create-club] [--user NAME]``: an archive in.

The event is created in the club SLUG (with ``--create-club``, a club missing here is made from
the archive's club: name, time zone, ruleset, visibility). Everything is checked first; a
refused archive lists each problem with its path and changes nothing (exit status 1).
``--user`` records who imported it; ``--language de`` says it in German
(``common.commands``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext, gettext_lazy

from archive import services
from archive.reader import ArchiveRefused
from common.commands import DirectorCommand
from common.labels import translated

# The rows an import counts, as its report names them.
COUNTED = {"entries": gettext_lazy("entries"), "rounds": gettext_lazy("rounds"),
           "tables": gettext_lazy("tables"), "hands": gettext_lazy("hands"),
           "revisions": gettext_lazy("revisions"), "log": gettext_lazy("log lines")}


class Command(DirectorCommand):
    help = "Import an event archive (JSON from export_event) into a club."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", metavar="FILE")
        parser.add_argument("--club", required=True, metavar="SLUG", help="the target club")
        parser.add_argument("--create-club", action="store_true",
                            help="create the club from the archive when it does not exist")
        parser.add_argument("--user", metavar="NAME", help="the user recorded as importing it")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        if not path.is_file():
            raise CommandError(gettext("No file %(path)s.") % {"path": path})
        actor = None
        if options["user"]:
            actor = get_user_model().objects.filter(username=options["user"]).first()
            if actor is None:
                raise CommandError(gettext("No user %(name)r.") % {"name": options["user"]})
        try:
            services.archive_check_size(path.stat().st_size)
            raw = path.read_bytes()
            result = services.event_import(
                archive=services.archive_load(raw), club_slug=options["club"], actor=actor,
                create_club=options["create_club"], digest=services.archive_digest(raw))
        except ArchiveRefused as exc:
            lines = [f"{p.field}: {translated(p.message)} ({p.code})" for p in exc.problems]
            raise CommandError(gettext("The archive was not imported (nothing changed):")
                               + "\n  " + "\n  ".join(lines)) from None
        event = result.event
        counts = ", ".join(f"{n} {COUNTED.get(what, what)}" for what, n in result.counts.items())
        self.stdout.write(
            gettext("Imported event %(pk)s (%(name)s, %(date)s) into %(club)s: %(counts)s; "
                    "players: %(added)s added to the roster, %(matched)s found on it.")
            % {"pk": event.pk, "name": event.name, "date": event.date, "club": event.club.slug,
               "counts": counts, "added": len(result.players_added),
               "matched": len(result.players_matched)})

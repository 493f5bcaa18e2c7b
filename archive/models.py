"""Where an imported event came from, and the user names its archive gave.

An event archive names people by user name (who created the event, who entered each hand, who
did each director action), but those accounts belong to the database the event was played in:
an import never links them to accounts here (a same-named account may be someone else). The names
are kept as data on :class:`EventImport`, so the event's history still says who did what and an
export of the imported event gives them back.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models import Event


class EventImport(models.Model):
    """An event created from an archive file (``archive.services.event_import``)."""

    event = models.OneToOneField(Event, on_delete=models.CASCADE, related_name="archive_import")
    # The archive format version the file was written in.
    archive_version = models.PositiveSmallIntegerField()
    # SHA-256 of the file as given, to recognise the same file later.
    digest = models.CharField(max_length=64)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    imported_at = models.DateTimeField(auto_now_add=True)
    # The user names the archive gave, by row of this database:
    # {"event": name or null, "log": {"<EventLog pk>": name}, "revisions": {"<HandRevision pk>": name}}.
    usernames = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"import of event {self.event_id} (archive v{self.archive_version})"

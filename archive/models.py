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
from django.utils.translation import gettext_lazy as _

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
    # {"event": name or null, "log": {"<EventLog pk>": name}, "revisions": {"<HandRevision pk>": name},
    #  "penalties_created"/"penalties_withdrawn": {"<Penalty pk>": name}, "appeals": {"<Appeal pk>": name}}.
    usernames = models.JSONField(default=dict, blank=True)

    def __str__(self) -> str:
        return f"import of event {self.event_id} (archive v{self.archive_version})"


class ImportJob(models.Model):
    """A large archive imported by the worker (``archive.tasks.import_archive``), never in a web
    request: the file waits here until the worker reads it (and is dropped once it has), and the
    director's status page polls ``status`` and ``progress``. Small archives are imported in
    the request itself and have no job."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Waiting for the worker")
        RUNNING = "running", _("Importing")
        DONE = "done", _("Imported")
        REFUSED = "refused", _("Not imported")

    club = models.ForeignKey("clubs.Club", on_delete=models.CASCADE, related_name="+")
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="+")
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    # What the worker is doing now, for people ("Checking 12,000 hands"), and how far, 0-100.
    stage = models.CharField(max_length=120, blank=True)
    progress = models.PositiveSmallIntegerField(default=0)
    size = models.PositiveIntegerField(help_text="The file's size in bytes.")
    hands = models.PositiveIntegerField(default=0, help_text="Hands counted before parsing.")
    # The file as uploaded, until the worker has read it.
    data = models.BinaryField(null=True, blank=True)
    digest = models.CharField(max_length=64)
    event = models.ForeignKey(Event, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    # The refusal: [{"field", "code", "message"}], as the API answers it.
    problems = models.JSONField(default=list, blank=True)
    # The import's report on success: players added and matched, row counts.
    report = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=models.Q(status__in=["queued", "running", "done",
                                                                  "refused"]),
                                   name="importjob_status_valid"),
            models.CheckConstraint(condition=models.Q(progress__lte=100),
                                   name="importjob_progress_range"),
        ]

    def __str__(self) -> str:
        return f"archive import job {self.pk} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (self.Status.DONE, self.Status.REFUSED)

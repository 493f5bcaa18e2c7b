"""Archive pages: an event's archive to download, importing one, a roster from CSV (directors)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:pk>/archive.json", views.event_archive_download, name="event-archive"),
    path("clubs/<slug:slug>/events/import/", views.club_event_import, name="club-event-import"),
    path("clubs/<slug:slug>/events/import/<int:pk>/", views.club_event_import_job,
         name="club-event-import-job"),
    path("clubs/<slug:slug>/manage/players/import/", views.club_roster_import,
         name="club-roster-import"),
]

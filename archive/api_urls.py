"""Archive API routes under ``/api/``."""

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("events/<int:pk>/archive/", api.EventArchiveApi.as_view(), name="api-event-archive"),
    path("clubs/<slug:slug>/events/import/", api.ClubEventImportApi.as_view(),
         name="api-club-event-import"),
    path("clubs/<slug:slug>/events/import/jobs/<int:pk>/", api.ClubEventImportJobApi.as_view(),
         name="api-club-event-import-job"),
    path("clubs/<slug:slug>/players/import/", api.ClubRosterImportApi.as_view(),
         name="api-club-roster-import"),
]

"""Scoring API routes under ``/api/``: standings here, score entry in ``api_urls_entry``."""

from __future__ import annotations

from django.urls import path

from . import api as api_standings

urlpatterns = [
    path("events/<int:event_id>/standings/", api_standings.EventStandingsApi.as_view(),
         name="api-event-standings"),
    path("events/<int:event_id>/standings/version/",
         api_standings.EventStandingsVersionApi.as_view(), name="api-event-standings-version"),
]

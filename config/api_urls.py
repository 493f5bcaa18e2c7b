"""The REST API: each app contributes its routes from its own ``api`` module."""

from __future__ import annotations

from django.urls import include, path

urlpatterns = [
    path("", include("clubs.api_urls")),
    path("", include("events.api_urls")),
    path("", include("scoring.api_urls")),
    path("", include("conduct.api_urls")),
    path("", include("standings.api_urls")),
    path("", include("archive.api_urls")),
    path("", include("league.api_urls")),
    path("", include("series.api_urls")),
    path("", include("profiles.api_urls")),
    path("", include("privacy.api_urls")),
    path("", include("registrations.api_urls")),
    path("", include("search.api_urls")),
]

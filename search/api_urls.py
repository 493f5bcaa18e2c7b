"""Search and open data API routes under ``/api/``."""

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("search/", api.SearchApi.as_view(), name="api-search"),
    path("clubs/<slug:slug>/results/", api.ClubResultsApi.as_view(), name="api-club-results"),
]

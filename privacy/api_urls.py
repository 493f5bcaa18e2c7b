"""Privacy API routes under ``/api/``."""

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("me/data/", api.MyDataApi.as_view(), name="api-me-data"),
    path("me/erase/", api.MyErasureApi.as_view(), name="api-me-erase"),
    path("clubs/<slug:slug>/players/<int:player_id>/data/", api.ClubPlayerDataApi.as_view(),
         name="api-club-player-data"),
]

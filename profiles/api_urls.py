"""Player profile API routes under ``/api/``."""

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("players/<int:player_id>/profile/", api.PlayerProfileApi.as_view(),
         name="api-player-profile"),
]

"""Player profile pages (audience: anyone who may see one of the player's events)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("players/<int:player_id>/", views.profile_page, name="player-profile"),
]

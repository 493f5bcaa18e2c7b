"""A person's data pages: their own (``/account/data/``, erasure) and a director's export of
a player's data from the player's club page."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("account/data/", views.data_page, name="privacy-data"),
    path("account/data/download/", views.data_download, name="privacy-data-download"),
    path("account/erase/", views.erase_page, name="privacy-erase"),
    path("clubs/<slug:slug>/players/<int:player_id>/data/", views.club_player_data,
         name="privacy-club-player-data"),
]

from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("clubs/<slug:slug>/seasons/", api.ClubSeasonsApi.as_view(), name="api-club-seasons"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", api.SeasonApi.as_view(), name="api-season"),
    path("clubs/<slug:slug>/seasons/<int:pk>/leaderboard/", api.SeasonLeaderboardApi.as_view(),
         name="api-season-leaderboard"),
    path("clubs/<slug:slug>/ratings/", api.ClubRatingsApi.as_view(), name="api-club-ratings"),
    path("players/<int:player_id>/ratings/", api.PlayerRatingsApi.as_view(),
         name="api-player-ratings"),
]

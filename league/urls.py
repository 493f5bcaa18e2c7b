"""League pages: a club's seasons and their leaderboards, the club's ratings."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:slug>/seasons/", views.season_list, name="season-list"),
    path("clubs/<slug:slug>/seasons/new/", views.season_create, name="season-create"),
    path("clubs/<slug:slug>/seasons/<int:pk>/", views.season_detail, name="season-detail"),
    path("clubs/<slug:slug>/seasons/<int:pk>/edit/", views.season_edit, name="season-edit"),
    path("clubs/<slug:slug>/seasons/<int:pk>/delete/", views.season_delete,
         name="season-delete"),
    path("clubs/<slug:slug>/ratings/", views.club_ratings, name="club-ratings"),
]

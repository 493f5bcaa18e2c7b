"""Public standings pages (audience: anyone who may see the event)."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:event_id>/standings/", views.standings_page, name="event-standings"),
    path("events/<int:event_id>/players/<int:entry_id>/", views.player_page, name="event-player"),
    path("events/<int:event_id>/pairs/<int:pair_id>/", views.pair_page, name="event-pair"),
    path("events/<int:event_id>/standings.csv", views.standings_csv, name="event-standings-csv"),
    path("events/<int:event_id>/standings/wall/", views.standings_wall,
         name="event-standings-wall"),
    path("events/<int:event_id>/standings/version/", views.standings_version,
         name="event-standings-version"),
    path("events/<int:event_id>/standings/fragment/", views.standings_fragment,
         name="event-standings-fragment"),
]

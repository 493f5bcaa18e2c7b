"""Public pages: anyone who may see the club or event."""

from __future__ import annotations

from django.urls import path

from . import series_registration, views

urlpatterns = [
    path("", views.home, name="home"),
    path("health/", views.health, name="health"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("accounts/token/", views.api_token, name="api-token"),
    path("clubs/<slug:slug>/", views.club_detail, name="club-detail"),
    path("series/<int:pk>/register/", series_registration.series_register,
         name="series-register"),
]

"""The follow pages (a player's own phone) and the service worker at the site's root."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.web_manifest, name="web-manifest"),
    path("events/<int:pk>/follow/", views.follow_pick, name="follow-pick"),
    path("events/<int:pk>/follow/<int:entry_id>/", views.follow_entry, name="follow-entry"),
    path("events/<int:pk>/follow/<int:entry_id>/version/", views.follow_version,
         name="follow-version"),
    path("events/<int:pk>/follow/<int:entry_id>/subscribe/", views.follow_subscribe,
         name="follow-subscribe"),
    path("events/<int:pk>/follow/<int:entry_id>/email/", views.follow_email,
         name="follow-email"),
    path("events/<int:pk>/follow/<int:entry_id>/stop/", views.follow_stop, name="follow-stop"),
    path("follow/stop/<str:token>/", views.follow_stop_link, name="follow-stop-link"),
    path("follow/email/<str:token>/", views.follow_email_confirm, name="follow-email-confirm"),
]

"""Score entry API routes (included from ``standings.api_urls`` under ``/api/``)."""

from __future__ import annotations

from django.urls import path

from . import api as api_entry

urlpatterns = [
    path("tables/<str:token>/", api_entry.TableStateApi.as_view(), name="api-table"),
    path("tables/<str:token>/status/", api_entry.TableStatusApi.as_view(),
         name="api-table-status"),
    path("tables/<str:token>/check/", api_entry.TableCheckApi.as_view(), name="api-table-check"),
    path("tables/<str:token>/hands/", api_entry.TableHandsApi.as_view(), name="api-table-hands"),
    path("tables/<str:token>/scorer/", api_entry.TableScorerApi.as_view(),
         name="api-table-scorer"),
    path("tables/<str:token>/confirm/", api_entry.TableConfirmApi.as_view(),
         name="api-table-confirm"),
    path("events/<int:event_id>/hands/", api_entry.EventHandsApi.as_view(),
         name="api-event-hands"),
    path("events/<int:event_id>/hands/delete-last/", api_entry.EventHandDeleteLastApi.as_view(),
         name="api-event-hand-delete-last"),
    path("hands/<int:hand_id>/", api_entry.HandApi.as_view(), name="api-hand"),
    path("hands/<int:hand_id>/revisions/", api_entry.HandRevisionsApi.as_view(),
         name="api-hand-revisions"),
]

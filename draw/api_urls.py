from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("events/", api.EventListApi.as_view(), name="api-events"),
    path("events/<int:pk>/", api.EventDetailApi.as_view(), name="api-event"),
    path("events/<int:pk>/entries/", api.EventEntriesApi.as_view(), name="api-event-entries"),
    path("events/<int:pk>/rounds/", api.EventRoundsApi.as_view(), name="api-event-rounds"),
    path("events/<int:pk>/rounds/<int:number>/", api.RoundDetailApi.as_view(), name="api-round"),
]

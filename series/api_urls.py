from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("series/", api.SeriesListApi.as_view(), name="api-series-list"),
    path("series/<int:pk>/", api.SeriesDetailApi.as_view(), name="api-series"),
    path("series/<int:pk>/standings/", api.SeriesStandingsApi.as_view(),
         name="api-series-standings"),
]

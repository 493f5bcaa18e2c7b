"""Series pages: the series, its wall and CSV (anyone who may see it), the directors' form."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/<slug:slug>/series/new/", views.series_create, name="series-create"),
    path("series/<int:pk>/", views.series_detail, name="series-detail"),
    path("series/<int:pk>/edit/", views.series_edit, name="series-edit"),
    path("series/<int:pk>/delete/", views.series_delete, name="series-delete"),
    path("series/<int:pk>/wall/", views.series_wall, name="series-wall"),
    path("series/<int:pk>/wall/version/", views.series_version, name="series-version"),
    path("series/<int:pk>/wall/fragment/", views.series_fragment, name="series-fragment"),
    path("series/<int:pk>/standings.csv", views.series_csv, name="series-csv"),
]

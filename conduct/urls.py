"""Conduct pages: the director's Penalties page of an event, adjusted results, conduct records,
the table phone's call for a director, the event's public Corrections page."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("events/<int:pk>/corrections/", views.event_corrections_page,
         name="event-corrections"),
    path("events/<int:pk>/penalties/", views.event_penalties, name="event-penalties"),
    path("events/<int:pk>/penalties/<int:penalty_id>/withdraw/", views.penalty_withdraw,
         name="penalty-withdraw"),
    path("events/<int:pk>/penalty-table/", views.penalty_table_set, name="penalty-table"),
    path("events/<int:pk>/appeals/", views.event_appeal, name="event-appeal"),
    path("events/<int:pk>/rounds/<int:number>/tables/<int:table>/adjust/", views.table_adjust,
         name="table-adjust"),
    # the table's phone (its link's token): call the director, put the ruling away
    path("t/<str:token>/call/", views.table_call, name="table-call"),
    path("t/<str:token>/call/<int:call_id>/dismiss/", views.table_call_dismiss,
         name="table-call-dismiss"),
    path("clubs/<slug:slug>/players/<int:player_id>/conduct/", views.conduct_record_page,
         name="player-conduct"),
]

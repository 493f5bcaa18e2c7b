from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("events/", api.EventListApi.as_view(), name="api-events"),
    path("events/<int:pk>/", api.EventDetailApi.as_view(), name="api-event"),
    path("events/<int:pk>/finish/", api.EventFinishApi.as_view(), name="api-event-finish"),
    path("events/<int:pk>/reopen/", api.EventReopenApi.as_view(), name="api-event-reopen"),
    path("events/<int:pk>/entries/", api.EventEntriesApi.as_view(), name="api-event-entries"),
    path("events/<int:pk>/pairs/", api.EventPairsApi.as_view(), name="api-event-pairs"),
    path("events/<int:pk>/pairs/<int:pair_id>/leave/", api.PairLeaveApi.as_view(),
         name="api-pair-leave"),
    path("events/<int:pk>/bracket/", api.EventBracketApi.as_view(), name="api-event-bracket"),
    path("events/<int:pk>/seating/", api.EventSeatingApi.as_view(), name="api-event-seating"),
    path("events/<int:pk>/entries/<int:entry_id>/leave/", api.EntryLeaveApi.as_view(),
         name="api-entry-leave"),
    path("events/<int:pk>/rounds/", api.EventRoundsApi.as_view(), name="api-event-rounds"),
    path("events/<int:pk>/rounds/<int:number>/", api.RoundDetailApi.as_view(), name="api-round"),
    path("events/<int:pk>/rounds/<int:number>/start/", api.RoundStartApi.as_view(),
         name="api-round-start"),
    path("events/<int:pk>/rounds/<int:number>/close/", api.RoundCloseApi.as_view(),
         name="api-round-close"),
    path("events/<int:pk>/rounds/<int:number>/advance/", api.RoundAdvanceApi.as_view(),
         name="api-round-advance"),
    path("events/<int:pk>/rounds/<int:number>/swap/", api.RoundSwapApi.as_view(),
         name="api-round-swap"),
    path("events/<int:pk>/rounds/<int:number>/tables/<int:table>/cut/",
         api.TableCutApi.as_view(), name="api-table-cut"),
    path("events/<int:pk>/rounds/<int:number>/tables/<int:table>/forfeit/",
         api.TableForfeitApi.as_view(), name="api-table-forfeit"),
    path("events/<int:pk>/rounds/<int:number>/time/", api.RoundTimeApi.as_view(),
         name="api-round-time"),
    path("events/<int:pk>/advance/", api.EventAdvanceApi.as_view(), name="api-event-advance"),
]

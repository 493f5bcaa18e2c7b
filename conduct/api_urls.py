from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("events/<int:pk>/corrections/", api.EventCorrectionsApi.as_view(),
         name="api-corrections"),
    path("events/<int:pk>/penalties/", api.EventPenaltiesApi.as_view(), name="api-penalties"),
    path("events/<int:pk>/penalties/<int:penalty_id>/withdraw/", api.PenaltyWithdrawApi.as_view(),
         name="api-penalty-withdraw"),
    path("events/<int:pk>/penalty-table/", api.PenaltyTableApi.as_view(),
         name="api-penalty-table"),
    path("events/<int:pk>/appeals/", api.EventAppealsApi.as_view(), name="api-appeals"),
    path("events/<int:pk>/rounds/<int:number>/tables/<int:table>/adjust/",
         api.TableAdjustApi.as_view(), name="api-table-adjust"),
    path("events/<int:pk>/calls/", api.EventCallsApi.as_view(), name="api-calls"),
    path("events/<int:pk>/calls/<int:call_id>/take/", api.CallTakeApi.as_view(),
         name="api-call-take"),
    path("events/<int:pk>/calls/<int:call_id>/close/", api.CallCloseApi.as_view(),
         name="api-call-close"),
    path("tables/<str:token>/calls/", api.TableCallsApi.as_view(), name="api-table-calls"),
    path("tables/<str:token>/calls/<int:call_id>/dismiss/", api.TableCallDismissApi.as_view(),
         name="api-table-call-dismiss"),
    path("clubs/<slug:slug>/players/<int:player_id>/conduct/", api.PlayerConductApi.as_view(),
         name="api-player-conduct"),
]

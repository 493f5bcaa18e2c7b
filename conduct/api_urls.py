from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("events/<int:pk>/penalties/", api.EventPenaltiesApi.as_view(), name="api-penalties"),
    path("events/<int:pk>/penalties/<int:penalty_id>/withdraw/", api.PenaltyWithdrawApi.as_view(),
         name="api-penalty-withdraw"),
    path("events/<int:pk>/penalty-table/", api.PenaltyTableApi.as_view(),
         name="api-penalty-table"),
    path("events/<int:pk>/appeals/", api.EventAppealsApi.as_view(), name="api-appeals"),
    path("events/<int:pk>/rounds/<int:number>/tables/<int:table>/adjust/",
         api.TableAdjustApi.as_view(), name="api-table-adjust"),
    path("clubs/<slug:slug>/players/<int:player_id>/conduct/", api.PlayerConductApi.as_view(),
         name="api-player-conduct"),
]

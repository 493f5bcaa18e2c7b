"""Score entry, by audience: the table's phone (``/t/<token>/``, no login) and the director's
desktop pages (``/events/<id>/hands/``, ``/hands/<id>/history/``, ``/events/<id>/games/``).
The phone page's live fragment (``/t/<token>/live/``) and its service worker (``/t/sw.js``,
whose scope is ``/t/``) sit beside it."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    # table entry: the token in the QR code opens this table and round only
    path("t/sw.js", views.table_service_worker, name="table-service-worker"),
    path("t/<str:token>/", views.table_entry, name="table-entry"),
    path("t/<str:token>/live/", views.table_entry_live, name="table-entry-live"),
    path("t/<str:token>/hands/<int:number>/", views.table_hand_correct, name="table-hand-correct"),
    path("t/<str:token>/scorer/", views.table_set_scorer, name="table-set-scorer"),
    path("t/<str:token>/confirm/", views.table_confirm, name="table-confirm"),
    # director / scorer desktop pages
    path("events/<int:event_id>/hands/", views.director_hands, name="director-hands"),
    path("events/<int:event_id>/hands/delete-last/", views.director_hand_delete_last,
         name="director-hand-delete-last"),
    path("events/<int:event_id>/games/", views.director_games, name="director-games"),
    path("hands/<int:hand_id>/history/", views.hand_history_page, name="hand-history"),
]

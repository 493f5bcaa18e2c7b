"""Event pages: public (event page, round tables) and director actions."""

from __future__ import annotations

from django.urls import path

from . import calls, checkin, printables, screens, views

urlpatterns = [
    path("clubs/<slug:slug>/events/new/", views.event_create, name="event-create"),
    path("events/<int:pk>/", views.event_detail, name="event-detail"),
    path("events/<int:pk>/settings/", views.event_edit, name="event-edit"),
    path("events/<int:pk>/checkin/", checkin.event_checkin, name="event-checkin"),
    path("events/<int:pk>/checkin/self/", checkin.self_checkin_mode, name="checkin-self-mode"),
    path("events/<int:pk>/checkin/arrivals/", checkin.checkin_arrivals_live,
         name="checkin-arrivals"),
    path("events/<int:pk>/checkin/arrivals/<int:arrival_id>/", checkin.arrival_decide,
         name="arrival-decide"),
    path("events/<int:pk>/checkin/poster/", checkin.checkin_poster, name="checkin-poster"),
    path("events/<int:pk>/entries/<int:entry_id>/alternate/", checkin.entry_alternate,
         name="entry-alternate"),
    # the players' self check-in (the poster's QR code)
    path("events/<int:pk>/here/", checkin.self_checkin, name="self-checkin"),
    path("events/<int:pk>/here/find/", checkin.self_checkin_find_live, name="self-checkin-find"),
    path("events/<int:pk>/entries/<int:entry_id>/leave/", views.entry_leave, name="entry-leave"),
    path("events/<int:pk>/pairs/", views.event_pairs, name="event-pairs"),
    path("events/<int:pk>/bracket/", views.event_bracket_page, name="event-bracket"),
    path("events/<int:pk>/pairs/<int:pair_id>/leave/", views.pair_leave, name="pair-leave"),
    path("events/<int:pk>/finish/", views.event_finish, name="event-finish"),
    path("events/<int:pk>/reopen/", views.event_status, {"status": "running"}, name="event-reopen"),
    path("events/<int:pk>/hands.csv", views.event_hands_csv, name="event-hands-csv"),
    path("events/<int:pk>/rounds/seat/", views.round_seat, name="round-seat"),
    path("events/<int:pk>/rounds/<int:number>/", views.round_detail, name="round-detail"),
    path("events/<int:pk>/rounds/<int:number>/start/", views.round_status,
         {"status": "playing"}, name="round-start"),
    path("events/<int:pk>/rounds/<int:number>/close/", views.round_status,
         {"status": "closed"}, name="round-close"),
    path("events/<int:pk>/rounds/<int:number>/advance/", views.round_advance,
         name="round-advance"),
    path("events/<int:pk>/rounds/<int:number>/swap/", views.round_swap, name="round-swap"),
    path("events/<int:pk>/rounds/<int:number>/tables/<int:table>/forfeit/", views.table_forfeit,
         name="table-forfeit"),
    path("events/<int:pk>/rounds/<int:number>/cards/", views.table_cards, name="round-cards"),
    path("events/<int:pk>/rounds/<int:number>/sheet/", views.score_sheet, name="round-sheet"),
    # screens for a big day: the director's room view and the wall's movement board
    path("events/<int:pk>/director/", screens.event_director, name="event-director"),
    path("events/<int:pk>/director/advance/", screens.event_director_advance,
         name="event-director-advance"),
    path("events/<int:pk>/director/cut/", screens.event_director_cut, name="event-director-cut"),
    path("events/<int:pk>/director/time/", screens.event_director_time,
         name="event-director-time"),
    # the calls for a director: the directors' page, its live region, take and close
    path("events/<int:pk>/calls/", calls.event_calls_page, name="event-calls"),
    path("events/<int:pk>/calls/live/", calls.event_calls_live, name="event-calls-live"),
    path("events/<int:pk>/calls/<int:call_id>/take/", calls.event_call_take,
         name="event-call-take"),
    path("events/<int:pk>/calls/<int:call_id>/close/", calls.event_call_close,
         name="event-call-close"),

    path("events/<int:pk>/wall/movement/", screens.event_wall_movement,
         name="event-wall-movement"),
    path("events/<int:pk>/wall/seating/", screens.event_wall_seating, name="event-wall-seating"),
    path("events/<int:pk>/wall/seating/version/", screens.event_wall_seating_version,
         name="event-wall-seating-version"),
    # the rules of the evening, from the event's ruleset and format settings
    path("events/<int:pk>/rules/", views.event_rules_page, name="event-rules"),
    # printables for the day: table cards valid all day, players' scorecards, the results sheet
    path("events/<int:pk>/table-cards/", printables.day_table_cards, name="event-table-cards"),
    path("c/<str:token>/", printables.table_card, name="table-card"),
    path("events/<int:pk>/scorecards/", printables.event_scorecards, name="event-scorecards"),
    path("events/<int:pk>/scorecards/<int:entry_id>/", printables.entry_scorecard,
         name="event-scorecard"),
    path("events/<int:pk>/results/", printables.event_results, name="event-results"),
]

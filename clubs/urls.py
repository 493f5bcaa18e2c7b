"""Club management pages (``club-manage`` and its actions) and the invitation page; the public
club page is in ``public``."""

from __future__ import annotations

from django.urls import path

from . import views

urlpatterns = [
    path("clubs/new/", views.club_create, name="club-create"),
    path("clubs/<slug:slug>/manage/", views.club_manage, name="club-manage"),
    path("clubs/<slug:slug>/manage/corrections/", views.club_corrections_set,
         name="club-corrections"),
    path("clubs/<slug:slug>/manage/watchers/", views.club_watchers_set,
         name="club-watchers"),
    path("clubs/<slug:slug>/manage/language/", views.club_language_set,
         name="club-language"),
    path("i18n/setlang/", views.language_set, name="set_language"),
    path("clubs/<slug:slug>/manage/players/", views.club_player_add, name="club-player-add"),
    path("clubs/<slug:slug>/manage/merge/", views.club_player_merge, name="club-player-merge"),
    path("clubs/<slug:slug>/manage/members/", views.club_member_set, name="club-member-set"),
    path("clubs/<slug:slug>/manage/members/remove/", views.club_member_remove,
         name="club-member-remove"),
    path("clubs/<slug:slug>/manage/invitations/", views.invitation_create,
         name="invitation-create"),
    path("clubs/<slug:slug>/manage/invitations/<int:pk>/", views.invitation_detail,
         name="invitation-detail"),
    path("clubs/<slug:slug>/manage/invitations/<int:pk>/revoke/", views.invitation_revoke,
         name="invitation-revoke"),
    # the link an invitation sends (and its QR code encodes)
    path("invite/<str:token>/", views.invitation_accept, name="invitation-accept"),
]

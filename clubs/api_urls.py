from __future__ import annotations

from django.urls import path

from . import api

urlpatterns = [
    path("clubs/", api.ClubListApi.as_view(), name="api-clubs"),
    path("clubs/<slug:slug>/", api.ClubDetailApi.as_view(), name="api-club"),
    path("clubs/<slug:slug>/players/", api.ClubPlayersApi.as_view(), name="api-club-players"),
    path("clubs/<slug:slug>/players/merge/", api.ClubPlayerMergeApi.as_view(),
         name="api-club-player-merge"),
    path("clubs/<slug:slug>/members/", api.ClubMembersApi.as_view(), name="api-club-members"),
    path("clubs/<slug:slug>/members/remove/", api.ClubMemberRemoveApi.as_view(),
         name="api-club-member-remove"),
    path("clubs/<slug:slug>/invitations/", api.ClubInvitationsApi.as_view(),
         name="api-club-invitations"),
    path("clubs/<slug:slug>/invitations/<int:pk>/revoke/", api.ClubInvitationRevokeApi.as_view(),
         name="api-club-invitation-revoke"),
    path("me/language/", api.MyLanguageApi.as_view(), name="api-me-language"),
    path("invitations/<str:token>/accept/", api.InvitationAcceptApi.as_view(),
         name="api-invitation-accept"),
]

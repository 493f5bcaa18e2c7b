"""A person's data through the API: ``GET /api/me/data/`` (their own, never anyone else's),
``POST /api/me/erase/`` (``{"confirm": "<your user name>"}``) and a director's
``GET /api/clubs/{slug}/players/{id}/data/`` (what the club holds about one of its players).

Token or session authentication; anonymous requests answer 401. A wrong or missing
confirmation answers 400 naming ``confirm``; a club's last owner, or a person entered in an
event that is not over (naming it), 400 naming ``account``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from django.contrib.auth import logout
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from clubs.models import Club, Membership, Player
from clubs.permissions import check_club_role

from .selectors import account_export, player_known_to_club
from .services import account_erase, club_player_export

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class EraseInput(serializers.Serializer[object]):
    confirm = serializers.CharField(
        required=False, allow_blank=True, trim_whitespace=False,
        help_text="Your user name, typed again: nothing is erased without it.")


class EraseOutput(serializers.Serializer[object]):
    erased = serializers.BooleanField()
    player_id = serializers.IntegerField(
        allow_null=True, help_text="The player row kept for the clubs' results, now named "
        "\"Withdrawn player\"; null for an account without a player.")
    events = serializers.ListField(child=serializers.IntegerField(),
                                   help_text="The events whose stored names were replaced.")


class MyDataApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_data",
        summary="Everything held about you, as one JSON document",
        responses={200: OpenApiTypes.OBJECT, **error_responses(401)}, tags=["privacy"],
    )
    def get(self, request: Request) -> Response:
        return Response(account_export(user=cast("User", request.user)))


class MyErasureApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="me_erase",
        summary="Erase your account; your results stay, as \"Withdrawn player\"",
        request=EraseInput,
        responses={200: EraseOutput, **error_responses(400, 401)}, tags=["privacy"],
    )
    def post(self, request: Request) -> Response:
        data = EraseInput(data=request.data)
        data.is_valid(raise_exception=True)
        erased = account_erase(user=cast("User", request.user),
                               confirm=data.validated_data.get("confirm"))
        logout(request._request)
        return Response(EraseOutput({"erased": True, "player_id": erased.player_id,
                                     "events": erased.events}).data)


class ClubPlayerDataApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_player_data",
        summary="What the club holds about one of its players (directors), for a player who "
                "asked in person",
        responses={200: OpenApiTypes.OBJECT, **error_responses(401, 403, 404)},
        tags=["privacy"],
    )
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role=Membership.Role.DIRECTOR)
        player = get_object_or_404(Player, pk=player_id)
        if not player_known_to_club(player=player, club=club):
            raise Http404(gettext("No such player"))
        return Response(club_player_export(club=club, player=player, actor=request.user))

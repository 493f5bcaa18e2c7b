"""Club API: input serializer → service → output serializer; permissions as on the pages."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .models import Club, Player
from .permissions import check_club_role, check_view_club, visible_clubs


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["slug", "name", "time_zone", "ruleset_preset", "ruleset_overrides", "is_public"]


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name"]


class PlayerInput(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class ClubListApi(APIView):
    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request: Request) -> Response:
        return Response(ClubOutput(visible_clubs(user=request.user), many=True).data)


class ClubDetailApi(APIView):
    @extend_schema(responses=ClubOutput)
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_view_club(user=request.user, club=club)
        return Response(ClubOutput(club).data)


class ClubPlayersApi(APIView):
    def get_permissions(self) -> list[BasePermission]:
        return [IsAuthenticated()]

    @extend_schema(responses=PlayerOutput(many=True))
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="scorer")
        players = Player.objects.filter(club_links__club=club).order_by("name")
        return Response(PlayerOutput(players, many=True).data)

    @extend_schema(request=PlayerInput, responses={201: PlayerOutput})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = PlayerInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(club=club, **data.validated_data)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)

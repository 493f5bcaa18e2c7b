"""Club API: input serializer → service → output serializer; permissions as on the pages.

What a director (or owner) can do on the club pages, the API can do too: create a club (the
creator becomes its owner), add players to the roster, merge a duplicate player, and (owners)
give users a role. People outside a private club get 404; members without the role get 403.
Errors have the house shape ``{"errors": [{"field", "code", "message"}]}`` (``common.api``).
"""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from . import services
from .models import Club, Membership, Player
from .permissions import check_club_role, check_view_club, visible_clubs


# --- errors (the house shape, produced by common.api.exception_handler) --------------------------
class ApiErrorItem(serializers.Serializer[Any]):
    field = serializers.CharField(help_text="The input field concerned, or __all__.")
    code = serializers.CharField()
    message = serializers.CharField()


class ApiErrors(serializers.Serializer[Any]):
    errors = ApiErrorItem(many=True)  # type: ignore[assignment]  # the house error shape


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an endpoint really answers."""
    text = {
        400: "Invalid input; each error names its field.",
        403: "Not signed in (or a bad token), or signed in without the needed role in the club. "
             "(Session authentication comes first, so a missing login is 403, not 401.)",
        404: "No such object, or a private club's object and you are not a member.",
        409: "Someone changed it first.",
    }
    return {code: OpenApiResponse(ApiErrors, description=text[code]) for code in codes}


def roster_player(club: Club, player_id: int, *, field: str) -> Player:
    """A player of the club's roster, or a 400 on ``field`` that says nothing about anyone else's
    players (an id from another club looks exactly like an id that does not exist)."""
    player = Player.objects.filter(pk=player_id, club_links__club=club).first()
    if player is None:
        raise serializers.ValidationError({field: ["No such player on this club's roster."]})
    return player


# --- serializers ----------------------------------------------------------------------------------
class ClubOutput(serializers.ModelSerializer[Club]):
    class Meta:
        model = Club
        fields = ["slug", "name", "time_zone", "ruleset_preset", "ruleset_overrides", "is_public"]


class ClubInput(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60, required=False, allow_blank=True, default="",
                                 help_text="Web address; made from the name when empty.")
    time_zone = serializers.CharField(max_length=64, required=False, default="UTC")
    ruleset_preset = serializers.CharField(max_length=40, required=False,
                                           default="pagat_double_deck")
    ruleset_overrides = serializers.DictField(required=False, allow_null=True, default=None)
    is_public = serializers.BooleanField(required=False, default=True)


class PlayerOutput(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name"]


class PlayerInput(serializers.Serializer[Any]):
    name = serializers.CharField(max_length=120)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class MergeInput(serializers.Serializer[Any]):
    keep = serializers.IntegerField(help_text="Id of the player to keep.")
    duplicate = serializers.IntegerField(help_text="Id of the duplicate, merged in and removed.")


class MemberOutput(serializers.Serializer[Any]):
    username = serializers.CharField(source="user.username")
    role = serializers.CharField()


class MemberInput(serializers.Serializer[Any]):
    username = serializers.CharField(max_length=150)
    role = serializers.ChoiceField(choices=Membership.Role.choices)


# --- endpoints ------------------------------------------------------------------------------------
class ClubListApi(APIView):
    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request: Request) -> Response:
        return Response(ClubOutput(visible_clubs(user=request.user), many=True).data)

    @extend_schema(
        operation_id="club_create", summary="Create a club (you become its owner)",
        request=ClubInput, responses={201: ClubOutput, **error_responses(400, 403)},
    )
    def post(self, request: Request) -> Response:
        data = ClubInput(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_create(owner=request.user, **data.validated_data)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(APIView):
    @extend_schema(responses={200: ClubOutput, **error_responses(404)})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_view_club(user=request.user, club=club)
        return Response(ClubOutput(club).data)


class ClubPlayersApi(APIView):
    def get_permissions(self) -> list[BasePermission]:
        return [IsAuthenticated()]

    @extend_schema(responses={200: PlayerOutput(many=True), **error_responses(403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="scorer")
        players = Player.objects.filter(club_links__club=club).order_by("name")
        return Response(PlayerOutput(players, many=True).data)

    @extend_schema(request=PlayerInput,
                   responses={201: PlayerOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = PlayerInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = services.player_create(club=club, **data.validated_data)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class ClubPlayerMergeApi(APIView):
    """Fold a duplicate player into another (directors); both must be on this club's roster."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="club_player_merge", request=MergeInput,
                   responses={200: PlayerOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = MergeInput(data=request.data)
        data.is_valid(raise_exception=True)
        keep = roster_player(club, data.validated_data["keep"], field="keep")
        duplicate = roster_player(club, data.validated_data["duplicate"], field="duplicate")
        kept = services.player_merge(club=club, keep=keep, duplicate=duplicate)
        return Response(PlayerOutput(kept).data)


class ClubMembersApi(APIView):
    """The club's members and their roles (directors see them; owners change them)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="club_members",
                   responses={200: MemberOutput(many=True), **error_responses(403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        members = Membership.objects.filter(club=club).select_related("user").order_by(
            "user__username")
        return Response(MemberOutput(members, many=True).data)

    @extend_schema(operation_id="club_member_set", summary="Give a user a role (owners)",
                   request=MemberInput,
                   responses={200: MemberOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="owner")
        data = MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_set(club=club, actor=request.user, **data.validated_data)
        return Response(MemberOutput(membership).data)


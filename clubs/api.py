"""Club API: input serializer → service → output serializer; permissions as on the pages.

What a director (or owner) can do on the club pages, the API can do too: create a club (the
creator becomes its owner), add players to the roster, merge a duplicate player, give users a
role or take it away (directors: member and scorer; owners: any role), and make, list and revoke
invitation links; owners set the club's rules for corrections (``PATCH /api/clubs/<slug>/``);
anyone signed in accepts an invitation by its token. People outside a private
club get 404; members without the role get 403. Errors have the house shape
``{"errors": [{"field", "code", "message"}]}`` (``common.api``); an invitation that no longer
works answers 410 with the reason in ``code`` (``expired``, ``revoked``, ``used_up``).
"""

from __future__ import annotations

from collections.abc import Mapping

from django.db import transaction
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.errors import DomainError
from common.http import public_url

from . import selectors, services
from .models import Club, Invitation, Membership, Player
from .permissions import check_club_role, check_view_club, visible_clubs


# --- errors (the house shape, produced by common.api.exception_handler) --------------------------
class ApiErrorItem(serializers.Serializer[object]):
    field = serializers.CharField(help_text="The input field concerned, or __all__.")
    code = serializers.CharField()
    message = serializers.CharField()


class ApiErrors(serializers.Serializer[object]):
    errors = ApiErrorItem(many=True)  # type: ignore[assignment]  # the house error shape


def error_responses(*codes: int) -> dict[int, OpenApiResponse]:
    """Schema entries for the error statuses an endpoint really answers."""
    text = {
        400: "Invalid input; each error names its field.",
        401: "Not signed in, or a wrong, regenerated or inactive user's token "
             "(`WWW-Authenticate: Token`).",
        403: "Signed in without the needed role in the club.",
        404: "No such object, or a private club's object and you are not a member.",
        409: "Someone changed it first.",
        410: "The invitation no longer works: code expired, revoked or used_up.",
        413: "The file is larger than an upload may be (`file`, with the limit).",
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
        fields = ["slug", "name", "time_zone", "ruleset_preset", "ruleset_overrides", "is_public",
                  "show_director_names", "correction_window_minutes", "language",
                  "show_watchers"]


class ClubInput(serializers.Serializer[object]):
    name = serializers.CharField(max_length=120, min_length=1)
    slug = serializers.SlugField(max_length=60, required=False, allow_blank=True, default="",
                                 help_text="Web address; made from the name when empty.")
    time_zone = serializers.CharField(max_length=64, required=False, default="UTC")
    ruleset_preset = serializers.CharField(max_length=40, required=False,
                                           default="pagat_double_deck")
    ruleset_overrides = serializers.DictField(required=False, allow_null=True, default=None)
    is_public = serializers.BooleanField(required=False, default=True)


class ClubCorrectionsInput(serializers.Serializer[object]):
    show_director_names = serializers.BooleanField(
        required=False, help_text="Name the director on the events' public Corrections lists "
        "(otherwise only the role).")
    correction_window_minutes = serializers.IntegerField(
        required=False, allow_null=True, help_text="Minutes after an event finishes after "
        "which its results lock and only an owner reopens it; null: no lock.")
    language = serializers.CharField(
        required=False, allow_blank=True, help_text="The language of the club's pages, walls "
        "and mails for readers who chose none (\"en\", \"de\"); \"\": each reader's own.")
    show_watchers = serializers.BooleanField(
        required=False, help_text="The public pages of a running event say how many people are "
        "watching it now (counted anonymously from the open pages).")


class LanguageInput(serializers.Serializer[object]):
    language = serializers.CharField(allow_blank=True, help_text="\"en\" or \"de\"; \"\" "
                                     "forgets the choice (the browser's language again).")


class PlayerOutput(serializers.ModelSerializer[Player]):
    class Meta:
        model = Player
        fields = ["id", "name"]


class PlayerInput(serializers.Serializer[object]):
    name = serializers.CharField(max_length=120, min_length=1)
    email = serializers.EmailField(required=False, allow_blank=True, default="")


class MergeInput(serializers.Serializer[object]):
    keep = serializers.IntegerField(help_text="Id of the player to keep.")
    duplicate = serializers.IntegerField(help_text="Id of the duplicate, merged in and removed.")


class MemberOutput(serializers.Serializer[object]):
    username = serializers.CharField(source="user.username")
    role = serializers.CharField()


class MemberInput(serializers.Serializer[object]):
    username = serializers.CharField(max_length=150, min_length=1)
    role = serializers.ChoiceField(choices=Membership.Role.choices)


class MemberRemoveInput(serializers.Serializer[object]):
    username = serializers.CharField(max_length=150, min_length=1)


class InvitationOutput(serializers.ModelSerializer[Invitation]):
    url = serializers.SerializerMethodField(help_text="The link to send or show as a QR code.")
    created_by = serializers.SerializerMethodField()
    state = serializers.SerializerMethodField(
        help_text="active, or why the link no longer works: revoked, expired, used_up.")

    class Meta:
        model = Invitation
        fields = ["id", "role", "note", "token", "url", "created_by", "created_at", "expires_at",
                  "max_uses", "uses", "revoked_at", "state"]

    def get_url(self, invitation: Invitation) -> str:
        path = reverse("invitation-accept", args=[invitation.token])
        return public_url(self.context["request"], path)

    def get_created_by(self, invitation: Invitation) -> str | None:
        return invitation.created_by.get_username() if invitation.created_by else None

    def get_state(self, invitation: Invitation) -> str:
        return invitation.refusal() or "active"


class InvitationInput(serializers.Serializer[object]):
    role = serializers.ChoiceField(choices=Invitation.Role.choices,
                                   help_text="Directors invite members and scorers; owners also "
                                             "directors.")
    days = serializers.IntegerField(required=False, default=Invitation.DEFAULT_DAYS,
                                    min_value=1, max_value=Invitation.MAX_DAYS,
                                    help_text="How long the link works.")
    max_uses = serializers.IntegerField(required=False, allow_null=True, default=None,
                                        min_value=1, max_value=Invitation.MAX_USES,
                                        help_text="How many people may use it; null: no limit. "
                                                  "A director invitation works once.")
    note = serializers.CharField(required=False, allow_blank=True, default="", max_length=80)


class InvitationAcceptOutput(serializers.Serializer[object]):
    club = serializers.CharField(source="club.slug")
    role = serializers.CharField(help_text="Your role in the club now.")
    changed = serializers.BooleanField(
        help_text="False when you already had this role or a higher one (nothing changed).")


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

    @extend_schema(
        operation_id="club_corrections_set", summary="The club's settings (owners)",
        description="Whether the public Corrections list names the director, the "
                    "correction window after an event finishes, the club's language, and "
                    "whether its running events' public pages count who watches. "
                    "Fields left out are unchanged.",
        request=ClubCorrectionsInput, responses={200: ClubOutput, **error_responses(400, 403, 404)},
    )
    def patch(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role=Membership.Role.OWNER)
        body = request.data if isinstance(request.data, Mapping) else {}
        unknown = sorted(set(body) - {"show_director_names", "correction_window_minutes",
                                      "language", "show_watchers"})
        if unknown:
            raise DomainError(gettext("Only show_director_names, correction_window_minutes, "
                                      "language and show_watchers change here."),
                              field=unknown[0])
        with transaction.atomic():
            if "language" in body:
                club = services.club_language_set(club=club, actor=request.user,
                                                  language=body["language"])
            if "show_watchers" in body:
                club = services.club_watchers_set(club=club, actor=request.user,
                                                  show_watchers=body["show_watchers"])
            club = services.club_corrections_set(club=club, actor=request.user, **{
                key: body[key] for key in ("show_director_names", "correction_window_minutes")
                if key in body})
        return Response(ClubOutput(club).data)


class MyLanguageApi(APIView):
    """The signed-in account's own language (as the switcher on the account pages sets it)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="me_language_set", summary="Your language",
                   description="Pages, walls and mails in this language for your account, "
                               "whatever a club's language or the browser's.",
                   request=LanguageInput, responses={200: LanguageInput,
                                                     **error_responses(400, 403)})
    def put(self, request: Request) -> Response:
        row = services.account_language_set(user=request.user,
                                            language=request.data.get("language")
                                            if isinstance(request.data, Mapping) else None)
        return Response({"language": row.language})


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
        return Response(MemberOutput(selectors.club_members(club=club), many=True).data)

    @extend_schema(operation_id="club_member_set",
                   summary="Give a user a role (directors: member or scorer; owners: any)",
                   request=MemberInput,
                   responses={200: MemberOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = MemberInput(data=request.data)
        data.is_valid(raise_exception=True)
        membership = services.membership_set(club=club, actor=request.user, **data.validated_data)
        return Response(MemberOutput(membership).data)


class ClubMemberRemoveApi(APIView):
    """Take someone out of the club (directors: members and scorers; owners: anyone but the
    last owner)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="club_member_remove", request=MemberRemoveInput,
                   summary="Take someone out of the club; answers the members left",
                   responses={200: MemberOutput(many=True), **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = MemberRemoveInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.membership_remove(club=club, actor=request.user, **data.validated_data)
        return Response(MemberOutput(selectors.club_members(club=club), many=True).data)


class ClubInvitationsApi(APIView):
    """Invitation links of a club: directors list and make member and scorer links, owners
    director links too (a director never sees a director link)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="club_invitations", summary="The club's working invitations",
                   parameters=[OpenApiParameter("all", bool, description=(
                       "Also the expired, revoked and used-up ones."))],
                   responses={200: InvitationOutput(many=True), **error_responses(403, 404)})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        everything = str(request.query_params.get("all", "")).lower() in {"1", "true", "yes"}
        rows = selectors.invitations_for(club=club, user=request.user, active_only=not everything)
        return Response(InvitationOutput(rows, many=True, context={"request": request}).data)

    @extend_schema(operation_id="club_invitation_create", summary="Make an invitation link",
                   request=InvitationInput,
                   responses={201: InvitationOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = InvitationInput(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = services.invitation_create(club=club, actor=request.user,
                                                **data.validated_data)
        return Response(InvitationOutput(invitation, context={"request": request}).data,
                        status=status.HTTP_201_CREATED)


class ClubInvitationRevokeApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="club_invitation_revoke", request=None,
                   summary="Revoke an invitation (its link stops working)",
                   responses={200: InvitationOutput, **error_responses(403, 404)})
    def post(self, request: Request, slug: str, pk: int) -> Response:
        invitation = selectors.managed_invitation(slug=slug, pk=pk, user=request.user)
        invitation = services.invitation_revoke(invitation=invitation, actor=request.user)
        return Response(InvitationOutput(invitation, context={"request": request}).data)


class InvitationAcceptApi(APIView):
    """Accept an invitation: you get its role in its club (never a lower role than you have)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="invitation_accept", request=None,
                   responses={200: InvitationAcceptOutput, **error_responses(403, 404, 410)})
    def post(self, request: Request, token: str) -> Response:
        try:
            membership, changed = services.invitation_accept(token=token, user=request.user)
        except DomainError as exc:
            if exc.code == "not_found":
                raise Http404(gettext("No such invitation")) from None
            if exc.code in services.INVITATION_REFUSALS:
                return Response(
                    {"errors": [{"field": exc.field, "code": exc.code, "message": exc.message}]},
                    status=status.HTTP_410_GONE)
            raise
        return Response(InvitationAcceptOutput(
            {"club": membership.club, "role": membership.role, "changed": changed}).data)


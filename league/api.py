"""League API: a club's seasons (directors create, change and delete them), a season's
leaderboard, the club's ratings, and a player's rating with its history. Permissions as on the
pages: people outside a private club get 404, members without the role 403."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from clubs.models import Club
from clubs.permissions import check_club_role, check_view_club

from . import selectors, services
from .models import BEST_N_LIMIT, MIN_NIGHTS_LIMIT, Season


# --- serializers ----------------------------------------------------------------------------------
class SeasonOutput(serializers.ModelSerializer[Season]):
    class Meta:
        model = Season
        fields = ["id", "name", "starts_on", "ends_on", "counting", "best_n", "min_nights",
                  "events"]


class SeasonInput(serializers.Serializer[object]):
    name = serializers.CharField(max_length=80)
    starts_on = serializers.DateField()
    ends_on = serializers.DateField()
    counting = serializers.ChoiceField(choices=Season.Counting.choices, required=False,
                                       default=Season.Counting.TOTAL,
                                       help_text="How the leaderboard ranks.")
    best_n = serializers.IntegerField(required=False, allow_null=True, default=None,
                                      min_value=1, max_value=BEST_N_LIMIT,
                                      help_text="With counting best_n: how many nights count.")
    min_nights = serializers.IntegerField(required=False, default=1, min_value=0,
                                          max_value=MIN_NIGHTS_LIMIT,
                                          help_text="Nights a player needs to be ranked.")
    events = serializers.ChoiceField(choices=Season.Events.choices, required=False,
                                     default=Season.Events.CLUB_NIGHTS,
                                     help_text="club_nights: club nights only; all: every "
                                               "finished event of the club.")


class SeasonPatch(SeasonInput):
    """The same fields, each optional (the others keep their values)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class RatingOutput(serializers.Serializer[object]):
    mu = serializers.FloatField(help_text="The skill estimate.")
    sigma = serializers.FloatField(help_text="Its uncertainty (one standard deviation).")
    ordinal = serializers.FloatField(help_text="The rating shown: mu - 3 sigma.")
    games = serializers.IntegerField(help_text="Confirmed games rated.")


class LeaderboardRowOutput(serializers.Serializer[object]):
    rank = serializers.IntegerField(allow_null=True, help_text="Null: not yet qualified.")
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    nights = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Total points over the nights.")
    average = serializers.FloatField(help_text="Points per night.")
    best = serializers.IntegerField(allow_null=True, help_text="Best-N seasons: the best N "
                                                                "nights' points.")
    wins = serializers.IntegerField(help_text="Games won.")
    firsts = serializers.IntegerField(help_text="Events finished first.")
    score = serializers.FloatField(help_text="What the season ranks by.")
    rating = RatingOutput(allow_null=True)


class LeaderboardOutput(serializers.Serializer[object]):
    season = SeasonOutput()
    events = serializers.IntegerField(help_text="Events counted.")
    ranked = LeaderboardRowOutput(many=True)
    unqualified = LeaderboardRowOutput(many=True, help_text="Fewer nights than min_nights.")


class ClubRatingOutput(RatingOutput):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class RatingPointOutput(serializers.Serializer[object]):
    at = serializers.DateTimeField(help_text="When the game was confirmed (or ended).")
    game_id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    event_name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()


class PlayerRatingsOutput(serializers.Serializer[object]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = RatingOutput(allow_null=True, help_text="Null until a confirmed game is rated.")
    history = RatingPointOutput(many=True, help_text="After each game, oldest first (games of "
                                                     "events you may not see are left out).")


# --- endpoints ------------------------------------------------------------------------------------
def _season(club: Club, pk: int) -> Season:
    season = Season.objects.filter(club=club, pk=pk).select_related("club").first()
    if season is None:
        raise Http404(gettext("No such season"))
    return season


class ClubSeasonsApi(APIView):
    @extend_schema(operation_id="club_seasons", responses={200: SeasonOutput(many=True),
                                                           **error_responses(404)})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_view_club(user=request.user, club=club)
        return Response(SeasonOutput(selectors.club_seasons(club=club), many=True).data)

    @extend_schema(operation_id="season_create", summary="Create a season (directors)",
                   request=SeasonInput,
                   responses={201: SeasonOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = SeasonInput(data=request.data)
        data.is_valid(raise_exception=True)
        season = services.season_create(club=club, actor=request.user, **data.validated_data)
        return Response(SeasonOutput(season).data, status=status.HTTP_201_CREATED)


class SeasonApi(APIView):
    @extend_schema(operation_id="season_get", responses={200: SeasonOutput,
                                                         **error_responses(404)})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_view_club(user=request.user, club=club)
        return Response(SeasonOutput(_season(club, pk)).data)

    @extend_schema(operation_id="season_update", summary="Change a season (directors)",
                   request=SeasonPatch,
                   responses={200: SeasonOutput, **error_responses(400, 403, 404)})
    def patch(self, request: Request, slug: str, pk: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        season = _season(club, pk)
        data = SeasonPatch(data=request.data)
        data.is_valid(raise_exception=True)
        changes = {k: v for k, v in data.validated_data.items() if k in request.data}
        season = services.season_update(season=season, actor=request.user, **changes)
        return Response(SeasonOutput(season).data)

    @extend_schema(operation_id="season_delete", summary="Delete a season (directors)",
                   request=None, responses={204: None, **error_responses(403, 404)})
    def delete(self, request: Request, slug: str, pk: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        services.season_delete(season=_season(club, pk), actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeasonLeaderboardApi(APIView):
    @extend_schema(operation_id="season_leaderboard",
                   responses={200: LeaderboardOutput, **error_responses(404)})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_view_club(user=request.user, club=club)
        board = selectors.season_leaderboard(season=_season(club, pk))
        return Response(LeaderboardOutput(board).data)


class ClubRatingsApi(APIView):
    @extend_schema(operation_id="club_ratings",
                   responses={200: ClubRatingOutput(many=True), **error_responses(404)})
    def get(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_view_club(user=request.user, club=club)
        return Response(ClubRatingOutput(selectors.club_ratings(club=club), many=True).data)


class PlayerRatingsApi(APIView):
    @extend_schema(operation_id="player_ratings",
                   responses={200: PlayerRatingsOutput, **error_responses(404)})
    def get(self, request: Request, player_id: int) -> Response:
        """A player's rating and its history; 404 unless you may see an event the player
        played in (or, for a player who never played, a club of their roster)."""
        player = selectors.rated_player_get(player_id=player_id, user=request.user)
        if player is None:
            raise Http404(gettext("No such player"))
        return Response(PlayerRatingsOutput({
            "player_id": player.pk, "name": player.name,
            "rating": selectors.ratings_for(player_ids=[player.pk]).get(player.pk),
            "history": selectors.rating_history(player_id=player.pk, user=request.user),
        }).data)

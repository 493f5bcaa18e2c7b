"""Player profile API: ``GET /api/players/{id}/profile/`` answers what the profile page shows.

Only events the caller may see count (a private club's events need a membership); a player
with none answers 404, like the page. Read through the same selector as the page.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from league.api import RatingOutput, RatingPointOutput

from .selectors import player_profile


class ProfilePlayerOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()


class ProfileClubOutput(serializers.Serializer[object]):
    slug = serializers.CharField()
    name = serializers.CharField()
    events = serializers.IntegerField(help_text="The player's events in this club (visible ones).")


class ProfileEventClubOutput(serializers.Serializer[object]):
    slug = serializers.CharField()
    name = serializers.CharField()


class ProfileEventOutput(serializers.Serializer[object]):
    event_id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(help_text="The event's date (in its club's time zone).")
    started_at = serializers.CharField(
        allow_null=True, help_text="When the player's first round started (ISO 8601, in the "
        "club's time zone, with its UTC offset); null before it starts.")
    time_zone = serializers.CharField(help_text="The club's time zone.")
    club = ProfileEventClubOutput()
    format = serializers.CharField()
    format_label = serializers.CharField()
    status = serializers.CharField()
    is_pairs = serializers.BooleanField()
    ruleset = serializers.CharField(help_text="The event's ruleset preset (the analytics group).")
    entry_id = serializers.IntegerField()
    pair_id = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(
        allow_null=True, help_text="The final place once the event is finished, the standings' "
        "rank before; null when not placed (an alternate) or no standings yet.")
    of = serializers.IntegerField(allow_null=True, help_text="How many places (or ranked rows).")
    tied = serializers.BooleanField(help_text="The place is shared.")
    points = serializers.IntegerField(allow_null=True,
                                      help_text="Standings points (byes included; a pair's).")
    wins = serializers.IntegerField(allow_null=True, help_text="Standings wins (a pair's).")
    games = serializers.IntegerField(help_text="The player's finished games.")
    points_per_game = serializers.FloatField(
        allow_null=True, help_text="The player's side's points per finished game, from the hands.")


class ProfileCompanyOutput(serializers.Serializer[object]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    games = serializers.IntegerField(help_text="Finished games at the same table.")
    wins = serializers.IntegerField(help_text="Of those, won by the player's side.")
    losses = serializers.IntegerField(help_text="Of those, lost by the player's side.")


class ProfileBidBucketOutput(serializers.Serializer[object]):
    low = serializers.IntegerField()
    high = serializers.IntegerField(help_text="The highest bid of the ladder in the bucket.")
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    bids = serializers.IntegerField()
    made = serializers.IntegerField()
    set = serializers.IntegerField(help_text="Set in play (or by the declaring side's renege).")
    board_set = serializers.IntegerField()
    surrendered = serializers.IntegerField()


class ProfileEventFiguresOutput(serializers.Serializer[object]):
    event_id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    games = serializers.IntegerField()
    points = serializers.IntegerField()
    points_per_game = serializers.FloatField()
    stderr = serializers.FloatField(allow_null=True,
                                    help_text="Standard error of the mean (two games or more).")


class ProfileAnalyticsOutput(serializers.Serializer[object]):
    ruleset = serializers.CharField()
    title = serializers.CharField()
    events = serializers.IntegerField()
    hands = serializers.IntegerField(help_text="Live, not deleted hands, misdeals apart.")
    misdeals = serializers.IntegerField()
    declared = serializers.IntegerField(help_text="Hands the player won the bid.")
    declared_share = serializers.FloatField(allow_null=True)
    made = serializers.IntegerField()
    set = serializers.IntegerField()
    board_set = serializers.IntegerField()
    surrendered = serializers.IntegerField()
    made_share = serializers.FloatField(allow_null=True)
    reneges = serializers.IntegerField(help_text="Reneges by the player.")
    meld_per_hand = serializers.FloatField(allow_null=True,
                                           help_text="The player's side's meld per hand.")
    meld_on_own_bids = serializers.FloatField(
        allow_null=True, help_text="The player's side's meld on hands the player declared.")
    games = serializers.IntegerField(help_text="Finished games.")
    points = serializers.IntegerField(help_text="The player's side's points in them.")
    points_per_game = serializers.FloatField(allow_null=True)
    bids = ProfileBidBucketOutput(many=True)
    per_event = ProfileEventFiguresOutput(many=True, help_text="Oldest first.")


class ProfileRatingOutput(serializers.Serializer[object]):
    current = RatingOutput()
    history = RatingPointOutput(
        many=True, help_text="The rating after each rated game of the events you may see, "
        "oldest first.")


class PlayerProfileOutput(serializers.Serializer[object]):
    player = ProfilePlayerOutput()
    clubs = ProfileClubOutput(many=True)
    events = ProfileEventOutput(many=True, help_text="Newest first.")
    partners = ProfileCompanyOutput(many=True, help_text="Most games first.")
    opponents = ProfileCompanyOutput(many=True, help_text="Most games first.")
    analytics = ProfileAnalyticsOutput(
        many=True, help_text="The hands' figures, one group per ruleset (scales differ), most "
        "hands first.")
    rating = ProfileRatingOutput(allow_null=True, help_text="Null for a player not rated yet.")


class PlayerProfileApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="player_profile",
        summary="A player's events, partners, opponents and hand figures across clubs",
        responses={200: PlayerProfileOutput, **error_responses(404)},
        tags=["players"],
    )
    def get(self, request: Request, player_id: int) -> Response:
        profile = player_profile(player_id=player_id, user=request.user)
        return Response(PlayerProfileOutput(profile.to_dict()).data)

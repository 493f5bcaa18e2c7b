"""Series API: a director of a club creates a series of the club's events (and of partner
clubs' events), changes or deletes it; anyone who may see the series reads it and its standings
(computed from the events the caller may see). People who may not see the series get 404;
signed-in callers without a director role in one of its clubs get 403."""

from __future__ import annotations

from typing import Any, TypedDict

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from clubs.models import Club
from clubs.permissions import check_club_role, visible_clubs
from common.errors import DomainError

from . import selectors, services
from .models import MAX_EVENTS, Series
from .selectors import LineRow


class PlayerRef(TypedDict):
    id: int
    name: str


# --- serializers ----------------------------------------------------------------------------------
class SeriesInput(serializers.Serializer[object]):
    """For the schema: the services check every field and name it (``events.2``, ``points.0``)."""

    name = serializers.CharField(max_length=120)
    club = serializers.CharField(help_text="The owning club's slug (or id); POST only.")
    description = serializers.CharField(required=False, allow_blank=True, max_length=300)
    events = serializers.ListField(child=serializers.IntegerField(), max_length=MAX_EVENTS,
                                   help_text="Event ids, of the club or of a partner club.")
    points_rule = serializers.ChoiceField(choices=Series.PointsRule.choices, required=False,
                                          help_text="table: points by place; field: a share of "
                                                    "`points[0]` by the part of the field beaten.")
    points = serializers.ListField(child=serializers.IntegerField(min_value=0),
                                   help_text="table: the points of place 1, 2, … (not "
                                             "increasing); field: [what the winner earns].")
    best_of = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                       help_text="Only a player's best N event scores count.")
    min_events = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                          help_text="Events a player needs to be ranked.")
    partner_clubs = serializers.ListField(child=serializers.CharField(), required=False,
                                          help_text="Clubs (slugs) whose events may be in the "
                                                    "series and whose directors manage it too.")
    prizes = serializers.JSONField(required=False, help_text=(
        "{\"currency\": \"$\", \"payouts\": [{\"place\": 1, \"amount\": \"300\"}], "
        "\"side\": [{\"kind\": \"high_game\" | \"high_hand\", \"label\": \"High game of the "
        "week\", \"amount\": \"50\"}]}"))


class SeriesPatch(SeriesInput):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, partial=True, **kwargs)


class SeriesOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField()
    club = serializers.CharField(source="club.slug")
    partner_clubs = serializers.SerializerMethodField()
    events = serializers.SerializerMethodField(help_text="The event ids you may see.")
    points_rule = serializers.CharField()
    points = serializers.ListField(child=serializers.IntegerField())
    best_of = serializers.IntegerField(allow_null=True)
    min_events = serializers.IntegerField(allow_null=True)
    prizes = serializers.JSONField()
    standings_url = serializers.SerializerMethodField()

    def get_partner_clubs(self, obj: Series) -> list[str]:
        return [c.slug for c in obj.partner_clubs.all()]

    def get_events(self, obj: Series) -> list[int]:
        shown, _ = selectors.series_events(series=obj, user=self.context.get("user"))
        return [e.pk for e in shown]

    def get_standings_url(self, obj: Series) -> str:
        return f"/api/series/{obj.pk}/standings/"


class CellOutput(serializers.Serializer[object]):
    event_id = serializers.IntegerField()
    played = serializers.BooleanField(help_text="Placed in this (finished) event.")
    place = serializers.IntegerField(allow_null=True)
    points = serializers.IntegerField(allow_null=True)
    counted = serializers.BooleanField(help_text="False: dropped by the best-N rule.")
    results_url = serializers.CharField(help_text="The player's (pair's) results there.")


class PlayerOutput(serializers.Serializer[object]):
    id = serializers.IntegerField(source="player_id")
    name = serializers.CharField()


class LineOutput(serializers.Serializer[object]):
    rank = serializers.IntegerField(allow_null=True, help_text="Null: not yet qualified.")
    tied = serializers.BooleanField()
    qualified = serializers.BooleanField()
    player = serializers.SerializerMethodField()
    total = serializers.IntegerField(help_text="The counted events' points.")
    played = serializers.IntegerField()
    firsts = serializers.IntegerField()
    best_place = serializers.IntegerField(allow_null=True)
    prize = serializers.CharField(allow_null=True)
    events = CellOutput(many=True)

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_player(self, obj: LineRow) -> PlayerRef:
        return {"id": obj["player_id"], "name": obj["name"]}


class ColumnOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    club = serializers.CharField()
    status = serializers.CharField()
    finished = serializers.BooleanField()
    results_url = serializers.CharField()


class WinnerOutput(serializers.Serializer[object]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    event_id = serializers.IntegerField()
    event_name = serializers.CharField()


class SidePotOutput(serializers.Serializer[object]):
    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # the pot's label, a field
    amount = serializers.CharField()
    score = serializers.IntegerField(allow_null=True)
    share = serializers.CharField(allow_null=True, help_text="What each winner wins.")
    winners = WinnerOutput(many=True)


class SeriesStandingsOutput(serializers.Serializer[object]):
    series = SeriesOutput()
    events = ColumnOutput(many=True)
    hidden = serializers.IntegerField(help_text="Events of the series you may not see.")
    lines = LineOutput(many=True)
    currency = serializers.CharField()
    payouts = serializers.JSONField()
    side_pots = SidePotOutput(many=True)
    rules = serializers.ListField(child=serializers.CharField())


# --- endpoints ------------------------------------------------------------------------------------
def _data(request: Request) -> dict[str, object]:
    if not isinstance(request.data, dict):
        raise DomainError(gettext("Send a JSON object."), field="__all__")
    return dict(request.data)


def _owner(raw: object) -> Club:
    if raw in (None, ""):
        raise DomainError(gettext("Name the owning club."), field="club", code="required")
    text = str(raw).strip()
    club = Club.objects.filter(slug=text).first()
    if club is None and text.isascii() and text.isdigit() and len(text) < 10:
        club = Club.objects.filter(pk=int(text)).first()
    if club is None:
        raise Http404(gettext("No such club"))
    return club


class SeriesListApi(APIView):
    @extend_schema(operation_id="series_list", responses={200: SeriesOutput(many=True)})
    def get(self, request: Request) -> Response:
        """The series of the clubs you may see."""
        found = (Series.objects.filter(club__in=visible_clubs(user=request.user))
                 .select_related("club").prefetch_related("partner_clubs")
                 .order_by("-created_at", "-pk")[:200])
        return Response(SeriesOutput(found, many=True, context={"user": request.user}).data)

    @extend_schema(operation_id="series_create", summary="Create a series (directors)",
                   request=SeriesInput,
                   responses={201: SeriesOutput, **error_responses(400, 401, 403, 404)})
    def post(self, request: Request) -> Response:
        data = _data(request)
        club = _owner(data.pop("club", None))
        check_club_role(user=request.user, club=club, role="director")
        unknown = sorted(set(data) - set(services.FIELDS))
        if unknown:
            raise DomainError(gettext("Unknown field %(unknown)s.") % {"unknown": unknown[0]}, field=unknown[0], code="unknown")
        series = services.series_create(club=club, actor=request.user, **data)
        return Response(SeriesOutput(series, context={"user": request.user}).data,
                        status=status.HTTP_201_CREATED)


class SeriesDetailApi(APIView):
    @extend_schema(operation_id="series_get", responses={200: SeriesOutput,
                                                         **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        series = selectors.series_get(pk=pk, user=request.user)
        return Response(SeriesOutput(series, context={"user": request.user}).data)

    @extend_schema(operation_id="series_update", summary="Change a series (directors)",
                   request=SeriesPatch,
                   responses={200: SeriesOutput, **error_responses(400, 401, 403, 404)})
    def patch(self, request: Request, pk: int) -> Response:
        series = selectors.series_get(pk=pk, user=request.user)
        selectors.check_series_manage(user=request.user, series=series)
        data = _data(request)
        if "club" in data:
            raise DomainError(gettext("A series keeps its owning club."), field="club", code="fixed")
        selectors.check_series_owner(user=request.user, series=series, changes=data)
        series = services.series_update(series=series, actor=request.user, **data)
        return Response(SeriesOutput(series, context={"user": request.user}).data)

    @extend_schema(operation_id="series_delete",
                   summary="Delete a series (the owning club's directors)",
                   request=None, responses={204: None, **error_responses(401, 403, 404)})
    def delete(self, request: Request, pk: int) -> Response:
        series = selectors.series_get(pk=pk, user=request.user)
        selectors.check_series_owner(user=request.user, series=series, delete=True)
        services.series_delete(series=series, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class SeriesStandingsApi(APIView):
    @extend_schema(operation_id="series_standings",
                   responses={200: SeriesStandingsOutput, **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        """The series' standings from the events you may see: each line a player, the total of
        the counted events and one cell per event (points, place, counted, the results link)."""
        series = selectors.series_get(pk=pk, user=request.user)
        board = selectors.series_standings(series=series, user=request.user)
        return Response(SeriesStandingsOutput(board, context={"user": request.user}).data)

"""Standings API: the event's last standings snapshot, read through the shared selector.

``GET /api/events/<id>/standings/`` answers what the standings pages show: the event's result
(the final places once the event has them, else the stages' boards and the qualifying standings
with the cut line), ``?view=totals`` every game summed, ``?stage=`` one stage; the tie-breaks in
force, the snapshot version and whether it is behind the entered hands. Private
events answer 404 to people outside the club, exactly like the pages.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses

from .selectors import event_standings, standings_status
from .watchers import watching_now, watching_polled


class TieBreakOutput(serializers.Serializer[object]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label


class StandingsRowOutput(serializers.Serializer[object]):
    rank = serializers.IntegerField(
        allow_null=True, help_text="The place once the event's places are written (the final "
        "results), else the rank on its board; null for an entry not placed (an alternate, a "
        "player who withdrew) and for a pair still in the bracket.")
    tied = serializers.BooleanField(help_text="Shares its rank with another entry.")
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    active = serializers.BooleanField(help_text="False for a player who left early.")
    points = serializers.IntegerField(help_text="Total points, bye points included and the "
                                      "director's penalties taken off.")
    checks = serializers.IntegerField(
        required=False, help_text="Check pinochle only: the player's checks (the second tally "
        "beside the points: melds and game won, less the hands lost as declarer).")
    penalty_points = serializers.IntegerField(
        required=False, help_text="The points the director's penalties in force took off "
        "(already out of points; 0 for none).")
    games = serializers.IntegerField(help_text="Finished games played.")
    wins = serializers.IntegerField()
    byes = serializers.IntegerField()
    bye_points = serializers.IntegerField()
    hands_declared = serializers.IntegerField()
    hands_made = serializers.IntegerField()
    hands_set = serializers.IntegerField()
    highest_game = serializers.IntegerField(allow_null=True)
    alternate = serializers.BooleanField(
        required=False, help_text="An alternate: scores, but is not ranked for the cut or "
        "places.")
    per_round = serializers.DictField(
        child=serializers.IntegerField(), help_text="Points per round number (for charts)."
    )
    pair_id = serializers.IntegerField(
        required=False, help_text="Pair events: the pair this row ranks (entry_id is then its "
        "first player's entry; wins count a bye as a win).")
    players = serializers.ListField(child=serializers.CharField(), required=False,
                                    help_text="Pair events: the pair's two players.")
    losses = serializers.IntegerField(required=False, help_text="Pair events: games lost.")
    against = serializers.IntegerField(required=False,
                                       help_text="Pair events: the opponents' points.")
    stage = serializers.CharField(
        required=False, help_text="The final results: the stage that decided the place "
        "(final, semifinal, bracket or qualifying).")
    prize = serializers.CharField(
        required=False, help_text="The final results: the prize the place wins (an amount; "
        "absent when none).")


class BoardOutput(serializers.Serializer[object]):
    key = serializers.CharField(help_text="result, totals, qualifying, bracket, a stage, or "
                                "<stage>-<table> for a semi-final or final table.")
    title = serializers.CharField(allow_blank=True)
    stage = serializers.CharField(allow_blank=True)
    note = serializers.CharField(allow_blank=True)
    cut = serializers.IntegerField(
        allow_null=True, help_text="How many rows stand above the cut line (those who go "
        "through, or would as things stand); null: no line.")
    rows = StandingsRowOutput(many=True)


class StandingsStatusOutput(serializers.Serializer[object]):
    event = serializers.IntegerField()
    version = serializers.IntegerField(help_text="Moves whenever the rows change.")
    behind = serializers.BooleanField(
        help_text="True while hands entered since the snapshot are being counted."
    )
    source_version = serializers.IntegerField()
    hands_version = serializers.IntegerField()
    computed_at = serializers.DateTimeField(allow_null=True)
    watching = serializers.IntegerField(
        allow_null=True, help_text="How many people are watching the event's public pages now "
        "(open pages seen in the last 30 s, counted anonymously; kept 5 s); null unless the "
        "event is running and public and its club shows the count.")


class StandingsOutput(StandingsStatusOutput):
    stage = serializers.CharField(
        allow_null=True, help_text="The stage asked for (?stage=qualifying|semifinal|final|bracket: "
        "that stage's rounds only, computed now), or null.")
    view = serializers.CharField(
        help_text="result (the default: the event's result, the final places once written), "
        "totals (?view=totals: every game summed, whatever its stage) or the stage asked for.")
    final = serializers.BooleanField(help_text="The rows are the event's final places.")
    name = serializers.CharField()
    tie_breaks = TieBreakOutput(many=True)
    bye_scoring = serializers.CharField()
    boards = BoardOutput(many=True, help_text="The ranked tables the pages show, in order.")
    rows = StandingsRowOutput(
        many=True, help_text="Every board's rows in order, each entry (pair) once: after the "
        "finish, the final places in order, then the entries not placed.")


class EventStandingsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="event_standings",
        summary="An event's live standings",
        parameters=[OpenApiParameter("stage", str, required=False,
                                     enum=["qualifying", "semifinal", "final", "bracket"],
                                     description="One stage's standings (its rounds only)."),
                    OpenApiParameter("view", str, required=False, enum=["result", "totals"],
                                     description="result (default): the event's result; "
                                     "totals: every game summed.")],
        responses={200: StandingsOutput, **error_responses(400),
                   404: OpenApiResponse(description="No such event")},
        tags=["standings"],
    )
    def get(self, request: Request, event_id: int) -> Response:
        stage = request.query_params.get("stage") or None
        standings = event_standings(event_id=event_id, user=request.user, chart_top=0,
                                    stage=stage, part=request.query_params.get("view") or None)
        data: dict[str, object] = {
            **standings.status.to_dict(),
            "stage": stage,
            "view": standings.part,
            "final": standings.final,
            "name": standings.event.name,
            "tie_breaks": standings.tie_breaks,
            "bye_scoring": standings.bye_scoring,
            "boards": [{"key": b.key, "title": b.title, "stage": b.stage, "note": b.note,
                        "cut": b.cut, "rows": b.rows} for b in standings.boards],
            "rows": standings.rows,
        }
        data["computed_at"] = standings.status.computed_at
        data["watching"] = watching_now(event_id=standings.event.pk)
        return Response(StandingsOutput(data).data)


class EventStandingsVersionApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="event_standings_version",
        summary="Has an event's standings snapshot moved? (cheap; poll this)",
        responses={200: StandingsStatusOutput, 404: OpenApiResponse(description="No such event")},
        tags=["standings"],
    )
    def get(self, request: Request, event_id: int) -> Response:
        status = standings_status(event_id=event_id, user=request.user)
        data: dict[str, object] = dict(status.to_dict())  # the time itself, not its text
        data["computed_at"] = status.computed_at
        data["watching"] = watching_polled(request, event_id)
        return Response(StandingsStatusOutput(data).data)

"""Event API: the boards everyone reads: the bracket, and where every player sits."""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from common.errors import DomainError
from draw.selectors import event_bracket
from events import where
from tournaments.selectors import event_get


class BracketSideOutput(serializers.Serializer[object]):
    slot = serializers.CharField(help_text='Where the pair comes from: "Seed 3", "Winner of '
                                 'W1-2", "Loser of W2-1".')
    pair = serializers.IntegerField(allow_null=True, help_text="Null until the pair is known.")
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


class BracketMatchOutput(serializers.Serializer[object]):
    code = serializers.CharField()
    bracket = serializers.CharField(help_text="winners, losers, final, third_place or "
                                    "consolation.")
    round = serializers.IntegerField(help_text="The column within its bracket.")
    position = serializers.IntegerField()
    depth = serializers.IntegerField(help_text="The wave it is played in (1 first).")
    conditional = serializers.BooleanField(help_text="The grand final's reset: played only if "
                                           "the losers' bracket side wins the grand final.")
    sides = BracketSideOutput(many=True)
    winner = serializers.IntegerField(allow_null=True)
    loser = serializers.IntegerField(allow_null=True)
    winner_to = serializers.CharField(allow_null=True)
    loser_to = serializers.CharField(allow_null=True)
    status = serializers.CharField(help_text="waiting, ready, seated, playing, to_confirm, "
                                   "finished or skipped.")
    round_number = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    points = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    forfeit = serializers.IntegerField(allow_null=True, help_text="A walkover: the pair that "
                                       "forfeited the match (its opponent went on).")


class BracketRoundOutput(serializers.Serializer[object]):
    round = serializers.IntegerField()
    matches = BracketMatchOutput(many=True)


class BracketPartOutput(serializers.Serializer[object]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    group = serializers.CharField(help_text="A split final: upper or lower (the lower bracket's "
                                  'match codes start with "L-"); empty otherwise.')
    rounds = BracketRoundOutput(many=True)


class BracketPlaceOutput(serializers.Serializer[object]):
    place = serializers.IntegerField()
    pair = serializers.IntegerField()
    name = serializers.CharField()
    group = serializers.CharField(required=False, help_text="A split final: upper or lower.")


class BracketLowerOutput(serializers.Serializer[object]):
    entrants = serializers.IntegerField()
    complete = serializers.BooleanField()
    champion = serializers.IntegerField(allow_null=True)
    champion_name = serializers.CharField()


class BracketOutput(serializers.Serializer[object]):
    kind = serializers.CharField(help_text="single or double.")
    entrants = serializers.IntegerField()
    seeded = serializers.BooleanField(help_text="False while a playoff waits for the "
                                      "qualifying standings.")
    complete = serializers.BooleanField()
    champion = serializers.IntegerField(allow_null=True)
    champion_name = serializers.CharField()
    brackets = BracketPartOutput(many=True)
    placements = BracketPlaceOutput(many=True, help_text="A split final: the upper bracket's "
                                    "places, then the lower bracket's after them.")
    consolation_placements = BracketPlaceOutput(many=True)
    lower = BracketLowerOutput(allow_null=True, help_text="A split final's lower bracket (the "
                               "pairs after the cut), played at the same time; null without one. "
                               "kind, entrants and champion are then the upper bracket's, "
                               "complete is both brackets', and brackets and placements list "
                               "both.")


class EventBracketApi(APIView):
    @extend_schema(operation_id="event_bracket",
                   summary="The event's bracket: every match, its pairs, result and table",
                   responses={200: BracketOutput, **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        bracket = event_bracket(event)
        if bracket is None:
            raise NotFound(gettext("This event has no bracket."))
        return Response(BracketOutput(bracket).data)


class SeatingPlayerOutput(serializers.Serializer[object]):
    entry_id = serializers.IntegerField()
    name = serializers.CharField()
    state = serializers.ChoiceField(
        choices=list(where.STATES),
        help_text="seated; bye (sits the round out); alternate (waits for a free seat); waiting "
                  "(a bracket pair whose next match is not ready); out (not in this semi-final, "
                  "final or bracket); withdrawn; not_seated (arrived after the seating).")
    where = serializers.CharField(help_text='In words: "table 5, seat N", "bye: sits this '
                                            'round out", "out of the bracket", ...')
    table = serializers.IntegerField(allow_null=True)
    match = serializers.CharField(allow_blank=True, help_text='A bracket match ("W2-1"), or "".')
    position = serializers.CharField(allow_blank=True, help_text="The seat at the table; \"\" unseated.")
    seat_name = serializers.CharField(allow_blank=True)
    partner = serializers.CharField(allow_blank=True)
    opponents = serializers.ListField(child=serializers.CharField())
    pair = serializers.CharField(allow_blank=True, help_text="Pair events: the player's pair.")
    answer = serializers.CharField(
        help_text='The answer in one line, as the event page says it: "Ann Smith — Round 3: '
                  'table 5, seat N, partner Bob Jones".')


class SeatingOutput(serializers.Serializer[object]):
    round = serializers.IntegerField(allow_null=True, help_text="The latest round (null before "
                                                                "the first is seated).")
    title = serializers.CharField(allow_blank=True)
    stage = serializers.CharField(allow_blank=True)
    status = serializers.CharField(
        help_text="seated, playing, closed (the next round is not seated yet) or none.")
    status_text = serializers.CharField()
    next_number = serializers.IntegerField(help_text="The round players wait for when closed.")
    last = serializers.BooleanField(help_text="The event has no further round.")
    version = serializers.CharField(help_text="Changes when a round is seated, started, closed "
                                              "or its seats are swapped.")
    players = SeatingPlayerOutput(many=True)


class EventSeatingApi(APIView):
    """Where every player sits in the event's latest round (the wall's seating board and the
    event page's name search read the same)."""

    @extend_schema(
        operation_id="event_seating",
        summary="Where do I sit: every player's table, seat, partner and opponents",
        parameters=[OpenApiParameter(
            "name", str, required=False,
            description=f"Keep the players whose name holds every word given (any case; at "
                        f"most {where.NAME_MAX} characters). Players who withdrew are answered only "
                        "when searched by name.")],
        responses={200: SeatingOutput, **error_responses(400, 404)}, tags=["events"])
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        name = request.query_params.get("name", "")
        if len(name.strip()) > where.NAME_MAX:
            raise DomainError(gettext("Type at most %(name_max)s characters of the name.") % {"name_max": where.NAME_MAX}, field="name",
                              code="too_long")
        board = where.seating(event, name=name, withdrawn=bool(name.strip()))
        round_ = board["round"]
        return Response(SeatingOutput({
            **board, "round": round_.number if round_ else None,
            "version": where.seating_version(event), "players": board["rows"],
        }).data)

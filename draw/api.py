"""Event API: events, check-in, seating rounds. Same permission rules as the pages."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.models import Club, Player
from clubs.permissions import can_view_event, check_club_role, has_club_role
from tournaments import services as events
from tournaments.models import Entry, Event, Round
from tournaments.selectors import event_get, round_byes, round_tables

from . import services


class EventOutput(serializers.ModelSerializer):
    club = serializers.CharField(source="club.slug", read_only=True)

    class Meta:
        model = Event
        fields = ["id", "club", "name", "format", "partnership", "status", "date", "ruleset_preset",
                  "ruleset_overrides", "rounds_planned", "deals_per_round", "bye_scoring",
                  "bye_points", "tie_breaks", "is_public"]


class EntryOutput(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Entry
        fields = ["id", "player_id", "name", "status", "joined_round", "left_after_round"]


class EventInput(serializers.Serializer):
    club = serializers.SlugField()
    name = serializers.CharField(max_length=120)
    date = serializers.DateField()
    ruleset_preset = serializers.CharField(required=False)
    ruleset_overrides = serializers.DictField(required=False)
    rounds_planned = serializers.IntegerField(required=False, default=4)
    deals_per_round = serializers.IntegerField(required=False, allow_null=True, default=8)
    bye_scoring = serializers.ChoiceField(choices=Event.ByeScoring.choices, required=False,
                                          default=Event.ByeScoring.AVERAGE_WINNING)
    bye_points = serializers.IntegerField(required=False, default=0)
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False)
    is_public = serializers.BooleanField(required=False, default=True)


class CheckInInput(serializers.Serializer):
    player_id = serializers.IntegerField()


class SeatRoundInput(serializers.Serializer):
    number = serializers.IntegerField(required=False, min_value=1)
    reseat = serializers.BooleanField(required=False, default=False)


class SeatOutput(serializers.Serializer):
    position = serializers.CharField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField()


class TableOutput(serializers.Serializer):
    number = serializers.IntegerField()
    seats = SeatOutput(many=True)
    token = serializers.CharField(required=False)


class RoundOutput(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.CharField()
    tables = TableOutput(many=True)
    byes = serializers.ListField(child=serializers.IntegerField())


def round_payload(round_: Round, *, with_tokens: bool) -> dict[str, Any]:
    tables = []
    for item in round_tables(round_=round_):
        table: dict[str, Any] = {
            "number": item["table"].number,
            "seats": [{"position": s.position, "entry_id": s.entry_id, "name": s.entry.player.name}
                      for s in item["seats"] if s is not None],
        }
        if with_tokens:
            table["token"] = item["table"].token
        tables.append(table)
    return {"number": round_.number, "status": round_.status, "tables": tables,
            "byes": [b.entry_id for b in round_byes(round_=round_)]}


class EventListApi(APIView):
    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        events = Event.objects.select_related("club").order_by("-date", "-id")
        if club := request.query_params.get("club"):
            events = events.filter(club__slug=club)
        visible = [e for e in events[:500] if can_view_event(user=request.user, event=e)]
        return Response(EventOutput(visible, many=True).data)


    @extend_schema(request=EventInput, responses={201: EventOutput})
    def post(self, request: Request) -> Response:
        data = EventInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        club = get_object_or_404(Club, slug=fields.pop("club"))
        check_club_role(user=request.user, club=club, role="director")
        event = events.event_create(club=club, actor=request.user, **fields)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


class EventDetailApi(APIView):
    @extend_schema(responses=EventOutput)
    def get(self, request: Request, pk: int) -> Response:
        return Response(EventOutput(event_get(pk=pk, user=request.user)).data)


class EventEntriesApi(APIView):
    @extend_schema(responses=EntryOutput(many=True))
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        return Response(EntryOutput(event.entries.select_related("player"), many=True).data)

    @extend_schema(request=CheckInInput, responses={201: EntryOutput})
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = CheckInInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = Player.objects.filter(pk=data.validated_data["player_id"]).first()
        if player is None:
            raise serializers.ValidationError({"player_id": ["No such player."]})
        entry = events.entry_check_in(event=event, player=player, actor=request.user)
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class EventRoundsApi(APIView):
    @extend_schema(request=SeatRoundInput, responses={201: RoundOutput})
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = SeatRoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        round_ = services.round_create(event=event, actor=request.user, **data.validated_data)
        return Response(round_payload(round_, with_tokens=True), status=status.HTTP_201_CREATED)


class RoundDetailApi(APIView):
    @extend_schema(responses=RoundOutput)
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        round_ = get_object_or_404(Round, event=event, number=number)
        with_tokens = has_club_role(user=request.user, club=event.club, role="scorer")
        return Response(round_payload(round_, with_tokens=with_tokens))

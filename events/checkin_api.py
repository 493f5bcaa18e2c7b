"""Check-in API for a big room, the pages' counterparts (``events.checkin``): alternates marked,
self check-in switched, its arrivals listed and approved, and the players' own self check-in
(``/api/events/{id}/here/``: no login, rate-limited per address with the scope
``self_checkin``, its taps per event too (``self_checkin_event``), a phone checking in at most
``events.checkin.SELF_CHECK_INS_PER_PHONE`` players, each tap logged with who tapped; open until
the first round is seated; the search names only players a public page may name). Many players at once:
``POST /api/events/{id}/entries/bulk/`` (``events.api``)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TypedDict

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.exceptions import Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses, roster_player
from common import validated
from common.errors import DomainError
from common.throttles import SELF_CHECK_IN_SCOPE
from common.types import Actor
from tournaments import services as events
from tournaments.api_actions import DirectorAction
from tournaments.models import Arrival, Entry, Event
from tournaments.selectors import checkin_arrivals, event_get, self_checkin_find

from .api import EntryOutput, EventOutput
from .checkin import NAME_MAX, NAME_MIN, event_tap_wait, tap_refusal, tap_taken, tapped_by


class AlternateInput(serializers.Serializer[object]):
    alternate = serializers.BooleanField(
        help_text="True: waits to take the seat of a player who withdraws (scores, is not "
                  "ranked). Only until the player is first seated.")


class SelfCheckInModeInput(serializers.Serializer[object]):
    mode = serializers.ChoiceField(
        choices=Event.SelfCheckIn.choices,
        help_text="off; approval (the director approves each arrival); open (checked in at "
                  "once).")


class ArrivalOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    status = serializers.CharField(help_text="waiting, approved or declined.")
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)


class ArrivalsOutput(serializers.Serializer[object]):
    waiting = ArrivalOutput(many=True, help_text="Waiting for approval, oldest first.")
    recent = ArrivalOutput(many=True, help_text="The latest decided, newest first.")


class ArrivalDecideInput(serializers.Serializer[object]):
    approve = serializers.BooleanField(help_text="True checks the player in; false declines.")


class HereInput(serializers.Serializer[object]):
    player_id = serializers.IntegerField(help_text="The player's id, from GET here/?name=.")


class HerePlayerOutput(serializers.Serializer[object]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    state = serializers.CharField(help_text="free (may check in), waiting (for the director's "
                                            "approval) or here (checked in).")


class HereOutput(serializers.Serializer[object]):
    arrival = serializers.IntegerField()
    state = serializers.CharField(help_text="waiting (for the director's approval) or here.")
    message = serializers.CharField()


class ArrivalPayload(TypedDict):
    """An arrival as the API shows it (``ArrivalOutput``)."""

    id: int
    player_id: int
    name: str
    status: str
    created_at: datetime.datetime
    decided_at: datetime.datetime | None


def arrival_payload(arrival: Arrival) -> ArrivalPayload:
    return {"id": arrival.pk, "player_id": arrival.player_id, "name": arrival.player.name,
            "status": arrival.status, "created_at": arrival.created_at,
            "decided_at": arrival.decided_at}


@extend_schema_view(post=extend_schema(
    operation_id="entry_alternate",
    summary="Mark a player as an alternate, or as a player (directors)",
    request=AlternateInput, responses={200: EntryOutput, **error_responses(400, 403, 404)}))
class EntryAlternateApi(DirectorAction):
    input = AlternateInput

    def find(self, event: Event, **where: int) -> Entry:
        return get_object_or_404(event.entries.select_related("player"), pk=where["entry_id"])

    def act(self, event: Event, found: Entry, data: Mapping[str, object], *,
            actor: Actor) -> object:
        done = events.entry_set_alternate(entry=found, actor=actor,
                                          alternate=validated.flag(data, "alternate"))
        return EntryOutput(done).data


@extend_schema_view(post=extend_schema(
    operation_id="event_self_check_in", summary="Turn self check-in off or on (directors)",
    request=SelfCheckInModeInput,
    responses={200: EventOutput, **error_responses(400, 403, 404)}))
class SelfCheckInModeApi(DirectorAction):
    input = SelfCheckInModeInput

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        events.event_self_check_in_set(event=event, mode=validated.text(data, "mode"),
                                       actor=actor)
        return EventOutput(event_get(pk=event.pk, user=actor)).data


class ArrivalsApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="event_arrivals",
                   summary="Players who checked themselves in (directors)",
                   responses={200: ArrivalsOutput, **error_responses(403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        found = checkin_arrivals(event=event)
        return Response(ArrivalsOutput({
            "waiting": [arrival_payload(a) for a in found["waiting"]],
            "recent": [arrival_payload(a) for a in found["recent"]]}).data)


@extend_schema_view(post=extend_schema(
    operation_id="arrival_decide", summary="Approve or decline a self check-in (directors)",
    description="Approving checks the player in (as at the desk); deciding an "
                "arrival already decided answers it unchanged.",
    request=ArrivalDecideInput,
    responses={200: ArrivalOutput, **error_responses(400, 403, 404)}))
class ArrivalDecideApi(DirectorAction):
    input = ArrivalDecideInput

    def find(self, event: Event, **where: int) -> Arrival:
        return get_object_or_404(event.arrivals, pk=where["arrival_id"])

    def act(self, event: Event, found: Arrival, data: Mapping[str, object], *,
            actor: Actor) -> ArrivalPayload:
        return arrival_payload(events.arrival_decide(
            arrival=found, approve=validated.flag(data, "approve"), actor=actor))


class SelfCheckInApi(APIView):
    """The players' self check-in: find your name, say you are here. No login."""

    permission_classes = [AllowAny]
    throttle_scope = SELF_CHECK_IN_SCOPE

    @extend_schema(operation_id="self_check_in_find",
                   summary="Find your name for the self check-in",
                   parameters=[OpenApiParameter(
                       "name", str, required=True,
                       description=f"{NAME_MIN} to {NAME_MAX} characters: the club's players "
                                   "whose name holds every word, each as a word's start.")],
                   responses={200: HerePlayerOutput(many=True), **error_responses(400, 404)},
                   tags=["events"])
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        refusal = events.self_check_in_refusal(event)
        if refusal is not None:
            raise refusal
        name = " ".join(request.query_params.get("name", "").split())
        if not NAME_MIN <= len(name) <= NAME_MAX:
            raise DomainError(gettext("Give %(name_min)s to %(name_max)s characters of the name.") % {"name_min": NAME_MIN, "name_max": NAME_MAX},
                              field="name")
        return Response(HerePlayerOutput([
            {"player_id": f["player"].pk, "name": f["player"].name, "state": f["state"]}
            for f in self_checkin_find(event=event, name=name)], many=True).data)

    @extend_schema(operation_id="self_check_in", summary="I'm here: check yourself in",
                   description="Open until the event's first round is seated, when the event "
                               "has self check-in. With the director's approval the answer "
                               "is waiting (201); without, the player is checked in (201). "
                               "Never as an alternate.",
                   request=HereInput,
                   responses={201: HereOutput, **error_responses(400, 404)}, tags=["events"])
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        data = HereInput(data=request.data)
        data.is_valid(raise_exception=True)
        player = roster_player(event.club, data.validated_data["player_id"], field="player_id")
        refused = tap_refusal(request, event, player)
        if refused is not None:
            raise DomainError(refused, field="player_id", code="phone_limit")
        wait = event_tap_wait(event)
        if wait is not None:
            raise Throttled(wait=wait, detail=gettext("Many players are checking in just now: wait a moment and try again, or check in at the desk."))
        arrival = events.self_check_in(event=event, player=player, tapped_by=tapped_by(request))
        tap_taken(request, event, player)
        waiting = arrival.status == Arrival.Status.WAITING
        return Response(HereOutput({
            "arrival": arrival.pk, "state": "waiting" if waiting else "here",
            "message": (f"Thank you, {player.name}: the director will confirm you."
                        if waiting else f"Welcome, {player.name}: you are checked in."),
        }).data, status=status.HTTP_201_CREATED)

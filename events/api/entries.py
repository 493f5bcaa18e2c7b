"""Event API: the entries and pairs: check-in (one by one, in bulk, a pair registered), the
pair list, and withdrawals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from django.db.models import F
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses, roster_player
from common import validated
from common.errors import DomainError
from common.rulesets import event_ruleset
from common.types import Actor
from draw import services
from tournaments import services as events
from tournaments.api_actions import DirectorAction
from tournaments.models import Entry, Event, Pair
from tournaments.selectors import event_get, pair_payload


class EntryOutput(serializers.ModelSerializer[Entry]):
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Entry
        fields = ["id", "player_id", "name", "status", "alternate", "joined_round",
                  "left_after_round", "pair_id"]


class PairPlayerOutput(serializers.Serializer[object]):
    entry_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class PairOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="active, or left (withdrawn).")
    players = PairPlayerOutput(many=True)


class CheckInInput(serializers.Serializer[object]):
    player_id = serializers.IntegerField(required=False,
                                         help_text="A player of the event's club roster.")
    player_ids = serializers.ListField(
        child=serializers.IntegerField(), required=False, min_length=1, max_length=4,
        help_text="Pair events: the pair's two players (club roster).")
    name = serializers.CharField(required=False, allow_blank=True, max_length=120,
                                 help_text="Pair events: the pair's team name (optional).")
    seed = serializers.IntegerField(required=False, allow_null=True,
                                    help_text="Pair events: the director's seed (1 = best).")
    alternate = serializers.BooleanField(
        required=False, default=False,
        help_text="Progressive events: waits to take the seat of a player who withdraws; "
                  "scores but is not ranked for the cut, places or prizes.")


class EventEntriesApi(APIView):
    @extend_schema(responses={200: EntryOutput(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        return Response(EntryOutput(event.entries.select_related("player"), many=True).data)

    @extend_schema(
        operation_id="entry_check_in", summary="Check a player in (directors)",
        description="Between rounds this is a late arrival: the player plays from the next round. "
                    "A player who left comes back. `player_id` must be on the club's roster.",
        request=CheckInInput, responses={201: EntryOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = CheckInInput(data=request.data)
        data.is_valid(raise_exception=True)
        if event.is_pairs or "player_ids" in data.validated_data:
            return _register_pair(event, data.validated_data, request.user)
        if "player_id" not in data.validated_data:
            raise serializers.ValidationError({"player_id": ["This field is required."]})
        player = roster_player(event.club, data.validated_data["player_id"], field="player_id")
        entry = events.entry_check_in(event=event, player=player, actor=request.user,
                                      alternate=data.validated_data["alternate"])
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class BulkCheckInInput(serializers.Serializer[object]):
    player_ids = serializers.ListField(
        child=serializers.IntegerField(), min_length=1, max_length=1000,
        help_text="Players of the event's club roster.")
    alternate = serializers.BooleanField(
        required=False, default=False,
        help_text="Check them all in as alternates (formats with alternates only).")


@extend_schema_view(post=extend_schema(
    operation_id="entries_bulk_check_in", summary="Check many players in (directors)",
    description="All or nobody: when any id is refused the answer is 400 with one error "
                "per refused id, field `player_ids.<id>` (codes not_on_roster, "
                "already_here, repeated), and nobody is checked in. Otherwise 201 with "
                "the entries, in the order given. A player who left comes back. Pair "
                "events register pairs one by one (POST entries/).",
    request=BulkCheckInInput,
    responses={201: EntryOutput(many=True), **error_responses(400, 403, 404)}))
class EventEntriesBulkApi(DirectorAction):
    """Check many players in at once, all or nobody."""

    input = BulkCheckInInput
    status_code = status.HTTP_201_CREATED

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        if event.is_pairs:
            raise DomainError(gettext("This event takes pairs: register each pair with POST entries/ ({\"player_ids\": [a, b]})."), field="player_ids",
                              code="pairs_only")
        entries = events.entries_bulk_create(
            event=event, player_ids=validated.wholes(data, "player_ids"),
            alternate=validated.flag(data, "alternate"), actor=actor)
        return EntryOutput(entries, many=True).data


class CheckInData(TypedDict):
    """``CheckInInput``'s valid data."""

    player_id: NotRequired[int]
    player_ids: NotRequired[list[int]]
    name: NotRequired[str]
    seed: NotRequired[int | None]
    alternate: bool


def _register_pair(event: Event, data: CheckInData, user: Actor) -> Response:
    ids = data.get("player_ids")
    if not ids and "player_id" in data and event_ruleset(event).side_size == 1:
        ids = [data["player_id"]]  # head to head: each player is a side of one
    if not ids:
        raise serializers.ValidationError({"player_ids": [
            "This event takes pairs: give the pair's two players as player_ids."]})
    players = [roster_player(event.club, pk, field="player_ids") for pk in ids]
    pair = events.pair_register(event=event, players=players, name=data.get("name", ""),
                                seed=data.get("seed"), actor=user)
    return Response(pair_payload(pair), status=status.HTTP_201_CREATED)


class EventPairsApi(APIView):
    @extend_schema(operation_id="event_pairs", summary="A pair event's pairs, best seed first",
                   responses={200: PairOutput(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        pairs = event.pairs.prefetch_related("members__player").order_by(
            F("seed").asc(nulls_last=True), "pk")
        return Response([pair_payload(p) for p in pairs])


@extend_schema_view(post=extend_schema(
    operation_id="pair_leave", summary="A pair withdraws (directors)",
    request=None, responses={200: PairOutput, **error_responses(400, 403, 404)}))
class PairLeaveApi(DirectorAction):
    """A pair withdraws: both players leave; results so far stay."""

    def find(self, event: Event, **where: int) -> Pair:
        return get_object_or_404(event.pairs, pk=where["pair_id"])

    def act(self, event: Event, found: Pair, data: Mapping[str, object], *,
            actor: Actor) -> object:
        events.pair_withdraw(pair=found, actor=actor)
        return pair_payload(found)


@extend_schema_view(post=extend_schema(
    operation_id="entry_leave", summary="A player leaves early (directors)",
    request=None, responses={200: EntryOutput, **error_responses(400, 403, 404)}))
class EntryLeaveApi(DirectorAction):
    """An early leaver: seated in no further round; results so far stay."""

    def find(self, event: Event, **where: int) -> Entry:
        return get_object_or_404(event.entries.select_related("player"), pk=where["entry_id"])

    def act(self, event: Event, found: Entry, data: Mapping[str, object], *,
            actor: Actor) -> object:
        return EntryOutput(services.entry_withdraw(entry=found, actor=actor)).data

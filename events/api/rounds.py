"""Event API: the rounds: seating the next one, a round's tables, start, close, the director's
advance (close N, seat N+1) and seat swaps."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NotRequired, TypedDict

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import formats
from clubs.api import error_responses
from clubs.permissions import has_club_role
from common import validated
from common.types import Actor
from draw import services, swaps
from draw.managers import table_meeting_rows
from scoring.models import Game
from tournaments.api_actions import DirectorAction
from tournaments.models import Entry, Event, Pair, Round
from tournaments.selectors import event_get, round_byes, round_tables

# The formats that seat themselves, from the registry (the API schema's words).
SEATS_ITSELF = ", ".join(formats.names(lambda f: f.seats_automatically))


class SeatOutput(serializers.Serializer[object]):
    position = serializers.CharField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField()


class TableGameOutput(serializers.Serializer[object]):
    status = serializers.CharField(help_text="playing, finished or confirmed.")
    hands = serializers.IntegerField()
    totals = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True, help_text="The winning side; null if level.")
    cut_winner = serializers.CharField(
        allow_null=True, help_text="A level game: the side that won the cut of the cards.")
    forfeit = serializers.CharField(
        allow_null=True, help_text="A walkover: the side that forfeited the game (the other "
                                   "side won it without its hands); null for a game played.")


class TableOutput(serializers.Serializer[object]):
    number = serializers.IntegerField()
    match = serializers.CharField(required=False, help_text="The bracket match at this table "
                                  "(e.g. W2-1), or empty.")
    pairs = serializers.ListField(child=serializers.IntegerField(), required=False,
                                  help_text="Pair events: the N-S pair, then the E-W pair.")
    seats = SeatOutput(many=True)
    game = TableGameOutput()
    token = serializers.CharField(
        required=False, help_text="The table's entry token (scorers and directors only)."
    )


class RoundOutput(serializers.Serializer[object]):
    number = serializers.IntegerField()
    stage = serializers.CharField(help_text="qualifying, semifinal or final.")
    status = serializers.CharField()
    tables = TableOutput(many=True)
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="Entry ids sitting out.")


class RoundSummaryOutput(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["number", "stage", "status", "started_at", "closed_at"]


TABLE_DRAW_HELP = (
    "Where the tables draw partners themselves (a progressive day's draw \"table\"): for each "
    "table in order, [stayer, arrival], the entries who partner each other as the table's cut "
    "of the cards said (GET table-draw/ lists who meets where). Refused naming table_draw "
    "(missing, or not used by this round) or table_draw.<i> (table i+1's draw).")


def table_draw_field() -> serializers.ListField:
    return serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()), required=False,
        allow_null=True, max_length=1000, help_text=TABLE_DRAW_HELP)


class SeatRoundInput(serializers.Serializer[object]):
    number = serializers.IntegerField(
        required=False, min_value=1,
        help_text="The round wanted; if it exists already it is returned unchanged (200).",
    )
    reseat = serializers.BooleanField(
        required=False, default=False,
        help_text="Draw the open round again (only before any hand is entered in it), from the "
                  "next value of the event's draw stream; needs a reason.",
    )
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=500,
        help_text="With reseat, required: why the round is drawn again (kept in the event's "
                  "log with the new draw).",
    )
    table_draw = table_draw_field()


class SwapInput(serializers.Serializer[object]):
    entry_a = serializers.IntegerField(
        required=False, help_text="Entry id (seated or sitting out); events of single players.")
    entry_b = serializers.IntegerField(
        required=False, help_text="Entry id (seated or sitting out); events of single players.")
    pair_a = serializers.IntegerField(
        required=False, help_text="Pair events: a pair id (seated or sitting out); partners "
                                  "move together.")
    pair_b = serializers.IntegerField(
        required=False, help_text="Pair events: a pair id (seated or sitting out).")


class TableGamePayload(TypedDict):
    """A table's game in a round's payload (``TableGameOutput``)."""

    status: str
    hands: int
    totals: dict[str, int]
    winner: str | None
    cut_winner: str | None
    forfeit: str | None


class SeatPayload(TypedDict):
    position: str
    entry_id: int
    name: str


class TablePayload(TypedDict):
    """A table in a round's payload (``TableOutput``)."""

    number: int
    match: str
    seats: list[SeatPayload]
    game: TableGamePayload | None
    pairs: NotRequired[list[int | None]]
    token: NotRequired[str]


class RoundPayload(TypedDict):
    """A round as the API shows it (``RoundOutput``)."""

    number: int
    stage: str
    status: str
    tables: list[TablePayload]
    byes: list[int]


class AdvancePayload(TypedDict):
    closed: int
    round: RoundPayload | None


def round_payload(round_: Round, *, with_tokens: bool) -> RoundPayload:
    games: dict[int, TableGamePayload] = {
        number: {"status": status, "hands": hands, "totals": totals or {},
                 "winner": winner or None, "cut_winner": cut or None, "forfeit": forfeit or None}
        for number, status, hands, totals, winner, cut, forfeit in Game.objects.filter(
            table__round=round_).values_list("table__number", "status", "hands_count", "totals",
                                             "winner", "cut_winner", "forfeit")
    }
    tables: list[TablePayload] = []
    for item in round_tables(round_=round_):
        seats = [s for s in item["seats"] if s is not None]
        table: TablePayload = {
            "number": item["table"].number,
            "match": item["table"].match,
            "seats": [{"position": s.position, "entry_id": s.entry_id, "name": s.entry.player.name}
                      for s in seats],
            "game": games.get(item["table"].number),
        }
        if any(s.entry.pair_id for s in seats):
            by_position = {s.position: s.entry.pair_id for s in seats}
            table["pairs"] = [by_position.get("N"), by_position.get("E")]
        if with_tokens:
            table["token"] = item["table"].token
        tables.append(table)
    return {"number": round_.number, "stage": round_.stage, "status": round_.status,
            "tables": tables, "byes": [b.entry_id for b in round_byes(round_=round_)]}


def round_get(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


# A director's action on round ``number`` of the event (404 when it has none). No docstring: the
# schema describes each action by its own class's.
class RoundAction(DirectorAction):
    def find(self, event: Event, **where: int) -> Round:
        return round_get(event, where["number"])


def _event_entry(event: Event, entry_id: int, *, field: str) -> Entry:
    entry = event.entries.select_related("player").filter(pk=entry_id).first()
    if entry is None:
        raise serializers.ValidationError({field: ["No such entry in this event."]})
    return entry


def _event_pair(event: Event, pair_id: int, *, field: str) -> Pair:
    pair = event.pairs.filter(pk=pair_id).first()
    if pair is None:
        raise serializers.ValidationError({field: ["No such pair in this event."]})
    return pair


class EventRoundsApi(APIView):
    """The event's rounds; POST seats the next one.

    The API seats **synchronously** through :func:`draw.services.round_create` and answers with
    the round. The event page's "Seat round N" button instead queues the same work as a
    background job (``draw.services.round_seat_request``) and shows it working; both ask for
    the round by number, so neither can make a round twice.
    """

    @extend_schema(operation_id="event_rounds",
                   responses={200: RoundSummaryOutput(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        return Response(RoundSummaryOutput(event.rounds.order_by("number"), many=True).data)

    @extend_schema(
        operation_id="round_seat", summary="Seat the next round (directors)",
        description="Seats the round **synchronously** through `draw.services.round_create` and "
                    "answers with its tables (with their entry tokens) and byes. (The event "
                    "page's \"Seat round N\" button queues the same work as a background job "
                    "instead.) Asking for a `number` that exists returns that round unchanged "
                    "with 200; `reseat` draws the open round again while no hand is entered, "
                    "from the next value of the event's draw stream, with a required `reason` "
                    "(logged). "
                    f"For a format that seats itself ({SEATS_ITSELF}), asking for the "
                    "next round when the automatic advance has already seated it returns that "
                    "round with 200.",
        request=SeatRoundInput,
        responses={201: RoundOutput, 200: RoundOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = SeatRoundInput(data=request.data)
        data.is_valid(raise_exception=True)
        number, reseat = data.validated_data.get("number"), data.validated_data["reseat"]
        before = set(event.rounds.values_list("pk", flat=True))
        round_ = services.round_create(event=event, actor=request.user, number=number,
                                       reseat=reseat, reason=data.validated_data.get("reason", ""),
                                       table_draw=data.validated_data.get("table_draw"))
        existed = round_.pk in before  # asked for again, or seated by the automatic advance
        return Response(round_payload(round_, with_tokens=True),
                        status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED)


def _table_draw(data: Mapping[str, object]) -> list[list[int]] | None:
    """The validated ``table_draw`` (lists of whole numbers), or None."""
    value = data.get("table_draw")
    if not isinstance(value, list):
        return None
    return [[v for v in pair if isinstance(v, int)] for pair in value if isinstance(pair, list)]


class MeetingPlayerOutput(serializers.Serializer[object]):
    entry = serializers.IntegerField()
    name = serializers.CharField()


class MeetingOutput(serializers.Serializer[object]):
    table = serializers.IntegerField()
    stayers = MeetingPlayerOutput(many=True, help_text="Last game's partners, who stay and "
                                                       "are split now.")
    arrivals = MeetingPlayerOutput(many=True, help_text="The two who arrive at the table.")


class TableDrawOutput(serializers.Serializer[object]):
    round = serializers.IntegerField(help_text="The round (game) the draws seat.")
    tables = MeetingOutput(many=True, help_text="Empty when the next round needs no table draw "
                                                "or cannot be seated yet.")


class TableDrawApi(APIView):
    @extend_schema(
        operation_id="event_table_draw",
        summary="Who meets at each table before the tables' draw of partners (directors)",
        description="Where the tables cut the cards for partners (a progressive day's draw "
                    "\"table\"), once every game of the latest round is decided: each table's "
                    "two stayers and two arrivals. Seat the next round (POST rounds/, or "
                    "rounds/<n>/advance/) with table_draw: [[stayer, arrival], ...].",
        responses={200: TableDrawOutput, **error_responses(403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        latest = event.rounds.order_by("-number").values_list("number", flat=True).first()
        return Response(TableDrawOutput({"round": (latest or 0) + 1,
                                         "tables": table_meeting_rows(event)}).data)


class RoundDetailApi(APIView):
    @extend_schema(responses={200: RoundOutput, **error_responses(404)})
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        round_ = round_get(event, number)
        with_tokens = has_club_role(user=request.user, club=event.club, role="scorer")
        return Response(round_payload(round_, with_tokens=with_tokens))


class RoundStatusApi(RoundAction):
    """Base of start and close: a director moves the round to ``target``."""

    target: str = ""

    def act(self, event: Event, found: Round, data: Mapping[str, object], *,
            actor: Actor) -> RoundPayload:
        body = self.request.data
        confirm = body.get("close_unfinished") if isinstance(body, dict) else None
        round_ = services.round_set_status(round_=found, status=self.target, actor=actor,
                                           close_unfinished=confirm is True)
        return round_payload(round_, with_tokens=True)


@extend_schema_view(post=extend_schema(
    operation_id="round_start", summary="Start a seated round (directors)", request=None,
    responses={200: RoundOutput, **error_responses(400, 403, 404)}))
class RoundStartApi(RoundStatusApi):
    target = Round.Status.PLAYING


class RoundCloseInput(serializers.Serializer):
    close_unfinished = serializers.BooleanField(
        required=False, default=False,
        help_text="Close even though some games are still playing or unconfirmed.")


@extend_schema_view(post=extend_schema(
    operation_id="round_close",
    summary="Close a round (directors): tables can no longer write",
    description="When games are still playing or unconfirmed the close is "
                "refused (400, field close_unfinished, listing them) unless "
                "the body says {\"close_unfinished\": true}.",
    request=RoundCloseInput,
    responses={200: RoundOutput, **error_responses(400, 403, 404)}))
class RoundCloseApi(RoundStatusApi):
    target = Round.Status.CLOSED


class RoundAdvanceInput(serializers.Serializer[object]):
    close_unfinished = serializers.BooleanField(
        required=False, default=False,
        help_text="Close even though some games are still playing or unconfirmed.")
    start = serializers.BooleanField(
        required=False, default=True,
        help_text="Start the new round at once (its clock runs); false leaves it seated, so "
                  "seats can still be swapped.")
    table_draw = table_draw_field()


class RoundAdvanceOutput(serializers.Serializer[object]):
    closed = serializers.IntegerField(help_text="The round closed.")
    round = RoundOutput(allow_null=True,
                        help_text="The round seated (and started) next; null when the closed "
                                  "round was the last: finishing the event comes next.")


@extend_schema_view(post=extend_schema(
    operation_id="round_advance",
    summary="Close a round and seat the next one (directors; every format)",
    description="One transaction: round `number` is closed and the next round "
                "is seated by the event's format and started. Refused (400, "
                "field close_unfinished, listing them) while games are still "
                "playing or unconfirmed, unless {\"close_unfinished\": true}; "
                "any refusal leaves the round open. Asked again once done, it "
                "answers the same round and changes nothing.",
    request=RoundAdvanceInput,
    responses={200: RoundAdvanceOutput, **error_responses(400, 403, 404)}))
class RoundAdvanceApi(RoundAction):
    """Close round N and seat round N+1, in one step."""

    input = RoundAdvanceInput

    def act(self, event: Event, found: Round, data: Mapping[str, object], *,
            actor: Actor) -> AdvancePayload:
        new = services.round_advance(event=event, number=found.number, actor=actor,
                                     close_unfinished=validated.flag(data, "close_unfinished"),
                                     start=validated.flag(data, "start"),
                                     table_draw=_table_draw(data))
        return {"closed": found.number,
                "round": round_payload(new, with_tokens=True) if new else None}


@extend_schema_view(post=extend_schema(
    operation_id="round_swap", summary="Swap two players or two pairs (directors)",
    description="Give entry_a and entry_b (two players), or in a pair event "
                "pair_a and pair_b (two pairs: the partners move together, to "
                "the other pair's side of a table or its bye). A pair event "
                "refuses single players (400, field entry_a, code pair_event); "
                "a bracket round lets a pair change sides only with its "
                "opponent (field pair_b, code bracket_match).",
    request=SwapInput,
    responses={200: RoundOutput, **error_responses(400, 403, 404)}))
class RoundSwapApi(RoundAction):
    """Swap two places before the round starts: two players' (two seats, or a seat and a bye),
    or in a pair event two pairs' (partners move together)."""

    input = SwapInput

    def act(self, event: Event, found: Round, data: Mapping[str, object], *,
            actor: Actor) -> RoundPayload:
        def entry(field: str) -> Entry | None:
            return _event_entry(event, validated.whole(data, field), field=field) \
                if field in data else None

        def pair(field: str) -> Pair | None:
            return _event_pair(event, validated.whole(data, field), field=field) \
                if field in data else None

        entry_a, entry_b = entry("entry_a"), entry("entry_b")
        pair_a, pair_b = pair("pair_a"), pair("pair_b")
        swaps.seat_swap(round_=found, actor=actor, entry_a=entry_a, entry_b=entry_b,
                        pair_a=pair_a, pair_b=pair_b)
        return round_payload(found, with_tokens=True)

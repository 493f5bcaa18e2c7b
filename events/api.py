"""Event API: events, settings, check-in, seating rounds, round status, seat swaps, finishing.

Every action a director takes on the event pages has an endpoint here, with the same
permissions: an event of a private club answers 404 to people outside the club; a member without
the role gets 403; writes need a signed-in user (session or ``Authorization: Token <key>``;
a user makes a token on ``/accounts/token/`` or with ``manage.py drf_create_token``).
Writes go through the services (``tournaments.services``, ``scoring.services``,
``draw.services``); domain errors come back as 400 with the field they concern, in the house
shape ``{"errors": [{"field", "code", "message"}]}``.
"""

from __future__ import annotations

from typing import Any

from django.db.models import F
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import formats
from clubs.api import error_responses, roster_player
from clubs.models import Club
from clubs.permissions import can_view_event, check_club_role, has_club_role
from common.errors import DomainError
from draw import services
from draw.selectors import (
    event_bracket,
    event_format_settings,
    event_placements,
    event_rules,
    event_stages,
    events_placements,
    rounds_total,
)
from scoring.models import DESK_SOURCES, Game
from scoring.services import (
    event_settings_update,
    game_forfeit,
    game_settle_tie,
    games_confirm_at_desk,
    round_call_time,
)
from tournaments import services as events
from tournaments.models import BYE_POINTS_LIMIT, Entry, Event, Pair, Round
from tournaments.selectors import event_get, pair_payload, round_byes, round_tables

from . import where

# The API schema's words on the formats' settings and capabilities, from the registry.
SETTINGS_HELP = "; ".join(
    f"{f.name}: {', '.join(sorted(f.setting_keys))}" for f in formats.REGISTERED if f.setting_keys
) + "."
SEATS_ITSELF = ", ".join(formats.names(lambda f: f.seats_automatically))


# --- output ---------------------------------------------------------------------------------------
class PlacementOutput(serializers.Serializer[Any]):
    place = serializers.IntegerField(help_text="Final place; tied entries share it (1, 1, 3).")
    entry_id = serializers.IntegerField()
    pair_id = serializers.IntegerField(required=False, help_text="Pair events: the pair placed "
                                       "(entry_id is then its first player's entry).")
    name = serializers.CharField()
    stage = serializers.CharField(
        help_text="Where the place was decided: final, semifinal, bracket or qualifying "
                  "(standings).")
    group = serializers.CharField(required=False, help_text="A split final (pair events with "
                                  "playoff.lower): the bracket that decided the place, upper or "
                                  "lower; empty otherwise.")
    prize = serializers.CharField(allow_null=True, help_text="The amount won, from the payouts.")


class StageOutput(serializers.Serializer[Any]):
    stage = serializers.CharField(help_text="qualifying, semifinal or final.")
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    rounds = serializers.ListField(child=serializers.IntegerField())


class EventOutput(serializers.ModelSerializer[Event]):
    """An event. Pass ``context={"placements": {event_id: [...]}}`` to serialise many events
    without a query each (see :func:`events_placements`)."""

    club = serializers.CharField(source="club.slug", read_only=True)
    placements = serializers.SerializerMethodField(
        help_text="Final places once the event is finished (by the format's rule, with the "
                  "prizes won); [] before."
    )
    format_settings = serializers.SerializerMethodField(
        help_text="The format's settings with their defaults. " + SETTINGS_HELP)
    stages = serializers.SerializerMethodField(
        help_text="The event's stages and the round numbers of each.")
    rounds_total = serializers.SerializerMethodField(
        help_text="Rounds the event plays in all (qualifying games plus the stages after the "
                  "cut).")
    rules = serializers.SerializerMethodField(
        help_text="The format's stage rules in plain sentences (the rules page shows them).")

    class Meta:
        model = Event
        fields = ["id", "club", "name", "format", "format_settings", "partnership", "status",
                  "date", "ruleset_preset", "ruleset_overrides", "rounds_planned",
                  "rounds_total", "stages", "rules", "deals_per_round", "bye_scoring",
                  "bye_points", "tie_breaks", "is_public", "advance_held", "prizes",
                  "self_check_in", "placements"]

    def get_format_settings(self, event: Event) -> dict[str, Any]:
        return event_format_settings(event)

    @extend_schema_field(StageOutput(many=True))
    def get_stages(self, event: Event) -> list[dict[str, Any]]:
        return event_stages(event)

    def get_rounds_total(self, event: Event) -> int:
        return rounds_total(event)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_rules(self, event: Event) -> list[str]:
        return event_rules(event)

    @extend_schema_field(PlacementOutput(many=True))
    def get_placements(self, event: Event) -> list[dict[str, Any]]:
        known = self.context.get("placements")
        if known is not None:
            return list(known.get(event.pk, []))
        return event_placements(event)


class EntryOutput(serializers.ModelSerializer[Entry]):
    name = serializers.CharField(source="player.name")

    class Meta:
        model = Entry
        fields = ["id", "player_id", "name", "status", "alternate", "joined_round",
                  "left_after_round", "pair_id"]


class PairPlayerOutput(serializers.Serializer[Any]):
    entry_id = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()


class PairOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)
    status = serializers.CharField(help_text="active, or left (withdrawn).")
    players = PairPlayerOutput(many=True)


class SeatOutput(serializers.Serializer[Any]):
    position = serializers.CharField()
    entry_id = serializers.IntegerField()
    name = serializers.CharField()


class TableGameOutput(serializers.Serializer[Any]):
    status = serializers.CharField(help_text="playing, finished or confirmed.")
    hands = serializers.IntegerField()
    totals = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_null=True, help_text="The winning side; null if level.")
    cut_winner = serializers.CharField(
        allow_null=True, help_text="A level game: the side that won the cut of the cards.")
    forfeit = serializers.CharField(
        allow_null=True, help_text="A walkover: the side that forfeited the game (the other "
                                   "side won it without its hands); null for a game played.")


class TableOutput(serializers.Serializer[Any]):
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


class RoundOutput(serializers.Serializer[Any]):
    number = serializers.IntegerField()
    stage = serializers.CharField(help_text="qualifying, semifinal or final.")
    status = serializers.CharField()
    tables = TableOutput(many=True)
    byes = serializers.ListField(child=serializers.IntegerField(), help_text="Entry ids sitting out.")


class RoundSummaryOutput(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["number", "stage", "status", "started_at", "closed_at"]


# --- input ----------------------------------------------------------------------------------------
class EventInput(serializers.Serializer[Any]):
    club = serializers.SlugField(help_text="The club's slug.")
    name = serializers.CharField(max_length=120)
    date = serializers.DateField()
    format = serializers.ChoiceField(choices=formats.choices(), required=False,
                                     default=formats.DEFAULT)
    ruleset_preset = serializers.CharField(required=False)
    ruleset_overrides = serializers.DictField(required=False)
    format_settings = serializers.DictField(
        required=False, help_text="The format's own settings. " + SETTINGS_HELP)
    prizes = serializers.DictField(
        required=False, help_text="{\"currency\": \"$\", \"payouts\": [{\"place\": 1, "
        "\"amount\": \"300\"}], \"side\": [{\"kind\": \"high_game\", \"amount\": \"25\"}]}")
    rounds_planned = serializers.IntegerField(
        required=False, help_text="Default: 4 for a club night, 6 qualifying games (NPA) for "
        "an individual progressive event.")
    deals_per_round = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="Default: 8 for a club night, 4 (NPA) for an individual progressive event; "
        "null plays each round as a game to the target.")
    bye_scoring = serializers.ChoiceField(choices=Event.ByeScoring.choices, required=False,
                                          default=Event.ByeScoring.AVERAGE_WINNING)
    bye_points = serializers.IntegerField(required=False, default=0, min_value=-BYE_POINTS_LIMIT,
                                          max_value=BYE_POINTS_LIMIT)
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False)
    is_public = serializers.BooleanField(required=False, default=True)


class EventSettingsInput(serializers.Serializer[Any]):
    """Any subset of the settings; the others keep their current values."""

    name = serializers.CharField(max_length=120, required=False)
    date = serializers.DateField(required=False)
    ruleset_preset = serializers.CharField(
        required=False, help_text="Changing it (without ruleset_overrides) clears the overrides."
    )
    ruleset_overrides = serializers.DictField(required=False)
    rounds_planned = serializers.IntegerField(required=False)
    deals_per_round = serializers.IntegerField(required=False, allow_null=True)
    bye_scoring = serializers.ChoiceField(choices=Event.ByeScoring.choices, required=False)
    bye_points = serializers.IntegerField(required=False, min_value=-BYE_POINTS_LIMIT,
                                          max_value=BYE_POINTS_LIMIT)
    tie_breaks = serializers.ListField(child=serializers.CharField(), required=False)
    is_public = serializers.BooleanField(required=False)
    format_settings = serializers.DictField(
        required=False, help_text="The format's settings (replaced as a whole; keys left out "
        "take their defaults). A progressive event's stages change only before the cut.")
    prizes = serializers.DictField(required=False)


class CheckInInput(serializers.Serializer[Any]):
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


class AdvanceInput(serializers.Serializer[Any]):
    held = serializers.BooleanField(
        help_text="True holds the automatic advance (the next round waits for the director).")


class CutInput(serializers.Serializer[Any]):
    winner = serializers.ChoiceField(choices=["NS", "EW"],
                                     help_text="The side that won the cut of the cards.")


class ForfeitInput(serializers.Serializer[Any]):
    side = serializers.ChoiceField(choices=["NS", "EW"],
                                   help_text="The side (pair) that cannot go on.")
    reason = serializers.CharField(max_length=200, help_text="Why (kept in the event's log).")
    withdraw = serializers.BooleanField(
        required=False, default=False,
        help_text="The forfeiting pair also withdraws from the later rounds (a bracket then "
                  "gives each of its later opponents a walkover).")


class ForfeitGameOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    match = serializers.CharField(help_text="The bracket match at this table, or empty.")
    status = serializers.CharField(help_text="confirmed: a forfeit decides the game at once.")
    forfeit = serializers.CharField(help_text="The side that forfeited.")
    winner = serializers.CharField(help_text="The side that won by the walkover.")
    finish_reason = serializers.CharField()
    totals = serializers.DictField(child=serializers.IntegerField(),
                                   help_text="0 for both sides: the standings score the walkover "
                                             "as a bye for the winner.")
    hands_count = serializers.IntegerField(help_text="Hands entered before the forfeit (kept, "
                                                     "not counted).")


class SeatRoundInput(serializers.Serializer[Any]):
    number = serializers.IntegerField(
        required=False, min_value=1,
        help_text="The round wanted; if it exists already it is returned unchanged (200).",
    )
    reseat = serializers.BooleanField(
        required=False, default=False,
        help_text="Seat the open round again (only before any hand is entered in it).",
    )


class SwapInput(serializers.Serializer[Any]):
    entry_a = serializers.IntegerField(
        required=False, help_text="Entry id (seated or sitting out); events of single players.")
    entry_b = serializers.IntegerField(
        required=False, help_text="Entry id (seated or sitting out); events of single players.")
    pair_a = serializers.IntegerField(
        required=False, help_text="Pair events: a pair id (seated or sitting out); partners "
                                  "move together.")
    pair_b = serializers.IntegerField(
        required=False, help_text="Pair events: a pair id (seated or sitting out).")


# --- helpers --------------------------------------------------------------------------------------
def round_payload(round_: Round, *, with_tokens: bool) -> dict[str, Any]:
    games = {
        number: {"status": status, "hands": hands, "totals": totals or {},
                 "winner": winner or None, "cut_winner": cut or None, "forfeit": forfeit or None}
        for number, status, hands, totals, winner, cut, forfeit in Game.objects.filter(
            table__round=round_).values_list("table__number", "status", "hands_count", "totals",
                                             "winner", "cut_winner", "forfeit")
    }
    tables = []
    for item in round_tables(round_=round_):
        seats = [s for s in item["seats"] if s is not None]
        table: dict[str, Any] = {
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


def _round(event: Event, number: int) -> Round:
    return get_object_or_404(Round, event=event, number=number)


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


# --- events ---------------------------------------------------------------------------------------
class EventListApi(APIView):
    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        events = Event.objects.select_related("club").order_by("-date", "-id")
        if club := request.query_params.get("club"):
            events = events.filter(club__slug=club)
        visible = [e for e in events[:500] if can_view_event(user=request.user, event=e)]
        return Response(EventOutput(visible, many=True,
                                    context={"placements": events_placements(visible)}).data)

    @extend_schema(operation_id="event_create", summary="Create an event (directors)",
                   request=EventInput,
                   responses={201: EventOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request) -> Response:
        data = EventInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        club = get_object_or_404(Club, slug=fields.pop("club"))
        check_club_role(user=request.user, club=club, role="director")
        event = events.event_create(club=club, actor=request.user, **fields)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


SETTINGS = ("name", "date", "ruleset_preset", "ruleset_overrides", "rounds_planned",
            "deals_per_round", "bye_scoring", "bye_points", "tie_breaks", "is_public",
            "format_settings", "prizes")


class EventDetailApi(APIView):
    @extend_schema(responses={200: EventOutput, **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        return Response(EventOutput(event_get(pk=pk, user=request.user)).data)

    @extend_schema(
        operation_id="event_settings_update", summary="Change an event's settings (directors)",
        description="Send only the settings to change. A new deal count re-derives every game "
                    "from its hands; the standings follow. The rules cannot change once hands "
                    "are entered; settings that change results are refused on a finished event.",
        request=EventSettingsInput,
        responses={200: EventOutput, **error_responses(400, 403, 404)},
    )
    def patch(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = EventSettingsInput(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        given = dict(data.validated_data)
        settings = {name: getattr(event, name) for name in SETTINGS}
        if (given.get("ruleset_preset", event.ruleset_preset) != event.ruleset_preset
                and "ruleset_overrides" not in given):
            settings["ruleset_overrides"] = {}  # overrides belong to the preset (as on the page)
        updated = event_settings_update(event=event, actor=request.user, **(settings | given))
        return Response(EventOutput(updated).data)


class ReopenInput(serializers.Serializer[Any]):
    reason = serializers.CharField(max_length=500, help_text=(
        "Why the finished event's final results are to change (kept in the event's log)."))


class EventStatusApi(APIView):
    """Base of finish and reopen: a director moves the event to ``target``."""

    permission_classes = [IsAuthenticated]
    target: str = ""

    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = request.data if isinstance(request.data, dict) else {}
        reason = data.get("reason", "")
        if not isinstance(reason, str):
            raise DomainError("The reason is text.", field="reason")
        services.event_status_set(event=event, status=self.target, actor=request.user,
                                  reason=reason)
        return Response(EventOutput(event_get(pk=pk, user=request.user)).data)


class EventFinishApi(EventStatusApi):
    """Finish the event (every round closed); its placements are final from now on."""

    target = Event.Status.FINISHED

    @extend_schema(operation_id="event_finish", summary="Finish the event (directors)",
                   request=None,
                   responses={200: EventOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


class EventReopenApi(EventStatusApi):
    """Reopen a finished event to fix a result; placements are empty until it finishes again."""

    target = Event.Status.RUNNING

    @extend_schema(operation_id="event_reopen", summary="Reopen a finished event (directors)",
                   request=ReopenInput,
                   responses={200: EventOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int) -> Response:
        return super().post(request, pk)


# --- entries --------------------------------------------------------------------------------------
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


class BulkCheckInInput(serializers.Serializer[Any]):
    player_ids = serializers.ListField(
        child=serializers.IntegerField(), min_length=1, max_length=1000,
        help_text="Players of the event's club roster.")
    alternate = serializers.BooleanField(
        required=False, default=False,
        help_text="Check them all in as alternates (formats with alternates only).")


class EventEntriesBulkApi(APIView):
    """Check many players in at once, all or nobody."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="entries_bulk_check_in", summary="Check many players in (directors)",
        description="All or nobody: when any id is refused the answer is 400 with one error "
                    "per refused id, field `player_ids.<id>` (codes not_on_roster, "
                    "already_here, repeated), and nobody is checked in. Otherwise 201 with "
                    "the entries, in the order given. A player who left comes back. Pair "
                    "events register pairs one by one (POST entries/).",
        request=BulkCheckInInput,
        responses={201: EntryOutput(many=True), **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = BulkCheckInInput(data=request.data)
        data.is_valid(raise_exception=True)
        if event.is_pairs:
            raise DomainError("This event takes pairs: register each pair with POST entries/ "
                              '({"player_ids": [a, b]}).', field="player_ids",
                              code="pairs_only")
        entries = events.entries_bulk_create(
            event=event, player_ids=data.validated_data["player_ids"],
            alternate=data.validated_data["alternate"], actor=request.user)
        return Response(EntryOutput(entries, many=True).data, status=status.HTTP_201_CREATED)


def _register_pair(event: Event, data: dict[str, Any], user: Any) -> Response:
    ids = data.get("player_ids")
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


class BracketSideOutput(serializers.Serializer[Any]):
    slot = serializers.CharField(help_text='Where the pair comes from: "Seed 3", "Winner of '
                                 'W1-2", "Loser of W2-1".')
    pair = serializers.IntegerField(allow_null=True, help_text="Null until the pair is known.")
    name = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True)


class BracketMatchOutput(serializers.Serializer[Any]):
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


class BracketRoundOutput(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    matches = BracketMatchOutput(many=True)


class BracketPartOutput(serializers.Serializer[Any]):
    name = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    group = serializers.CharField(help_text="A split final: upper or lower (the lower bracket's "
                                  'match codes start with "L-"); empty otherwise.')
    rounds = BracketRoundOutput(many=True)


class BracketPlaceOutput(serializers.Serializer[Any]):
    place = serializers.IntegerField()
    pair = serializers.IntegerField()
    name = serializers.CharField()
    group = serializers.CharField(required=False, help_text="A split final: upper or lower.")


class BracketLowerOutput(serializers.Serializer[Any]):
    entrants = serializers.IntegerField()
    complete = serializers.BooleanField()
    champion = serializers.IntegerField(allow_null=True)
    champion_name = serializers.CharField()


class BracketOutput(serializers.Serializer[Any]):
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
            raise NotFound("This event has no bracket.")
        return Response(BracketOutput(bracket).data)


class PairLeaveApi(APIView):
    """A pair withdraws: both players leave; results so far stay."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="pair_leave", summary="A pair withdraws (directors)",
                   request=None, responses={200: PairOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, pair_id: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        pair = get_object_or_404(event.pairs, pk=pair_id)
        events.pair_withdraw(pair=pair, actor=request.user)
        return Response(pair_payload(pair))


class EntryLeaveApi(APIView):
    """An early leaver: seated in no further round; results so far stay."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="entry_leave", summary="A player leaves early (directors)",
                   request=None,
                   responses={200: EntryOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, entry_id: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
        left = services.entry_withdraw(entry=entry, actor=request.user)
        return Response(EntryOutput(left).data)


# --- rounds ---------------------------------------------------------------------------------------
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
                    "with 200; `reseat` seats the open round again while no hand is entered. "
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
                                       reseat=reseat)
        existed = round_.pk in before  # asked for again, or seated by the automatic advance
        return Response(round_payload(round_, with_tokens=True),
                        status=status.HTTP_200_OK if existed else status.HTTP_201_CREATED)


class RoundDetailApi(APIView):
    @extend_schema(responses={200: RoundOutput, **error_responses(404)})
    def get(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        round_ = _round(event, number)
        with_tokens = has_club_role(user=request.user, club=event.club, role="scorer")
        return Response(round_payload(round_, with_tokens=with_tokens))


class RoundStatusApi(APIView):
    """Base of start and close: a director moves the round to ``target``."""

    permission_classes = [IsAuthenticated]
    target: str = ""

    def post(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        confirm = request.data.get("close_unfinished") if isinstance(request.data, dict) else None
        round_ = services.round_set_status(round_=_round(event, number), status=self.target,
                                           actor=request.user, close_unfinished=confirm is True)
        return Response(round_payload(round_, with_tokens=True))


class RoundStartApi(RoundStatusApi):
    target = Round.Status.PLAYING

    @extend_schema(operation_id="round_start", summary="Start a seated round (directors)",
                   request=None,
                   responses={200: RoundOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int) -> Response:
        return super().post(request, pk, number)


class RoundCloseInput(serializers.Serializer):
    close_unfinished = serializers.BooleanField(
        required=False, default=False,
        help_text="Close even though some games are still playing or unconfirmed.")


class RoundCloseApi(RoundStatusApi):
    target = Round.Status.CLOSED

    @extend_schema(operation_id="round_close",
                   summary="Close a round (directors): tables can no longer write",
                   description="When games are still playing or unconfirmed the close is "
                               "refused (400, field close_unfinished, listing them) unless "
                               "the body says {\"close_unfinished\": true}.",
                   request=RoundCloseInput,
                   responses={200: RoundOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int) -> Response:
        return super().post(request, pk, number)


class RoundAdvanceInput(serializers.Serializer[Any]):
    close_unfinished = serializers.BooleanField(
        required=False, default=False,
        help_text="Close even though some games are still playing or unconfirmed.")
    start = serializers.BooleanField(
        required=False, default=True,
        help_text="Start the new round at once (its clock runs); false leaves it seated, so "
                  "seats can still be swapped.")


class RoundAdvanceOutput(serializers.Serializer[Any]):
    closed = serializers.IntegerField(help_text="The round closed.")
    round = RoundOutput(allow_null=True,
                        help_text="The round seated (and started) next; null when the closed "
                                  "round was the last: finishing the event comes next.")


class RoundAdvanceApi(APIView):
    """Close round N and seat round N+1, in one step."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="round_advance",
                   summary="Close a round and seat the next one (directors; every format)",
                   description="One transaction: round `number` is closed and the next round "
                               "is seated by the event's format and started. Refused (400, "
                               "field close_unfinished, listing them) while games are still "
                               "playing or unconfirmed, unless {\"close_unfinished\": true}; "
                               "any refusal leaves the round open. Asked again once done, it "
                               "answers the same round and changes nothing.",
                   request=RoundAdvanceInput,
                   responses={200: RoundAdvanceOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        _round(event, number)
        data = RoundAdvanceInput(data=request.data)
        data.is_valid(raise_exception=True)
        new = services.round_advance(event=event, number=number, actor=request.user,
                                     close_unfinished=data.validated_data["close_unfinished"],
                                     start=data.validated_data["start"])
        return Response({"closed": number,
                         "round": round_payload(new, with_tokens=True) if new else None})


class RoundSwapApi(APIView):
    """Swap two places before the round starts: two players' (two seats, or a seat and a bye),
    or in a pair event two pairs' (partners move together)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="round_swap", summary="Swap two players or two pairs (directors)",
                   description="Give entry_a and entry_b (two players), or in a pair event "
                               "pair_a and pair_b (two pairs: the partners move together, to "
                               "the other pair's side of a table or its bye). A pair event "
                               "refuses single players (400, field entry_a, code pair_event); "
                               "a bracket round lets a pair change sides only with its "
                               "opponent (field pair_b, code bracket_match).",
                   request=SwapInput,
                   responses={200: RoundOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        round_ = _round(event, number)
        data = SwapInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        found: dict[str, Any] = {}
        for field in ("entry_a", "entry_b"):
            if field in given:
                found[field] = _event_entry(event, given[field], field=field)
        for field in ("pair_a", "pair_b"):
            if field in given:
                found[field] = _event_pair(event, given[field], field=field)
        services.seat_swap(round_=round_, actor=request.user, **found)
        return Response(round_payload(round_, with_tokens=True))


class EventAdvanceApi(APIView):
    """Hold or release the automatic advance of a format that seats itself."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="event_advance",
                   summary="Hold or release the automatic advance (directors)",
                   description="While held, confirming a round's last game closes the round "
                               "but does not seat the next one; seat it with POST rounds/.",
                   request=AdvanceInput,
                   responses={200: EventOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = AdvanceInput(data=request.data)
        data.is_valid(raise_exception=True)
        events.event_hold_advance(event=event, held=data.validated_data["held"],
                                  actor=request.user)
        return Response(EventOutput(event_get(pk=pk, user=request.user)).data)


class TableCutApi(APIView):
    """A game that ended level: the side that won the table's cut of the cards."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="table_cut", summary="Enter a level game's cut (directors)",
                   description="Only for a finished game whose sides scored the same. The "
                               "points stand; the cut decides who moves on. Needed when the "
                               "event's ties setting is table_cut (otherwise the system cuts "
                               "when the next round is seated).",
                   request=CutInput,
                   responses={200: RoundOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int, table: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        round_ = _round(event, number)
        game = get_object_or_404(Game, table__round=round_, table__number=table)
        data = CutInput(data=request.data)
        data.is_valid(raise_exception=True)
        game_settle_tie(game=game, winner=data.validated_data["winner"], actor=request.user)
        return Response(round_payload(round_, with_tokens=True))


class TableForfeitApi(APIView):
    """A side that cannot go on forfeits its game: the other side wins by a walkover."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="table_forfeit", summary="Forfeit a table's game (directors)",
                   description="Pair formats only (refused naming the format otherwise). The "
                               "game of a table of the open round is decided for the other "
                               "side without its hands and confirmed at once: the winner scores "
                               "what a bye scores, the forfeiting side nothing; the standings "
                               "follow and a format that seats itself advances as after any "
                               "confirmed game. Refused for a game already confirmed.",
                   request=ForfeitInput,
                   responses={200: ForfeitGameOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int, table: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        round_ = _round(event, number)
        game = get_object_or_404(Game.objects.select_related("table__round"),
                                 table__round=round_, table__number=table)
        data = ForfeitInput(data=request.data)
        data.is_valid(raise_exception=True)
        done = game_forfeit(game=game, actor=request.user, **data.validated_data)
        return Response(forfeit_payload(done))


def forfeit_payload(game: Game) -> dict[str, Any]:
    return {"id": game.pk, "round": game.table.round.number, "table": game.table.number,
            "match": game.table.match, "status": game.status, "forfeit": game.forfeit,
            "winner": game.winner, "finish_reason": game.finish_reason,
            "totals": game.totals or {}, "hands_count": game.hands_count}


class RoundTimeInput(serializers.Serializer[Any]):
    confirm = serializers.BooleanField(
        required=False, default=False,
        help_text="Call time even though a table still playing has no hand entered (its game "
                  "ends 0-0); without it that is refused (400, field `confirm`, naming the "
                  "tables).")


class RoundTimeApi(APIView):
    """Time is up: games still playing end after the deals entered."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="round_call_time",
                   summary="Call time on a round (directors; timed games)",
                   description="Every game of the round still playing ends after the deals "
                               "entered: the side ahead wins (a level game is settled by a "
                               "cut). The games then wait for confirmation as usual. A table "
                               "with no hand entered would end 0-0: refused unless `confirm`.",
                   request=RoundTimeInput,
                   responses={200: RoundOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        round_ = _round(event, number)
        data = RoundTimeInput(data=request.data)
        data.is_valid(raise_exception=True)
        round_call_time(round_=round_, actor=request.user,
                        confirm_empty=data.validated_data["confirm"])
        return Response(round_payload(round_, with_tokens=True))


class DeskConfirmInput(serializers.Serializer[Any]):
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=500,
        help_text="The round's table numbers whose games the director confirms.")
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field, not Field.source
        choices=list(DESK_SOURCES),
        help_text="Where the confirmation comes from: signed_sheet (the players' signed score "
                  "sheet) or director (the director's own word).")


class DeskConfirmTableOutput(serializers.Serializer[Any]):
    table = serializers.IntegerField()
    confirmed = serializers.BooleanField(help_text="The game is confirmed now (or was already).")
    already = serializers.BooleanField(required=False,
                                       help_text="It was confirmed before this request.")
    code = serializers.CharField(required=False, help_text="Why not: no_table, not_finished.")
    error = serializers.CharField(required=False, help_text="Why not, in words.")


class DeskConfirmOutput(serializers.Serializer[Any]):
    round = serializers.IntegerField()
    source = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.source
    tables = DeskConfirmTableOutput(many=True)


class RoundConfirmApi(APIView):
    """The desk confirms finished games from the players' signed score sheets."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="round_confirm",
                   summary="Confirm finished games at the desk (directors)",
                   description="Each finished game of the tables named is confirmed as if its "
                               "other side had confirmed it (the round advances once its last "
                               "game is confirmed); the event's log records the director and "
                               "the source. Answers 200 with one result per table: a game "
                               "still playing or a table the round does not have is refused "
                               "with its reason (confirmed false, error) while the others are "
                               "confirmed; a game confirmed before says already.",
                   request=DeskConfirmInput,
                   responses={200: DeskConfirmOutput, **error_responses(400, 403, 404)})
    def post(self, request: Request, pk: int, number: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        round_ = _round(event, number)
        data = DeskConfirmInput(data=request.data)
        data.is_valid(raise_exception=True)
        source = data.validated_data["source"]
        results = games_confirm_at_desk(round_=round_, tables=data.validated_data["tables"],
                                        source=source, actor=request.user)
        return Response(DeskConfirmOutput(
            {"round": round_.number, "source": source, "tables": results}).data)


# --- where do I sit ---------------------------------------------------------------------------------
class SeatingPlayerOutput(serializers.Serializer[Any]):
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
    position = serializers.CharField(allow_blank=True, help_text="N, E, S or W; \"\" unseated.")
    seat_name = serializers.CharField(allow_blank=True)
    partner = serializers.CharField(allow_blank=True)
    opponents = serializers.ListField(child=serializers.CharField())
    pair = serializers.CharField(allow_blank=True, help_text="Pair events: the player's pair.")
    answer = serializers.CharField(
        help_text='The answer in one line, as the event page says it: "Ann Smith — Round 3: '
                  'table 5, seat N, partner Bob Jones".')


class SeatingOutput(serializers.Serializer[Any]):
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
            raise DomainError(f"Type at most {where.NAME_MAX} characters of the name.", field="name",
                              code="too_long")
        board = where.seating(event, name=name, withdrawn=bool(name.strip()))
        round_ = board["round"]
        return Response(SeatingOutput({
            **board, "round": round_.number if round_ else None,
            "version": where.seating_version(event), "players": board["rows"],
        }).data)

"""Event API: the games of a round, the director's side: a level game's cut, a forfeit, time
called, and the desk confirming finished games."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import serializers

from clubs.api import error_responses
from common import validated
from common.labels import SIDES
from common.types import Actor
from scoring.models import DESK_SOURCES, Game
from scoring.services import (
    game_forfeit,
    game_settle_tie,
    games_confirm_at_desk,
    round_call_time,
)
from tournaments.api_actions import DirectorAction
from tournaments.models import Event, Round

from .rounds import RoundAction, RoundOutput, RoundPayload, round_get, round_payload


class CutInput(serializers.Serializer[object]):
    winner = serializers.CharField(
        max_length=2, help_text="The side that won the cut of the cards (one of the sides level "
                                "at the top: a partnership, or a player's seat where each plays "
                                "alone).")


class ForfeitInput(serializers.Serializer[object]):
    side = serializers.ChoiceField(choices=SIDES,
                                   help_text="The side (pair) that cannot go on.")
    reason = serializers.CharField(max_length=200, help_text="Why (kept in the event's log).")
    withdraw = serializers.BooleanField(
        required=False, default=False,
        help_text="The forfeiting pair also withdraws from the later rounds (a bracket then "
                  "gives each of its later opponents a walkover).")


class ForfeitGameOutput(serializers.Serializer[object]):
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


# A director's action on the game at table ``table`` of round ``number`` (404 for either
# missing, the round first), with its table and round. No docstring: the schema describes each
# action by its own class's.
class TableGameAction(DirectorAction):
    def find(self, event: Event, **where: int) -> Game:
        round_ = round_get(event, where["number"])
        return get_object_or_404(Game.objects.select_related("table__round"),
                                 table__round=round_, table__number=where["table"])


@extend_schema_view(post=extend_schema(
    operation_id="table_cut", summary="Enter a level game's cut (directors)",
    description="Only for a finished game whose sides scored the same. The "
                "points stand; the cut decides who moves on. Needed when the "
                "event's ties setting is table_cut (otherwise the system cuts "
                "when the next round is seated).",
    request=CutInput,
    responses={200: RoundOutput, **error_responses(400, 403, 404)}))
class TableCutApi(TableGameAction):
    """A game that ended level: the side that won the table's cut of the cards."""

    input = CutInput

    def act(self, event: Event, found: Game, data: Mapping[str, object], *,
            actor: Actor) -> RoundPayload:
        game_settle_tie(game=found, winner=validated.text(data, "winner"), actor=actor)
        return round_payload(found.table.round, with_tokens=True)


@extend_schema_view(post=extend_schema(
    operation_id="table_forfeit", summary="Forfeit a table's game (directors)",
    description="Pair formats only (refused naming the format otherwise). The "
                "game of a table of the open round is decided for the other "
                "side without its hands and confirmed at once: the winner scores "
                "what a bye scores, the forfeiting side nothing; the standings "
                "follow and a format that seats itself advances as after any "
                "confirmed game. Refused for a game already confirmed.",
    request=ForfeitInput,
    responses={200: ForfeitGameOutput, **error_responses(400, 403, 404)}))
class TableForfeitApi(TableGameAction):
    """A side that cannot go on forfeits its game: the other side wins by a walkover."""

    input = ForfeitInput

    def act(self, event: Event, found: Game, data: Mapping[str, object], *,
            actor: Actor) -> ForfeitPayload:
        return forfeit_payload(game_forfeit(
            game=found, actor=actor, side=validated.text(data, "side"),
            reason=validated.text(data, "reason"), withdraw=validated.flag(data, "withdraw")))


class ForfeitPayload(TypedDict):
    """A forfeited game as the API shows it (``ForfeitGameOutput``)."""

    id: int
    round: int
    table: int
    match: str
    status: str
    forfeit: str
    winner: str
    finish_reason: str
    totals: dict[str, int]
    hands_count: int


def forfeit_payload(game: Game) -> ForfeitPayload:
    return {"id": game.pk, "round": game.table.round.number, "table": game.table.number,
            "match": game.table.match, "status": game.status, "forfeit": game.forfeit,
            "winner": game.winner, "finish_reason": game.finish_reason,
            "totals": game.totals or {}, "hands_count": game.hands_count}


class RoundTimeInput(serializers.Serializer[object]):
    confirm = serializers.BooleanField(
        required=False, default=False,
        help_text="Call time even though a table still playing has no hand entered (its game "
                  "ends 0-0); without it that is refused (400, field `confirm`, naming the "
                  "tables).")


@extend_schema_view(post=extend_schema(
    operation_id="round_call_time",
    summary="Call time on a round (directors; timed games)",
    description="Every game of the round still playing ends after the deals "
                "entered: the side ahead wins (a level game is settled by a "
                "cut). The games then wait for confirmation as usual. A table "
                "with no hand entered would end 0-0: refused unless `confirm`.",
    request=RoundTimeInput,
    responses={200: RoundOutput, **error_responses(400, 403, 404)}))
class RoundTimeApi(RoundAction):
    """Time is up: games still playing end after the deals entered."""

    input = RoundTimeInput

    def act(self, event: Event, found: Round, data: Mapping[str, object], *,
            actor: Actor) -> RoundPayload:
        round_call_time(round_=found, actor=actor, confirm_empty=validated.flag(data, "confirm"))
        return round_payload(found, with_tokens=True)


class DeskConfirmInput(serializers.Serializer[object]):
    tables = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=500,
        help_text="The round's table numbers whose games the director confirms.")
    source = serializers.ChoiceField(  # type: ignore[assignment]  # a field, not Field.source
        choices=list(DESK_SOURCES),
        help_text="Where the confirmation comes from: signed_sheet (the players' signed score "
                  "sheet) or director (the director's own word).")


class DeskConfirmTableOutput(serializers.Serializer[object]):
    table = serializers.IntegerField()
    confirmed = serializers.BooleanField(help_text="The game is confirmed now (or was already).")
    already = serializers.BooleanField(required=False,
                                       help_text="It was confirmed before this request.")
    code = serializers.CharField(required=False, help_text="Why not: no_table, not_finished.")
    error = serializers.CharField(required=False, help_text="Why not, in words.")


class DeskConfirmOutput(serializers.Serializer[object]):
    round = serializers.IntegerField()
    source = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.source
    tables = DeskConfirmTableOutput(many=True)


@extend_schema_view(post=extend_schema(
    operation_id="round_confirm",
    summary="Confirm finished games at the desk (directors)",
    description="Each finished game of the tables named is confirmed as if its "
                "other side had confirmed it (the round advances once its last "
                "game is confirmed); the event's log records the director and "
                "the source. Answers 200 with one result per table: a game "
                "still playing or a table the round does not have is refused "
                "with its reason (confirmed false, error) while the others are "
                "confirmed; a game confirmed before says already.",
    request=DeskConfirmInput,
    responses={200: DeskConfirmOutput, **error_responses(400, 403, 404)}))
class RoundConfirmApi(RoundAction):
    """The desk confirms finished games from the players' signed score sheets."""

    input = DeskConfirmInput

    def act(self, event: Event, found: Round, data: Mapping[str, object], *,
            actor: Actor) -> object:
        source = validated.text(data, "source")
        results = games_confirm_at_desk(round_=found, tables=validated.wholes(data, "tables"),
                                        source=source,
                                        actor=actor)
        return DeskConfirmOutput({"round": found.number, "source": source,
                                  "tables": results}).data

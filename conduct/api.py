"""Conduct API: penalties, their withdrawal, appeals, the penalty table, adjusted results, a
player's conduct record, the calls for a director, and an event's public list of corrections
(read by whoever may read its standings). Only directors (and owners) of the event's club record, withdraw,
adjust and rule, and read an event's penalties and appeals; a player's conduct record is read by
the club's directors and the player. Everyone else: 403, or 404 for people outside a private
club (and for the conduct record, for anyone but a club member). A table raises a call with
its link's token (no login), and sees only its own calls; the event's directors list, take and
close them. Refusals name their field in the house shape ``{"errors": [{"field", "code",
"message"}]}``."""

from __future__ import annotations

from collections.abc import Mapping

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, override
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from clubs.models import Club, Player
from common.errors import DomainError
from common.types import Actor
from scoring.api import TOKEN_PARAM, TableDeviceApi
from scoring.models import Game
from scoring.selectors import entry_refusal, table_by_token
from scoring.services import ADJUST_KINDS, game_adjust
from tournaments.api_actions import DirectorAction
from tournaments.models import Event, Table
from tournaments.selectors import event_get

from . import selectors, services
from .models import CALL_NOTE_MAX, CALL_WORDS_MAX, Appeal, Correction, DirectorCall, Penalty

# the schema is English: the labels are looked up in English whichever request loads this
with override("en"):
    KINDS_HELP = "; ".join(f"{k.value}: {k.label}" for k in Penalty.Kind)


def _data(request: Request) -> Mapping[str, object]:
    return request.data if isinstance(request.data, Mapping) else {}


# --- corrections ------------------------------------------------------------------------------
class StandingPlace(serializers.Serializer[object]):
    points = serializers.IntegerField(help_text="The standings total (penalties taken off).")
    rank = serializers.IntegerField(help_text="The place in the standings.")


class StandingMoved(serializers.Serializer[object]):
    entry_id = serializers.IntegerField(required=False, help_text="The player (individual "
                                        "events).")
    pair_id = serializers.IntegerField(required=False, help_text="The pair (pair events).")
    name = serializers.CharField()
    before = StandingPlace(allow_null=True, help_text="Null: not in the standings before.")
    after = StandingPlace(allow_null=True, help_text="Null: not in the standings after.")


class CorrectionOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Correction.Kind.choices)
    kind_label = serializers.CharField()
    at = serializers.DateTimeField(help_text="When the correction was made.")
    role = serializers.ChoiceField(choices=["owner", "director", "scorer", "system"],
                                   help_text="Who made it, by their role in the club then.")
    by = serializers.CharField(help_text="The role, with the person's name where the club "
                               "shows directors' names.")
    name = serializers.CharField(allow_null=True, help_text="The person's name where the club "
                                 "shows directors' names (show_director_names), else null.")
    reason = serializers.CharField(help_text='Why, as the director said it ("no reason given" '
                                   "where none was asked).")
    reason_given = serializers.BooleanField()
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    was = serializers.CharField(help_text="What it was, in a few words.")
    became = serializers.CharField(help_text="What it became, in a few words.")
    before = serializers.DictField(help_text="The values before (by kind: a hand's values and "
                                   "points and the game's totals; a game; a penalty; the "
                                   "places).")
    after = serializers.DictField(help_text="The values after, in the same shape.")
    standings_moved = StandingMoved(many=True, help_text="The players (pairs) whose total or "
                                    "place changed, with both, best placed after first.")


class EventCorrectionsApi(APIView):
    permission_classes = [AllowAny]  # read only; whoever may see the event (event_get)

    @extend_schema(operation_id="event_corrections", summary="An event's corrections (public)",
                   description="Every change to a result after the players were shown it "
                               "(a confirmed game's hand corrected or deleted, an adjusted "
                               "result, a forfeit, a penalty given or withdrawn, the event "
                               "reopened or finished again), newest first. Readable by "
                               "whoever may read the event's standings.",
                   responses={200: CorrectionOutput(many=True), **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        club = event.club
        return Response([selectors.correction_payload(c, club)
                         for c in selectors.event_corrections(event)])


# --- penalties --------------------------------------------------------------------------------
class PenaltyInput(serializers.Serializer[object]):
    entry_id = serializers.IntegerField(required=False, help_text="The player penalised (in a "
                                        "pair event the penalty counts against their pair).")
    pair_id = serializers.IntegerField(required=False, help_text="Pair events: the pair "
                                       "penalised (instead of entry_id).")
    round = serializers.IntegerField(help_text="The round (a progressive day's game) of the "
                                     "offence; the player (pair) must have played in it.")
    table = serializers.IntegerField(required=False, help_text="The table of the game, if the "
                                     "offence was in one; the player must have sat there.")
    kind = serializers.ChoiceField(choices=Penalty.Kind.values, help_text=KINDS_HELP)
    points = serializers.IntegerField(required=False, help_text="Points taken off, 1 to 1000 "
                                      "(positive; a penalty subtracts). Default: the event's "
                                      "penalty table.")
    reason = serializers.CharField(max_length=200)


class PenaltyOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    entry_id = serializers.IntegerField(allow_null=True)
    pair_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    kind = serializers.CharField()
    kind_label = serializers.CharField()
    points = serializers.IntegerField(help_text="Taken off the player's (pair's) total.")
    reason = serializers.CharField()
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    withdrawn = serializers.BooleanField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)
    withdrawn_reason = serializers.CharField()
    withdrawn_by = serializers.CharField()


class WithdrawInput(serializers.Serializer[object]):
    reason = serializers.CharField(max_length=200, help_text="Why (kept in the history).")


@extend_schema_view(post=extend_schema(
    operation_id="penalty_record", summary="Record a penalty (directors)",
    description="Points off a player (or a pair) for an offence in a round: they "
                "count in the standings at once, the player's in an individual "
                "event, the pair's in a pair event.",
    request=PenaltyInput,
    responses={201: PenaltyOutput, **error_responses(400, 403, 404)}))
class EventPenaltiesApi(DirectorAction):
    status_code = status.HTTP_201_CREATED

    @extend_schema(operation_id="event_penalties", summary="An event's penalties (directors)",
                   description="Every penalty, withdrawn ones too (the history), in round order.",
                   responses={200: PenaltyOutput(many=True), **error_responses(403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        return Response([selectors.penalty_payload(p) for p in selectors.event_penalties(event)])

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        body = _data(self.request)
        penalty = services.penalty_record(
            event=event, round_number=body.get("round"), kind=body.get("kind", ""),
            reason=body.get("reason", ""), points=body.get("points"),
            entry_id=body.get("entry_id"), pair_id=body.get("pair_id"), table=body.get("table"),
            actor=actor)
        penalty = Penalty.objects.select_related(
            "entry__player", "pair", "game__table", "created_by").get(pk=penalty.pk)
        return selectors.penalty_payload(penalty)


@extend_schema_view(post=extend_schema(
    operation_id="penalty_withdraw", summary="Withdraw a penalty (directors)",
    description="It stops counting; it stays in the history, marked withdrawn.",
    request=WithdrawInput, responses={200: PenaltyOutput, **error_responses(400, 403, 404)}))
class PenaltyWithdrawApi(DirectorAction):
    def find(self, event: Event, **where: int) -> Penalty:
        return get_object_or_404(Penalty, event=event, pk=where["penalty_id"])

    def act(self, event: Event, found: Penalty, data: Mapping[str, object], *,
            actor: Actor) -> object:
        services.penalty_withdraw(penalty=found, reason=_data(self.request).get("reason", ""),
                                  actor=actor)
        done = Penalty.objects.select_related(
            "entry__player", "pair", "game__table", "created_by", "withdrawn_by").get(pk=found.pk)
        return selectors.penalty_payload(done)


# --- the penalty table ----------------------------------------------------------------------
class PenaltyTableKindOutput(serializers.Serializer[object]):
    kind = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    points = serializers.IntegerField()


class PenaltyTableOutput(serializers.Serializer[object]):
    preset = serializers.CharField(help_text="tournament (NPA-style) or club.")
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    kinds = PenaltyTableKindOutput(many=True)
    edited = serializers.BooleanField(help_text="The director changed the preset's points.")


class PenaltyTableInput(serializers.Serializer[object]):
    preset = serializers.CharField(required=False)
    points = serializers.DictField(child=serializers.IntegerField(), required=False,
                                   help_text="Points per kind, 1 to 1000 each.")


class PenaltyTableApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="penalty_table", summary="The event's penalty table (directors)",
                   responses={200: PenaltyTableOutput, **error_responses(403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        return Response(selectors.penalty_table(event))

    @extend_schema(operation_id="penalty_table_set", summary="Set the penalty table (directors)",
                   request=PenaltyTableInput,
                   responses={200: PenaltyTableOutput, **error_responses(400, 403, 404)})
    def put(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = _data(request)
        points = data.get("points")
        if points is not None and not isinstance(points, Mapping):
            raise DomainError(gettext("Give the points per kind."), field="points")
        services.penalty_table_set(event=event, preset=data.get("preset") or None,
                                   points=points, actor=request.user)
        return Response(selectors.penalty_table(event))


# --- appeals --------------------------------------------------------------------------------
class AppealInput(serializers.Serializer[object]):
    penalty_id = serializers.IntegerField(required=False, help_text="The penalty contested.")
    round = serializers.IntegerField(required=False, help_text="The game contested: its round…")
    table = serializers.IntegerField(required=False, help_text="…and table.")
    entry_id = serializers.IntegerField(required=False, help_text="Who appealed.")
    contested = serializers.CharField(max_length=500, help_text="The ruling contested.")
    decision = serializers.ChoiceField(choices=Appeal.Decision.values,
                                       help_text="overturned withdraws the penalty contested.")
    note = serializers.CharField(max_length=500, required=False,
                                 help_text="The decision's reasons (required for changed).")


class AppealOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    penalty_id = serializers.IntegerField(allow_null=True)
    round = serializers.IntegerField(allow_null=True)
    table = serializers.IntegerField(allow_null=True)
    entry_id = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()
    contested = serializers.CharField()
    decision = serializers.CharField()
    decision_label = serializers.CharField()
    note = serializers.CharField()
    decided_by = serializers.CharField()
    decided_at = serializers.DateTimeField()


@extend_schema_view(post=extend_schema(
    operation_id="appeal_record", summary="Log an appeal and its decision (directors)",
    request=AppealInput, responses={201: AppealOutput, **error_responses(400, 403, 404)}))
class EventAppealsApi(DirectorAction):
    status_code = status.HTTP_201_CREATED

    @extend_schema(operation_id="event_appeals", summary="An event's appeals (directors)",
                   responses={200: AppealOutput(many=True), **error_responses(403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        return Response([selectors.appeal_payload(a) for a in selectors.event_appeals(event)])

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        body = _data(self.request)
        appeal = services.appeal_record(
            event=event, contested=body.get("contested", ""), decision=body.get("decision", ""),
            note=body.get("note", ""), penalty_id=body.get("penalty_id"),
            round_number=body.get("round"), table=body.get("table"),
            entry_id=body.get("entry_id"), actor=actor)
        appeal = Appeal.objects.select_related(
            "game__table__round", "entry__player", "decided_by").get(pk=appeal.pk)
        return selectors.appeal_payload(appeal)


# --- adjusted results -----------------------------------------------------------------------
class AdjustInput(serializers.Serializer[object]):
    kind = serializers.ChoiceField(choices=list(ADJUST_KINDS), help_text="; ".join(
        f"{k}: {v}" for k, v in ADJUST_KINDS.items()))
    points = serializers.DictField(child=serializers.IntegerField(), required=False,
                                   help_text="kind points: every side's points, keyed by "
                                             "the table's sides (its state lists them).")
    side = serializers.CharField(required=False,
                                 help_text="kind forfeit: the side that forfeits.")
    reason = serializers.CharField(max_length=200)


class AdjustedGameOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    status = serializers.CharField(help_text="confirmed: an adjusted result decides the game.")
    winner = serializers.CharField()
    totals = serializers.DictField(child=serializers.IntegerField())
    adjusted = serializers.DictField(help_text="kind, points, reason (and side for a forfeit).")


@extend_schema_view(post=extend_schema(
    operation_id="table_adjust", summary="Give a game an adjusted result (directors)",
    description="For a game that cannot be played out: both sides' points, the "
                "round's average, or a forfeit (formats with forfeits), with a "
                "reason. The game is decided and confirmed at once; the "
                "standings follow and a format that seats itself advances.",
    request=AdjustInput,
    responses={200: AdjustedGameOutput, **error_responses(400, 403, 404)}))
class TableAdjustApi(DirectorAction):
    def find(self, event: Event, **where: int) -> Game:
        return get_object_or_404(Game.objects.select_related("table__round"),
                                 table__round__event=event, table__round__number=where["number"],
                                 table__number=where["table"])

    def act(self, event: Event, found: Game, data: Mapping[str, object], *,
            actor: Actor) -> object:
        # The body as sent: ``game_adjust`` checks each value's type itself.
        body = self.request.data if isinstance(self.request.data, Mapping) else {}
        done = game_adjust(game=found, kind=body.get("kind", ""), reason=body.get("reason", ""),
                           points=body.get("points"), side=body.get("side", "") or "",
                           actor=actor)
        done.refresh_from_db()
        return {"id": done.pk, "round": found.table.round.number, "table": found.table.number,
                "status": done.status, "winner": done.winner, "totals": done.totals or {},
                "adjusted": done.adjusted or {}}


# --- the conduct record ---------------------------------------------------------------------
class ConductRecordOutput(serializers.Serializer[object]):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    count = serializers.IntegerField(help_text="Penalties in force.")
    withdrawn = serializers.IntegerField()
    points = serializers.IntegerField(help_text="Points of the penalties in force.")
    recent = serializers.IntegerField(help_text="Penalties in force of the last 12 months.")
    penalties = PenaltyOutput(many=True)


class PlayerConductApi(APIView):
    @extend_schema(operation_id="player_conduct", summary="A player's conduct record in a club "
                   "(the club's directors, the player)",
                   responses={200: ConductRecordOutput, **error_responses(403, 404)})
    def get(self, request: Request, slug: str, player_id: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        player = get_object_or_404(Player, pk=player_id)
        selectors.conduct_access(user=request.user, club=club, player=player)
        record = selectors.conduct_record(club=club, player=player)
        return Response({"player_id": player.pk, "name": player.name, "club": club.slug,
                         **selectors.conduct_summary(record),
                         "penalties": [selectors.penalty_payload(p) | {"event": p.event.name}
                                       for p in record]})


# --- calls for a director -------------------------------------------------------------------
with override("en"):
    REASONS_HELP = "; ".join(f"{r.value}: {r.label}" for r in DirectorCall.Reason if r.value)


class CallInput(serializers.Serializer[object]):
    reason = serializers.ChoiceField(choices=[r for r in DirectorCall.Reason.values if r],
                                     required=False, help_text=f"Optional. {REASONS_HELP}.")
    words = serializers.CharField(max_length=CALL_WORDS_MAX, required=False,
                                  help_text="Optional: a few words for the director.")


class CallCloseInput(serializers.Serializer[object]):
    note = serializers.CharField(max_length=CALL_NOTE_MAX,
                                 help_text="The ruling (required): the table's phone shows it.")


class CallOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    event_id = serializers.IntegerField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    reason = serializers.CharField(help_text=f"Empty, or {REASONS_HELP}.")
    reason_label = serializers.CharField()
    words = serializers.CharField()
    state = serializers.ChoiceField(choices=DirectorCall.State.values,
                                    help_text="waiting (nobody took it yet), taken (a director is "
                                              "on the way), closed (ruled).")
    open = serializers.BooleanField(help_text="Not closed yet.")
    raised_at = serializers.DateTimeField()
    waited_seconds = serializers.IntegerField(help_text="From the call until a director took "
                                              "it (or until now, while nobody has).")
    taken_by = serializers.CharField()
    taken_at = serializers.DateTimeField(allow_null=True)
    closed_by = serializers.CharField()
    closed_at = serializers.DateTimeField(allow_null=True)
    note = serializers.CharField(help_text="The ruling.")
    dismissed = serializers.BooleanField(help_text="The table's phone put the ruling away.")


def _no_call(call_id: int, where: str) -> Response:
    return Response({"errors": [{"field": "call_id", "code": "not_found",
                                 "message": gettext("There is no call %(call_id)s %(where)s.") % {"call_id": call_id, "where": where}}]},
                    status=status.HTTP_404_NOT_FOUND)


def _table_closed(table: Table) -> Response | None:
    """403 naming ``round`` (or ``event``) while the table's round takes nothing from it."""
    refusal = entry_refusal(table.round)
    if refusal is None:
        return None
    return Response({"errors": [{"field": refusal.field, "code": refusal.code or "closed",
                                 "message": gettext("%(message)s Ask a director in person.") % {"message": refusal.message}}]},
                    status=status.HTTP_403_FORBIDDEN)


class TableCallsApi(TableDeviceApi):
    """A table's calls for a director, from its phone: the table's link token is the credential
    (no login); it sees its own calls only."""

    @extend_schema(operation_id="table_calls", parameters=[TOKEN_PARAM],
                   summary="This table's calls (the open one first)",
                   responses={200: CallOutput(many=True), **error_responses(404)},
                   tags=["score entry"])
    def get(self, request: Request, token: str) -> Response:
        table = table_by_token(token=token)
        return Response([selectors.call_payload(c) for c in selectors.table_calls(table)])

    @extend_schema(operation_id="table_call_raise", parameters=[TOKEN_PARAM],
                   summary="Call the director to this table",
                   description="One open call per table: a second one while the first is open "
                               "is refused (400 naming table). 403 once the round is closed.",
                   request=CallInput,
                   responses={201: CallOutput, **error_responses(400, 403, 404)},
                   tags=["score entry"])
    def post(self, request: Request, token: str) -> Response:
        table = table_by_token(token=token)
        closed = _table_closed(table)
        if closed is not None:
            return closed
        data = _data(request)
        call = services.director_call_raise(table=table, reason=data.get("reason", ""),
                                            words=data.get("words", ""))
        return Response(selectors.call_payload(_call(call.pk)), status=status.HTTP_201_CREATED)


class TableCallDismissApi(TableDeviceApi):
    @extend_schema(operation_id="table_call_dismiss", parameters=[TOKEN_PARAM], request=None,
                   summary="Put a ruling away on the table's phone",
                   responses={200: CallOutput, **error_responses(400, 404)},
                   tags=["score entry"])
    def post(self, request: Request, token: str, call_id: int) -> Response:
        table = table_by_token(token=token)
        call = DirectorCall.objects.filter(table=table, pk=call_id).first()
        if call is None:
            return _no_call(call_id, "at this table")
        services.director_call_dismiss(call=call)
        return Response(selectors.call_payload(_call(call.pk)))


def _call(pk: int) -> DirectorCall:
    return DirectorCall.objects.select_related("table__round", "taken_by", "closed_by").get(pk=pk)


class EventCallsApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="event_calls", summary="The event's calls for a director "
                   "(directors)",
                   description="Open calls first (longest waiting first), then closed ones "
                               "(newest first).",
                   parameters=[OpenApiParameter(
                       "state", str, OpenApiParameter.QUERY, required=False,
                       enum=list(selectors.CALL_FILTERS),
                       description="open (not closed: waiting or taken), waiting (nobody took "
                                   "it yet), taken or closed.")],
                   responses={200: CallOutput(many=True), **error_responses(400, 403, 404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        state = request.query_params.get("state") or None
        if state is not None and state not in selectors.CALL_FILTERS:
            raise DomainError(gettext("state is one of: %(values)s.") % {"values": ', '.join(selectors.CALL_FILTERS)},
                              field="state")
        return Response([selectors.call_payload(c)
                         for c in selectors.event_calls(event, state=state)])


class _CallAction(DirectorAction):
    # no docstring: the schema would describe take and close by it
    def find(self, event: Event, **where: int) -> DirectorCall | Response:
        """The event's call ``call_id``; a 404 naming ``call_id`` when the event has none."""
        call = DirectorCall.objects.filter(event=event, pk=where["call_id"]).first()
        return _no_call(where["call_id"], "in this event") if call is None else call


@extend_schema_view(post=extend_schema(
    operation_id="call_take", summary="Take a call: on my way (directors)", request=None,
    responses={200: CallOutput, **error_responses(400, 403, 404)}))
class CallTakeApi(_CallAction):
    def act(self, event: Event, found: DirectorCall, data: Mapping[str, object], *,
            actor: Actor) -> object:
        services.director_call_take(call=found, actor=actor)
        return selectors.call_payload(_call(found.pk))


@extend_schema_view(post=extend_schema(
    operation_id="call_close", summary="Close a call with the ruling (directors)",
    request=CallCloseInput, responses={200: CallOutput, **error_responses(400, 403, 404)}))
class CallCloseApi(_CallAction):
    def act(self, event: Event, found: DirectorCall, data: Mapping[str, object], *,
            actor: Actor) -> object:
        services.director_call_close(call=found, note=_data(self.request).get("note"),
                                     actor=actor)
        return selectors.call_payload(_call(found.pk))

"""Score entry API: input serializer → service → output serializer.

Two kinds of callers:

* a table's device, authenticated by the table token in the URL (no login; the token opens that
  table and round only, and writes stop when the round closes);
* a logged-in scorer or director of the event's club (session or ``Authorization: Token ...``),
  who may correct any hand (a closed round's hand only as a director, with a reason).

Errors always have the shape ``{"errors": [{"field", "code", "message"}]}``; field names follow
the rules engine's JSON input (``meld.<side>``). A conflict (409) also carries ``current``, the
stored values. A submission carrying an ``Idempotency-Key`` header (or ``idempotency_key`` field)
that was already stored returns the stored hand (200) instead of storing a second one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypedDict

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.permissions import check_club_role, has_club_role
from common.labels import OUTCOMES, SEATS, SUITS
from rules_engine import Ruleset
from tournaments.models import Event, Round, Table
from tournaments.selectors import event_get

from . import services
from .models import Game, HandRevision
from .selectors import (
    TableState,
    entry_refusal,
    hand_history,
    hand_with_context,
    revision_row,
    table_by_token,
    table_ruleset,
    table_state,
    table_status,
)
from .where_next import table_next_round


# --- input --------------------------------------------------------------------------------------
class HandValuesInput(serializers.Serializer[object]):
    """One hand in the rules engine's input shape (as ``python -m rules_engine score`` reads it)."""

    dealer = serializers.ChoiceField(choices=SEATS)
    outcome = serializers.ChoiceField(choices=OUTCOMES, default="played")
    bidder = serializers.ChoiceField(choices=SEATS, required=False, allow_blank=True)
    bid = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=10000)
    trump = serializers.ChoiceField(choices=SUITS, required=False, allow_blank=True)
    renege_seat = serializers.ChoiceField(choices=SEATS, required=False, allow_blank=True)
    meld = serializers.DictField(
        child=serializers.IntegerField(allow_null=True, min_value=0, max_value=10000),
        required=False, help_text="Meld per side, keyed by the table's sides (its partnerships, or each "
                  "player's seat where each plays alone; the table's state lists them).",
    )
    counters = serializers.DictField(
        child=serializers.IntegerField(allow_null=True, min_value=0, max_value=10000),
        required=False, allow_null=True,
        help_text="Counters per side; only when cards were played (played, renege).",
    )
    tricks = serializers.DictField(
        child=serializers.IntegerField(allow_null=True, min_value=0, max_value=100),
        required=False, allow_null=True,
        help_text="Tricks taken per side, in a played hand where the ruleset needs them "
                  "(meld saved by a trick, all tricks); the table's ruleset says so.",
    )
    quadruple_run = serializers.CharField(
        max_length=6, required=False, allow_blank=True,
        help_text="The side that showed a quadruple run, where that wins the game.",
    )
    partner = serializers.ChoiceField(
        choices=SEATS, required=False, allow_blank=True,
        help_text="Five-handed: the seat that held the called card, the bidder's partner for the "
                  "hand (the bidder's own seat when playing alone).")
    misdeal_seat = serializers.ChoiceField(
        choices=SEATS, required=False, allow_blank=True,
        help_text="A technical misdeal (outcome technical_misdeal): the seat that called it.")
    widow_seen = serializers.BooleanField(
        required=False, allow_null=True,
        help_text="A surrender where a widow is dealt: false when the declarer conceded without "
                  "looking at it.")
    check_melds = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField(max_length=30), max_length=20),
        required=False, allow_null=True,
        help_text="Check pinochle: the melds that earn checks, per player "
                  '(e.g. {"N": ["run", "aces"]}); the ruleset lists them.')

    def values(self) -> dict[str, object]:
        data = dict(self.validated_data)
        return {k: data[k] for k in services.HAND_FIELDS if k in data}


class HandSubmitInput(HandValuesInput):
    number = serializers.IntegerField(
        min_value=1, help_text="The hand this device is entering (1 for the first of the game)."
    )
    idempotency_key = serializers.CharField(
        max_length=64, required=False, allow_blank=True,
        help_text="Same as the Idempotency-Key header; a retry with the same key stores nothing new.",
    )


class HandCorrectInput(HandValuesInput):
    expected_revision = serializers.IntegerField(
        min_value=1, help_text="The revision the correction is based on (a stale one gets 409)."
    )
    note = serializers.CharField(
        max_length=200, required=False, allow_blank=True,
        help_text="Why the hand is changed (required once the round is closed).",
    )
    idempotency_key = serializers.CharField(max_length=64, required=False, allow_blank=True)


# --- output -------------------------------------------------------------------------------------
class ErrorItem(serializers.Serializer[object]):
    field = serializers.CharField()
    code = serializers.CharField()
    message = serializers.CharField()


class ErrorOutput(serializers.Serializer[object]):
    errors = ErrorItem(many=True)  # type: ignore[assignment]  # the house error shape
    current = serializers.DictField(required=False, allow_null=True)


class HandScoreOutput(serializers.Serializer[object]):
    points = serializers.DictField(child=serializers.IntegerField())
    sitting_out = serializers.CharField(
        required=False,
        help_text="The seat that sat the hand out (the dealer, where a fourth player sits at a "
                  "three-handed table); left out where everyone played.")
    declaring_side = serializers.CharField(allow_null=True)
    made = serializers.BooleanField(allow_null=True)
    result = serializers.CharField()
    reason = serializers.CharField(allow_blank=True)


class RevisionOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    hand_id = serializers.IntegerField()
    number = serializers.IntegerField(help_text="The hand's number in its game.")
    revision = serializers.IntegerField()
    is_live = serializers.BooleanField()
    values = serializers.DictField(help_text="The entered values, in the rules engine's shape.")
    summary = serializers.CharField()
    points = serializers.DictField(child=serializers.IntegerField())
    result = serializers.CharField()
    made = serializers.BooleanField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    author = serializers.CharField(allow_blank=True)
    source = serializers.CharField()  # type: ignore[assignment]  # a field named "source"
    note = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()


class HandRowOutput(RevisionOutput):
    running = serializers.DictField(child=serializers.IntegerField(),
                                    help_text="The game score after this hand.")


class TableHandOutput(HandRowOutput):
    """A hand as the table's device sees it: the values and scores, not who corrected it or
    their notes (the token is no login; that audit is for the club's scorers and directors)."""

    author = None  # type: ignore[assignment]
    note = None  # type: ignore[assignment]
    source = None  # type: ignore[assignment]


class TableSeatOutput(serializers.Serializer[object]):
    position = serializers.CharField()
    side = serializers.CharField()
    name = serializers.CharField(allow_blank=True)


class GameOutput(serializers.Serializer[object]):
    status = serializers.CharField()
    totals = serializers.DictField(child=serializers.IntegerField())
    winner = serializers.CharField(allow_blank=True)
    finish_reason = serializers.CharField(allow_blank=True)
    forfeit = serializers.CharField(allow_blank=True, help_text="A walkover: the side that "
                                    "forfeited (the director decided the game); empty otherwise.")
    hands_count = serializers.IntegerField()
    version = serializers.IntegerField()
    scorer_position = serializers.CharField(allow_blank=True)


class NextRoundOutput(serializers.Serializer[object]):
    number = serializers.IntegerField(help_text="The round after this table's.")
    seated = serializers.BooleanField(help_text="True once it is seated: the table's page then "
                                                "says where each of its players sits.")


class GameVersionOutput(serializers.Serializer[object]):
    version = serializers.IntegerField(help_text="Goes up with every change to the game's hands.")
    status = serializers.CharField()


class TableStatusOutput(serializers.Serializer[object]):
    game = GameVersionOutput()
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    is_open = serializers.BooleanField(help_text="False once the round is closed: no more writes.")
    next_round = NextRoundOutput()


class TableStateOutput(serializers.Serializer[object]):
    event_id = serializers.IntegerField()
    event_name = serializers.CharField()
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    table = serializers.IntegerField()
    is_open = serializers.BooleanField(help_text="False once the round is closed: no more writes.")
    can_enter = serializers.BooleanField()
    next_number = serializers.IntegerField()
    next_dealer = serializers.CharField(help_text="After a misdeal, the same dealer deals again.")
    deals_played = serializers.IntegerField(help_text="Hands played, misdeals not counted.")
    misdeals = serializers.IntegerField()
    counters_total = serializers.IntegerField()
    sitting_out = serializers.CharField(
        required=False, help_text="Only at a table of four playing a three-handed game: the seat "
                                  "that sits the next hand out (its dealer).")
    needs_tricks = serializers.BooleanField(
        required=False, help_text="Only where the ruleset needs them: a played hand gives the "
                                  "tricks each side took (``tricks``, adding up to a hand).")
    seats = TableSeatOutput(many=True)
    game = GameOutput()
    hands = TableHandOutput(many=True)
    next_round = NextRoundOutput(required=False)


class HandHistoryOutput(serializers.Serializer[object]):
    hand_id = serializers.IntegerField()
    number = serializers.IntegerField()
    table = serializers.IntegerField()
    round = serializers.IntegerField()
    revisions = RevisionOutput(many=True)


# --- helpers ------------------------------------------------------------------------------------
def _flatten(detail: object, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested error dict as the house's flat list (``meld`` → a side becomes ``meld.<side>``)."""
    out: list[dict[str, str]] = []
    if isinstance(detail, dict):
        for key, value in detail.items():
            out.extend(_flatten(value, f"{prefix}.{key}" if prefix else str(key)))
    elif isinstance(detail, list):
        for item in detail:
            out.extend(_flatten(item, prefix))
    else:
        out.append({"field": prefix or "__all__", "code": getattr(detail, "code", "invalid"),
                    "message": str(detail)})
    return out


def _invalid(serializer: serializers.Serializer[object]) -> Response:
    return Response({"errors": _flatten(serializer.errors)}, status=status.HTTP_400_BAD_REQUEST)


def _closed(round_: Round) -> Response:
    """403: the table's round (or its event) no longer takes writes from the table."""
    refusal = entry_refusal(round_)
    field, code, message = (
        (refusal.field, refusal.code, refusal.message) if refusal is not None
        else ("round", "round_closed", "This table no longer takes scores.")
    )
    return Response(
        {"errors": [{"field": field, "code": code,
                     "message": gettext("%(message)s Ask the director if something is wrong.") % {"message": message}}]},
        status=status.HTTP_403_FORBIDDEN,
    )


def _table_state_data(state: TableState) -> dict[str, object]:
    game = state["game"]
    # said only where they apply: a four-handed table's answer is what it always was
    shape: dict[str, object] = {}
    if state["sitting_out"]:
        shape["sitting_out"] = state["sitting_out"]
    if state["needs_tricks"]:
        shape["needs_tricks"] = state["needs_tricks"]
    return {
        **shape,
        "event_id": state["event"].pk,
        "event_name": state["event"].name,
        "round": state["round"].number,
        "round_status": state["round"].status,
        "table": state["table"].number,
        "is_open": state["is_open"],
        "can_enter": state["can_enter"],
        "next_number": state["next_number"],
        "next_dealer": state["next_dealer"],
        "deals_played": state["deals_played"],
        "misdeals": state["misdeals"],
        "counters_total": state["counters_total"],
        "seats": state["seats"],
        "game": {
            "status": game.status, "totals": game.totals or {}, "winner": game.winner,
            "finish_reason": game.finish_reason, "forfeit": game.forfeit,
        "hands_count": game.hands_count,
            "version": game.version, "scorer_position": game.scorer_position,
        },
        "hands": state["hands"],
    }


TOKEN_PARAM = OpenApiParameter("token", str, OpenApiParameter.PATH,
                               description="The table's token (from its QR code).")
ERRORS = {400: ErrorOutput, 403: ErrorOutput, 404: ErrorOutput, 409: ErrorOutput}


# --- table device endpoints ---------------------------------------------------------------------
class TableDeviceApi(APIView):
    """An endpoint of the table's device: the token in the URL opens that table (no login), and
    requests are rate-limited per table (``common.throttles``)."""

    authentication_classes: list[type[BaseAuthentication]] = []
    permission_classes = [permissions.AllowAny]
    throttle_scope = "table"


class TableStateApi(TableDeviceApi):
    """The table as its device sees it: seats, game score, hands so far and the next hand."""

    @extend_schema(operation_id="table_state", parameters=[TOKEN_PARAM],
                   responses={200: TableStateOutput, 404: ErrorOutput}, tags=["score entry"])
    def get(self, request: Request, token: str) -> Response:
        table = table_by_token(token=token)
        data = _table_state_data(table_state(table=table))
        data["next_round"] = table_next_round(table=table)
        return Response(TableStateOutput(data).data)


class TableStatusApi(TableDeviceApi):
    """What the table's page polls: the game's version and status, whether the round is open and
    whether the next round is seated (one query; ask for the state when the version moved)."""

    @extend_schema(operation_id="table_status", parameters=[TOKEN_PARAM],
                   responses={200: TableStatusOutput, 404: ErrorOutput}, tags=["score entry"])
    def get(self, request: Request, token: str) -> Response:
        return Response(TableStatusOutput(table_status(token=token)).data)


class TableCheckApi(TableDeviceApi):
    """Validate and score a hand without storing it (what the entry form calls as you type)."""

    @extend_schema(operation_id="table_hand_check", parameters=[TOKEN_PARAM],
                   request=HandValuesInput, responses={200: HandScoreOutput, **ERRORS},
                   tags=["score entry"])
    def post(self, request: Request, token: str) -> Response:
        ruleset, seats = table_ruleset(token=token)
        serializer = HandValuesInput(data=request.data)
        if not serializer.is_valid():
            return _invalid(serializer)
        return Response(hand_check_answer(serializer.values(), ruleset, seats))


def hand_check_answer(values: Mapping[str, object], ruleset: Ruleset,
                      seats: Sequence[str] | None = None) -> dict[str, object]:
    """The check endpoint's 200 answer for values its serializer let through (a hand the rules
    refuse raises ``RulesError``, answered 400 with its errors), at a table with ``seats``. The
    entry form's browser computes the same answer (static/js/hand_preview.js);
    tests/e2e/test_hand_preview.py compares them."""
    _, score = services.hand_check(values=values, ruleset=ruleset, seats=seats)
    answer: dict[str, object] = {
        "points": dict(score.points), "declaring_side": score.declaring_side,
        "made": score.made, "result": score.result, "reason": score.reason,
    }
    if score.sitting_out is not None:  # only where a fourth player sits a hand out
        answer["sitting_out"] = score.sitting_out
    return dict(HandScoreOutput(answer).data)


class TableHandsApi(TableDeviceApi):
    """Store the next hand of the table's game. The game's keeper is named first
    (``POST /api/tables/<token>/scorer/``); before that a hand is refused (400, naming
    ``scorer``)."""

    @extend_schema(
        operation_id="table_hand_submit",
        parameters=[TOKEN_PARAM, OpenApiParameter(
            "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
            description="A key per hand typed; resending with the same key stores nothing new.")],
        request=HandSubmitInput,
        responses={201: RevisionOutput,
                   200: OpenApiResponse(RevisionOutput, description="Already stored (a retry)."),
                   **ERRORS},
        tags=["score entry"],
    )
    def post(self, request: Request, token: str) -> Response:
        table = table_by_token(token=token)
        if entry_refusal(table.round) is not None:
            return _closed(table.round)
        serializer = HandSubmitInput(data=request.data)
        if not serializer.is_valid():
            return _invalid(serializer)
        key = (request.headers.get("Idempotency-Key")
               or serializer.validated_data.get("idempotency_key") or None)
        revision = services.hand_submit(
            game=table.game, number=serializer.validated_data["number"],
            values=serializer.values(), source=HandRevision.Source.TABLE, idempotency_key=key,
            table_device=True,
        )
        replayed = getattr(revision, "replayed", False)
        return Response(RevisionOutput(revision_row(revision)).data,
                        status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED)


# --- club member endpoints ----------------------------------------------------------------------
class HandApi(APIView):
    """Correct a stored hand: a new revision on top of ``expected_revision``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="hand_correct", request=HandCorrectInput,
                   responses={200: RevisionOutput, **ERRORS}, tags=["score entry"])
    def put(self, request: Request, hand_id: int) -> Response:
        hand = hand_with_context(hand_id=hand_id)
        club = hand.game.table.round.event.club
        check_club_role(user=request.user, club=club, role="scorer")
        serializer = HandCorrectInput(data=request.data)
        if not serializer.is_valid():
            return _invalid(serializer)
        data = serializer.validated_data
        revision = services.hand_correct(
            hand=hand, values=serializer.values(), expected_revision=data["expected_revision"],
            author=request.user, source=HandRevision.Source.API, note=data.get("note") or "",
            as_director=has_club_role(user=request.user, club=club, role="director"),
            idempotency_key=request.headers.get("Idempotency-Key")
            or data.get("idempotency_key") or None,
        )
        return Response(RevisionOutput(revision_row(revision)).data)


class HandRevisionsApi(APIView):
    """Every revision of a hand, oldest first: who, when, from where, why, and the values."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="hand_revisions", responses={200: HandHistoryOutput, **ERRORS},
                   tags=["score entry"])
    def get(self, request: Request, hand_id: int) -> Response:
        hand = hand_with_context(hand_id=hand_id)
        check_club_role(user=request.user, club=hand.game.table.round.event.club, role="scorer")
        return Response(HandHistoryOutput({
            "hand_id": hand.pk, "number": hand.number, "table": hand.game.table.number,
            "round": hand.game.table.round.number, "revisions": hand_history(hand=hand),
        }).data)



# --- table actions and the director's desk: the pages' remaining actions -----------------------
class PositionInput(serializers.Serializer[object]):
    position = serializers.ChoiceField(
        choices=SEATS, help_text="A seat at this table (its state lists them).")


class DeskTableInput(serializers.Serializer[object]):
    """A table named by its round and number, or (bracket events) by its match code."""

    round = serializers.IntegerField(min_value=1, required=False,
                                     help_text="The round's number.")
    table = serializers.IntegerField(min_value=1, required=False,
                                     help_text="The table's number in that round.")
    match = serializers.CharField(max_length=12, required=False, allow_blank=True,
                                  help_text="Bracket events: the match code (e.g. W2-1) instead "
                                            "of round and table.")
    note = serializers.CharField(
        max_length=200, required=False, allow_blank=True, default="",
        help_text="Why (required once the round is closed; directors only then).",
    )

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs.get("match"):
            return attrs
        missing = {f: ["Give the round and the table (or a bracket match)."]
                   for f in ("round", "table") if attrs.get(f) is None}
        if missing:
            raise serializers.ValidationError(missing)
        return attrs


class DeskDeleteInput(DeskTableInput):
    number = serializers.IntegerField(min_value=1, help_text="The hand to delete: the last one.")
    expected_revision = serializers.IntegerField(
        min_value=1, help_text="The version of that hand you saw (stale: 409, nothing deleted).")
    note = serializers.CharField(max_length=200, help_text="Why the hand is deleted (required).")


class DeskHandInput(DeskTableInput, HandSubmitInput):
    """A hand entered at the director's desk for any table of the event."""


def _game_data(game: Game) -> dict[str, object]:
    return {
        "status": game.status, "totals": game.totals or {}, "winner": game.winner,
        "finish_reason": game.finish_reason, "forfeit": game.forfeit,
        "hands_count": game.hands_count,
        "version": game.version, "scorer_position": game.scorer_position,
    }


def _refused(field: str, code: str, message: str) -> Response:
    return Response({"errors": [{"field": field, "code": code, "message": message}]},
                    status=status.HTTP_400_BAD_REQUEST)


class DeskTarget(TypedDict, total=False):
    """The table a desk request names (:class:`DeskTableInput`): a round and a table, or a
    bracket match."""

    match: str
    round: int
    table: int


def _desk_table(event: Event, data: DeskTarget) -> Table | None:
    """The table ``data`` names in the event (``round`` and ``table`` numbers, or a bracket
    ``match``), or None."""
    tables = Table.objects.select_related("round__event__club", "game").filter(round__event=event)
    if data.get("match"):
        table = tables.filter(match=data["match"]).order_by("-round__number").first()
    else:
        table = tables.filter(round__number=data["round"], number=data["table"]).first()
    return table if table is not None and hasattr(table, "game") else None


def _desk_missing(event: Event, data: DeskTarget) -> Response:
    if data.get("match"):
        return _refused("match", "not_seated",
                        gettext("Match %(match)s is not being played: its pairs are not known yet, or it is not a match of this event's bracket (see the bracket).") % {"match": data['match']})
    if not event.rounds.filter(number=data["round"]).exists():
        return _refused("round", "not_found", gettext("There is no round %(round)s.") % {"round": data['round']})
    return _refused("table", "not_found",
                    gettext("Round %(round)s has no table %(table)s.") % {"round": data['round'], "table": data['table']})


def _open_table_position(request: Request, token: str) -> tuple[Table, str] | Response:
    """The table of ``token`` and the seat the body names, or the refusal to send back (the
    round is closed: 403; no valid ``position``: 400)."""
    table = table_by_token(token=token)
    if entry_refusal(table.round) is not None:
        return _closed(table.round)
    serializer = PositionInput(data=request.data)
    if not serializer.is_valid():
        return _invalid(serializer)
    return table, serializer.validated_data["position"]


class TableScorerApi(TableDeviceApi):
    """Name the seat that keeps score on this phone, before the first hand (a player of the
    other side will confirm the game).

    Like the other table endpoints: no login, the table's token is the credential, and writes
    stop when the round closes (403). The keeper cannot change once a hand is stored (400,
    naming ``scorer``); naming the same seat again answers the game unchanged.
    """

    @extend_schema(operation_id="table_set_scorer", parameters=[TOKEN_PARAM],
                   request=PositionInput,
                   responses={200: GameOutput, 400: ErrorOutput, 403: ErrorOutput,
                              404: ErrorOutput},
                   tags=["score entry"])
    def post(self, request: Request, token: str) -> Response:
        asked = _open_table_position(request, token)
        if isinstance(asked, Response):
            return asked
        table, position = asked
        game = services.game_set_scorer(game=table.game, position=position)
        return Response(GameOutput(_game_data(game)).data)


class TableConfirmApi(TableDeviceApi):
    """A player of the side that did not keep score confirms the finished game (a player of the
    keeper's side: 400).

    No login: the table's token is the credential (as for entering hands); 403 once the round
    is closed. Confirming a confirmed game again answers its status unchanged.
    """

    @extend_schema(operation_id="table_confirm", parameters=[TOKEN_PARAM], request=PositionInput,
                   responses={200: GameOutput, 400: ErrorOutput, 403: ErrorOutput,
                              404: ErrorOutput},
                   tags=["score entry"])
    def post(self, request: Request, token: str) -> Response:
        asked = _open_table_position(request, token)
        if isinstance(asked, Response):
            return asked
        table, position = asked
        game = services.game_confirm(game=table.game, position=position)
        return Response(GameOutput(_game_data(game)).data)


class EventHandsApi(APIView):
    """The director's desk: enter the next hand of any table of the event (scorers; directors
    also in a closed round, with a ``note``). Corrections go through ``PUT /api/hands/<id>/``."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        operation_id="event_hand_submit",
        parameters=[OpenApiParameter(
            "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
            description="A key per hand typed; resending with the same key stores nothing new.")],
        request=DeskHandInput,
        responses={201: RevisionOutput,
                   200: OpenApiResponse(RevisionOutput, description="Already stored (a retry)."),
                   **ERRORS},
        tags=["score entry"],
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_get(pk=event_id, user=request.user, role="scorer")
        serializer = DeskHandInput(data=request.data)
        if not serializer.is_valid():
            return _invalid(serializer)
        data = serializer.validated_data
        table = _desk_table(event, data)
        if table is None:
            return _desk_missing(event, data)
        key = request.headers.get("Idempotency-Key") or data.get("idempotency_key") or None
        revision = services.hand_submit(
            game=table.game, number=data["number"], values=serializer.values(),
            author=request.user, source=HandRevision.Source.API, idempotency_key=key,
            as_director=has_club_role(user=request.user, club=event.club, role="director"),
            note=data.get("note") or "",
        )
        replayed = getattr(revision, "replayed", False)
        return Response(RevisionOutput(revision_row(revision)).data,
                        status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED)


class EventHandDeleteLastApi(APIView):
    """Delete a table's last hand (entered by mistake), naming the hand and the version seen;
    its history is kept, the deletion being its last revision. A ``note`` is required. Scorers
    in an open round; directors also in a closed round or a confirmed game."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(operation_id="event_hand_delete_last", request=DeskDeleteInput,
                   responses={200: TableStateOutput, 400: ErrorOutput, 403: ErrorOutput,
                              404: ErrorOutput, 409: ErrorOutput},
                   tags=["score entry"])
    def post(self, request: Request, event_id: int) -> Response:
        event = event_get(pk=event_id, user=request.user, role="scorer")
        serializer = DeskDeleteInput(data=request.data)
        if not serializer.is_valid():
            return _invalid(serializer)
        data = serializer.validated_data
        table = _desk_table(event, data)
        if table is None:
            return _desk_missing(event, data)
        services.hand_delete_last(
            game=table.game, author=request.user, note=data["note"], number=data["number"],
            expected_revision=data["expected_revision"],
            as_director=has_club_role(user=request.user, club=event.club, role="director"),
        )
        state = table_state(table=table_by_token(token=table.token))
        return Response(TableStateOutput(_table_state_data(state)).data)

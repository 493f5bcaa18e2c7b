"""Registration API, under ``/api/events/{id}/registrations/``: the pages' counterparts.

Who may do what: anyone who may see the event reads its registration settings and registers
(while registration is open; rate-limited per address with the scope ``registration``); the
directors of the event's club change the settings, list every registration, approve, refuse,
mark fees and turn registrations into check-ins; a registrant reads, confirms, withdraws and
says "I'm here" for their own registration only, by the personal link's ``token`` (in the query
or the body) or their signed-in account. Anyone else is answered 404 for a registration, as if
it did not exist. Refusals come back as 400 naming the field (``email``, ``partner_email``,
``deadline``, ``capacity``, ``status``…).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal

from django.http import Http404
from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import BaseThrottle
from rest_framework.views import APIView

from clubs.api import error_responses
from clubs.permissions import has_club_role
from common import validated
from common.http import public_url
from common.types import Actor
from tournaments.api_actions import DirectorAction
from tournaments.models import Event
from tournaments.selectors import event_get

from . import services
from .models import Registration
from .selectors import (
    places_left,
    registration_checked_in,
    registration_is_theirs,
    registration_list,
    registration_settings,
    waitlist_position,
)
from .tokens import registration_by_token

SCOPE = "registration"
TOKEN = OpenApiParameter("token", str, required=False,
                         description="The personal link's token (from the registration mails).")


def _site(request: Request) -> str:
    return public_url(request._request, "")


# --- serializers ------------------------------------------------------------------------------
class RegistrationSettingsInput(serializers.Serializer[object]):
    is_open = serializers.BooleanField()
    capacity = serializers.IntegerField(required=False, allow_null=True, default=None,
                                        help_text="Places (players, or pairs in a pair event); "
                                                  "null: no limit.")
    deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)
    fee = serializers.DecimalField(max_digits=12, decimal_places=4, required=False,
                                   default=Decimal(0),
                                   help_text="Recorded as paid or not; no payment is taken.")
    approval_required = serializers.BooleanField(required=False, default=False)


class RegistrationSettingsOutput(serializers.Serializer[object]):
    is_open = serializers.BooleanField()
    capacity = serializers.IntegerField(allow_null=True)
    places_left = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    fee = serializers.DecimalField(max_digits=8, decimal_places=2)
    approval_required = serializers.BooleanField()
    entrants = serializers.CharField(help_text="players, or pairs (register with a partner).")


class RegistrationCreateInput(serializers.Serializer[object]):
    name = serializers.CharField(required=False, allow_blank=True, default="", max_length=200,
                                 help_text="Not needed when signed in as a player.")
    email = serializers.CharField(required=False, allow_blank=True, default="", max_length=254,
                                  help_text="Confirmed by a mailed link; a signed-in account's "
                                            "address is used as it is.")
    partner_name = serializers.CharField(required=False, allow_blank=True, default="",
                                         max_length=200, help_text="Pair events only.")
    partner_email = serializers.CharField(required=False, allow_blank=True, default="",
                                          max_length=254, help_text="Pair events only.")


class RegistrationOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    event = serializers.IntegerField(source="event_id")
    status = serializers.ChoiceField(choices=Registration.Status.choices)
    name = serializers.CharField()
    email = serializers.CharField()
    partner_name = serializers.CharField()
    partner_email = serializers.CharField()
    paid = serializers.BooleanField()
    position = serializers.IntegerField(allow_null=True, help_text="Place on the waitlist.")
    checked_in = serializers.BooleanField()
    at_door = serializers.BooleanField(help_text="A pair said it is here, awaiting the "
                                                 "director.")
    player = serializers.IntegerField(source="player_id", allow_null=True)
    partner_player = serializers.IntegerField(source="partner_player_id", allow_null=True,
                                              help_text="Directors only (null for the "
                                                        "registrant).")
    created_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)


class RegistrationTokenInput(serializers.Serializer[object]):
    token = serializers.CharField(required=False, allow_blank=True, default="")


class RegistrationPaidInput(serializers.Serializer[object]):
    paid = serializers.BooleanField()


class RegistrationsCheckInInput(serializers.Serializer[object]):
    ids = serializers.ListField(child=serializers.IntegerField(), required=False,
                                allow_null=True, default=None, max_length=2000,
                                help_text="Registrations to check in; omitted: every registered "
                                          "one not checked in yet.")


class RegistrationHereOutput(serializers.Serializer[object]):
    state = serializers.CharField(help_text="here (checked in) or waiting (for the director).")


def _payload(registration: Registration, *, director: bool) -> dict[str, object]:
    row: dict[str, object] = {f: getattr(registration, f) for f in (
        "id", "event_id", "status", "name", "email", "partner_name", "partner_email", "paid",
        "player_id", "partner_player_id", "created_at", "confirmed_at")}
    if not director:
        # the players found for the names are the club's business: the partner's could be
        # someone the registrant only knows the address of
        row["partner_player_id"] = None
    row["position"] = waitlist_position(registration)
    row["checked_in"] = registration_checked_in(registration)
    row["at_door"] = registration.arrived_at is not None
    return row


def _out(registration: Registration, *, director: bool) -> object:
    return RegistrationOutput(_payload(registration, director=director)).data


# --- access -------------------------------------------------------------------------------------
def _director(request: Request, event: Event) -> bool:
    return has_club_role(user=request.user, club=event.club, role="director")


def _registration(request: Request, pk: int, rid: int) -> tuple[Event, Registration, bool]:
    """The event and its registration if the caller may act on it: a director of the event's
    club, or the registrant by token or account, whether or not they may see the event
    otherwise (a private club's event); 404 for anyone else, as if it did not exist. Also
    whether the caller acts as a director. (A director's action alone: ``_RegistrationAction``.)"""
    registration = (Registration.objects.select_related("event__club", "player",
                                                        "partner_player")
                    .filter(pk=rid, event_id=pk).first())
    if registration is not None:
        event = registration.event
        token = str(request.query_params.get("token") or (
            request.data.get("token", "") if hasattr(request.data, "get") else ""))
        by_token = registration_by_token(token) if token else None
        if (by_token is not None and by_token.pk == registration.pk) or registration_is_theirs(
                registration, request.user):
            return event, registration, _director(request, event)
    # not the registrant: a director of a club who may see the event, else nothing
    event = event_get(pk=pk, user=request.user)
    if registration is None or not _director(request, event):
        raise Http404(gettext("No such registration"))
    return event, registration, True


class _DirectorsOrPost(BasePermission):
    def has_permission(self, request: Request, view: APIView) -> bool:
        return request.method == "POST" or bool(request.user and request.user.is_authenticated)


# --- views ----------------------------------------------------------------------------------
class RegistrationSettingsApi(APIView):
    @extend_schema(operation_id="registration_settings", summary="Registration settings",
                   responses={200: RegistrationSettingsOutput, **error_responses(404)}, tags=["registrations"])
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        return Response(self._out(event))

    @extend_schema(operation_id="registration_settings_set",
                   summary="Open or close registration and set its terms (directors)",
                   request=RegistrationSettingsInput,
                   responses={200: RegistrationSettingsOutput, **error_responses(400, 401, 403, 404)},
                   tags=["registrations"])
    def put(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        data = RegistrationSettingsInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.registration_settings_set(event=event, actor=request.user, site=_site(request),
                                           **data.validated_data)
        return Response(self._out(event))

    @staticmethod
    def _out(event: Event) -> object:
        found = registration_settings(event)
        return RegistrationSettingsOutput({
            "is_open": found.is_open, "capacity": found.capacity,
            "places_left": places_left(found), "deadline": found.deadline, "fee": found.fee,
            "approval_required": found.approval_required, "entrants": event.spec.entrants,
        }).data


class RegistrationsApi(APIView):
    permission_classes = [_DirectorsOrPost]

    def get_throttles(self) -> list[BaseThrottle]:
        # registering is the anonymous write here: its own per-address rate
        self.throttle_scope = SCOPE if self.request.method == "POST" else ""
        return super().get_throttles()

    @extend_schema(operation_id="registrations_list", summary="Every registration (directors)",
                   responses={200: RegistrationOutput(many=True),
                              **error_responses(401, 403, 404)}, tags=["registrations"])
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        listing = registration_list(event=event)
        return Response([_out(r, director=True) for r in listing["rows"]])

    @extend_schema(operation_id="registration_create", summary="Register for the event",
                   description="Signed in: as the account's player, counted at once. Otherwise "
                               "`name` and `email`: the registration counts once the address "
                               "is confirmed by the mailed link. A pair event needs "
                               "`partner_name` and `partner_email`.",
                   request=RegistrationCreateInput,
                   responses={201: RegistrationOutput, **error_responses(400, 404)},
                   tags=["registrations"])
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        data = RegistrationCreateInput(data=request.data)
        data.is_valid(raise_exception=True)
        done = services.registration_create(event=event, user=request.user, site=_site(request),
                                            **data.validated_data)
        return Response(_out(done, director=False), status=status.HTTP_201_CREATED)


class RegistrationApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="registration_detail", summary="One registration",
                   description="Directors, or the registrant (token or account).",
                   parameters=[TOKEN],
                   responses={200: RegistrationOutput, **error_responses(404)},
                   tags=["registrations"])
    def get(self, request: Request, pk: int, rid: int) -> Response:
        _, registration, director = _registration(request, pk, rid)
        return Response(_out(registration, director=director))


class _Action(APIView):
    permission_classes = [AllowAny]
    throttle_scope = SCOPE


class RegistrationConfirmApi(_Action):
    @extend_schema(operation_id="registration_confirm", summary="Confirm the address",
                   request=RegistrationTokenInput, parameters=[TOKEN],
                   responses={200: RegistrationOutput, **error_responses(400, 404)},
                   tags=["registrations"])
    def post(self, request: Request, pk: int, rid: int) -> Response:
        _, registration, director = _registration(request, pk, rid)
        done = services.registration_confirm(registration=registration, site=_site(request))
        return Response(_out(done, director=director))


class RegistrationWithdrawApi(_Action):
    @extend_schema(operation_id="registration_withdraw",
                   summary="Withdraw (the registrant or a director)",
                   description="A place it held goes to the first waitlisted, who is mailed.",
                   request=RegistrationTokenInput, parameters=[TOKEN],
                   responses={200: RegistrationOutput, **error_responses(400, 404)},
                   tags=["registrations"])
    def post(self, request: Request, pk: int, rid: int) -> Response:
        _, registration, director = _registration(request, pk, rid)
        done = services.registration_withdraw(registration=registration, actor=request.user,
                                              by_player=not director, site=_site(request))
        return Response(_out(done, director=director))


class RegistrationHereApi(_Action):
    @extend_schema(operation_id="registration_here", summary="I'm here (the registrant)",
                   description="Checked in, or waiting for the director, as the event's self "
                               "check-in says; only a registered entrant, until play starts.",
                   request=RegistrationTokenInput, parameters=[TOKEN],
                   responses={200: RegistrationHereOutput, **error_responses(400, 404)},
                   tags=["registrations"])
    def post(self, request: Request, pk: int, rid: int) -> Response:
        _, registration, _ = _registration(request, pk, rid)
        return Response({"state": services.registration_here(registration=registration)})


class RegistrationLinkInput(serializers.Serializer[object]):
    email = serializers.EmailField(help_text="The address registered (yours or your partner's).")


class RegistrationLinkOutput(serializers.Serializer[object]):
    message = serializers.CharField()


class RegistrationLinkApi(_Action):
    @extend_schema(operation_id="registration_link",
                   summary="Mail my personal link again",
                   description="The answer is the same whether the address is registered or "
                               "not; only a registered address gets a mail.",
                   request=RegistrationLinkInput,
                   responses={202: RegistrationLinkOutput, **error_responses(400, 404)},
                   tags=["registrations"])
    def post(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        data = RegistrationLinkInput(data=request.data)
        data.is_valid(raise_exception=True)
        services.registration_send_link(event=event, email=data.validated_data["email"],
                                        site=_site(request))
        return Response({"message": gettext("If that address is registered for this event, its link is on its way.")}, status=status.HTTP_202_ACCEPTED)


class _RegistrationAction(DirectorAction):
    # no docstring: the schema would describe the actions by it
    def find(self, event: Event, **where: int) -> Registration:
        """The event's registration ``rid``; 404 when the event has none."""
        registration = (Registration.objects.select_related("event__club", "player",
                                                            "partner_player")
                        .filter(pk=where["rid"], event_id=event.pk).first())
        if registration is None:
            raise Http404(gettext("No such registration"))
        return registration


@extend_schema_view(post=extend_schema(
    operation_id="registration_approve", summary="Approve (directors)", request=None,
    responses={200: RegistrationOutput, **error_responses(400, 401, 403, 404)},
    tags=["registrations"]))
class RegistrationApproveApi(_RegistrationAction):
    def act(self, event: Event, found: Registration, data: Mapping[str, object], *,
            actor: Actor) -> object:
        done = services.registration_approve(registration=found, actor=actor,
                                             site=_site(self.request))
        return _out(done, director=True)


@extend_schema_view(post=extend_schema(
    operation_id="registration_refuse", summary="Refuse (directors)", request=None,
    responses={200: RegistrationOutput, **error_responses(400, 401, 403, 404)},
    tags=["registrations"]))
class RegistrationRefuseApi(_RegistrationAction):
    def act(self, event: Event, found: Registration, data: Mapping[str, object], *,
            actor: Actor) -> object:
        done = services.registration_refuse(registration=found, actor=actor,
                                            site=_site(self.request))
        return _out(done, director=True)


@extend_schema_view(post=extend_schema(
    operation_id="registration_paid", summary="Mark the fee paid or not (directors)",
    request=RegistrationPaidInput,
    responses={200: RegistrationOutput, **error_responses(400, 401, 403, 404)},
    tags=["registrations"]))
class RegistrationPaidApi(_RegistrationAction):
    input = RegistrationPaidInput

    def act(self, event: Event, found: Registration, data: Mapping[str, object], *,
            actor: Actor) -> object:
        done = services.registration_mark_paid(registration=found, paid=validated.flag(data, "paid"),
                                               actor=actor)
        return _out(done, director=True)


@extend_schema_view(post=extend_schema(
    operation_id="registrations_check_in",
    summary="Turn registrations into check-ins (directors)",
    description="Makes each one's entry, or pair and entries; all or none. "
                "Refusals name `registrations.<id>`.",
    request=RegistrationsCheckInInput,
    responses={200: RegistrationOutput(many=True), **error_responses(400, 401, 403, 404)},
    tags=["registrations"]))
class RegistrationsCheckInApi(DirectorAction):
    input = RegistrationsCheckInInput

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        ids = validated.optional_wholes(data, "ids")
        chosen = None
        if ids is not None:
            given = Registration.objects.filter(event_id=event.pk, pk__in=ids).in_bulk()
            missing = [pk for pk in ids if pk not in given]
            if missing:
                raise serializers.ValidationError(
                    {f"registrations.{missing[0]}": ["No such registration in this event."]})
            chosen = [given[pk] for pk in dict.fromkeys(ids)]
        done = services.registrations_check_in(event=event, registrations=chosen, actor=actor)
        return [_out(r, director=True) for r in done]

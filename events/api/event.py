"""Event API: the events, their settings, finishing and reopening, and the automatic advance's
switch."""

from __future__ import annotations

from collections.abc import Mapping

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_view
from rest_framework import serializers, status
from rest_framework.fields import empty
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

import formats
from clubs.api import error_responses
from clubs.models import Club
from clubs.permissions import can_view_event, check_club_role
from common import validated
from common.errors import DomainError
from common.types import Actor
from draw import services
from draw.selectors import (
    StageRounds,
    event_format_settings,
    event_placements,
    event_rules,
    event_stages,
    events_placements,
    rounds_total,
)
from scoring.services import event_settings_update
from standings.rows import Placement
from tournaments import services as events
from tournaments.api_actions import DirectorAction
from tournaments.models import BYE_POINTS_LIMIT, Event
from tournaments.selectors import event_get

# The API schema's words on the formats' settings, from the registry.
SETTINGS_HELP = "; ".join(
    f"{f.name}: {', '.join(sorted(f.setting_keys))}" for f in formats.REGISTERED if f.setting_keys
) + "."


class PlacementOutput(serializers.Serializer[object]):
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


class StageOutput(serializers.Serializer[object]):
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

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_format_settings(self, event: Event) -> dict[str, object]:
        return event_format_settings(event)

    @extend_schema_field(StageOutput(many=True))
    def get_stages(self, event: Event) -> list[StageRounds]:
        return event_stages(event)

    def get_rounds_total(self, event: Event) -> int:
        return rounds_total(event)

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_rules(self, event: Event) -> list[str]:
        return event_rules(event)

    @extend_schema_field(PlacementOutput(many=True))
    def get_placements(self, event: Event) -> list[Placement]:
        known = self.context.get("placements")
        if known is not None:
            return list(known.get(event.pk, []))
        return event_placements(event)


class EventInput(serializers.Serializer[object]):
    club = serializers.SlugField(help_text="The club's slug.", min_length=1)
    name = serializers.CharField(max_length=120, min_length=1)
    date = serializers.DateField(
        required=False, help_text="The day it is played; left out: today where the club plays "
                                  "(its time zone).")
    format = serializers.ChoiceField(choices=formats.choices(), required=False,
                                     default=formats.DEFAULT)
    ruleset_preset = serializers.CharField(required=False, min_length=1)
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
    tie_breaks = serializers.ListField(child=serializers.CharField(min_length=1),
                                       required=False)
    is_public = serializers.BooleanField(required=False, default=True)


class EventSettingsInput(serializers.Serializer[object]):
    """Any subset of the settings; the others keep their current values."""

    name = serializers.CharField(max_length=120, min_length=1, required=False)
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
    tie_breaks = serializers.ListField(child=serializers.CharField(min_length=1),
                                       required=False)
    is_public = serializers.BooleanField(required=False)
    format_settings = serializers.DictField(
        required=False, help_text="The format's settings (replaced as a whole; keys left out "
        "take their defaults). A progressive event's stages change only before the cut.")
    prizes = serializers.DictField(required=False)


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


class ReopenInput(serializers.Serializer[object]):
    reason = serializers.CharField(max_length=500, help_text=(
        "Why the finished event's final results are to change (kept in the event's log and "
        "shown on its public Corrections list). Past the club's correction window only an "
        "owner reopens (others: 400, code locked)."))


class EventStatusApi(DirectorAction):
    """Base of finish and reopen: a director moves the event to ``target``."""

    target: str = ""

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        body = self.request.data if isinstance(self.request.data, dict) else {}
        reason = body.get("reason", "")
        if not isinstance(reason, str):
            raise DomainError(gettext("The reason is text."), field="reason")
        services.event_status_set(event=event, status=self.target, actor=actor, reason=reason)
        return EventOutput(event_get(pk=event.pk, user=actor)).data


@extend_schema_view(post=extend_schema(
    operation_id="event_finish", summary="Finish the event (directors)", request=None,
    responses={200: EventOutput, **error_responses(400, 403, 404)}))
class EventFinishApi(EventStatusApi):
    """Finish the event (every round closed); its placements are final from now on."""

    target = Event.Status.FINISHED


@extend_schema_view(post=extend_schema(
    operation_id="event_reopen", summary="Reopen a finished event (directors)",
    request=ReopenInput, responses={200: EventOutput, **error_responses(400, 403, 404)}))
class EventReopenApi(EventStatusApi):
    """Reopen a finished event to fix a result; placements are empty until it finishes again."""

    target = Event.Status.RUNNING


class _RequiredBooleanField(serializers.BooleanField):
    """A boolean that must be sent: DRF reads a missing one in a form body (or an empty body)
    as False, as an unticked checkbox, so ``advance/`` without ``held`` released the hold."""

    default_empty_html = empty


class AdvanceInput(serializers.Serializer[object]):
    held = _RequiredBooleanField(
        help_text="True holds the automatic advance (the next round waits for the director).")


@extend_schema_view(post=extend_schema(
    operation_id="event_advance",
    summary="Hold or release the automatic advance (directors)",
    description="While held, confirming a round's last game closes the round "
                "but does not seat the next one; seat it with POST rounds/.",
    request=AdvanceInput,
    responses={200: EventOutput, **error_responses(400, 403, 404)}))
class EventAdvanceApi(DirectorAction):
    """Hold or release the automatic advance of a format that seats itself."""

    input = AdvanceInput

    def act(self, event: Event, found: Event, data: Mapping[str, object], *,
            actor: Actor) -> object:
        events.event_hold_advance(event=event, held=validated.flag(data, "held"), actor=actor)
        return EventOutput(event_get(pk=event.pk, user=actor)).data

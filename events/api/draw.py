"""Event API: the draw anyone can re-run. The commitment to the event's seed is public from
the event's creation, before any round is seated; the seed itself once the event is finished,
so anyone can check ``sha256(seed) == commitment`` and rebuild every draw with the same
builders (``algorithm`` says how the seed makes them)."""

from __future__ import annotations

from dataclasses import asdict

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from draw.selectors import draw_disclosure
from tournaments.selectors import event_get


class RedrawOutput(serializers.Serializer[object]):
    round = serializers.IntegerField(help_text="The round drawn again.")
    draw = serializers.IntegerField(help_text="d in the algorithm: re-draws of the event so far.")


class DrawOutput(serializers.Serializer[object]):
    commitment = serializers.CharField(
        help_text="The hex SHA-256 of the seed's decimal text, fixed when the event was made.")
    seed = serializers.CharField(
        allow_null=True, help_text="The event's draw seed (decimal text); null until the event "
                                   "is finished.")
    algorithm = serializers.CharField(help_text="How the seed makes every draw.")
    redraws = RedrawOutput(many=True, help_text="The director's re-draws, in order: each took "
                                                "the next draw of the seed's stream.")


class EventDrawApi(APIView):
    @extend_schema(
        operation_id="event_draw", summary="The event's draw: seed commitment and reveal",
        description="Readable by whoever may read the event. `seed` is null until the event's "
                    "status is finished; then sha256(seed) equals `commitment`.",
        responses={200: DrawOutput, **error_responses(404)})
    def get(self, request: Request, pk: int) -> Response:
        event = event_get(pk=pk, user=request.user)
        found = draw_disclosure(event)
        return Response(DrawOutput({
            **asdict(found), "redraws": [{"round": r, "draw": d} for r, d in found.redraws]}).data)

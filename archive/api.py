"""Archive API: an event's archive, importing one into a club, importing a roster CSV.

Permissions are those of the pages: exporting needs the director role in the event's club,
importing the director role in the target club (people outside a private club get 404). Errors
have the house shape ``{"errors": [{"field", "code", "message"}]}``; an archive or a CSV file with
several problems lists them all (each CSV error also says its ``line`` and ``column``).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses
from clubs.models import Club
from clubs.permissions import check_club_role
from tournaments.selectors import event_get

from . import services
from .reader import ArchiveRefused
from .selectors import archive_filename, event_archive_bytes


def _upload(request: Request, field: str) -> Any:
    """The uploaded file ``field`` of a multipart request, or None."""
    return request.FILES.get(field)


def _problems(exc: ArchiveRefused) -> Response:
    return Response({"errors": exc.api_errors()},
                    status=status.HTTP_400_BAD_REQUEST)


# --- export ----------------------------------------------------------------------------------
class EventArchiveApi(APIView):
    @extend_schema(
        operation_id="event_archive", summary="The event's complete archive (directors)",
        description="Every row of the event as one JSON document (format "
                    "`pinochle-event-archive`): club, players, settings, entries, pairs, rounds, "
                    "tables, seats, byes, games, every hand with all its revisions (deleted hands "
                    "too), the event log and the standings. Table tokens are not included. "
                    "The same event always gives the same bytes.",
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT, description="The archive."),
                   **error_responses(403, 404)},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        event = event_get(pk=pk, user=request.user, role="director")
        response = HttpResponse(event_archive_bytes(event=event),
                                content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{archive_filename(event)}"'
        return response


# --- event import ------------------------------------------------------------------------------
class ArchiveFileInput(serializers.Serializer[Any]):
    file = serializers.FileField(help_text="The archive (JSON) as exported.")


class EventImportOutput(serializers.Serializer[Any]):
    id = serializers.IntegerField(help_text="The new event's id.")
    name = serializers.CharField()
    players_added = serializers.ListField(child=serializers.CharField(),
                                          help_text="Players new to the club's roster.")
    players_matched = serializers.ListField(
        child=serializers.DictField(),
        help_text="Archive players found on the roster: name, roster_name, matched_by "
                  "(email or name).")
    counts = serializers.DictField(child=serializers.IntegerField())


class ClubEventImportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_event_import", summary="Import an event archive into the club",
        description="Send the archive as a multipart upload (`file`) or as the JSON body. "
                    "Everything is checked before anything is written; a refused archive "
                    "lists every problem by path (e.g. `hands[12].revisions[0].bid`) and "
                    "changes nothing. Players are matched to the roster by e-mail, else by "
                    "name, or added to it. An archive of a newer format version is refused, "
                    "and so is one whose event the club already has.",
        request={"multipart/form-data": ArchiveFileInput,
                 "application/json": OpenApiTypes.OBJECT},
        responses={201: EventImportOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        try:
            upload = _upload(request, "file")
            if upload is not None:
                services.archive_check_size(upload.size)
                raw = upload.read()
                archive, digest = services.archive_load(raw), services.archive_digest(raw)
            elif request.content_type.startswith("multipart/"):
                raise serializers.ValidationError({"file": ["Attach the archive file."]})
            else:
                archive = request.data
                digest = hashlib.sha256(
                    json.dumps(archive, sort_keys=True).encode("utf-8", "backslashreplace")
                ).hexdigest()
            result = services.event_import(archive=archive, club_slug=club.slug,
                                           actor=request.user, digest=digest)
        except ArchiveRefused as exc:
            return _problems(exc)
        return Response({
            "id": result.event.pk, "name": result.event.name,
            "players_added": result.players_added,
            "players_matched": [{"name": a, "roster_name": b, "matched_by": how}
                                for a, b, how in result.players_matched],
            "counts": result.counts,
        }, status=status.HTTP_201_CREATED)


# --- roster import ----------------------------------------------------------------------------
class RosterImportInput(serializers.Serializer[Any]):
    file = serializers.FileField(required=False, help_text="The CSV file (multipart).")
    csv = serializers.CharField(required=False, trim_whitespace=False,
                                help_text="Or the CSV text itself (JSON body).")
    dry_run = serializers.BooleanField(required=False, default=False,
                                       help_text="Only say what the file would do.")


class RosterLineOutput(serializers.Serializer[Any]):
    line = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()


class RosterExistingOutput(RosterLineOutput):
    roster_player_id = serializers.IntegerField()
    roster_name = serializers.CharField()
    matched_by = serializers.CharField(help_text="email or name")


class RosterRepeatOutput(RosterLineOutput):
    repeats_line = serializers.IntegerField()


class RosterReportOutput(serializers.Serializer[Any]):
    committed = serializers.BooleanField()
    summary = serializers.CharField()
    added = RosterLineOutput(many=True)
    existing = RosterExistingOutput(many=True)
    repeated = RosterRepeatOutput(many=True)


def report_data(report: services.RosterReport) -> dict[str, Any]:
    def line(item: Any) -> dict[str, Any]:
        return {"line": item.line, "name": item.name, "email": item.email}

    return {
        "committed": report.committed, "summary": report.summary(),
        "added": [line(x) for x in report.added],
        "existing": [{**line(x), "roster_player_id": p.pk, "roster_name": p.name,
                      "matched_by": how} for x, p, how in report.existing],
        "repeated": [{**line(x), "repeats_line": n} for x, n in report.repeated],
    }


class ClubRosterImportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_roster_import", summary="Add players to the roster from a CSV file",
        description="A CSV with a header line naming `name` and optionally `email` (UTF-8, "
                    "with or without a byte-order mark; commas, semicolons or tabs). Players "
                    "already on the roster (same e-mail, else same name) are skipped and "
                    "reported. All or nothing: a file with any bad line adds nobody and the "
                    "answer lists every bad line (`lines[N].column`, with `line` and `column`). "
                    "`dry_run` answers what the file would do, changing nothing.",
        request={"multipart/form-data": RosterImportInput, "application/json": RosterImportInput},
        responses={200: OpenApiResponse(RosterReportOutput, description="dry_run: the preview"),
                   201: RosterReportOutput, **error_responses(400, 403, 404)},
    )
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        data = RosterImportInput(data=request.data)
        data.is_valid(raise_exception=True)
        upload = _upload(request, "file")
        if upload is None and "csv" not in data.validated_data:
            raise serializers.ValidationError({"file": ["Attach the CSV file (or send csv)."]})
        unreadable = services.roster_check_size(upload.size) if upload is not None else None
        if unreadable is None:
            raw = upload.read() if upload is not None else data.validated_data["csv"].encode()
            text, unreadable = services.roster_csv_text(raw)
        if unreadable is not None:
            return Response({"errors": [unreadable.as_dict()]}, status=status.HTTP_400_BAD_REQUEST)
        if data.validated_data["dry_run"]:
            report = services.roster_preview(club=club, text=text)
            if report.errors:
                return Response({"errors": [e.as_dict() for e in report.errors],
                                 "preview": report_data(report)},
                                status=status.HTTP_400_BAD_REQUEST)
            return Response(report_data(report))
        try:
            report = services.roster_import(club=club, text=text, actor=request.user)
        except services.RosterRefused as exc:
            return Response({"errors": exc.api_errors(),
                             "preview": report_data(exc.report)},
                            status=status.HTTP_400_BAD_REQUEST)
        return Response(report_data(report), status=status.HTTP_201_CREATED)

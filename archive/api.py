"""Archive API: an event's archive, importing one into a club, importing a roster CSV.

Permissions are those of the pages: exporting needs the director role in the event's club,
importing the director role in the target club (people outside a private club get 404). Errors
have the house shape ``{"errors": [{"field", "code", "message"}]}``; an archive or a CSV file with
several problems lists them all (each CSV error also says its ``line`` and ``column``).
"""

from __future__ import annotations

from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext
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
from .models import ImportJob
from .reader import ArchiveRefused
from .selectors import archive_filename, event_archive_bytes, import_job_get, import_job_status
from .services import ARCHIVE_INLINE_MAX_BYTES, ARCHIVE_MAX_BYTES, ARCHIVE_MAX_HANDS
from .views import request_file_size


def _upload(request: Request, field: str) -> UploadedFile | None:
    """The uploaded file ``field`` of a multipart request, or None."""
    return request.FILES.get(field)


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
class ArchiveFileInput(serializers.Serializer[object]):
    file = serializers.FileField(help_text="The archive (JSON) as exported.")


class EventImportOutput(serializers.Serializer[object]):
    id = serializers.IntegerField(help_text="The new event's id.")
    name = serializers.CharField()
    players_added = serializers.ListField(child=serializers.CharField(),
                                          help_text="Players new to the club's roster.")
    players_matched = serializers.ListField(
        child=serializers.DictField(),
        help_text="Archive players found on the roster: name, roster_name, matched_by "
                  "(email or name).")
    counts = serializers.DictField(child=serializers.IntegerField())


class ImportJobOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=ImportJob.Status.choices)
    stage = serializers.CharField(help_text="What the worker is doing now.")
    progress = serializers.IntegerField(help_text="0 to 100.")
    size = serializers.IntegerField(help_text="The file's size in bytes.")
    hands = serializers.IntegerField(help_text="Hands counted before parsing.")
    event_id = serializers.IntegerField(allow_null=True, help_text="Once imported.")
    problems = serializers.ListField(child=serializers.DictField(),
                                     help_text="Once refused: why, each with its path.")
    report = serializers.DictField(help_text="Once imported: as the 201 answer.")


def _status_of(exc: ArchiveRefused) -> int:
    return (status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
            if any(p.code == "too_large" for p in exc.problems) else status.HTTP_400_BAD_REQUEST)


class ClubEventImportApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="club_event_import", summary="Import an event archive into the club",
        description="Send the archive as a multipart upload (`file`) or as the JSON body. "
                    "Its size (from `Content-Length`, before it is read; 413 past "
                    f"{ARCHIVE_MAX_BYTES // (1024 * 1024)} MB) and its hands (counted before "
                    f"it is parsed; at most {ARCHIVE_MAX_HANDS:,}) are checked first. "
                    "Everything is checked before anything is written; a refused archive "
                    "lists every problem by path (e.g. `hands[12].revisions[0].bid`) and "
                    "changes nothing. Players are matched to the roster by e-mail, else by "
                    "name, or added to it. An archive of a newer format version is refused, "
                    "and so is one whose event the club already has. A large archive (above "
                    f"{ARCHIVE_INLINE_MAX_BYTES // 1024} KB) is imported by the worker: the "
                    "answer is 202 with the job, whose status `Location` gives.",
        request={"multipart/form-data": ArchiveFileInput,
                 "application/json": OpenApiTypes.OBJECT},
        responses={201: EventImportOutput, 202: ImportJobOutput,
                   **error_responses(400, 403, 404, 413)},
    )
    def post(self, request: Request, slug: str) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        try:
            services.archive_check_size(request_file_size(request._request))
            if request.content_type.startswith("multipart/"):
                upload = _upload(request, "file")
                if upload is None:
                    raise serializers.ValidationError({"file": ["Attach the archive file."]})
                services.archive_check_size(upload.size or 0)  # always known for a parsed upload
                raw = upload.read()
            else:  # the JSON body, read as the file's bytes (the same checks, the same digest)
                stream = request.stream
                raw = stream.read() if stream is not None else b""
            started = services.archive_import_start(raw=raw, club=club, actor=request.user)
        except ArchiveRefused as exc:
            return Response({"errors": exc.api_errors()}, status=_status_of(exc))
        if isinstance(started, ImportJob):
            job = import_job_get(club=club, pk=started.pk) or started
            url = reverse("api-club-event-import-job", kwargs={"slug": club.slug,
                                                               "pk": started.pk})
            return Response(ImportJobOutput(import_job_status(job)).data,
                            status=status.HTTP_202_ACCEPTED, headers={"Location": url})
        return Response(services.import_report(started), status=status.HTTP_201_CREATED)


class ClubEventImportJobApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="club_event_import_job",
                   summary="How far the worker is with a large archive (directors)",
                   responses={200: ImportJobOutput, **error_responses(403, 404)})
    def get(self, request: Request, slug: str, pk: int) -> Response:
        club = get_object_or_404(Club, slug=slug)
        check_club_role(user=request.user, club=club, role="director")
        job = import_job_get(club=club, pk=pk)
        if job is None:
            raise Http404(gettext("No such import"))
        return Response(ImportJobOutput(import_job_status(job)).data)


# --- roster import ----------------------------------------------------------------------------
class RosterImportInput(serializers.Serializer[object]):
    file = serializers.FileField(required=False, help_text="The CSV file (multipart).")
    csv = serializers.CharField(required=False, trim_whitespace=False,
                                help_text="Or the CSV text itself (JSON body).")
    dry_run = serializers.BooleanField(required=False, default=False,
                                       help_text="Only say what the file would do.")


class RosterLineOutput(serializers.Serializer[object]):
    line = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField()


class RosterExistingOutput(RosterLineOutput):
    roster_player_id = serializers.IntegerField()
    roster_name = serializers.CharField()
    matched_by = serializers.CharField(help_text="email or name")


class RosterRepeatOutput(RosterLineOutput):
    repeats_line = serializers.IntegerField()


class RosterReportOutput(serializers.Serializer[object]):
    committed = serializers.BooleanField()
    summary = serializers.CharField()
    added = RosterLineOutput(many=True)
    existing = RosterExistingOutput(many=True)
    repeated = RosterRepeatOutput(many=True)


def report_data(report: services.RosterReport) -> dict[str, object]:
    def line(item: services.CsvLine) -> dict[str, object]:
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
        unreadable = services.roster_check_size(upload.size or 0) if upload is not None else None
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

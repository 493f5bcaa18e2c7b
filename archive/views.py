"""Archive pages (directors): download an event's archive, import one into a club, and add
players to a club's roster from a CSV file (preview first, then all or nothing)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext

from clubs.models import Club
from clubs.permissions import check_club_role
from tournaments.selectors import event_get

from . import services
from .forms import ArchiveUploadForm, RosterUploadForm
from .models import ImportJob
from .reader import ArchiveRefused, Problem
from .roster import CSV_MAX_ROWS
from .selectors import archive_filename, event_archive_bytes, import_job_get, import_job_status


@login_required
def event_archive_download(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's archive as a file (the API's ``GET /api/events/{id}/archive/``)."""
    event = event_get(pk=pk, user=request.user, role="director")
    response = HttpResponse(event_archive_bytes(event=event),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{archive_filename(event)}"'
    return response


def _club_for_director(request: HttpRequest, slug: str) -> Club:
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role="director")
    return club


# A multipart body is its file plus a few hundred bytes of boundaries and fields: the request's
# length, less this, is what the file can be at least.
MULTIPART_SLACK = 64 * 1024


def request_file_size(request: HttpRequest) -> int:
    """At least the size of the file a request uploads, from its ``Content-Length`` (read
    before the body)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    return max(0, length - MULTIPART_SLACK)


def _status(problems: list[Problem]) -> int:
    return 413 if any(p.code == "too_large" for p in problems) else 400


@login_required
def club_event_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload an archive: its size (from the request, before the upload is read) and its hands
    (counted before it is parsed) are checked first; a small archive is imported now, a large
    one by the worker, with a page that shows how far it is."""
    club = _club_for_director(request, slug)
    problems: list[Problem] = []
    form = ArchiveUploadForm()
    if request.method == "POST":
        try:
            services.archive_check_size(request_file_size(request))
            form = ArchiveUploadForm(request.POST, request.FILES)
            if form.is_valid():
                upload = form.cleaned_data["file"]
                services.archive_check_size(upload.size)
                started = services.archive_import_start(raw=upload.read(), club=club,
                                                        actor=request.user)
                if isinstance(started, ImportJob):
                    return redirect("club-event-import-job", slug=club.slug, pk=started.pk)
                added, matched = len(started.players_added), len(started.players_matched)
                messages.success(
                    request, f"Imported {started.event.name}: {started.counts['hands']} hands, "
                             f"{added} new {'player' if added == 1 else 'players'} on the "
                             f"roster, {matched} found on it.")
                return redirect("event-detail", pk=started.event.pk)
        except ArchiveRefused as exc:
            problems = exc.problems
    return render(request, "archive/event_import.html",
                  {"club": club, "form": form, "problems": problems,
                   "max_mb": services.archive_max_bytes() // (1024 * 1024),
                   "max_hands": services.archive_max_hands()},
                  status=_status(problems) if request.method == "POST" else 200)


@login_required
def club_event_import_job(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """How far the worker is with a large archive (the page polls its own fragment)."""
    club = _club_for_director(request, slug)
    job = import_job_get(club=club, pk=pk)
    if job is None:
        raise Http404(gettext("No such import"))
    context = {"club": club, "job": import_job_status(job)}
    if request.GET.get("fragment"):
        return render(request, "archive/partials/import_job.html", context)
    return render(request, "archive/import_job.html", context)


@login_required
def club_roster_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Upload a CSV → the preview (to add, already on the roster, repeated, errors by line and
    column) → "Add N players" posts the same text back, which is checked again and imported
    all or nothing."""
    club = _club_for_director(request, slug)
    form = RosterUploadForm(request.POST or None, request.FILES or None)
    report = None
    status = 200
    if request.method == "POST" and "csv_text" in request.POST:
        text = request.POST["csv_text"]
        text, unreadable = services.roster_csv_text(text.encode())
        if unreadable is not None:
            form = RosterUploadForm()
            form.add_error("file", unreadable.message)
            status = 400
        else:
            try:
                done = services.roster_import(club=club, text=text, actor=request.user)
            except services.RosterRefused as exc:
                report, status = exc.report, 400
            else:
                messages.success(request, f"Roster import: {done.summary()}")
                return redirect("club-manage", slug=club.slug)
    elif request.method == "POST":
        status = 400
        if form.is_valid():
            upload = form.cleaned_data["file"]
            unreadable = services.roster_check_size(upload.size)
            if unreadable is None:
                text, unreadable = services.roster_csv_text(upload.read())
            if unreadable is not None:
                form.add_error("file", unreadable.message)
            else:
                report = services.roster_preview(club=club, text=text)
                status = 400 if report.errors else 200
    return render(request, "archive/roster_import.html", {
        "club": club, "form": form, "report": report, "max_rows": CSV_MAX_ROWS,
        "max_kb": services.CSV_MAX_BYTES // 1024,
    }, status=status)

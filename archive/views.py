"""Archive pages (directors): download an event's archive, import one into a club, and add
players to a club's roster from a CSV file (preview first, then all or nothing)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from clubs.models import Club
from clubs.permissions import check_club_role
from tournaments.selectors import event_get

from . import services
from .forms import ArchiveUploadForm, RosterUploadForm
from .reader import ArchiveRefused, Problem
from .roster import CSV_MAX_ROWS
from .selectors import archive_filename, event_archive_bytes


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


@login_required
def club_event_import(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club_for_director(request, slug)
    form = ArchiveUploadForm(request.POST or None, request.FILES or None)
    problems: list[Problem] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            services.archive_check_size(upload.size)
            raw = upload.read()
            result = services.event_import(
                archive=services.archive_load(raw), club_slug=club.slug, actor=request.user,
                digest=services.archive_digest(raw))
        except ArchiveRefused as exc:
            problems = exc.problems
        else:
            added, matched = len(result.players_added), len(result.players_matched)
            messages.success(
                request, f"Imported {result.event.name}: {result.counts['hands']} hands, "
                         f"{added} new {'player' if added == 1 else 'players'} on the roster, "
                         f"{matched} found on it.")
            return redirect("event-detail", pk=result.event.pk)
    return render(request, "archive/event_import.html",
                  {"club": club, "form": form, "problems": problems,
                   "max_mb": services.ARCHIVE_MAX_BYTES // (1024 * 1024)},
                  status=400 if request.method == "POST" else 200)


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

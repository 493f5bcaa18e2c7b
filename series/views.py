"""Series pages: the series (standings with each event's points, counted or dropped, linking to
the event's results; prizes and side pots), its wall screen, its CSV, and the directors' form.
Anyone who may see the series reads (the events they may see); directors of its clubs write."""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club, Membership
from clubs.permissions import check_club_role
from common.errors import DomainError
from common.spreadsheets import SafeCsvWriter
from common.types import Actor
from tournaments.models import Event

from . import selectors, services
from .forms import SeriesForm, initial_of
from .models import Series

# The wall turns to its next page of rows this often, and polls for a change this often.
WALL_PAGE_SECONDS = 12
WALL_POLL_SECONDS = 15
# The form offers events of the last two years (and those already chosen).
OFFERED_DAYS = 730


def _event_choices(user: Actor, clubs: list[Club], chosen: list[int]) -> list[tuple[int, str]]:
    """Events the form offers: the clubs' events of the last two years, plus those of clubs the
    user directs (a partner to name), plus those already in the series; newest first."""
    directed = Membership.objects.filter(
        user=user, role__in=[Membership.Role.DIRECTOR, Membership.Role.OWNER]
    ).values_list("club_id", flat=True) if user.is_authenticated else []
    since = datetime.date.today() - datetime.timedelta(days=OFFERED_DAYS)
    events = (Event.objects.filter(Q(club__in=clubs) | Q(club_id__in=list(directed)),
                                   date__gte=since) | Event.objects.filter(pk__in=chosen))
    return [(e.pk, f"{e.name} · {e.date:%-d %b %Y} · {e.club.name}")
            for e in events.select_related("club").distinct().order_by("-date", "-pk")[:300]]


FORM_FIELDS = {"events": "events", "points": "points", "partner_clubs": "partner_clubs",
               "prizes.payouts": "payouts", "prizes.currency": "currency"}


def _form_error(form: SeriesForm, exc: DomainError) -> None:
    """The refusal beside the field it names (``events.2``: the events; ``prizes.payouts[1]``:
    the prize money)."""
    field = exc.field if exc.field in form.fields else None
    if field is None:
        for prefix, name in FORM_FIELDS.items():
            if exc.field.startswith(prefix):
                field = name
    if field is None and exc.field.startswith("prizes.side"):
        field = "high_game"
    form.add_error(field, exc.message)


def _form_page(request: HttpRequest, club: Club, form: SeriesForm,
               save: Callable[[dict[str, object]], Series], *,
               series: Series | None, owner: bool = True) -> HttpResponse:
    if request.method == "POST" and form.is_valid():
        try:
            saved = save(form.values())
        except DomainError as exc:
            _form_error(form, exc)
        else:
            messages.success(request, gettext("Series %(name)s saved.") % {"name": saved.name})
            return redirect("series-detail", pk=saved.pk)
    return render(request, "series/series_form.html", {"club": club, "form": form,
                                                       "series": series, "owner": owner},
                  status=400 if request.method == "POST" else 200)


@login_required
def series_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role="director")
    chosen = [int(v) for v in request.POST.getlist("events") if v.isdigit()][:100]
    form = SeriesForm(request.POST or None,
                      event_choices=_event_choices(request.user, [club], chosen))
    return _form_page(request, club, form, series=None, save=lambda values: services.series_create(
        club=club, actor=request.user, **values))


@login_required
def series_edit(request: HttpRequest, pk: int) -> HttpResponse:
    series = selectors.series_get(pk=pk, user=request.user)
    selectors.check_series_manage(user=request.user, series=series)
    initial = initial_of(series)
    chosen = initial["events"]
    form = SeriesForm(request.POST or None, initial=initial, event_choices=_event_choices(
        request.user, [series.club, *series.partner_clubs.all()], chosen))

    owner = selectors.is_series_owner(user=request.user, series=series)
    if not owner:
        # a partner club's director: the name and the partner clubs are the owning club's
        for name in ("name", "partner_clubs"):
            if name in form.fields:
                form.fields[name].disabled = True

    def save(values: dict[str, object]) -> Series:
        selectors.check_series_owner(user=request.user, series=series, changes=values)
        return services.series_update(series=series, actor=request.user, **values)

    return _form_page(request, series.club, form, save, series=series, owner=owner)


@login_required
@require_POST
def series_delete(request: HttpRequest, pk: int) -> HttpResponse:
    series = selectors.series_get(pk=pk, user=request.user)
    selectors.check_series_owner(user=request.user, series=series, delete=True)
    services.series_delete(series=series, actor=request.user)
    messages.success(request, gettext("Series %(name)s deleted; the events' results stay.")
                     % {"name": series.name})
    return redirect("club-detail", slug=series.club.slug)


@require_GET
def series_detail(request: HttpRequest, pk: int) -> HttpResponse:
    series = selectors.series_get(pk=pk, user=request.user)
    board = selectors.series_standings(series=series, user=request.user)
    return render(request, "series/series_detail.html", {
        "series": series, "board": board,
        "partners": selectors.series_partner_variety(board=board),
        "can_manage": selectors.can_manage_series(user=request.user, series=series),
    })


def _wall_body(request: HttpRequest, series: Series) -> str:
    return render_to_string("series/partials/series_wall_body.html", {
        "series": series, "board": selectors.series_standings(series=series, user=request.user),
    }, request=request)


@require_GET
def series_wall(request: HttpRequest, pk: int) -> HttpResponse:
    """The wall screen (1920×1080): the table in large type, page by page; it redraws by itself
    when an event of the series finishes or is reopened (polling the version)."""
    series = selectors.series_get(pk=pk, user=request.user)
    return render(request, "series/series_wall.html", {
        "series": series, "version": selectors.series_version(series=series),
        "body_html": _wall_body(request, series), "page_seconds": WALL_PAGE_SECONDS,
        "poll_seconds": WALL_POLL_SECONDS,
    })


@require_GET
def series_version(request: HttpRequest, pk: int) -> HttpResponse:
    """``{"version", "behind"}`` for the wall's poll (the standings pages' shape)."""
    series = selectors.series_get(pk=pk, user=request.user)
    response = JsonResponse({"version": selectors.series_version(series=series),
                             "behind": False})
    patch_cache_control(response, no_cache=True, private=True)
    return response


@require_GET
def series_fragment(request: HttpRequest, pk: int) -> HttpResponse:
    """The wall's live region, for the poller to swap in."""
    series = selectors.series_get(pk=pk, user=request.user)
    response = HttpResponse(_wall_body(request, series))
    patch_cache_control(response, no_cache=True, private=True)
    return response


@require_GET
def series_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """The standings as a spreadsheet: one row per player, then per event its points (``*``
    after points dropped by the best-N rule) and place."""
    series = selectors.series_get(pk=pk, user=request.user)
    board = selectors.series_standings(series=series, user=request.user)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="series-{series.pk}-standings.csv"'
    writer = SafeCsvWriter(response)  # a name like "=HYPERLINK(...)" stays text
    heads = []
    for event in board["events"]:
        heads += [f"{event['name']} {event['date']:%Y-%m-%d} points",
                  f"{event['name']} {event['date']:%Y-%m-%d} place"]
    writer.writerow(["rank", "player", "total", "events", "firsts", "prize", *heads])
    for line in board["lines"]:
        cells: list[object] = []
        for cell in line["events"]:
            if not cell["played"]:
                cells += ["", ""]
                continue
            cells += [f"{cell['points']}{'' if cell['counted'] else '*'}", cell["place"]]
        rank = "" if line["rank"] is None else f"{line['rank']}{'=' if line['tied'] else ''}"
        writer.writerow([rank, line["name"], line["total"], line["played"], line["firsts"],
                         line["prize"] or "", *cells])
    return response

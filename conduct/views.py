"""Conduct pages: the director's Penalties page of an event (record, list, withdraw with a
reason, the penalty table, appeals), a game's adjusted result (from the round page), a
player's conduct record in a club (the club's directors and the player only), and the table
phone's call for a director (``/t/<token>/call/``: the table link's token, no login; the
directors' side of the calls is in ``events.calls``, which hears the push), and the event's
public Corrections page (whoever may read its standings)."""

from __future__ import annotations

from collections.abc import Mapping

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Club, Membership, Player
from clubs.permissions import has_club_role
from common.errors import DomainError
from common.forms import refusal_message
from scoring.models import Game
from scoring.selectors import table_by_token
from scoring.services import game_adjust
from tournaments.models import Event, Table
from tournaments.selectors import event_get, results_final

from . import selectors, services
from .models import Appeal, DirectorCall, Penalty


def _page(request: HttpRequest, event: Event, *, errors: dict[str, str] | None = None,
          posted: Mapping[str, object] | None = None, status: int = 200) -> HttpResponse:
    entries = list(event.entries.select_related("player", "pair").order_by("player__name"))
    return render(request, "conduct/penalties.html", {
        "event": event, "penalties": selectors.event_penalties(event),
        "appeals": selectors.event_appeals(event), "table": selectors.penalty_table(event),
        "entries": entries, "pairs": list(event.pairs.order_by("pk")) if event.is_pairs else [],
        "rounds": list(event.rounds.order_by("number").values_list("number", flat=True)),
        "kinds": Penalty.Kind.choices, "decisions": Appeal.Decision.choices,
        "errors": errors or {}, "posted": posted or {},
        "final": results_final(event), "presets": selectors.PRESETS,
    }, status=status)


@require_GET
def event_corrections_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Every change to a result after the players were shown it, newest first: when, who (by
    role), why, what it was, what it became and whose standings moved. Readable by whoever
    may read the event's standings (a public event: anyone)."""
    event = event_get(pk=pk, user=request.user)
    club = event.club
    return render(request, "conduct/corrections.html", {
        "event": event,
        "corrections": [selectors.correction_payload(c, club)
                        for c in selectors.event_corrections(event)],
    })


@login_required
def event_penalties(request: HttpRequest, pk: int) -> HttpResponse:
    """The event's penalties and appeals; POST records a penalty."""
    event = event_get(pk=pk, user=request.user, role="director")
    if request.method != "POST":
        return _page(request, event)
    data = request.POST
    target = data.get("target", "")
    entry_id = target[2:] if target.startswith("e:") else None
    pair_id = target[2:] if target.startswith("p:") else None
    try:
        penalty = services.penalty_record(
            event=event, round_number=data.get("round"), kind=data.get("kind", ""),
            reason=data.get("reason", ""), points=data.get("points") or None,
            entry_id=entry_id, pair_id=pair_id, table=data.get("table") or None,
            actor=request.user)
    except DomainError as exc:
        field = "target" if exc.field in ("entry_id", "pair_id") else exc.field
        return _page(request, event, errors={field: exc.message}, posted=data.dict(),
                     status=400)
    messages.success(request, f"Penalty recorded: {penalty.points} points off "
                              f"{selectors.penalty_target_name(penalty)}.")
    return redirect("event-penalties", pk=event.pk)


@login_required
@require_POST
def penalty_withdraw(request: HttpRequest, pk: int, penalty_id: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    penalty = get_object_or_404(Penalty, event=event, pk=penalty_id)
    with refusal_message(request, prefix="Penalty not withdrawn: "):
        services.penalty_withdraw(penalty=penalty, reason=request.POST.get("reason", ""),
                                  actor=request.user)
        messages.success(request, gettext("Penalty withdrawn; it stays in the history."))
    return redirect("event-penalties", pk=event.pk)


@login_required
@require_POST
def event_appeal(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    data = request.POST
    try:
        services.appeal_record(
            event=event, contested=data.get("contested", ""), decision=data.get("decision", ""),
            note=data.get("note", ""), penalty_id=data.get("penalty_id") or None,
            round_number=data.get("round") or None, table=data.get("table") or None,
            actor=request.user)
    except DomainError as exc:
        return _page(request, event, errors={f"appeal_{exc.field}": exc.message},
                     posted=data.dict(), status=400)
    messages.success(request, gettext("Appeal logged."))
    return redirect("event-penalties", pk=event.pk)


@login_required
@require_POST
def penalty_table_set(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    points = {kind: request.POST.get(f"points_{kind}", "") for kind in Penalty.Kind.values}
    try:
        services.penalty_table_set(event=event, preset=request.POST.get("preset") or None,
                                   points=points, actor=request.user)
    except DomainError as exc:
        return _page(request, event, errors={f"table_{exc.field}": exc.message},
                     posted=request.POST.dict(), status=400)
    messages.success(request, gettext("Penalty table saved."))
    return redirect("event-penalties", pk=event.pk)


@login_required
@require_POST
def table_adjust(request: HttpRequest, pk: int, number: int, table: int) -> HttpResponse:
    """A game that cannot be played out gets an adjusted result (the round page's "Adjust")."""
    event = event_get(pk=pk, user=request.user, role="director")
    game = get_object_or_404(Game.objects.select_related("table__round"),
                             table__round__event=event, table__round__number=number,
                             table__number=table)
    data = request.POST
    points = {key.removeprefix("points_"): value for key, value in data.items()
              if key.startswith("points_")}
    with refusal_message(request, prefix=f"Table {table}: "):
        done = game_adjust(game=game, kind=data.get("kind", ""), reason=data.get("reason", ""),
                           points=points, side=data.get("side", ""), actor=request.user)
        shown = " · ".join(f"{s} {v}" for s, v in (done.totals or {}).items())
        messages.success(request, f"Table {table}: adjusted result recorded ({shown}).")
    return redirect("round-detail", pk=event.pk, number=number)


def conduct_record_page(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's conduct record in one club: their penalties across its events."""
    club = get_object_or_404(Club, slug=slug)
    player = get_object_or_404(Player, pk=player_id)
    selectors.conduct_access(user=request.user, club=club, player=player)
    record = selectors.conduct_record(club=club, player=player)
    return render(request, "conduct/record.html", {
        "club": club, "player": player, "penalties": record,
        "summary": selectors.conduct_summary(record),
        # the button that downloads what the club holds about the player (privacy)
        "can_export": has_club_role(user=request.user, club=club, role=Membership.Role.DIRECTOR),
    })


# --- the table phone's call for a director ----------------------------------------------------
def _from_script(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "fetch"


def _call_region(request: HttpRequest, table: Table, *, error: str | None = None,
                 status: int = 200) -> HttpResponse:
    return render(request, "conduct/partials/table_call.html", {
        **selectors.table_call_state(table), "error": error}, status=status)


@never_cache
def table_call(request: HttpRequest, token: str) -> HttpResponse:
    """GET: the table's call region (what ``table_call.js`` redraws). POST: call the director
    (an optional ``reason`` and ``words``); the page's script gets the region back (201, or the
    refusal in it: 400, 403 once the round is closed), a page without script goes back to the
    table with a message."""
    table = table_by_token(token=token)
    if request.method != "POST":
        return _call_region(request, table)
    try:
        services.director_call_raise(table=table, reason=request.POST.get("reason", ""),
                                     words=request.POST.get("words", ""))
    except DomainError as exc:
        status = 403 if exc.field in ("round", "event") else 400
        if _from_script(request):
            return _call_region(request, table, error=exc.message, status=status)
        messages.error(request, f"The director was not called: {exc.message}")
        return redirect("table-entry", token=token)
    if _from_script(request):
        return _call_region(request, table, status=201)
    messages.success(request, gettext("The director has been called: stay at the table."))
    return redirect("table-entry", token=token)


@never_cache
@require_POST
def table_call_dismiss(request: HttpRequest, token: str, call_id: int) -> HttpResponse:
    """Put the director's ruling away on the table's phone (this table's calls only)."""
    table = table_by_token(token=token)
    call = get_object_or_404(DirectorCall, table=table, pk=call_id)
    error = None
    try:
        services.director_call_dismiss(call=call)
    except DomainError as exc:
        error = exc.message
    if _from_script(request):
        return _call_region(request, table, error=error, status=400 if error else 200)
    if error:
        messages.error(request, error)
    return redirect("table-entry", token=token)

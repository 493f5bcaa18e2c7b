"""Score entry pages: the table's phone page (token, no login) and the director's desktop pages.

Views stay thin: the form checks the shape of what was typed, ``scoring.services`` decides and
writes, ``scoring.selectors`` reads. Every page works without JavaScript: a rejected hand
re-renders with each message next to its field (status 400), a hand another device entered first
re-renders with the stored values (409), and a closed round's table page is read-only (403 on
writes). With JavaScript the phone saves through the API, keeps unsent hands on the phone while
the network is down (``static/js/offline_queue.js``), redraws the score and the hands from
:func:`table_entry_live` instead of reloading, and a service worker (:func:`table_service_worker`)
lets the page open without a network.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TypedDict
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clubs.permissions import check_club_role, has_club_role
from common.errors import ConflictError, DomainError
from common.labels import sitting_title
from common.rulesets import event_ruleset
from common.types import Actor
from rules_engine import RulesError
from tournaments.models import Event, Table

from . import services
from .forms import HandForm, errors_from_exception, hand_layout
from .models import DESK_SOURCES, Game, Hand, HandRevision
from .selectors import (
    describe_values,
    desk_confirmations,
    entry_refusal,
    event_rounds,
    games_for_event,
    hand_history,
    hand_with_context,
    revision_values,
    seats_of,
    table_by_token,
    table_state,
)
from .services.confirm import DeskResult
from .where_next import table_next_seats


class Conflict(TypedDict):
    """A submission refused because the hand changed first: what is stored now."""

    message: str
    current: dict[str, object]  # the stored revision's values and its number (``revision``)
    summary: str
    revision: int | None


@dataclass
class Outcome:
    """What became of one submission: a stored revision, field errors, or a conflict."""

    revision: HandRevision | None = None
    errors: dict[str, list[str]] = field(default_factory=dict)
    conflict: Conflict | None = None

    @property
    def status(self) -> int:
        return 409 if self.conflict else 400


def _save(form: HandForm, *, game: Game, hand: Hand | None, author: Actor, source: str,
          as_director: bool, table_device: bool = False) -> Outcome:
    """Hand the form's values to the service: a new hand, or a correction of ``hand``
    (``table_device``: from the table's phone, which names its keeper first)."""
    if not form.is_valid():
        return Outcome(errors=form.error_dict())
    data = form.cleaned_data
    try:
        if hand is None:
            revision = services.hand_submit(
                game=game, number=data["number"], values=form.hand_values(), author=author,
                source=source, idempotency_key=data.get("idempotency_key") or None,
                as_director=as_director, note=data.get("note") or "",
                table_device=table_device,
            )
        else:
            if not data.get("expected_revision"):
                return Outcome(errors={"general": ["Reload the page: the hand's version is missing."]})
            revision = services.hand_correct(
                hand=hand, values=form.hand_values(), expected_revision=data["expected_revision"],
                author=author, source=source, note=data.get("note") or "",
                as_director=as_director, idempotency_key=data.get("idempotency_key") or None,
            )
    except ConflictError as exc:
        current = exc.current or {}
        revision_now = current.get("revision")
        return Outcome(conflict={
            "message": exc.message, "current": current, "summary": describe_values(current),
            "revision": revision_now if isinstance(revision_now, int) else None,
        })
    except (RulesError, DomainError) as exc:
        return Outcome(errors=errors_from_exception(exc))
    return Outcome(revision=revision)


def _saved_message(revision: HandRevision) -> str:
    points = " · ".join(f"{side} {pts:+d}" for side, pts in revision.points.items())
    verb = "saved" if revision.revision == 1 else f"corrected (version {revision.revision})"
    return f"Hand {revision.hand.number} {verb}: {points}."


# --- the table's phone page -------------------------------------------------------------------
class Correcting(TypedDict):
    """The hand a table's phone is correcting: its number, live version and values in words."""

    number: int
    revision: int
    summary: str
    action: str


def _table_page(
    request: HttpRequest, table: Table, *, form: HandForm | None = None,
    outcome: Outcome | None = None, status: int = 200, correcting: Correcting | None = None,
    extra: Mapping[str, object] | None = None,
) -> HttpResponse:
    state = table_state(table=table)
    ruleset = event_ruleset(state["event"])
    seats = [seat["position"] for seat in state["seats"]]
    game = state["game"]
    # The table's phone names its keeper before the first hand: until then the form is not
    # offered (with JavaScript it is on the page, hidden, for a keeper named while offline).
    needs_keeper = (state["is_open"] and game.status == Game.Status.PLAYING
                    and not game.scorer_position and correcting is None)
    if form is None and state["can_enter"]:
        form = HandForm(
            initial=HandForm.initial_for(number=state["next_number"], dealer=state["next_dealer"]),
            ruleset=ruleset, seats=seats,
        )
    context = {
        **state,
        "form": form,
        "layout": hand_layout(form, seats=state["seats"], errors=outcome.errors if outcome else None)
        if form is not None else None,
        "errors": outcome.errors if outcome else {},
        "conflict": outcome.conflict if outcome else None,
        "correcting": correcting,
        "needs_keeper": needs_keeper,
        "sitting_label": f"{sitting_title(state['event'].sitting)} {table.round.number}",
        "check_url": reverse("api-table-check", args=[table.token]),
        "submit_url": reverse("api-table-hands", args=[table.token]),
        "scorer_url": reverse("api-table-scorer", args=[table.token]),
        "page_url": reverse("table-entry", args=[table.token]),
        "saved": request.GET.get("saved", ""),
        # the deal passes clockwise round every seat of the table (a player who sits out
        # the hands of others deals in turn too)
        "dealer_order": " ".join(s["position"] for s in state["seats"]),
        **(extra or {}),
    }
    return render(request, "scoring/entry_table.html", context, status=status)


def _refuse_closed(request: HttpRequest, table: Table) -> HttpResponse:
    refusal = entry_refusal(table.round)
    message = refusal.message if refusal is not None else ""
    outcome = Outcome(errors={"round": [f"{message} Ask the director if something is wrong."]})
    return _table_page(request, table, outcome=outcome, status=403)


def _refuse_confirmed(request: HttpRequest, table: Table, number: int) -> HttpResponse:
    """A correction of a confirmed game (a stale page's link): the page says why, no form."""
    outcome = Outcome(errors={"status": [
        f"Hand {number} was not changed: this game is confirmed, and only a director can "
        "change it now. Ask the director."
    ]})
    return _table_page(request, table, outcome=outcome, status=400)


# The table's pages are never kept by the browser (Cache-Control: no-store): Back or Forward
# asks the server again, so a copy showing the form of a hand already saved never comes back.
# The table's service worker keeps its own copy for a phone without a network.
@never_cache
def table_entry(request: HttpRequest, token: str) -> HttpResponse:
    """The page a table's QR code opens: the game so far and the form for the next hand; once
    the game is over, where each player goes next (or how many tables the next game waits for)."""
    table = table_by_token(token=token)
    if request.method != "POST":
        return _table_page(request, table, extra={"where_next": table_next_seats(table=table)})
    if entry_refusal(table.round) is not None:
        return _refuse_closed(request, table)
    ruleset = event_ruleset(table.round.event)
    # a ruleset with one size of table needs no look at the seats
    seats = (ruleset.seats_for(ruleset.table_sizes[0]) if len(ruleset.table_sizes) == 1
             else [seat["position"] for seat in seats_of(table, ruleset)])
    form = HandForm(request.POST, ruleset=ruleset, seats=seats)
    outcome = _save(form, game=table.game, hand=None, author=request.user,
                    source=HandRevision.Source.TABLE, as_director=False, table_device=True)
    if outcome.revision is not None:
        messages.success(request, _saved_message(outcome.revision))
        return redirect(reverse("table-entry", args=[token]))
    if outcome.conflict:
        # The stored hand stands; the page moves on to the next hand with a fresh form.
        return _table_page(request, table, outcome=outcome, status=409)
    return _table_page(request, table, form=form, outcome=outcome, status=outcome.status)


@never_cache
def table_hand_correct(request: HttpRequest, token: str, number: int) -> HttpResponse:
    """Correct a hand of this table while the round is open and the game not confirmed (a new
    revision; the old one stays)."""
    table = table_by_token(token=token)
    hand = Hand.objects.filter(game=table.game, number=number, deleted_at__isnull=True).first()
    if hand is None:
        raise Http404(gettext("No such hand at this table"))
    state = table_state(table=table)
    if not state["is_open"]:
        return _refuse_closed(request, table)
    if state["game"].status == Game.Status.CONFIRMED and request.method != "POST":
        return _refuse_confirmed(request, table, number)
    ruleset = event_ruleset(state["event"])
    seats = [seat["position"] for seat in state["seats"]]
    live = hand.revisions.get(is_live=True)
    correcting: Correcting = {"number": number, "revision": live.revision,
                  "summary": describe_values(revision_values(live)),
                  "action": reverse("table-hand-correct", args=[token, number])}
    if request.method == "POST":
        form = HandForm(request.POST, ruleset=ruleset, seats=seats)
        outcome = _save(form, game=table.game, hand=hand, author=request.user,
                        source=HandRevision.Source.TABLE, as_director=False)
        if outcome.revision is not None:
            messages.success(request, _saved_message(outcome.revision))
            return redirect(reverse("table-entry", args=[token]))
        if outcome.conflict:
            form = HandForm(
                initial=HandForm.initial_for(
                    number=number, dealer=live.dealer, values=outcome.conflict["current"],
                    expected_revision=outcome.conflict["revision"],
                ),
                ruleset=ruleset, seats=seats,
            )
        return _table_page(request, table, form=form, outcome=outcome, status=outcome.status,
                           correcting=correcting)
    form = HandForm(
        initial=HandForm.initial_for(
            number=number, dealer=live.dealer, values=revision_values(live),
            expected_revision=live.revision,
        ),
        ruleset=ruleset, seats=seats,
    )
    return _table_page(request, table, form=form, correcting=correcting)


@never_cache
@require_GET
def table_entry_live(request: HttpRequest, token: str) -> HttpResponse:
    """The parts of the phone page that change when a hand is stored (the score, the progress,
    the hands), as a fragment: the page's script swaps them in after a save instead of
    reloading the page. Its ``#table-score`` carries the game's version and status and the next
    hand's number and dealer."""
    table = table_by_token(token=token)
    return render(request, "scoring/partials/entry_table_live.html", table_state(table=table))


def _service_worker_scope() -> str:
    """The folder the worker's URL is in (``/t/``): the pages it may serve are under it."""
    return reverse("table-service-worker").rsplit("/", 1)[0] + "/"


@require_GET
def table_service_worker(request: HttpRequest) -> HttpResponse:
    """The table phone's service worker: it keeps the last copy of each table page it saw and
    the static files they use, and answers with them when the network is gone (network first).
    Served from ``/t/`` so that its scope covers the table pages; the project's
    Content-Security-Policy applies to it (its fetches are same-origin, ``connect-src 'self'``)."""
    scope = _service_worker_scope()
    body = render_to_string("scoring/service_worker.js", {
        "scope": scope, "static_url": settings.STATIC_URL,
        "worker_path": reverse("table-service-worker"),
    })
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = scope
    response["Cache-Control"] = "no-cache"  # a new version is picked up on the next visit
    return response


@never_cache
@require_POST
def table_set_scorer(request: HttpRequest, token: str) -> HttpResponse:
    """Name the seat that keeps score, before the first hand (a player of the other side will
    confirm the game). A refusal (another keeper once hands are stored) re-renders the page with
    the message next to the keeper (400)."""
    table = table_by_token(token=token)
    if entry_refusal(table.round) is not None:
        return _refuse_closed(request, table)
    try:
        services.game_set_scorer(game=table.game, position=request.POST.get("position", ""))
    except DomainError as exc:
        return _table_page(request, table, outcome=Outcome(errors=errors_from_exception(exc)),
                           status=400)
    return redirect(reverse("table-entry", args=[token]))


@never_cache
@require_POST
def table_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """A player of the side that did not keep score confirms the finished game."""
    table = table_by_token(token=token)
    if entry_refusal(table.round) is not None:
        return _refuse_closed(request, table)
    try:
        game = services.game_confirm(game=table.game, position=request.POST.get("position", ""))
    except DomainError as exc:
        return _table_page(request, table, outcome=Outcome(errors=errors_from_exception(exc)),
                           status=400)
    if game.confirmed_by:
        messages.success(request, gettext("Game confirmed by %(name)s. Thank you!")
                         % {"name": game.confirmed_by.player.name})
    else:
        messages.success(request, gettext("Game confirmed by a player. Thank you!"))
    return redirect(reverse("table-entry", args=[token]))


# --- the director's desktop pages -------------------------------------------------------------
def _event_for_scorer(request: HttpRequest, event_id: int) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    check_club_role(user=request.user, club=event.club, role="scorer")
    return event


def _pick(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


@login_required
def director_hands(request: HttpRequest, event_id: int) -> HttpResponse:
    """Enter or correct any hand of the night: pick a round and table, tab through, Enter saves."""
    event = _event_for_scorer(request, event_id)
    as_director = has_club_role(user=request.user, club=event.club, role="director")
    rounds = event_rounds(event=event)
    def params_get(name: str) -> str | None:  # the form's action URL carries the picks
        return request.GET.get(name) or request.POST.get(name)

    round_ = None
    wanted_round = _pick(params_get("round"))
    for r in rounds:
        if wanted_round is None or r.number == wanted_round:
            round_ = r
    tables = list(round_.tables.all()) if round_ else []
    wanted_table = _pick(params_get("table"))
    table = next((t for t in tables if t.number == wanted_table), tables[0] if tables else None)
    context: dict[str, object] = {
        "event": event, "rounds": rounds, "round": round_, "tables": tables, "table": table,
        "as_director": as_director, "errors": {}, "conflict": None,
    }
    if table is None:
        return render(request, "scoring/director_hands.html", context)
    state = table_state(table=table)
    ruleset = event_ruleset(event)
    seats = [seat["position"] for seat in state["seats"]]
    wanted_hand = _pick(request.GET.get("hand"))
    hand = (
        Hand.objects.filter(game=table.game, number=wanted_hand, deleted_at__isnull=True).first()
        if wanted_hand else None
    )
    if wanted_hand and hand is None:
        raise Http404(gettext("No such hand at this table"))
    live = hand.revisions.get(is_live=True) if hand else None
    here = reverse("director-hands", args=[event.pk]) + "?" + urlencode(
        {"round": round_.number if round_ else "", "table": table.number}
    )
    status = 200
    errors: dict[str, list[str]] = {}
    if request.method == "POST":
        form = HandForm(request.POST, ruleset=ruleset, seats=seats)
        outcome = _save(form, game=table.game, hand=hand, author=request.user,
                        source=HandRevision.Source.DIRECTOR, as_director=as_director)
        if outcome.revision is not None:
            messages.success(request, f"Table {table.number}: {_saved_message(outcome.revision)}")
            return redirect(here)
        errors = outcome.errors
        context.update(errors=errors, conflict=outcome.conflict)
        status = outcome.status
        if outcome.conflict and hand is not None:
            form = HandForm(initial=HandForm.initial_for(
                number=hand.number, dealer=live.dealer if live else seats[0],
                values=outcome.conflict["current"],
                expected_revision=outcome.conflict["revision"]), ruleset=ruleset, seats=seats)
        elif outcome.conflict:
            form = HandForm(initial=HandForm.initial_for(
                number=state["next_number"], dealer=state["next_dealer"]), ruleset=ruleset, seats=seats)
        state = table_state(table=table)
    elif live is not None and hand is not None:
        form = HandForm(initial=HandForm.initial_for(
            number=hand.number, dealer=live.dealer, values=revision_values(live),
            expected_revision=live.revision), ruleset=ruleset, seats=seats)
    else:
        form = HandForm(initial=HandForm.initial_for(
            number=state["next_number"], dealer=state["next_dealer"]), ruleset=ruleset, seats=seats)
    context.update(state)
    context.update(
        round=round_, table=table, form=form, layout=hand_layout(form, seats=state["seats"], errors=errors),
        editing=hand, editing_live=live, here=here,
        action=here + (f"&hand={hand.number}" if hand else ""),
        check_url=reverse("api-table-check", args=[table.token]),
        note_required=not state["is_open"],
        can_write=(state["is_open"] or as_director),
    )
    return render(request, "scoring/director_hands.html", context, status=status)


@login_required
@require_POST
def director_hand_delete_last(request: HttpRequest, event_id: int) -> HttpResponse:
    """Delete a table's last hand (entered by mistake): the page names the hand and the version
    it shows, and a reason; the hand's history is kept."""
    event = _event_for_scorer(request, event_id)
    round_ = get_object_or_404(event.rounds, number=_pick(request.POST.get("round")) or 0)
    table = get_object_or_404(round_.tables, number=_pick(request.POST.get("table")) or 0)
    try:
        deletion = services.hand_delete_last(
            game=table.game, author=request.user, note=request.POST.get("note", ""),
            number=_pick(request.POST.get("number")) or 0,
            expected_revision=_pick(request.POST.get("expected_revision")) or 0,
            as_director=has_club_role(user=request.user, club=event.club, role="director"),
        )
    except DomainError as exc:  # a ConflictError too: a stale page deletes nothing
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Table {table.number}: hand {deletion.hand.number} was "
                                  "deleted (its history is kept).")
    return redirect(reverse("director-hands", args=[event.pk]) + "?" + urlencode(
        {"round": round_.number, "table": table.number}))


@login_required
def hand_history_page(request: HttpRequest, hand_id: int) -> HttpResponse:
    """Every version of one hand: who changed it, when, from where, why, and the values."""
    hand = hand_with_context(hand_id=hand_id)
    table = hand.game.table
    event = table.round.event
    check_club_role(user=request.user, club=event.club, role="scorer")
    return render(request, "scoring/director_hand_history.html", {
        "hand": hand, "table": table, "round": table.round, "event": event,
        "revisions": hand_history(hand=hand),
        "back": reverse("director-hands", args=[event.pk]) + "?" + urlencode(
            {"round": table.round.number, "table": table.number}),
    })


@login_required
def director_games(request: HttpRequest, event_id: int) -> HttpResponse:
    """The night's games and whether each is finished and confirmed. A director also confirms
    finished games here from the players' signed score sheets (ticked, or every finished one),
    and sees what became of each table."""
    event = _event_for_scorer(request, event_id)
    as_director = has_club_role(user=request.user, club=event.club, role="director")
    only_open = request.GET.get("all") != "1"
    desk_results: list[DeskResult] | None = None
    desk_error = ""
    if request.method == "POST":
        if not as_director:
            raise PermissionDenied(gettext("Only a director confirms games at the desk."))
        desk_results, desk_error = _desk_confirm(request, event)
    games = games_for_event(event, unconfirmed_only=only_open)
    sources = desk_confirmations(event)
    for game in games:
        game.desk_source = sources.get(
            (game.table.round.number, game.table.number), "")
    return render(request, "scoring/director_games.html", {
        "event": event, "games": games, "only_open": only_open,
        "desk_confirm": as_director, "desk_sources": DESK_SOURCES,
        "desk_results": desk_results, "desk_error": desk_error,
        "finished_count": sum(1 for g in games if g.status == Game.Status.FINISHED),
    }, status=400 if desk_error else 200)


def _desk_confirm(request: HttpRequest, event: Event) -> tuple[list[DeskResult], str]:
    """The games page's "Confirm from signed sheets": the ticked games ("round-table"), round
    by round through ``services.games_confirm_at_desk``; one result per table."""
    source = request.POST.get("source", "signed_sheet")
    wanted: dict[int, list[int]] = {}
    for value in request.POST.getlist("game"):
        round_number, _, table = value.partition("-")
        if round_number.isdigit() and table.isdigit():
            wanted.setdefault(int(round_number), []).append(int(table))
    if not wanted:
        return [], "Tick the finished games whose signed sheets you have."
    rounds = {r.number: r for r in event.rounds.filter(number__in=list(wanted))}
    results: list[DeskResult] = []
    for number, tables in sorted(wanted.items()):
        round_ = rounds.get(number)
        if round_ is None:
            results += [{"round": number, "table": t, "confirmed": False,
                         "error": f"There is no round {number}."} for t in tables]
            continue
        try:
            done = services.games_confirm_at_desk(round_=round_, tables=tables, source=source,
                                                  actor=request.user)
        except DomainError as exc:
            return results, exc.message
        results += [{"round": number, **r} for r in done]
    return results, ""

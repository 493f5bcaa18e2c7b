"""Screens for a big day: the director's room view and the wall's movement board.

``/events/<pk>/director/`` shows every table of the game being played (or of the last one) as a
compact tile: players, whether the game is playing, finished or confirmed, hands entered of the
deals planned and how long the table has been playing (tables running long are marked), with a
cut form for a level game. Above them: the calls for a director (``events.calls``, redrawn on a
push), counts, the buttons that move the day on (start, hold or
release the automatic advance, re-draw, seat the next game), and below: unconfirmed games, late
arrivals, withdrawals and alternates waiting. ``/events/<pk>/wall/movement/`` is the public wall
board for the coming game: every player, alphabetically, with their table and seat, and the
game's clock when the event plays timed games. The director's screen reloads itself
(``static/js/screens.js``). ``/events/<pk>/wall/seating/`` is the wall's "where do I sit"
board for every format: players by name with table, seat and partner, and the round's state.
Both walls redraw in place (``static/js/seating_board.js``) when ``…/wall/seating/version/``
moves: asked at once on a push (``draw.signals``), else polled.
"""

from __future__ import annotations

import datetime
import statistics
from types import SimpleNamespace
from typing import NotRequired, TypedDict

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Count, Max, Q
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from common.errors import DomainError
from common.forms import refusal_message
from common.labels import SEAT_NAMES, sitting_title, sitting_word, translated
from common.rulesets import event_ruleset, table_seats, table_sides
from draw import seating
from draw.flow import Step, next_step, redraw_warning
from draw.managers import MeetingRow, table_meeting_rows
from draw.selectors import (
    AdvanceDue,
    advance_due,
    event_format_settings,
    rounds_total,
    sitting_labels,
    sitting_phrase,
)
from scoring.models import NO_BID_OUTCOMES, Game, Hand, HandRevision
from scoring.selectors import games_for_event
from scoring.services import game_settle_tie, round_call_time
from standings.push import push_stream_url
from standings.watchers import watching_now
from tournaments import services as events
from tournaments.models import Bye, Entry, Event, EventLog, Round, Seat, Table
from tournaments.selectors import event_get

from . import where
from .calls import calls_region

# A playing table is "running long" past the event's time limit, or well past the median time
# of the tables that finished by play, once half the tables have (at least MEDIAN_AFTER): the
# first tables to finish are the quick ones, and a walkover or an adjusted result takes no time,
# so an early median would flag every table still playing. "Well past": by a quarter, and by
# at least LONG_MARGIN_MINUTES.
MEDIAN_AFTER = 3
LONG_MARGIN_MINUTES = 5
REFRESH_SECONDS = 25


def _minutes(delta: datetime.timedelta) -> int:
    return max(0, int(delta.total_seconds() // 60))


def _game_minutes(event: Event) -> int | None:
    value = event_format_settings(event).get("game_minutes")
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _word(event: Event) -> str:
    """What the event calls one sitting of every table, in the reader's language: a
    progressive day plays games."""
    return sitting_word(event.sitting)


class TileSide(TypedDict):
    side: str
    names: str
    points: int | None
    cut: bool


class Tile(TypedDict):
    """One table on the director's screen (:func:`_tiles`); ``long`` and ``long_reason`` once
    the round's median is known, ``call`` (a call's kind, or "") on the director's page."""

    number: int
    token: str
    game_id: int | None
    status: str
    status_label: str
    sides: list[TileSide]
    hands: int
    deals: int | None
    minutes: int
    misdeals: int
    played: int
    totals: dict[str, int] | None
    awaiting_cut: bool
    cut_winner: str
    adjusted: bool
    entry_ids: set[int]
    long: NotRequired[bool]
    long_reason: NotRequired[str]
    call: NotRequired[str]


def round_start_time(round_: Round) -> datetime.datetime:
    """When a round's tables began playing: its start, else when it was seated."""
    return round_.started_at or round_.created_at


def _tiles(round_: Round, *, now: datetime.datetime, deals: int | None,
           limit: int | None, cuts: bool) -> tuple[list[Tile], int | None]:
    """One tile per table of ``round_`` and the median minutes of its finished tables."""
    start = round_start_time(round_)
    end = now if round_.status != Round.Status.CLOSED else (round_.closed_at or now)
    last_hand = dict(
        Hand.objects.filter(game__table__round=round_, deleted_at__isnull=True)
        .values("game_id").annotate(last=Max("created_at")).values_list("game_id", "last")
    )
    # A misdeal is redealt and is not one of the game's deals: the tile counts deals played.
    misdeals = dict(
        HandRevision.objects.filter(hand__game__table__round=round_, hand__deleted_at__isnull=True,
                                    is_live=True, outcome__in=NO_BID_OUTCOMES)
        .values("hand__game_id").annotate(n=Count("id")).values_list("hand__game_id", "n")
    )
    # Plain rows, not a model per table, game, seat, entry and player (128 tables: 1,800).
    names: dict[int, dict[str, str]] = {}
    entry_ids: dict[int, set[int]] = {}
    for table_id, position, entry_id, name in (
        Seat.objects.filter(table__round=round_).order_by()
        .values_list("table_id", "position", "entry_id", "entry__player__name")
    ):
        names.setdefault(table_id, {})[position] = name
        entry_ids.setdefault(table_id, set()).add(entry_id)
    tiles: list[Tile] = []
    ruleset = event_ruleset(round_.event)
    for (table_id, number, token, game_id, status, hands_count, totals, winner, cut_winner,
         adjusted, forfeit, updated_at) in (
        Table.objects.filter(round=round_).order_by("number")
        .values_list("pk", "number", "token", "game__id", "game__status", "game__hands_count",
                     "game__totals", "game__winner", "game__cut_winner", "game__adjusted",
                     "game__forfeit", "game__updated_at")
    ):
        by_position = names.get(table_id, {})
        has_game = game_id is not None
        status = status if has_game else Game.Status.PLAYING
        if has_game and status != Game.Status.PLAYING:
            minutes = _minutes((last_hand.get(game_id) or updated_at) - start)
        else:
            minutes = _minutes(end - start)
        hands = hands_count if has_game else 0
        misdealt = misdeals.get(game_id, 0) if has_game else 0
        tiles.append({
            "number": number, "token": token, "game_id": game_id, "status": status,
            "status_label": str(Game.Status(status).label),
            # each side with its players and its score (a partnership, or one player)
            "sides": [{"side": side,
                       "names": " & ".join(by_position.get(p, "–")
                                           for p in ruleset.seats_of(side)),
                       "points": (totals or {}).get(side), "cut": cut_winner == side}
                      for side in table_sides(ruleset, table_seats(ruleset, by_position))],
            "hands": hands, "deals": deals, "minutes": minutes,
            "misdeals": misdealt, "played": hands - misdealt,
            "totals": totals or None,
            "awaiting_cut": bool(cuts and has_game and status != Game.Status.PLAYING
                                 and not winner and not cut_winner),
            "cut_winner": cut_winner or "",
            # The director gave the game an adjusted result (or a walkover).
            "adjusted": bool(has_game and (adjusted or forfeit)),
            "entry_ids": entry_ids.get(table_id, set()),
        })
    done = [t["minutes"] for t in tiles
            if t["status"] != Game.Status.PLAYING and not t["adjusted"] and t["played"]]
    median = None
    if done and len(done) >= max(min(MEDIAN_AFTER, len(tiles)), (len(tiles) + 1) // 2):
        median = int(statistics.median(done))
    for tile in tiles:
        playing = tile["status"] == Game.Status.PLAYING and round_.status != Round.Status.CLOSED
        over_limit = limit is not None and tile["minutes"] >= limit
        over_median = median is not None and tile["minutes"] > max(
            median * 5 // 4, median + LONG_MARGIN_MINUTES)
        tile["long"] = playing and (over_limit or over_median)
        tile["long_reason"] = (
            gettext("past the %(limit)s-minute limit") % {"limit": limit}
            if playing and over_limit
            else gettext("past the median of finished tables (%(median)s min)") % {
                "median": median} if tile["long"] else ""
        )
    return tiles, median


class DirectorScreen(TypedDict):
    """Everything the director's screen shows (:func:`director_screen`)."""

    heading: str
    labels: dict[int, str]
    round_label: str
    open_label: str
    open_phrase: str
    next_phrase: str
    next_step: Step | None
    table_draw: list[MeetingRow]  # the tables' draws of partners the next step asks for
    redraw_warning: str
    empty_tables: list[int]
    event: Event
    round: Round | None
    open_round: Round | None
    tiles: list[Tile]
    counts: dict[str, int]
    long_count: int
    cut_count: int
    median: int | None
    game_minutes: int | None
    ties: object  # the format's ``ties`` setting ("" without one)
    started_at: datetime.datetime | None
    elapsed: int | None
    hands_entered: bool
    seats_automatically: bool
    tables_draw: bool  # the tables draw their partners: the director seats from their draws
    advance_matters: bool
    rounds_total: int
    next_number: int
    can_seat_next: bool
    unconfirmed: list[SimpleNamespace]
    late: list[Entry]
    withdrawn: list[Entry]
    alternates: list[Entry]
    seating: dict[str, object] | None  # the queued seating job (``draw.seating.job_state``)
    stalled: AdvanceDue | None
    refresh_seconds: int
    word: str


def director_screen(event: Event, *, now: datetime.datetime | None = None) -> DirectorScreen:
    """Everything the director's screen shows, in a fixed number of queries (not per table)."""
    now = now or timezone.now()
    spec = event.spec
    settings = event_format_settings(event)
    tables_draw = spec.tables_draw(dict(settings))
    automatic = spec.seats_automatically and not tables_draw
    limit = _game_minutes(event)
    rounds = list(event.rounds.order_by("number"))
    open_round = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
    shown = open_round or (rounds[-1] if rounds else None)
    tiles: list[Tile] = []
    median = None
    if shown is not None:
        tiles, median = _tiles(shown, now=now, deals=event.deals_per_round, limit=limit,
                               cuts=spec.needs_winners)
    seated = set().union(*(t["entry_ids"] for t in tiles)) if tiles else set()
    # Only the entries the lists below name (late, withdrawn, alternates), not the whole room.
    entries = list(event.entries.filter(
        Q(joined_round__gt=1) | Q(status=Entry.Status.LEFT)
        | Q(alternate=True, status=Entry.Status.ACTIVE)).select_related("player")
        .order_by("player__name"))
    unconfirmed = games_for_event(event, to_confirm_only=True)
    total = rounds_total(event)
    next_number = (rounds[-1].number + 1) if rounds else 1
    counts = {status: sum(1 for t in tiles if t["status"] == status) for status in Game.Status.values}
    labels = sitting_labels(event, upto=next_number)
    shown_label = labels.get(shown.number, "") if shown else ""
    open_label = labels.get(open_round.number, "") if open_round else ""
    heading = shown_label
    if shown is not None and total:
        plain = f"{sitting_title(event.sitting)} {shown.number}"
        values = {"sitting": plain, "label": shown_label, "word": sitting_word(event.sitting),
                  "number": shown.number, "total": total}
        heading = (gettext("%(sitting)s of %(total)s") % values if shown_label == plain
                   else gettext("%(label)s (%(word)s %(number)s of %(total)s)") % values)
    return {
        "heading": heading,
        "labels": labels, "round_label": shown_label, "open_label": open_label,
        "open_phrase": sitting_phrase(open_label) if open_round else "",
        "next_phrase": sitting_phrase(labels[next_number]),
        "next_step": next_step(event, rounds),
        "table_draw": table_meeting_rows(event),
        "redraw_warning": redraw_warning(event, open_label) if open_round else "",
        "empty_tables": [t["number"] for t in tiles
                         if t["status"] == Game.Status.PLAYING and not t["hands"]],
        "event": event, "round": shown, "open_round": open_round, "tiles": tiles,
        "counts": counts, "long_count": sum(1 for t in tiles if t["long"]),
        "cut_count": sum(1 for t in tiles if t["awaiting_cut"]),
        "median": median, "game_minutes": limit, "ties": settings.get("ties", ""),
        "started_at": round_start_time(shown) if shown else None,
        "elapsed": _minutes(now - round_start_time(shown)) if shown else None,
        "hands_entered": any(t["hands"] for t in tiles),
        # (a day whose tables draw their partners waits for the director to enter the draws)
        "seats_automatically": automatic,
        "tables_draw": tables_draw,
        # the switch is offered only while there is a next sitting for it to hold
        "advance_matters": automatic and event.status != Event.Status.FINISHED
        and (spec.open_ended or (rounds[-1].number if rounds else 0) < total),
        "rounds_total": total,
        "next_number": next_number,
        "can_seat_next": (
            open_round is None and not event.is_over
            and (spec.open_ended or next_number <= total)
        ),
        "unconfirmed": unconfirmed,
        "late": [e for e in entries if e.joined_round > 1],
        "withdrawn": [e for e in entries if e.status == Entry.Status.LEFT],
        "alternates": [e for e in entries if e.alternate and e.status == Entry.Status.ACTIVE
                       and e.pk not in seated],
        "seating": seating.job_state(event_id=event.pk),
        "stalled": _advance_stalled(event, now=now),
        "refresh_seconds": REFRESH_SECONDS, "word": _word(event),
    }


# An automatic advance not done this long after the last confirmation is shown as stalled.
ADVANCE_STALL_SECONDS = 20


def _advance_stalled(event: Event, *, now: datetime.datetime) -> AdvanceDue | None:
    """The advance owed to the event (:func:`draw.selectors.advance_due`) once it is overdue:
    the director then sees it and seats the next round in one step."""
    due = advance_due(event)
    if due is None or (due["since"] and (now - due["since"]).total_seconds()
                       < ADVANCE_STALL_SECONDS):
        return None
    return due


def _director_page(event: Event) -> dict[str, object]:
    """The director screen with the open calls for a director (``events.calls``) above the
    tiles, and each calling table's tile marked."""
    screen = director_screen(event)
    calls = calls_region(event, where="director")
    shown = screen["round"]
    for tile in screen["tiles"]:
        tile["call"] = calls["called_tables"].get((shown.number, tile["number"]), "") \
            if shown is not None else ""
    return {**screen, **calls}


@login_required
def event_director(request: HttpRequest, pk: int) -> HttpResponse:
    """The director's screen for a big day: every table of the game at a glance, and the calls
    for a director (they arrive by push)."""
    event = event_get(pk=pk, user=request.user, role="director")
    return render(request, "events/director.html", _director_page(event))


@login_required
@require_POST
def event_director_advance(request: HttpRequest, pk: int) -> HttpResponse:
    """Hold (held=1) or release (held=0) the automatic advance to the next game."""
    event = event_get(pk=pk, user=request.user, role="director")
    held = request.POST.get("held") == "1"
    events.event_hold_advance(event=event, held=held, actor=request.user)
    if held:
        messages.success(request, gettext("The automatic advance is held: when the last game "
                                          "is confirmed, seat the next game yourself."))
    else:
        messages.success(request, gettext("The automatic advance is on again: the next game is "
                                          "seated as soon as the last game of this one is "
                                          "confirmed."))
    return redirect("event-director", pk=event.pk)


@login_required
@require_POST
def event_director_cut(request: HttpRequest, pk: int) -> HttpResponse:
    """A level game: record the side that won the table's cut of the cards."""
    event = event_get(pk=pk, user=request.user, role="director")
    round_number, table_number = request.POST.get("round", ""), request.POST.get("table", "")
    if not (round_number.isdigit() and table_number.isdigit()):
        messages.error(request, gettext("Pick the table whose cut you are entering."))
        return redirect("event-director", pk=event.pk)
    game = get_object_or_404(Game.objects.select_related("table__round__event"),
                             table__round__event=event, table__round__number=int(round_number),
                             table__number=int(table_number))
    winner = request.POST.get("winner", "")
    with refusal_message(request, prefix=gettext("Table %(table)s: ") % {"table": table_number}):
        game_settle_tie(game=game, winner=winner, actor=request.user)
        messages.success(request, gettext("Table %(table)s: %(winner)s won the cut.") % {
            "table": table_number, "winner": winner})
    return redirect("event-director", pk=event.pk)


@login_required
@require_POST
def event_director_time(request: HttpRequest, pk: int) -> HttpResponse:
    """Time is up: the games of the open round still playing end after the deals entered."""
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = event.rounds.exclude(status=Round.Status.CLOSED).order_by("-number").first()
    if round_ is None:
        messages.error(request, gettext("No game is being played."))
        return redirect("event-director", pk=event.pk)
    try:
        ended = round_call_time(round_=round_, actor=request.user,
                                confirm_empty=request.POST.get("confirm") == "1")
    except DomainError as exc:
        if exc.code == "no_hands":
            # Ask first: name the tables that would end 0-0, with a button that goes on.
            return render(request, "events/director.html", {
                **_director_page(event), "call_time_refusal": translated(exc.message)}, status=409)
        messages.error(request, translated(exc.message))
    else:
        listed = ", ".join(str(n) for n in ended) or gettext("none")
        messages.success(request, gettext("Time called: games ended at table(s) %(tables)s; they "
                                          "now wait for confirmation.") % {"tables": listed})
    return redirect("event-director", pk=event.pk)


# --- the wall's movement board -------------------------------------------------------------------
class MovementRow(TypedDict):
    """A player on the movement wall: their table (None: sits out) and seat."""

    name: str
    table: int | None
    position: str
    seat_name: str
    where: str


def movement_board(event: Event, *, now: datetime.datetime | None = None) -> dict[str, object]:
    """The latest seated game: every player alphabetically with table and seat (or sitting
    out), and the game's deadline when the event plays timed games and the game is not over."""
    now = now or timezone.now()
    round_ = event.rounds.order_by("-number").first()
    rows: list[MovementRow] = []
    deadline = None
    time_called = False
    if round_ is not None:
        final = round_.stage == Round.Stage.FINAL
        for name, table, position in (
            Seat.objects.filter(round=round_)
            .values_list("entry__player__name", "table__number", "position")
        ):
            rows.append({"name": name, "table": table, "position": position,
                         "seat_name": str(SEAT_NAMES.get(position, position)),
                         "where": "Final" if final else str(table)})
        for (name,) in Bye.objects.filter(round=round_).values_list("entry__player__name"):
            rows.append({"name": name, "table": None, "position": "", "seat_name": "",
                         "where": "sits out"})
        rows.sort(key=lambda r: (r["name"].casefold(), r["name"]))
        limit = _game_minutes(event)
        # Once the director has called time the clock has nothing left to count.
        time_called = limit is not None and EventLog.objects.filter(
            event=event, action="time_called", details__round=round_.number).exists()
        if limit is not None and round_.status != Round.Status.CLOSED and not time_called:
            deadline = round_start_time(round_) + datetime.timedelta(minutes=limit)
    left = int((deadline - now).total_seconds()) if deadline else 0
    return {
        "event": event, "round": round_, "rows": rows, "deadline": deadline, "now": now,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
        "now_ms": int(now.timestamp() * 1000),
        "time_left": f"{left // 60}:{left % 60:02d}" if left > 0 else "Time",
        "word": _word(event), "game_minutes": _game_minutes(event), "time_called": time_called,
        # each player alone (three-handed): the boards name no partners
        "individual": event_ruleset(event).individual,
        "stage_label": Round.Stage(round_.stage).label if round_ else "",
        "refresh_seconds": 30, "page_seconds": WALL_PAGE_SECONDS, "version": where.seating_version(event), **wall_live(event),
    }


def event_wall_movement(request: HttpRequest, pk: int) -> HttpResponse:
    """The wall screen for the coming game: who sits where, in big type; it redraws itself
    when a game is seated, started or closed (``static/js/seating_board.js``)."""
    event = event_get(pk=pk, user=request.user)
    return render(request, "events/wall_movement.html", movement_board(event))


# --- the wall's seating board --------------------------------------------------------------------
# The seating and movement walls ask their version this often without a push stream, and this
# seldom (a safety net) with one: a push says at once when a round is seated, started or closed.
SEATING_POLL_SECONDS = 5
WALL_PUSH_POLL_SECONDS = 60
# The seating and movement walls show as many rows as fit the screen in columns and turn to
# the next page of rows this often (static/js/screens.js), so every name is on screen within
# one cycle of pages.
WALL_PAGE_SECONDS = 8


class WallLive(TypedDict):
    """How a wall redraws itself (:func:`wall_live`)."""

    push_url: str
    poll_seconds: int
    push_poll_seconds: int
    watching: int | None  # "12 watching", where the club shows it (standings.watchers)


def wall_live(event: Event) -> WallLive:
    """What a self-redrawing wall needs: its push stream ("" without push) and poll periods."""
    return {"push_url": push_stream_url(event.pk), "poll_seconds": SEATING_POLL_SECONDS,
            "push_poll_seconds": WALL_PUSH_POLL_SECONDS,
            "watching": watching_now(event_id=event.pk, event=event)}


def seating_board(event: Event) -> dict[str, object]:
    """The seating board: every player of the latest round alphabetically with table, seat
    and partner (``events.where.seating``), its state in words, and the version it was drawn at.

    After the cut (a semi-final, final or bracket wave) the board shows who plays where: the
    players who are out are not listed one by one but counted in one line (``out``)."""
    board = where.seating(event)
    rows = [r for r in board["rows"] if r["state"] != "out"]
    out = [r for r in board["rows"] if r["state"] == "out"]
    return {
        **board, "rows": rows, "version": where.seating_version(event),
        "show_rows": board["round"] is not None and board["status"] != Round.Status.CLOSED,
        "individual": event_ruleset(event).individual,
        "seated_count": sum(1 for r in rows if r["state"] == "seated"),
        "out": {"count": len(out), "where": out[0]["where"]} if out else None,
        "page_seconds": WALL_PAGE_SECONDS, **wall_live(event),
    }


def event_wall_seating(request: HttpRequest, pk: int) -> HttpResponse:
    """The wall screen "where do I sit": players by name with table, seat and partner; it
    redraws itself when a round is seated, started or closed (``static/js/seating_board.js``)."""
    event = event_get(pk=pk, user=request.user)
    return render(request, "events/wall_seating.html", seating_board(event))


def event_wall_seating_version(request: HttpRequest, pk: int) -> JsonResponse:
    """``{"version"}`` of the seating board: polled by the wall; three small queries."""
    event = event_get(pk=pk, user=request.user)
    return JsonResponse({"version": where.seating_version(event)})

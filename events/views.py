"""Event pages: the public event page and the director's pages (check-in, seating, rounds,
printable table cards and score sheets)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import F
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

import formats
from clubs.models import Club
from clubs.permissions import check_club_role, has_club_role
from common.errors import DomainError
from common.forms import add_domain_error, refusal_message
from common.http import public_address
from common.labels import sitting_title, translated
from common.rulesets import event_ruleset
from common.spreadsheets import SafeCsvWriter
from conduct.selectors import corrections_summary
from draw import flow, seating, services, swaps
from draw.cards import MAX_TABLE_CARDS, table_cards_ensure
from draw.managers import table_meeting_rows, table_meetings
from draw.selectors import (
    draw_disclosure,
    event_bracket,
    event_length,
    event_placements,
    event_rules,
    round_table_cards,
    rounds_total,
    side_prizes,
    sitting_labels,
    sitting_phrase,
)
from rules_engine import needs_tricks
from scoring.models import Game, HandRevision
from scoring.selectors import games_for_event
from scoring.services import event_settings_update, game_forfeit
from standings.push import push_stream_url
from standings.rows import Placement
from standings.watchers import watching_now
from tournaments import services as events
from tournaments.forms import (
    EventCreateForm,
    EventForm,
    PairForm,
    SwapForm,
    prize_formats,
)
from tournaments.models import Event, Round
from tournaments.selectors import (
    event_get,
    event_overview,
    pair_payload,
    round_byes,
    round_tables,
)

from . import where
from .printables import money
from .rulebook import rules_sheet


@login_required
def event_create(request: HttpRequest, slug: str) -> HttpResponse:
    club = get_object_or_404(Club, slug=slug)
    check_club_role(user=request.user, club=club, role="director")
    initial: dict[str, object] = {"ruleset_preset": club.ruleset_preset, "date": club.today()}
    if request.GET.get("format") in formats.FORMATS:
        initial["format"] = request.GET["format"]
    form = EventCreateForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.general_data()
        data["bye_points"] = data.get("bye_points") or 0
        data["ruleset_overrides"] = form.ruleset_overrides(
            club.ruleset_overrides if data["ruleset_preset"] == club.ruleset_preset else {})
        spec = formats.get(data["format"])
        if spec.setting_keys:
            data["format_settings"] = form.format_settings()
        if data["format"] in prize_formats():
            data["prizes"] = form.prizes()
        try:
            event = events.event_create(club=club, actor=request.user, **data)
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            if event.is_pairs:
                messages.success(request, gettext("%(event)s created. Register the pairs next.")
                                 % {"event": event.name})
                return redirect("event-pairs", pk=event.pk)
            messages.success(request, gettext("%(event)s created. Check players in next.")
                             % {"event": event.name})
            return redirect("event-checkin", pk=event.pk)
    return render(request, "events/event_form.html", {"form": form, "club": club})


@login_required
def event_edit(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    initial = {
        "name": event.name, "date": event.date, "ruleset_preset": event.ruleset_preset,
        "rounds_planned": event.rounds_planned, "deals_per_round": event.deals_per_round,
        "bye_scoring": event.bye_scoring, "bye_points": event.bye_points,
        "tie_breaks": event.tie_breaks, "is_public": event.is_public,
        "sit_out": (event.ruleset_overrides or {}).get("sit_out", "dealer"),
    }
    progressive = event.format in prize_formats()
    if progressive:
        initial.update(EventForm.initial_progressive(event))
    elif event.is_pairs:
        initial.update(EventForm.initial_pairs(event))
    form = EventForm(request.POST or None, initial=initial, format=event.format)
    form.currency = (event.prizes or {}).get("currency", "$")
    if request.method == "POST" and form.is_valid():
        data = form.general_data()
        data["bye_points"] = data.get("bye_points") or 0
        data["ruleset_overrides"] = form.ruleset_overrides(
            {} if data["ruleset_preset"] != event.ruleset_preset else event.ruleset_overrides)
        if progressive:
            data.update(format_settings=form.format_settings(event.format_settings),
                        prizes=form.prizes())
        elif event.is_pairs:
            data["format_settings"] = form.format_settings()
        try:
            before = event.log.filter(action="confirmations_cleared").count()
            event_settings_update(event=event, actor=request.user, **data)
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            messages.success(request, gettext("Settings saved; the standings follow."))
            cleared = event.log.filter(action="confirmations_cleared").order_by("-id")
            if cleared.count() > before:
                games = ", ".join(gettext("round %(round)s table %(table)s") % {
                    "round": r, "table": n} for r, n in cleared[0].details["games"])
                messages.warning(request, gettext(
                    "These confirmed games are being played again under the new deal count and "
                    "need confirming: %(games)s.") % {"games": games})
            return redirect("event-detail", pk=event.pk)
    return render(request, "events/event_form.html",
                  {"form": form, "club": event.club, "event": event})


def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user)
    overview = event_overview(event=event)
    current = overview["current_round"]
    is_director = has_club_role(user=request.user, club=event.club, role="director")
    find = request.GET.get("find", "")
    total = rounds_total(event)
    ruleset = event_ruleset(event)
    context = {
        **find_seat(event, find),
        "event": event,
        "club": event.club,
        "ruleset": ruleset,
        "event_length": event_length(event, game_target=ruleset.game_target),
        "is_director": is_director,
        "is_scorer": has_club_role(user=request.user, club=event.club, role="scorer"),
        "unconfirmed_games": games_for_event(event, unconfirmed_only=True) if is_director else [],
        **overview,
        "tables": round_table_cards(round_=current) if current else [],
        "byes": round_byes(round_=current) if current else [],
        "seating": _seating_state(event, overview["rounds"]) if is_director else None,
        "rules": event_rules(event),
        "has_bracket": event.spec.has_bracket(event.format_settings or {}),
        "pair_count": event.pairs.count() if event.is_pairs else 0,
        "can_play_on": event.spec.open_ended,
    }
    # Every planned round played, or the bracket decided before its deepest round (both brackets
    # of a split final, and any consolation bracket): finishing is what comes next (a club night
    # may still play on). The bracket is drawn only if needed.
    context["plan_done"] = flow.plan_done(event, overview["rounds"], total)
    context["next_step"] = flow.next_step(event, overview["rounds"]) if is_director else None
    context["table_draw"] = table_meeting_rows(event) if is_director else []
    labels = sitting_labels(event, upto=overview["next_round_number"])
    for r in overview["rounds"]:
        setattr(r, "label", labels.get(r.number, r.number))  # noqa: B010
    context["current_label"] = labels.get(current.number, "") if current else ""
    context["podium"] = _podium(event_placements(event))
    context["draw"] = draw_disclosure(event)
    context["corrections_count"] = corrections_summary(event)[0]
    return render(request, "events/event_detail.html", context)


def _podium(placements: list[Placement]) -> list[Placement]:
    """The places 1 to 3 of a finished event (shared places all shown), best first."""
    podium: list[Placement] = []
    for p in placements:
        place = p.get("place")
        if isinstance(place, int) and place <= 3:
            podium.append(p)
    return podium


def find_seat(event: Event, find: str) -> dict[str, object]:
    """The event page's "where do I sit?" answer for a name typed in its search box."""
    find = find.strip()
    if not find:
        return {"find": "", "found": None, "find_error": ""}
    if len(find) > where.NAME_MAX:
        return {"find": find[:where.NAME_MAX], "found": None,
                "find_error": gettext("find: type at most %(max)s characters of your name.")
                % {"max": where.NAME_MAX}}
    return {"find": find, "found": where.seating(event, name=find, withdrawn=True),
            "find_error": ""}


def event_rules_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The rules of the evening: the ruleset's numbers and the format in sentences; printable,
    readable on a phone, linked from the table's phone page and the event page."""
    event = event_get(pk=pk, user=request.user)
    return render(request, "events/rules.html", rules_sheet(event))


def _seating_state(event: Event, rounds: list[Round]) -> dict[str, object] | None:
    """A queued seating job still in flight (or the reason it failed), for the event page."""
    state = seating.job_state(event_id=event.pk)
    if state is None:
        return None
    if any(r.number == state.get("number") for r in rounds) and not state.get("error"):
        return None  # the round is there: the job is done
    return state


@login_required
def event_pairs(request: HttpRequest, pk: int) -> HttpResponse:
    """A pair event's registration desk: register pairs (two players, a team name, a seed)
    and withdraw them."""
    event = event_get(pk=pk, user=request.user, role="director")
    form = PairForm(request.POST or None, event=event)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            pair = events.pair_register(event=event, players=[data["first"], data["second"]],
                                        name=data["name"], seed=data["seed"], actor=request.user)
        except DomainError as exc:
            form.add_error("seed" if exc.field == "seed" else "second", exc.message)
        else:
            messages.success(request, gettext("Registered: %(pair)s.") % {"pair": pair})
            return redirect("event-pairs", pk=event.pk)
    pairs = list(event.pairs.prefetch_related("members__player").order_by(
        F("seed").asc(nulls_last=True), "pk"))
    return render(request, "events/pairs.html", {
        "event": event, "form": form, "pairs": [pair_payload(p) for p in pairs],
    })


@login_required
@require_POST
def pair_leave(request: HttpRequest, pk: int, pair_id: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    pair = get_object_or_404(event.pairs, pk=pair_id)
    with refusal_message(request):
        events.pair_withdraw(pair=pair, actor=request.user)
        messages.success(request, gettext("%(pair)s withdrew; they are not paired again.")
                         % {"pair": pair})
    return redirect("event-pairs", pk=event.pk)


@login_required
@require_POST
def entry_leave(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
    with refusal_message(request):
        services.entry_withdraw(entry=entry, actor=request.user)
        messages.success(request, gettext("%(name)s has left; they sit out the next rounds.")
                         % {"name": entry.player.name})
    return redirect("event-checkin", pk=event.pk)


@login_required
@require_POST
def round_seat(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    reseat = request.POST.get("reseat") == "1"
    from_director = request.POST.get("from") == "director"
    asked = request.POST.get("number", "")
    if not reseat and (any(key.startswith("table_") for key in request.POST)
                       or table_meetings(event)):
        # the tables' draws of partners, entered at the director's desk: seated here and now
        with refusal_message(request) as refused, table_draw_words():
            round_ = services.round_create(
                event=event, actor=request.user, table_draw=posted_table_draw(request) or None,
                number=int(asked) if asked.isdigit() and 0 < int(asked) < 1000 else None)
            messages.success(request, gettext("%(sitting)s %(number)s is seated. Check the "
                                              "tables, then start it.")
                             % {"sitting": sitting_title(event.sitting), "number": round_.number})
        return redirect("event-director" if from_director else "event-detail", pk=event.pk)
    with refusal_message(request) as refused, table_draw_words():
        number = services.round_seat_request(
            event=event, actor=request.user, reseat=reseat,
            reason=request.POST.get("reason", "") if reseat else "",
            number=int(asked) if asked.isdigit() and 0 < int(asked) < 1000 else None,
        )
    if refused.error is not None:
        return redirect("event-director" if from_director else "event-detail", pk=event.pk)
    # The seating job ran inline (embedded default) or waits for a worker: show the tables when
    # they are there, else the event page, which shows the job working or why it failed. Asked
    # from the director screen, the director stays there (it shows the new tiles or the job).
    seated = (seating.job_state(event_id=event.pk) is None
              and event.rounds.filter(number=number).exists())
    if seated:
        messages.success(request, gettext("%(sitting)s %(number)s is seated. Check the tables, "
                                          "then start it.")
                         % {"sitting": sitting_title(event.sitting), "number": number})
    if from_director:
        return redirect("event-director", pk=event.pk)
    if seated:
        return redirect("round-detail", pk=event.pk, number=number)
    return redirect(reverse("event-detail", args=[event.pk]) + f"?seating={number}")


def posted_table_draw(request: HttpRequest) -> list[list[int]]:
    """The tables' draws of partners from the next step's form: for table n, ``stayer_n`` (the
    stayer the form names) and ``table_n`` (the arrival chosen to partner them); a table left
    unchosen is refused naming its draw (``table_draw.<n-1>``)."""
    numbers = sorted(int(key[6:]) for key in request.POST
                     if key.startswith("table_") and key[6:].isdigit() and int(key[6:]) < 1000)
    draw = []
    for index, number in enumerate(numbers):
        stayer, arrival = (request.POST.get(f"stayer_{number}", ""),
                           request.POST.get(f"table_{number}", ""))
        if number != index + 1 or not stayer.isdigit() or not arrival.isdigit():
            raise DomainError(
                gettext("Table %(table)s: choose who partners the stayer named, as the table's "
                        "cut of the cards said.") % {"table": index + 1},
                field=f"table_draw.{index}", code="required")
        draw.append([int(stayer), int(arrival)])
    return draw


@contextmanager
def table_draw_words() -> Iterator[None]:
    """A seating refused for want of the tables' draws, in the words of the page that asks for
    them (the core's words name the API's list)."""
    try:
        yield
    except DomainError as exc:
        if exc.field == "table_draw" and exc.code == "missing":
            raise DomainError(
                gettext("The tables draw their partners: choose, for each table, who partners "
                        "the stayer named (the director screen's next step lists them), then "
                        "seat."), field="table_draw", code="missing") from None
        raise


def _round(event: Event, number: int) -> Round:
    round_ = event.rounds.filter(number=number).first()
    if round_ is None:
        raise Http404(gettext("No such round"))
    return round_


def _round_context(request: HttpRequest, event: Event, round_: Round) -> dict[str, object]:
    is_director = has_club_role(user=request.user, club=event.club, role="director")
    label = sitting_labels(event, upto=round_.number).get(round_.number, str(round_.number))
    return {
        "round_label": label, "round_phrase": sitting_phrase(label),
        "redraw_warning": flow.redraw_warning(event, label) if is_director else "",
        "next_step": flow.next_step(event, list(event.rounds.order_by("number")))
        if is_director else None,
        "table_draw": table_meeting_rows(event) if is_director else [],
        "event": event, "round": round_, "tables": round_table_cards(round_=round_),
        "byes": round_byes(round_=round_), "is_director": is_director,
        "is_scorer": has_club_role(user=request.user, club=event.club, role="scorer"),
        "swap_form": SwapForm(event=event) if is_director else None,
        # A director may forfeit a table's game of the open round (formats with forfeits).
        "can_forfeit": is_director and event.spec.forfeits
        and round_.status != Round.Status.CLOSED and event.status == Event.Status.RUNNING,
        # A director may give any game an adjusted result (``scoring.services.game_adjust``).
        "adjust_sides": event_ruleset(event).sides
        if is_director and event.status == Event.Status.RUNNING else (),
    }


def round_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user)
    return render(request, "events/round_detail.html",
                  _round_context(request, event, _round(event, number)))


@login_required
@require_POST
def round_status(request: HttpRequest, pk: int, number: int, status: str) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = _round(event, number)
    try:
        services.round_set_status(round_=round_, status=status, actor=request.user,
                                  close_unfinished=request.POST.get("close_unfinished") == "1")
    except DomainError as exc:
        if exc.code == "unfinished":
            # Ask: list what is unfinished, with a button that closes the round anyway.
            return render(request, "events/round_detail.html", {
                **_round_context(request, event, round_),
                "close_unfinished": services.round_unfinished(round_),
            }, status=409)
        messages.error(request, exc.message)
    else:
        said = (gettext("%(sitting)s %(number)s started.") if status == Round.Status.PLAYING
                else gettext("%(sitting)s %(number)s closed."))
        messages.success(request, said % {"sitting": sitting_title(event.sitting),
                                          "number": number})
    return redirect("round-detail", pk=event.pk, number=number)


def _after_step(request: HttpRequest, event: Event) -> HttpResponse:
    """Back where the director pressed the button: the director screen or the event page."""
    if request.POST.get("from") == "director":
        return redirect("event-director", pk=event.pk)
    return redirect("event-detail", pk=event.pk)


@login_required
@require_POST
def round_advance(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """"Close round N and seat round N+1" (the event page's and the director screen's main
    button): one service call closes, seats and starts; games not finished and confirmed are
    listed first, with a button that goes on anyway."""
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = _round(event, number)
    labels = sitting_labels(event, upto=number + 1)
    try:
        with table_draw_words():
            new = services.round_advance(
                event=event, number=number, actor=request.user,
                close_unfinished=request.POST.get("close_unfinished") == "1",
                table_draw=posted_table_draw(request)
                if any(key.startswith("table_") for key in request.POST) else None)
    except DomainError as exc:
        if exc.code == "unfinished":
            step = flow.next_step(event, list(event.rounds.order_by("number")))
            return render(request, "events/round_detail.html", {
                **_round_context(request, event, round_),
                "close_unfinished": services.round_unfinished(round_),
                "close_action": reverse("round-advance", args=[event.pk, number]),
                "close_label": gettext("%(step)s anyway") % {"step": (
                    step.label if step and step.kind == "advance"
                    else gettext("Close %(sitting)s") % {
                        "sitting": sitting_phrase(labels[number])})},
                "close_from": request.POST.get("from", ""),
            }, status=409)
        messages.error(request, translated(exc.message))
        return _after_step(request, event)
    closed = labels[number]
    if new is None:
        messages.success(request, gettext("%(sitting)s closed: that was the last. Check the "
                                          "placings, then finish the event.")
                         % {"sitting": closed})
        return redirect("event-finish", pk=event.pk)
    if new.status == Round.Status.PLAYING:
        done = gettext("%(closed)s closed; %(next)s is started: the tables' phones show the new "
                       "seats.")
    else:
        done = gettext("%(closed)s closed; %(next)s is seated: the tables' phones show the new "
                       "seats.")
    messages.success(request, done % {"closed": closed,
                                      "next": sitting_phrase(labels.get(new.number, ""))})
    return _after_step(request, event)


@login_required
def event_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """Finish the event: first the placings it will write (the format's rule over the standings
    as they stand), then, posted with ``confirm=1``, the finish itself."""
    event = event_get(pk=pk, user=request.user, role="director")
    if event.status == Event.Status.FINISHED:
        messages.info(request, gettext("The event is finished."))
        return redirect("event-detail", pk=event.pk)
    if request.method == "POST" and request.POST.get("confirm") == "1":
        with refusal_message(request):
            services.event_status_set(event=event, status=Event.Status.FINISHED,
                                      actor=request.user)
            messages.success(request, gettext("The event is finished: the placings are written."))
            return redirect("event-detail", pk=event.pk)
    rounds = list(event.rounds.order_by("number"))
    open_round = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
    labels = sitting_labels(event, upto=rounds[-1].number if rounds else 0)
    refusal = ""
    if event.status != Event.Status.RUNNING:
        refusal = gettext("An event whose status is “%(status)s” cannot be finished.") % {
            "status": event.get_status_display()}
    elif open_round is not None:
        refusal = gettext("%(sitting)s is still open: close it before finishing the event.") % {
            "sitting": labels.get(open_round.number, open_round.number)}
    try:
        placings = services.event_finish_preview(event) if not refusal else []
    except DomainError as exc:
        refusal, placings = translated(exc.message), []
    currency = (event.prizes or {}).get("currency", "")
    side = [{**s, "amount_text": money(s["amount"], currency)}
            for s in side_prizes(event, placings)]
    return render(request, "events/event_finish.html", {
        "event": event, "placings": [{**p, "prize_text": money(p.get("prize"), currency)}
                                     for p in placings],
        "has_prizes": any(p.get("prize") for p in placings) or bool(side),
        "side_prizes": side,
        "refusal": refusal, "early": not refusal and not flow.plan_done(
            event, rounds, rounds_total(event)),
        "asked": request.method == "POST",
    }, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def table_forfeit(request: HttpRequest, pk: int, number: int, table: int) -> HttpResponse:
    """A side that cannot go on forfeits its table's game (the round page's "Forfeit")."""
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = _round(event, number)
    game = get_object_or_404(Game.objects.select_related("table__round"),
                             table__round=round_, table__number=table)
    with refusal_message(request, prefix=f"Table {table}: "):
        done = game_forfeit(game=game, side=request.POST.get("side", ""),
                            reason=request.POST.get("reason", ""), actor=request.user,
                            withdraw=request.POST.get("withdraw") == "1")
        messages.success(request, f"Table {table}: {done.forfeit} forfeited; {done.winner} win "
                                  "by a walkover.")
    return redirect("round-detail", pk=event.pk, number=number)


@login_required
@require_POST
def round_swap(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = _round(event, number)
    form = SwapForm(request.POST, event=event)
    if form.is_valid():
        try:
            swaps.seat_swap(round_=round_, actor=request.user, **form.cleaned_data)
        except DomainError as exc:
            add_domain_error(form, exc)
        else:
            messages.success(request, gettext("Pairs swapped.") if event.is_pairs
                             else gettext("Players swapped."))
            return redirect("round-detail", pk=event.pk, number=number)
    return render(request, "events/round_detail.html", {
        **_round_context(request, event, round_), "swap_form": form,
    }, status=400)


@login_required
@require_POST
def event_status(request: HttpRequest, pk: int, status: str) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    with refusal_message(request):
        services.event_status_set(event=event, status=status, actor=request.user,
                                  reason=request.POST.get("reason", ""))
        messages.success(request, gettext("The event’s status is now “%(status)s”.")
                         % {"status": event.get_status_display()})
    return redirect("event-detail", pk=event.pk)


@login_required
def table_cards(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """One printable page per table: number, names by seat for this round, and the QR code of
    the table's day card (``/c/<token>/``), so a card printed for round 1 keeps opening that
    table's game in every later round."""
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = _round(event, number)
    tables = round_tables(round_=round_)
    largest = max((item["table"].number for item in tables), default=0)
    tokens = {card.number: card.token for card in
              (table_cards_ensure(event=event, count=min(largest, MAX_TABLE_CARDS),
                                  actor=request.user) if largest else [])}
    address = public_address(request)
    cards = []
    for item in tables:
        token = tokens.get(item["table"].number)
        path = (reverse("table-card", args=[token]) if token
                else reverse("table-entry", args=[item["table"].token]))
        url = address.url(path)
        qr = segno.make(url, error="m")
        cards.append({**item, "url": url, "qr_svg": qr.svg_inline(scale=6, dark="#000")})
    ruleset = event_ruleset(event)
    # who plays with whom, as the card says it: the partnerships, or each for themselves
    sides = (gettext("Each player for themselves") if ruleset.individual else
             " · ".join(gettext("%(seats)s partners") % {"seats": "–".join(ruleset.seats_of(side))}
                        for side in ruleset.sides))
    return render(request, "events/table_cards.html", {
        "event": event, "round": round_, "cards": cards, "address": address, "sides": sides,
    })


# The bracket page asks for its drawing this often without a push stream, and this seldom (a
# safety net) with one: a push says at once when a match was seated, scored or confirmed.
BRACKET_POLL_SECONDS = 4
BRACKET_PUSH_POLL_SECONDS = 60
# A bracket too big for one wall screen is shown in panels (a bracket or two at a time, the
# places) and, past that, in pages of a panel; the wall turns to the next this often.
BRACKET_WALL_PAGE_SECONDS = 12


def event_bracket_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The bracket drawn live (winners, losers, final, consolation): a phone scrolls it
    sideways, ``?wall=1`` is the big-screen version (the whole screen, type sized from it), and
    it prints. ``?fragment=1`` is the
    drawn part alone, which the page fetches to stay current."""
    event = event_get(pk=pk, user=request.user)
    bracket = event_bracket(event)
    if bracket is None:
        raise Http404(gettext("This event has no bracket."))
    digest = hashlib.sha256(json.dumps(bracket, sort_keys=True, default=str).encode()).hexdigest()
    for part in bracket["brackets"]:  # its share of a wall screen's height: its tallest column
        part["tallest"] = max((len(column["matches"]) for column in part["rounds"]), default=1)
    context = {"event": event, "bracket": bracket, "digest": digest[:16],
               "wall": request.GET.get("wall") == "1", "page_seconds": BRACKET_WALL_PAGE_SECONDS,
               "push_url": push_stream_url(event.pk), "poll_seconds": BRACKET_POLL_SECONDS,
               "push_poll_seconds": BRACKET_PUSH_POLL_SECONDS,
               "watching": watching_now(event_id=event.pk, event=event)}
    if request.GET.get("fragment"):
        return render(request, "events/partials/bracket.html", context)
    return render(request, "events/bracket.html", context)


@login_required
def score_sheet(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """A printable paper score sheet per table, for clubs that keep paper."""
    event = event_get(pk=pk, user=request.user, role="director")
    round_ = _round(event, number)
    deals = event.deals_per_round or 12
    return render(request, "events/score_sheet.html", {
        "event": event, "round": round_, "tables": round_tables(round_=round_),
        "deal_rows": range(1, deals + 1), "ruleset": event_ruleset(event),
    })


@login_required
def event_hands_csv(request: HttpRequest, pk: int) -> HttpResponse:
    """Every live hand of the event as CSV (directors)."""
    event = event_get(pk=pk, user=request.user, role="director")
    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-hands.csv"'
    writer = SafeCsvWriter(response)  # text starting like a formula stays text
    ruleset = event_ruleset(event)
    # a column per side of the largest table (each player's seat where each plays alone)
    sides = ruleset.sides_for(max(ruleset.table_sizes))
    tricks = needs_tricks(ruleset)
    groups = ("meld", "counters", *(("tricks",) if tricks else ()), "points")
    writer.writerow(["round", "table", "hand", "dealer", "bidder", "bid", "trump", "outcome",
                     "renege_seat", *(f"{group}_{side}" for group in groups for side in sides),
                     "result", "revision"])
    # Plain rows, not models: a day of 128 tables is thousands of hands.
    revisions = (
        HandRevision.objects.filter(hand__game__table__round__event=event, is_live=True)
        .order_by("hand__game__table__round__number", "hand__game__table__number", "hand__number")
        .values_list("hand__game__table__round__number", "hand__game__table__number",
                     "hand__number", "dealer", "bidder", "bid", "trump", "outcome", "renege_seat",
                     "meld", "counters", "tricks", "points", "result", "revision")
    )
    for (round_number, table_number, number, dealer, bidder, bid, trump, outcome, renege_seat,
         meld, counters, taken, points, result, revision) in revisions.iterator(chunk_size=2000):
        by_group = {"meld": meld or {}, "counters": counters or {}, "tricks": taken or {},
                    "points": points or {}}
        writer.writerow([
            round_number, table_number, number, dealer, bidder, bid, trump, outcome, renege_seat,
            *(by_group[group].get(side) for group in groups for side in sides), result, revision,
        ])
    return response

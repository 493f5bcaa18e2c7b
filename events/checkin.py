"""Check-in for a big room: the director's check-in page (tick names, check in everyone, a
pasted list matched with a preview, alternates marked, self check-in's arrivals seen live and
approved) and the players' self check-in page, opened from a QR code at the door
(``/events/<id>/here/``: find your name, tap "I'm here").

Self check-in is open until the first round is seated (``tournaments.services.
self_check_in_refusal``): before that, arriving is the players' business; after it a late
arrival needs the director, who knows where a seat is free. It never checks anyone in as an
alternate, never adds a name to the roster, and a phone checks in at most
``SELF_CHECK_INS_PER_PHONE`` players (a couple sharing a phone); its searches and taps are
rate-limited per address like the API's anonymous calls (``common.throttles.page_allowed``),
and the taps of one event, whoever taps, to ``self_checkin_event``'s rate (a script that keeps
no cookie is one new phone a tap). Each tap taken is logged with the phone and address that
tapped (the event's log, ``here_tapped``). The API (``events.checkin_api``) keeps the same
limits. The search names only players a public page may name (``tournaments.selectors.
self_checkin_find``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clubs.models import Player
from common.errors import DomainError
from common.forms import refusal_message
from common.http import client_ip, public_url
from common.throttles import (
    SELF_CHECK_IN_EVENT_SCOPE,
    SELF_CHECK_IN_SCOPE,
    keyed_wait,
    page_allowed,
)
from conduct.selectors import players_recently_penalised
from tournaments import services as events
from tournaments.forms import CheckInForm
from tournaments.models import Arrival, Entry, Event
from tournaments.selectors import (
    FoundPlayer,
    alternate_reasons,
    checkin_arrivals,
    checkin_match,
    checkin_roster,
    event_get,
    self_checkin_find,
)

SELF_CHECK_INS_PER_PHONE = 2


def _phone_key(event: Event) -> str:
    return f"self_checkin_{event.pk}"


def tap_refusal(request: HttpRequest, event: Event, player: Player) -> str | None:
    """Why this phone (its session) may not check ``player`` in: it checked in
    ``SELF_CHECK_INS_PER_PHONE`` others already. None when it may."""
    mine = list(request.session.get(_phone_key(event), []))
    if player.pk not in mine and len(mine) >= SELF_CHECK_INS_PER_PHONE:
        return (f"This phone has checked in {SELF_CHECK_INS_PER_PHONE} players already: please "
                "check in on your own phone, or at the desk.")
    return None


def tap_taken(request: HttpRequest, event: Event, player: Player) -> None:
    """Remember on this phone (its session) that it checked ``player`` in."""
    mine = list(request.session.get(_phone_key(event), []))
    if player.pk not in mine:
        request.session[_phone_key(event)] = [*mine, player.pk]


def tapped_by(request: HttpRequest) -> dict[str, str]:
    """Who tapped, for the event's log: the phone (a digest of its session, made for it if it
    had none) and the client address."""
    if not request.session.session_key:
        request.session.save()
    key = request.session.session_key or ""
    return {"phone": hashlib.sha256(key.encode()).hexdigest()[:12], "address": client_ip(request)}


def event_tap_wait(event: Event) -> float | None:
    """None when one more "I'm here" of ``event`` may go on, else the seconds to wait."""
    return keyed_wait(SELF_CHECK_IN_EVENT_SCOPE, f"event-{event.pk}")
NAME_MIN = 2
NAME_MAX = 60


# --- the director's check-in page ---------------------------------------------------------------
@login_required
def event_checkin(request: HttpRequest, pk: int) -> HttpResponse:
    """Check players in: tick names (or everyone shown), check in everyone on the roster, or
    paste a list of names (``action=paste`` shows the matches first; nothing is written until
    the preview's names are confirmed)."""
    event = event_get(pk=pk, user=request.user, role="director")
    if event.is_pairs:
        return redirect("event-pairs", pk=event.pk)
    action = request.POST.get("action", "checkin") if request.method == "POST" else ""
    form = CheckInForm(request.POST if action == "checkin" else None, event=event)
    preview = None
    pasted = ""
    if action == "everyone":
        here = set(event.entries.filter(status=Entry.Status.ACTIVE).values_list("player_id",
                                                                               flat=True))
        rest = [p for p in Player.objects.filter(club_links__club=event.club,
                                                 erased_at__isnull=True) if p.pk not in here]
        return _check_in(request, event, rest)
    if action == "paste":
        pasted = request.POST.get("names", "")
        preview = checkin_match(event=event, text=pasted)
        if not preview["count"]:
            messages.error(request, gettext("Paste the names first: one a line, or separated by commas."))
    if action == "checkin" and form.is_valid():
        return _check_in(request, event, form.cleaned_data["players"],
                         new_player=form.cleaned_data["new_player"],
                         new_players=request.POST.getlist("new_players"), form=form)
    return _page(request, event, form=form, preview=preview, pasted=pasted)


def _check_in(request: HttpRequest, event: Event, players: Iterable[Player], *, new_player: str = "",
              new_players: list[str] | None = None, form: CheckInForm | None = None
              ) -> HttpResponse:
    try:
        checked = events.entries_check_in(event=event, players=players, new_player=new_player,
                                          new_players=new_players or [], actor=request.user)
    except DomainError as exc:
        form = form or CheckInForm(None, event=event)
        if form.is_bound:
            form.add_error("new_player" if exc.field == "name" else "players", exc.message)
        else:
            messages.error(request, exc.message)
        return _page(request, event, form=form)
    if checked:
        names = ", ".join(entry.player.name for entry in checked)
        messages.success(request, gettext("Checked in (%(count)s): %(names)s.") % {
            "count": len(checked), "names": names})
    else:
        messages.info(request, gettext("Nobody new to check in."))
    return redirect("event-checkin", pk=event.pk)


def _page(request: HttpRequest, event: Event, *, form: CheckInForm,
          preview: Mapping[str, object] | None = None,
          pasted: str = "") -> HttpResponse:
    """The page, re-rendered with a refused form's messages beside its fields (200, as the
    other desk forms)."""
    roster = checkin_roster(event=event)
    reasons = alternate_reasons(event)
    # Players with a penalty of the last 12 months in the club's events (directors only).
    flagged = players_recently_penalised(club=event.club,
                                         player_ids=[r["player"].pk for r in roster])
    for row in roster:
        row["conduct"] = row["player"].pk in flagged
    active = [r for r in roster if r["entry"] and r["entry"].status == Entry.Status.ACTIVE]
    for row in roster:
        entry = row["entry"]
        row["here"] = entry is not None and entry.status == Entry.Status.ACTIVE
        if entry is not None and entry.alternate:
            row["reason"] = reasons.get(entry.pk, "checked in as an alternate")
    seated = event.rounds.exists()
    playing = [r for r in active if not r["entry"].alternate]
    spec = event.spec
    here_url = public_url(request, reverse("self-checkin", args=[event.pk]))
    return render(request, "events/checkin.html", {
        "event": event, "form": form, "roster": roster, "active_count": len(active),
        "not_here": len(roster) - len(active),
        "alternates": [r for r in active if r["entry"].alternate],
        "alternates_allowed": spec.alternates,
        # a format with alternates seats full tables of four: who would wait if play began now
        "spare": len(playing) % 4 if spec.alternates and not seated else 0,
        "needed": 4 - len(playing) % 4, "playing_count": len(playing),
        "preview": preview, "pasted": pasted,
        "arrivals": checkin_arrivals(event=event),
        "self_modes": Event.SelfCheckIn.choices,
        "self_refusal": events.self_check_in_refusal(event),
        "here_url": here_url,
        "qr_svg": segno.make(here_url, error="m").svg_inline(scale=4, dark="#000"),
    })


@login_required
@require_POST
def entry_alternate(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """Mark a checked-in player as an alternate, or as a player again."""
    event = event_get(pk=pk, user=request.user, role="director")
    entry = get_object_or_404(event.entries.select_related("player"), pk=entry_id)
    alternate = request.POST.get("alternate") == "1"
    with refusal_message(request):
        events.entry_set_alternate(entry=entry, alternate=alternate, actor=request.user)
        messages.success(request, (gettext("%(name)s waits as an alternate.") if alternate
                                   else gettext("%(name)s plays (not an alternate)."))
                         % {"name": entry.player.name})
    return redirect(reverse("event-checkin", args=[event.pk]) + "#here-list")


@login_required
@require_POST
def self_checkin_mode(request: HttpRequest, pk: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    with refusal_message(request):
        events.event_self_check_in_set(event=event, mode=request.POST.get("mode", ""),
                                       actor=request.user)
        messages.success(request, gettext("Self check-in: %(mode)s.") % {
            "mode": event.get_self_check_in_display()})
    return redirect(reverse("event-checkin", args=[event.pk]) + "#self-checkin")


@login_required
@never_cache
@require_GET
def checkin_arrivals_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The arrivals region of the check-in page, which the page redraws every few seconds."""
    event = event_get(pk=pk, user=request.user, role="director")
    return render(request, "events/partials/arrivals.html", {
        "event": event, "arrivals": checkin_arrivals(event=event),
        "active_count": event.entries.filter(status=Entry.Status.ACTIVE).count(),
    })


@login_required
@require_POST
def arrival_decide(request: HttpRequest, pk: int, arrival_id: int) -> HttpResponse:
    """Approve (``approve=1``) or decline a waiting arrival; ``arrival_id`` 0 with
    ``approve=1`` approves every waiting one."""
    event = event_get(pk=pk, user=request.user, role="director")
    approve = request.POST.get("approve") == "1"
    waiting = event.arrivals.filter(status=Arrival.Status.WAITING).select_related("player")
    chosen = list(waiting) if arrival_id == 0 and approve else [
        get_object_or_404(event.arrivals.select_related("player"), pk=arrival_id)]
    names = []
    for arrival in chosen:
        with refusal_message(request, prefix=f"{arrival.player.name}: "):
            events.arrival_decide(arrival=arrival, approve=approve, actor=request.user)
            names.append(arrival.player.name)
    if names:
        messages.success(request, ("Checked in: " if approve else "Not approved: ")
                         + ", ".join(names) + ".")
    return redirect(reverse("event-checkin", args=[event.pk]) + "#arrivals")


@login_required
def checkin_poster(request: HttpRequest, pk: int) -> HttpResponse:
    """A printable poster for the door or the wall: the QR code of the self check-in page."""
    event = event_get(pk=pk, user=request.user, role="director")
    url = public_url(request, reverse("self-checkin", args=[event.pk]))
    return render(request, "events/checkin_poster.html", {
        "event": event, "url": url,
        "qr_svg": segno.make(url, error="m").svg_inline(scale=10, dark="#000"),
        "refusal": events.self_check_in_refusal(event),
    })


# --- the players' self check-in page ------------------------------------------------------------
def _too_many(request: HttpRequest) -> HttpResponse | None:
    if page_allowed(request, SELF_CHECK_IN_SCOPE):
        return None
    response = HttpResponse("Too many requests from this network just now: wait a minute and "
                            "try again, or check in at the desk.", status=429,
                            content_type="text/plain; charset=utf-8")
    response["Retry-After"] = "60"
    return response


def _search(request: HttpRequest, event: Event) -> tuple[str, list[FoundPlayer], str]:
    name = " ".join(request.GET.get("name", "").split())[:NAME_MAX]
    if not name:
        return name, [], ""
    if len(name) < NAME_MIN:
        return name, [], f"Type at least {NAME_MIN} letters of your name."
    found = self_checkin_find(event=event, name=name)
    return name, found, "" if found else (f"Nobody called “{name}” on the club's list: "
                                          "please see the desk.")


@never_cache
def self_checkin(request: HttpRequest, pk: int) -> HttpResponse:
    """Find your name, tap "I'm here". Works without JavaScript (the search is a GET form);
    with it the names follow the typing (:func:`self_checkin_find_live`)."""
    event = event_get(pk=pk, user=request.user)
    refusal = events.self_check_in_refusal(event)
    if request.method == "POST":
        limited = _too_many(request)
        if limited is not None:
            return limited
        return _self_checkin_post(request, event)
    name, note = "", ""
    found: list[FoundPlayer] = []
    if refusal is None and request.GET.get("name"):
        limited = _too_many(request)
        if limited is not None:
            return limited
        name, found, note = _search(request, event)
    return render(request, "events/self_checkin.html", {
        "event": event, "refusal": refusal, "name": name, "found": found, "note": note,
        "approval": event.self_check_in == Event.SelfCheckIn.APPROVAL,
        "name_min": NAME_MIN, "name_max": NAME_MAX,
    })


def _self_checkin_post(request: HttpRequest, event: Event) -> HttpResponse:
    here_url = reverse("self-checkin", args=[event.pk])
    raw = request.POST.get("player", "")
    player = Player.objects.filter(pk=int(raw), club_links__club=event.club).first() if (
        raw.isdigit()) else None
    if player is None:
        messages.error(request, gettext("Pick your name from the list."))
        return redirect(here_url)
    refused = tap_refusal(request, event, player)
    if refused is not None:
        messages.error(request, refused)
        return redirect(here_url)
    wait = event_tap_wait(event)
    if wait is not None:
        response = HttpResponse("Many players are checking in just now: wait a moment and try "
                                "again, or check in at the desk.", status=429,
                                content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(int(wait))
        return response
    try:
        arrival = events.self_check_in(event=event, player=player, tapped_by=tapped_by(request))
    except DomainError as exc:
        if exc.code == "already_here":
            messages.info(request, exc.message)
        else:
            messages.error(request, exc.message)
        return redirect(here_url)
    tap_taken(request, event, player)
    if arrival.status == Arrival.Status.WAITING:
        messages.success(request, gettext("Thank you, %(name)s: the director will confirm you "
                                          "in a moment. You can put your phone away.")
                         % {"name": player.name})
    else:
        messages.success(request, gettext("Welcome, %(name)s: you are checked in.")
                         % {"name": player.name})
    return redirect(here_url)


@never_cache
@require_GET
def self_checkin_find_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The self check-in page's names for what is typed (the page's list, redrawn as you
    type)."""
    event = event_get(pk=pk, user=request.user)
    refusal = events.self_check_in_refusal(event)
    if refusal is not None:
        return render(request, "events/partials/self_checkin_found.html",
                      {"event": event, "found": [], "note": refusal.message})
    limited = _too_many(request)
    if limited is not None:
        return limited
    name, found, note = _search(request, event)
    return render(request, "events/partials/self_checkin_found.html", {
        "event": event, "found": found, "note": note, "name": name,
    })

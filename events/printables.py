"""Printables for the day: the day-long table cards and where their QR code leads (``/c/<token>/``),
the players' scorecards, and the results sheet (placements, prizes, the qualifying standings)."""

from __future__ import annotations

import segno
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from common.errors import DomainError
from common.http import public_address
from common.labels import reads_english
from common.rulesets import event_ruleset
from conduct.selectors import event_penalties
from draw.cards import (
    MAX_TABLE_CARDS,
    round_labels,
    scorecards,
    table_card_count,
    table_card_target,
    table_cards_ensure,
)
from draw.selectors import draw_disclosure, event_rules, final_results, stage_games
from formats.pairs import GROUP_LABELS
from ranking import tie_break_labels, tie_breaks_in_force
from ranking.prizes import money_text
from scoring.models import Game
from standings.models import StandingsSnapshot
from standings.rows import StandingRow
from standings.selectors import (
    ranking_sentence,
    stage_rounds,
    standings_compute,
    translated_tie_breaks,
)
from tournaments.models import Entry, Event, Round
from tournaments.selectors import event_get

STAGE_LABELS = dict(Round.Stage.choices)


def money(amount: str | None, currency: str) -> str:
    """``$300.00`` for a sign, ``300.00 USD`` for a code; empty without an amount."""
    return money_text(amount, currency)


def stage_games_title(stages: list[str]) -> str:
    """The heading over the later stages' games: "Semi-final and final games"."""
    if not stages:
        return ""
    names = [str(stage) for stage in stages]
    joined = names[0] if len(names) == 1 else gettext("%(first)s and %(last)s") % {
        "first": ", ".join(names[:-1]), "last": names[-1]}
    if reads_english():
        joined = joined.capitalize()
    return gettext("%(stages)s games") % {"stages": joined}


def ordinal(n: int) -> str:
    """A place as the reader writes it: "1st" in English, "1." in German."""
    if not reads_english():
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --- day table cards ------------------------------------------------------------------------------
@login_required
def day_table_cards(request: HttpRequest, pk: int) -> HttpResponse:
    """A card per table number for the whole day: the number, big, and the QR code of
    ``/c/<token>/`` (which opens whatever game that table plays now). ``?tables=N`` prints N."""
    event = event_get(pk=pk, user=request.user, role="director")
    asked = request.GET.get("tables", "").strip()
    error = ""
    if asked:
        count = int(asked) if asked.isdigit() else 0
        if not 1 <= count <= MAX_TABLE_CARDS:
            error = f"Give a number of tables from 1 to {MAX_TABLE_CARDS}."
    else:
        count = table_card_count(event)
    cards = []
    address = public_address(request)
    if count and not error:
        try:
            made = table_cards_ensure(event=event, count=count, actor=request.user)
        except DomainError as exc:  # pragma: no cover - the count is checked above
            error = exc.message
        else:
            for card in made:
                url = address.url(reverse("table-card", args=[card.token]))
                qr = segno.make(url, error="m")
                cards.append({"card": card, "url": url,
                              "qr_svg": qr.svg_inline(scale=7, dark="#000")})
    return render(request, "events/day_table_cards.html", {
        "event": event, "cards": cards, "count": count if not error else "",
        "error": error, "max_tables": MAX_TABLE_CARDS, "address": address,
    }, status=400 if error else 200)


@never_cache
@require_GET
def table_card(request: HttpRequest, token: str) -> HttpResponse:
    """The day card's QR code: the table of this number in the game being played now, or a page
    saying why there is none (no game seated, or this table not used by this game)."""
    target = table_card_target(token=token)
    if target.table is not None:
        return redirect(reverse("table-entry", args=[target.table.token]))
    event = target.event
    labels = round_labels(event)
    label = labels.get(target.round.number, (f"Round {target.round.number}", ""))[0] \
        if target.round else ""
    last = event.rounds.order_by("-number").values_list("number", flat=True).first()
    word = event.sitting
    return render(request, "events/table_card_idle.html", {
        "event": event, "card": target.card, "round": target.round, "round_label": label,
        "word": word, "last_label": labels.get(last, (f"{word.capitalize()} {last}", ""))[0]
        if last else "",
        "tables_in_round": target.tables_in_round, "all_played": target.all_played,
        "over": event.is_over,
        "refresh_seconds": 30,
    })


# --- scorecards ------------------------------------------------------------------------------------
def _scorecards_page(request: HttpRequest, event: Event, entries: list[Entry]) -> HttpResponse:
    return render(request, "events/scorecards.html", {
        "event": event, "cards": scorecards(event, entries), "ruleset": event_ruleset(event),
        "single": len(entries) == 1,
    })


@login_required
def event_scorecards(request: HttpRequest, pk: int) -> HttpResponse:
    """Every active player's scorecard for the day, two to a printed page."""
    event = event_get(pk=pk, user=request.user, role="director")
    entries = list(event.entries.filter(status=Entry.Status.ACTIVE).select_related("player")
                   .order_by("player__name", "pk"))
    return _scorecards_page(request, event, entries)


@login_required
def entry_scorecard(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    event = event_get(pk=pk, user=request.user, role="director")
    entry = event.entries.select_related("player").filter(pk=entry_id).first()
    if entry is None:
        raise Http404(gettext("No such player in this event"))
    return _scorecards_page(request, event, [entry])


# --- results ---------------------------------------------------------------------------------------
def _standings(event: Event) -> tuple[list[StandingRow], list[dict[str, str]]]:
    """The qualifying standings of an event whose stages keep their own totals (a progressive
    day); the standings of any other event (its snapshot, or computed now when there is none
    yet)."""
    if event.spec.stage_totals:
        computed = standings_compute(event=event,
                                     rounds=stage_rounds(event, Round.Stage.QUALIFYING))
        return computed.rows, computed.tie_breaks
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    if snapshot is not None and snapshot.rows:
        tie_breaks = list(snapshot.tie_breaks) or tie_break_labels(
            tie_breaks_in_force(event.tie_breaks, partnership=event.partnership))
        return list(snapshot.rows), tie_breaks
    computed = standings_compute(event=event)
    return computed.rows, computed.tie_breaks


@require_GET
def event_results(request: HttpRequest, pk: int) -> HttpResponse:
    """The printable results: placements with their stage and prize, the side prizes, the rules
    in force and the qualifying standings; "Provisional" with the standings so far until the
    event is finished; the draw's commitment, and the seed once it is finished."""
    event = event_get(pk=pk, user=request.user)
    finished = event.status == Event.Status.FINISHED
    results = final_results(event)
    prizes = event.prizes or {}
    currency = results["currency"] or prizes.get("currency", "")
    counts: dict[int, int] = {}
    for p in results["placements"]:
        counts[p["place"]] = counts.get(p["place"], 0) + 1
    placements = [{**p, "shared": counts[p["place"]] > 1,
                   # a split final's place: the bracket that decided it
                   "stage_label": GROUP_LABELS.get(p.get("group") or "")
                   or STAGE_LABELS.get(p.get("stage") or "", ""),
                   "prize_text": money(p.get("prize"), currency)}
                  for p in results["placements"]]
    side = [{**s, "amount_text": money(s["amount"], currency)} for s in results["side_prizes"]]
    rows, tie_breaks = _standings(event)
    prize_fund = [f"{ordinal(p['place'])} {money(p['amount'], currency)}"
                  for p in prizes.get("payouts", [])]
    prize_fund += [f"{s['label']} {money(s['amount'], currency)}" for s in prizes.get("side", [])]
    games = stage_games(event)
    stages = list(dict.fromkeys(STAGE_LABELS.get(r["stage"], "") for r in reversed(games)))
    return render(request, "events/results.html", {
        "stage_games": games,
        "stage_games_title": stage_games_title(stages),
        "event": event, "finished": finished, "placements": placements, "side_prizes": side,
        "draw": draw_disclosure(event),
        "rules": event_rules(event), "ruleset": event_ruleset(event),
        "qualifying_only": event.spec.stage_totals,
        "rows": rows, "ranking_sentence": ranking_sentence(translated_tie_breaks(tie_breaks)),
        "prize_fund": prize_fund,
        "penalties": [p for p in event_penalties(event) if not p.withdrawn],
        "adjusted": Game.objects.filter(table__round__event=event, adjusted__isnull=False)
        .select_related("table__round").order_by("table__round__number", "table__number"),
    })

"""Reads of penalties, appeals, penalty tables, conduct records and an event's public list of
corrections, shared by the pages, the API and the standings (``standings.compute`` sums the
penalties in force; the standings page says when the event was last corrected)."""

from __future__ import annotations

import datetime
from collections.abc import Collection
from typing import TypedDict

from django.core.exceptions import PermissionDenied
from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Club, ClubPlayer, Membership, Player
from clubs.permissions import has_club_role
from common.types import Actor, JSONValue, actor_user
from scoring.models import Hand
from scoring.selectors import entry_refusal
from tournaments.models import Entry, Event, Table

from .models import CALL_WORDS_MAX, Appeal, Correction, DirectorCall, Penalty, PenaltyTable
from .presets import PRESETS, preset_for

# The check-in page marks players with a penalty within this many days.
RECENT_DAYS = 365


class KindPoints(TypedDict):
    kind: str
    label: str
    points: int


class PenaltyTableRow(TypedDict):
    """An event's penalty table as the page and the API show it."""

    preset: str
    label: str
    points: dict[str, int]
    kinds: list[KindPoints]
    edited: bool


class PenaltyPayload(TypedDict):
    """A penalty as the pages and the API show it (``PenaltyOutput``)."""

    id: int
    event_id: int
    round: int
    table: int | None
    entry_id: int | None
    pair_id: int | None
    name: str
    kind: str
    kind_label: str
    points: int
    reason: str
    created_by: str
    created_at: datetime.datetime
    withdrawn: bool
    withdrawn_at: datetime.datetime | None
    withdrawn_reason: str
    withdrawn_by: str


class AppealPayload(TypedDict):
    """An appeal as the pages and the API show it (``AppealOutput``)."""

    id: int
    event_id: int
    penalty_id: int | None
    round: int | None
    table: int | None
    entry_id: int | None
    name: str
    contested: str
    decision: str
    decision_label: str
    note: str
    decided_by: str
    decided_at: datetime.datetime


class ConductSummary(TypedDict):
    count: int
    withdrawn: int
    points: int
    recent: int


class CallPayload(TypedDict):
    """A call for a director as the API shows it (``CallOutput``)."""

    id: int
    event_id: int
    round: int
    table: int
    reason: str
    reason_label: str
    words: str
    state: str
    open: bool
    raised_at: datetime.datetime
    waited_seconds: int
    taken_by: str
    taken_at: datetime.datetime | None
    closed_by: str
    closed_at: datetime.datetime | None
    note: str
    dismissed: bool


class TableCallState(TypedDict):
    """What the table's phone shows about calling the director (its region's context)."""

    table: Table
    call: DirectorCall | None
    ruling: DirectorCall | None
    can_call: bool
    reasons: list[tuple[str, str]]
    state: str
    version: str
    taken_by: str
    ruled_by: str
    raised_ms: int | None
    now_ms: int
    words_max: int


class CorrectionPayload(TypedDict):
    """A correction as the page and the API show it (``CorrectionOutput``)."""

    id: int
    kind: str
    kind_label: str
    at: datetime.datetime
    role: str
    by: str
    name: str | None
    reason: str
    reason_given: bool
    round: int | None
    table: int | None
    was: str
    became: str
    before: dict[str, JSONValue]
    after: dict[str, JSONValue]
    standings_moved: list[dict[str, JSONValue]]


def penalty_table(event: Event) -> PenaltyTableRow:
    """The event's default points per kind: its own table, or its ruleset family's preset."""
    stored = PenaltyTable.objects.filter(event=event).first()
    preset = stored.preset if stored else preset_for(event.ruleset_preset)
    points = dict(PRESETS[preset]["points"])
    if stored:
        points.update({k: int(v) for k, v in stored.points.items() if k in points})
    return {"preset": preset, "label": PRESETS[preset]["label"], "points": points,
            "kinds": [{"kind": k.value, "label": str(k.label), "points": points[k.value]}
                      for k in Penalty.Kind],
            "edited": stored is not None}


def penalty_sums(event: Event, rounds: Collection[int] | None = None) -> dict[int, int]:
    """The points taken off by the penalties in force, per entry in an individual event and
    per pair in a pair event (the event's rule), over every round or the given ones."""
    live = Penalty.objects.filter(event=event, withdrawn_at__isnull=True)
    if rounds is not None:
        live = live.filter(round_number__in=list(rounds))
    key = "pair_id" if event.is_pairs else "entry_id"
    return {target: int(total) for target, total in
            live.exclude(**{f"{key}__isnull": True}).order_by().values(key)
            .annotate(total=Sum("points")).values_list(key, "total")}


def event_penalties(event: Event) -> list[Penalty]:
    """Every penalty of the event, withdrawn ones too (the history), in round order."""
    return list(Penalty.objects.filter(event=event).select_related(
        "entry__player", "pair", "game__table", "created_by", "withdrawn_by"))


def penalties_of(event: Event, entry: Entry) -> list[Penalty]:
    """The penalties in force that count against ``entry`` by the event's rule: its own in an
    individual event, its pair's in a pair event."""
    live = Penalty.objects.filter(event=event, withdrawn_at__isnull=True)
    live = live.filter(pair_id=entry.pair_id) if event.is_pairs and entry.pair_id \
        else live.filter(entry=entry)
    return list(live.select_related("entry__player", "game__table"))


def event_appeals(event: Event) -> list[Appeal]:
    return list(Appeal.objects.filter(event=event).select_related(
        "penalty", "game__table__round", "entry__player", "decided_by"))


def penalty_target_name(penalty: Penalty) -> str:
    """The player penalised (with their pair in a pair event), or the pair."""
    entry = penalty.entry
    if entry is not None and penalty.pair_id is not None:
        return f"{entry.player.name} ({penalty.pair})"
    if entry is not None:
        return entry.player.name
    return str(penalty.pair)


def penalty_payload(penalty: Penalty) -> PenaltyPayload:
    """A penalty as the pages and the API show it."""
    return {
        "id": penalty.pk, "event_id": penalty.event_id, "round": penalty.round_number,
        "table": penalty.game.table.number if penalty.game_id and penalty.game else None,
        "entry_id": penalty.entry_id, "pair_id": penalty.pair_id,
        "name": penalty_target_name(penalty),
        "kind": penalty.kind, "kind_label": penalty.get_kind_display(),
        "points": penalty.points, "reason": penalty.reason,
        "created_by": penalty.created_by.get_username() if penalty.created_by else "",
        "created_at": penalty.created_at,
        "withdrawn": penalty.withdrawn,
        "withdrawn_at": penalty.withdrawn_at, "withdrawn_reason": penalty.withdrawn_reason,
        "withdrawn_by": penalty.withdrawn_by.get_username() if penalty.withdrawn_by else "",
    }


def appeal_payload(appeal: Appeal) -> AppealPayload:
    game = appeal.game
    return {
        "id": appeal.pk, "event_id": appeal.event_id, "penalty_id": appeal.penalty_id,
        "round": game.table.round.number if game else None,
        "table": game.table.number if game else None,
        "entry_id": appeal.entry_id,
        "name": appeal.entry.player.name if appeal.entry_id and appeal.entry else "",
        "contested": appeal.contested, "decision": appeal.decision,
        "decision_label": appeal.get_decision_display(), "note": appeal.note,
        "decided_by": appeal.decided_by.get_username() if appeal.decided_by else "",
        "decided_at": appeal.decided_at,
    }


def _player_penalties(player_id: int) -> Q:
    """A player's penalties: those naming them, and those against their pair naming no one."""
    return Q(entry__player_id=player_id) | Q(entry__isnull=True, pair__members__player_id=player_id)


def conduct_access(*, user: Actor, club: Club, player: Player) -> None:
    """May ``user`` read ``player``'s conduct record in ``club``? Its directors (and owners) and
    the player themselves; 404 for anyone else (the record's existence is nobody's business),
    and for a player the club never knew."""
    known = ClubPlayer.objects.filter(club=club, player=player).exists() or Entry.objects.filter(
        event__club=club, player=player).exists()
    if not known:
        raise Http404(gettext("No such player"))
    if has_club_role(user=user, club=club, role=Membership.Role.DIRECTOR):
        return
    if user is not None and user.is_authenticated and player.user_id == user.pk:
        return
    if user is not None and user.is_authenticated and has_club_role(
            user=user, club=club, role=Membership.Role.MEMBER):
        raise PermissionDenied(gettext("A player's conduct record is for the club's directors."))
    raise Http404(gettext("No such player"))


def conduct_record(*, club: Club, player: Player) -> list[Penalty]:
    """The player's penalties across the club's events, newest first (withdrawn ones too)."""
    return list(
        Penalty.objects.filter(_player_penalties(player.pk), event__club=club).distinct()
        .select_related("event", "entry__player", "pair", "game__table", "created_by",
                        "withdrawn_by")
        .order_by("-event__date", "-created_at", "-id"))


def conduct_summary(penalties: list[Penalty]) -> ConductSummary:
    """In force, withdrawn, points in force, and those of the last twelve months."""
    since = timezone.now() - datetime.timedelta(days=RECENT_DAYS)
    live = [p for p in penalties if not p.withdrawn]
    return {"count": len(live), "withdrawn": len(penalties) - len(live),
            "points": sum(p.points for p in live),
            "recent": sum(1 for p in live if p.created_at >= since)}


def player_clubs_with_record(player: Player) -> QuerySet[Club]:
    """The clubs in whose events the player has a penalty (their profile lists each record)."""
    return Club.objects.filter(
        pk__in=Penalty.objects.filter(_player_penalties(player.pk)).values("event__club_id")
    ).order_by("name")


def players_recently_penalised(*, club: Club, player_ids: Collection[int]) -> set[int]:
    """Of ``player_ids``, those with a penalty in force in the club's events within the last
    ``RECENT_DAYS`` days (the check-in page marks them; directors only)."""
    since = timezone.now() - datetime.timedelta(days=RECENT_DAYS)
    live = Penalty.objects.filter(event__club=club, withdrawn_at__isnull=True,
                                  created_at__gte=since)
    named = set(live.filter(entry__player_id__in=list(player_ids)).values_list(
        "entry__player_id", flat=True))
    paired = set(live.filter(entry__isnull=True, pair__members__player_id__in=list(player_ids))
                 .values_list("pair__members__player_id", flat=True))
    return named | paired


# --- calls for a director ---------------------------------------------------------------------
# What ``?state=`` of the directors' list takes: ``open`` (not closed: waiting or taken) or one
# state.
CALL_FILTERS = ("open", *DirectorCall.State.values)


def call_person(user: Actor | None) -> str:
    """How a director is named to a table and to the other directors."""
    signed_in = actor_user(user)
    if signed_in is None:
        return ""
    return (signed_in.get_full_name() or "").strip() or signed_in.get_username()


def _calls() -> QuerySet[DirectorCall]:
    return DirectorCall.objects.select_related("table__round", "taken_by", "closed_by")


def event_calls(event: Event, *, state: str | None = None) -> list[DirectorCall]:
    """The event's calls: the open ones first, longest waiting first, then the closed ones,
    newest first. ``state``: one of :data:`CALL_FILTERS` (checked by the caller)."""
    calls = _calls().filter(event=event)
    if state == "open":
        calls = calls.filter(closed_at__isnull=True)
    elif state == DirectorCall.State.WAITING:
        calls = calls.filter(closed_at__isnull=True, taken_at__isnull=True)
    elif state == DirectorCall.State.TAKEN:
        calls = calls.filter(closed_at__isnull=True, taken_at__isnull=False)
    elif state == DirectorCall.State.CLOSED:
        calls = calls.filter(closed_at__isnull=False)
    found = list(calls)
    open_ = sorted((c for c in found if c.is_open), key=lambda c: (c.raised_at, c.pk))
    closed = sorted((c for c in found if not c.is_open),
                    key=lambda c: (c.closed_at, c.pk), reverse=True)
    return open_ + closed


def open_calls(event: Event) -> list[DirectorCall]:
    return event_calls(event, state="open")


def call_payload(call: DirectorCall, *, now: datetime.datetime | None = None) -> CallPayload:
    """A call as the API shows it (to the event's directors, and to its own table)."""
    now = now or timezone.now()
    end = call.closed_at or now
    return {
        "id": call.pk, "event_id": call.event_id, "round": call.table.round.number,
        "table": call.table.number, "reason": call.reason,
        "reason_label": call.get_reason_display() if call.reason else "",
        "words": call.words, "state": call.state, "open": call.is_open,
        "raised_at": call.raised_at,
        "waited_seconds": max(0, int(((call.taken_at or end) - call.raised_at).total_seconds())),
        "taken_by": call_person(call.taken_by), "taken_at": call.taken_at,
        "closed_by": call_person(call.closed_by), "closed_at": call.closed_at,
        "note": call.note, "dismissed": call.dismissed_at is not None,
    }


def table_calls(table: Table) -> list[DirectorCall]:
    """One table's calls (only its own): the open one first, then the rest newest first."""
    calls = list(_calls().filter(table=table))
    return sorted(calls, key=lambda c: (not c.is_open, -c.raised_at.timestamp(), -c.pk))


def table_call_state(table: Table) -> TableCallState:
    """What the table's phone shows about calling the director: its open call (waiting or
    taken), else the ruling of its last call until the phone dismisses it or a hand is stored
    after it, and whether the table may call (its round is open and no call is)."""
    current = _calls().filter(table=table, closed_at__isnull=True).first()
    ruling = None
    if current is None:
        last = _calls().filter(table=table, closed_at__isnull=False,
                               dismissed_at__isnull=True).order_by("-closed_at", "-pk").first()
        if last is not None and last.closed_at is not None and not Hand.objects.filter(
                game__table=table, created_at__gt=last.closed_at).exists():
            ruling = last
    can_call = current is None and entry_refusal(table.round) is None
    shown = current or ruling
    return {
        "table": table, "call": current, "ruling": ruling, "can_call": can_call,
        "reasons": [(r.value, str(r.label)) for r in DirectorCall.Reason if r.value],
        "state": shown.state if shown else "idle",
        "version": f"{shown.pk}-{shown.state}" if shown else "idle",
        "taken_by": call_person(current.taken_by) if current else "",
        "ruled_by": call_person(ruling.closed_by) if ruling else "",
        "raised_ms": int(current.raised_at.timestamp() * 1000) if current else None,
        "now_ms": int(timezone.now().timestamp() * 1000),
        "words_max": CALL_WORDS_MAX,
    }


# --- corrections ------------------------------------------------------------------------------
NO_REASON = "no reason given"
# What a correction's structured values keep to itself (the standings a re-finish compares
# with are the event's whole table, not part of this change).
PRIVATE_VALUES = {"standings"}


def event_corrections(event: Event) -> list[Correction]:
    """The event's corrections, newest first (one query, with their authors)."""
    return list(Correction.objects.filter(event_id=event.pk).select_related("actor"))


def corrections_summary(event: Event) -> tuple[int, datetime.datetime | None]:
    """How many corrections the event has and when the last was made (one query)."""
    got = Correction.objects.filter(event_id=event.pk).aggregate(
        count=Count("id"), last=Max("created_at"))
    return int(got["count"] or 0), got["last"]


def correction_author(correction: Correction, club: Club) -> str:
    """Who made a correction as the public list says it: the role ("director", "scorer",
    "owner"), with the person's name only where the club allows it."""
    role = correction.get_role_display()
    if club.show_director_names and correction.actor is not None:
        return f"{role} {call_person(correction.actor)}"
    return role


def correction_payload(correction: Correction, club: Club) -> CorrectionPayload:
    """A correction as the page and the API show it."""
    def public(values: dict[str, JSONValue]) -> dict[str, JSONValue]:
        return {k: v for k, v in (values or {}).items() if k not in PRIVATE_VALUES}

    return {
        "id": correction.pk, "kind": correction.kind, "kind_label": correction.get_kind_display(),
        "at": correction.created_at, "role": correction.role or "system",
        "by": correction_author(correction, club),
        "name": call_person(correction.actor) if club.show_director_names else None,
        "reason": correction.reason or NO_REASON, "reason_given": bool(correction.reason),
        "round": correction.round_number, "table": correction.table_number,
        "was": correction.was, "became": correction.became,
        "before": public(correction.before), "after": public(correction.after),
        "standings_moved": [
            {k: v for k, v in moved.items() if k != "key"}
            | {("pair_id" if moved["key"].startswith("pair:") else "entry_id"):
               int(moved["key"].split(":", 1)[1])}
            for moved in correction.standings_moved],
    }

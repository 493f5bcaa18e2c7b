"""Standings reads shared by the standings pages and the API.

Each selector loads what its page needs in as few queries as possible: the standings page and
the API read one row (the event with its club and snapshot); the version poll reads the same row
without the snapshot's rows, so polling every few seconds from every wall screen stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.http import Http404
from django.utils.safestring import mark_safe

from clubs.permissions import can_view_event, check_view_event
from common.errors import DomainError
from ranking import tie_break_labels, tie_breaks_in_force
from scoring.models import Game, HandRevision
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat

from .models import StandingsSnapshot
from .services import stage_rounds, standings_compute

CHART_COLOURS = ["#0b6e4f", "#c2410c", "#1d4ed8", "#a21caf", "#b91c1c", "#0e7490", "#4d7c0f",
                 "#7c2d12", "#6d28d9", "#be185d"]
BYE_SCORING_TEXT: dict[str, str] = {
    Event.ByeScoring.ZERO: "A bye scores nothing.",
    Event.ByeScoring.AVERAGE_WINNING: "A bye scores the average of the round's winning scores.",
    Event.ByeScoring.AVERAGE_ALL: "A bye scores the average of all scores of the round.",
    Event.ByeScoring.FIXED: "A bye scores {points} points.",
}


@dataclass(frozen=True)
class StandingsStatus:
    """What the pages poll: has the snapshot moved, and is it behind the hands?"""

    event_id: int
    version: int
    source_version: int
    hands_version: int
    computed_at: datetime | None

    @property
    def behind(self) -> bool:
        return self.source_version < self.hands_version

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event_id, "version": self.version, "behind": self.behind,
            "source_version": self.source_version, "hands_version": self.hands_version,
            "computed_at": self.computed_at.isoformat() if self.computed_at else None,
        }


@dataclass(frozen=True)
class ChartLine:
    name: str
    colour: str
    points: str  # SVG polyline points
    last_x: float
    last_y: float
    total: int
    label_y: float  # the name beside the line's end, moved apart from its neighbours


@dataclass(frozen=True)
class Chart:
    """A score-progression chart: cumulative points per round of the leading entries."""

    width: int
    height: int
    rounds: list[tuple[int, float]]  # (round number, x) for the axis labels
    y_ticks: list[tuple[int, float]]  # (value, y)
    zero_y: float
    lines: list[ChartLine]
    plot_left: int
    plot_right: int
    plot_top: int
    plot_bottom: int


@dataclass
class Standings:
    event: Event
    status: StandingsStatus
    rows: list[dict[str, Any]]
    tie_breaks: list[dict[str, str]]
    bye_scoring: str
    round_numbers: list[int] = field(default_factory=list)
    chart: Chart | None = None

    @property
    def ranking_sentence(self) -> str:
        labels = [t["label"].lower() for t in self.tie_breaks]
        if not labels:
            return ""
        return "Ranked by " + ", then ".join(labels) + "."


def _nice_step(span: int, ticks: int = 5) -> int:
    raw = max(span / ticks, 1)
    magnitude = 10 ** (len(str(int(raw))) - 1)
    for factor in (1, 2, 5, 10):
        if factor * magnitude >= raw:
            return int(factor * magnitude)
    return int(10 * magnitude)


def score_chart(
    rows: list[dict[str, Any]], *, top: int, width: int = 640, height: int = 300
) -> Chart | None:
    """Cumulative points per round of the first ``top`` rows, as SVG coordinates."""
    leaders = [r for r in rows if r.get("per_round")][:top]
    if not leaders:
        return None
    rounds = sorted({int(n) for r in leaders for n in r["per_round"]})
    last_round = rounds[-1]
    series = []
    for row in leaders:
        total, values = 0, [0]
        for number in range(1, last_round + 1):
            total += int(row["per_round"].get(str(number), 0))
            values.append(total)
        series.append((row, values))
    low = min(0, *(v for _, values in series for v in values))
    high = max(1, *(v for _, values in series for v in values))
    step = _nice_step(high - low)
    low = (low // step) * step
    high = -((-high) // step) * step
    left, right, top_px, bottom = 48, width - 200, 12, height - 28

    def x(i: int) -> float:
        return round(left + (right - left) * i / last_round, 1)

    def y(v: int) -> float:
        return round(bottom - (bottom - top_px) * (v - low) / (high - low), 1)

    # Players whose lines coincide (partners after their only game together) share a line.
    merged: dict[tuple[int, ...], list[str]] = {}
    for row, values in series:
        merged.setdefault(tuple(values), []).append(row["name"])
    ends = sorted(merged.items(), key=lambda item: -item[0][-1])
    label_ys: list[float] = []
    for ends_at, _ in ends:
        wanted = y(ends_at[-1])
        label_ys.append(max(wanted, label_ys[-1] + 14) if label_ys else wanted)
    lines = []
    for i, ((line_values, names), label_y) in enumerate(zip(ends, label_ys, strict=True)):
        name = " & ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
        lines.append(ChartLine(
            name=name, colour=CHART_COLOURS[i % len(CHART_COLOURS)],
            points=" ".join(f"{x(k)},{y(v)}" for k, v in enumerate(line_values)),
            last_x=x(last_round), last_y=y(line_values[-1]), total=line_values[-1],
            label_y=label_y,
        ))
    return Chart(
        width=width, height=height,
        rounds=[(n, x(n)) for n in range(1, last_round + 1)],
        y_ticks=[(v, y(v)) for v in range(low, high + 1, step)],
        zero_y=y(0), lines=lines, plot_left=left, plot_right=right, plot_top=top_px,
        plot_bottom=bottom,
    )


def _int_or_blank(value: Any) -> str:
    return "" if value is None else str(int(value))


def _event(event_id: int, *, with_rows: bool) -> Event:
    queryset = Event.objects.select_related("club", "standings")
    if not with_rows:
        queryset = queryset.defer("standings__rows", "standings__tie_breaks")
    try:
        return queryset.get(pk=event_id)
    except Event.DoesNotExist:
        raise Http404("No such event") from None


def _snapshot(event: Event) -> StandingsSnapshot | None:
    try:
        return event.standings
    except StandingsSnapshot.DoesNotExist:
        return None


def _status(event: Event, snapshot: StandingsSnapshot | None) -> StandingsStatus:
    return StandingsStatus(
        event_id=event.pk,
        version=snapshot.version if snapshot else 0,
        source_version=snapshot.source_version if snapshot else 0,
        hands_version=event.hands_version,
        computed_at=snapshot.computed_at if snapshot else None,
    )


def standings_header(*, event_id: int, user: Any) -> tuple[Event, StandingsStatus]:
    """The event (with its club) and its snapshot's status, without loading the rows; 404 for
    events the user may not see. One query."""
    event = _event(event_id, with_rows=False)
    check_view_event(user=user, event=event)
    return event, _status(event, _snapshot(event))


def event_public(event: Event) -> bool:
    """Whether anyone, signed in or not, may see the event: the one spelling of "public" for
    the standings (the cached poll, the push, the regions rendered ahead)."""
    return can_view_event(user=AnonymousUser(), event=event)


def push_status(*, event_id: int) -> dict[str, Any] | None:
    """What a push message says (the poll's JSON), plus ``public``: whether anyone may see the
    event; None when the event is gone. No permission check: for the push task, whose message
    goes only to streams opened with a token the page issued after its own check."""
    try:
        event = _event(event_id, with_rows=False)
    except Http404:
        return None
    return {**_status(event, _snapshot(event)).to_dict(),
            "public": event_public(event)}


def event_is_public(*, event_id: int) -> bool:
    """Whether anyone, signed in or not, may see the event (False when it is gone)."""
    try:
        event = _event(event_id, with_rows=False)
    except Http404:
        return False
    return event_public(event)


def standings_status(*, event_id: int, user: Any) -> StandingsStatus:
    """The snapshot version and whether it is behind (what the pages poll)."""
    return standings_header(event_id=event_id, user=user)[1]


def event_standings(
    *, event_id: int, user: Any, chart_top: int = 6, stage: str | None = None
) -> Standings:
    """The event's last standings snapshot, ready for the page, the wall and the API; or, for
    one ``stage`` (``Round.Stage``), that stage's standings computed now from its rounds."""
    event = _event(event_id, with_rows=True)
    check_view_event(user=user, event=event)
    snapshot = _snapshot(event)
    if stage is not None:
        if stage not in Round.Stage.values:
            raise DomainError(f"A stage is one of: {', '.join(Round.Stage.values)}.",
                              field="stage")
        computed = standings_compute(event=event, rounds=stage_rounds(event, stage))
        rows, tie_breaks = computed.rows, computed.tie_breaks
    else:
        rows = list(snapshot.rows) if snapshot else []
        tie_breaks = (
            list(snapshot.tie_breaks) if snapshot and snapshot.tie_breaks
            else tie_break_labels(tie_breaks_in_force(event.tie_breaks,
                                                      partnership=event.partnership))
        )
    round_numbers = sorted({int(n) for r in rows for n in r.get("per_round", {})})
    for row in rows:
        # The per-round cells are the bulk of a big table: built here (integers only, so
        # nothing to escape) instead of a template loop of rows x rounds.
        per_round = row.get("per_round", {})
        row["round_cells"] = mark_safe("".join(  # noqa: S308
            f'<td class="num round">{_int_or_blank(per_round.get(str(n)))}</td>'
            for n in round_numbers
        ))
    bye_text = BYE_SCORING_TEXT.get(event.bye_scoring, "").format(points=event.bye_points)
    return Standings(
        event=event, status=_status(event, snapshot), rows=rows, tie_breaks=tie_breaks,
        bye_scoring=bye_text, round_numbers=round_numbers,
        chart=score_chart(rows, top=chart_top) if chart_top else None,
    )


def player_card(*, event_id: int, entry_id: int, user: Any) -> dict[str, Any]:
    """One player's night: per round the table, partner, opponents, the game and its hands
    (points from the player's side), or the bye. A handful of queries whatever the size."""
    event = _event(event_id, with_rows=True)
    check_view_event(user=user, event=event)
    entry = Entry.objects.select_related("player").filter(event=event, pk=entry_id).first()
    if entry is None:
        raise Http404("No such player in this event")
    mine = list(
        Seat.objects.filter(entry=entry).select_related("table__round", "table__game")
        .order_by("table__round__number")
    )
    tables = [s.table_id for s in mine]
    names: dict[tuple[int, str], str] = {
        (table_id, position): name
        for table_id, position, name in Seat.objects.filter(table_id__in=tables)
        .values_list("table_id", "position", "entry__player__name")
    }
    hands: dict[int, list[HandRevision]] = {}
    for revision in (
        HandRevision.objects.filter(hand__game__table_id__in=tables, is_live=True)
        .select_related("hand").order_by("hand__number")
    ):
        hands.setdefault(revision.hand.game_id, []).append(revision)
    partner_of = {"N": "S", "S": "N", "E": "W", "W": "E"}
    rounds: list[dict[str, Any]] = []
    for seat in mine:
        game = seat.table.game
        side = "NS" if seat.position in "NS" else "EW"
        other = "EW" if side == "NS" else "NS"
        running = 0
        lines = []
        for r in hands.get(game.pk, []):
            running += int(r.points.get(side, 0))
            lines.append({"number": r.hand.number, "bidder": r.bidder, "bid": r.bid,
                          "trump": {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(r.trump, ""),
                          "result": r.result.replace("_", " "), "points": r.points.get(side, 0),
                          "against": r.points.get(other, 0), "running": running,
                          "declared": r.bidder == seat.position})
        rounds.append({
            "number": seat.table.round.number, "table": seat.table.number,
            "position": seat.position, "match": seat.table.match, "table_id": seat.table_id,
            "partner": names.get((seat.table_id, partner_of[seat.position]), ""),
            "opponents": [names.get((seat.table_id, p), "") for p in
                          (("E", "W") if side == "NS" else ("N", "S"))],
            "points": (game.totals or {}).get(side, 0), "against": (game.totals or {}).get(other, 0),
            "status": game.status, "won": game.winner == side, "hands": lines,
            # A walkover: which side forfeited ("" for a game played out).
            "forfeit": game.forfeit,
        })
    byes = list(Bye.objects.filter(entry=entry).values_list("round__number", flat=True))
    snapshot = _snapshot(event)
    row = next((r for r in snapshot.rows if int(r["entry_id"]) == entry.pk), None) \
        if snapshot else None
    return {"event": event, "entry": entry, "rounds": rounds, "byes": sorted(byes), "row": row}


def pair_card(*, event_id: int, pair_id: int, user: Any) -> dict[str, Any]:
    """One pair's event: its standings row and, per round, the pair it met (or its bye), the
    bracket match, the game and its hands. The pair's players always sit together, so the
    rounds are those of its first player (:func:`player_card`)."""
    event = _event(event_id, with_rows=False)
    check_view_event(user=user, event=event)
    pair = Pair.objects.filter(event=event, pk=pair_id).first()
    if pair is None:
        raise Http404("No such pair in this event")
    members = list(pair.members.select_related("player").order_by("pk"))
    card = player_card(event_id=event_id, entry_id=members[0].pk, user=user)
    tables = [r["table_id"] for r in card["rounds"]]
    against: dict[int, int] = {}
    for table_id, entry_pair in Seat.objects.filter(table_id__in=tables).exclude(
            entry__pair=pair).values_list("table_id", "entry__pair_id"):
        against[table_id] = entry_pair
    names = {pk: str(p) for pk, p in Pair.objects.filter(
        pk__in=set(against.values())).in_bulk().items()}
    for r in card["rounds"]:
        other = against.get(r["table_id"])
        r["opponent_pair"] = other
        r["opponent_name"] = names.get(other, "") if other else ""
    return {**card, "pair": pair, "members": members}


def round_status(event: Event) -> dict[str, Any] | None:
    """The state of play a wall screen shows above the standings: the latest round, its status
    and how many of its tables have finished; None before the first round. Two queries."""
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return None
    games = Game.objects.filter(table__round=latest).values_list("status", flat=True)
    tables = len(games)
    done = sum(1 for s in games if s != Game.Status.PLAYING)
    number = latest.number
    if event.status == Event.Status.FINISHED:
        text = "Final results"
    elif latest.status == Round.Status.SEATED:
        text = f"Round {number} is seated: find your table; play starts soon"
    elif latest.status == Round.Status.PLAYING:
        text = f"Round {number} playing: {done} of {tables} tables finished"
    else:
        text = f"Round {number} closed: the next round is not seated yet"
    return {"number": number, "status": latest.status, "tables": tables, "finished": done,
            "text": text}

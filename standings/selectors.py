"""Standings reads shared by the standings pages and the API, and the standings computed from
the seat results (:func:`standings_compute`, no writes: ``standings.services`` stores it).

Each selector loads what its page needs in as few queries as possible: the standings page and
the API read one row (the event with its club and snapshot); the version poll reads the same row
without the snapshot's rows, so polling every few seconds from every wall screen stays cheap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import NotRequired, TypedDict

from django.contrib.auth.models import AnonymousUser
from django.db.models import Sum
from django.http import Http404
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from clubs.permissions import can_view_event, check_view_event
from common.charts import SMALL, progress_chart, progress_layout
from common.errors import DomainError
from common.labels import SUIT_SYMBOLS, reads_english, sitting_title, sitting_word
from common.rulesets import event_ruleset, opponents_of, partners_of, table_seats
from common.types import Actor
from conduct.models import Penalty
from conduct.selectors import penalties_of
from ranking import (
    tie_break_labels,
    tie_breaks_in_force,
)
from scoring.models import Game, HandRevision, SeatResult
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat

from .boards import PARTS, RESULT, TOTALS, Board, flat_rows, label_rows, part_boards, row_key
from .compute import Computed as Computed
from .compute import qualifying_order as qualifying_order
from .compute import stage_rounds as stage_rounds
from .compute import standings_compute as standings_compute
from .models import StandingsSnapshot
from .rows import StandingRow

# what a bye scores, in the reader's language: ``bye_text`` fills in the points
BYE_SCORING_TEXT: dict[str, object] = {
    Event.ByeScoring.ZERO: gettext_lazy("A bye scores nothing."),
    Event.ByeScoring.AVERAGE_WINNING: gettext_lazy(
        "A bye scores the average of the round's winning scores."),
    Event.ByeScoring.AVERAGE_ALL: gettext_lazy(
        "A bye scores the average of all scores of the round."),
    Event.ByeScoring.FIXED: gettext_lazy("A bye scores %(points)s points."),
}


def bye_text(event: Event) -> str:
    """What a bye scores at ``event``, in a sentence in the reader's language."""
    if event.bye_scoring == Event.ByeScoring.FIXED:
        return ngettext("A bye scores %(points)s point.", "A bye scores %(points)s points.",
                        event.bye_points) % {"points": event.bye_points}
    return str(BYE_SCORING_TEXT.get(event.bye_scoring, ""))


def ranking_sentence(tie_breaks: list[dict[str, str]], *, staged: bool = False) -> str:
    """"Ranked by total points, then games won." from the (translated) tie-breaks, in the
    reader's language; "" without any."""
    english = reads_english()
    labels = [t["label"].lower() if english else t["label"] for t in tie_breaks]
    if not labels:
        return ""
    # Translators: the separator between the tie-breaks in "Ranked by A, then B, then C." (a
    # German label keeps its capital: quote the labels, with the sentence's own quotes)
    order = pgettext("between tie-breaks", ", then ").join(labels)
    return (gettext("The qualifying standings are ranked by %(order)s.") if staged
            else gettext("Ranked by %(order)s.")) % {"order": order}


def translated_tie_breaks(tie_breaks: list[dict[str, str]]) -> list[dict[str, str]]:
    """The tie-breaks (``name``, ``label``: the ranking package's English, as stored in a
    snapshot) with each label in the reader's language."""
    return [{**t, "label": gettext(t["label"])} for t in tie_breaks]


class RoundLine(TypedDict):
    """The state of play a wall shows above the standings (:func:`round_status`)."""

    number: int
    status: str
    tables: int
    finished: int
    text: str


class LegendLine(TypedDict):
    """A line of the score chart's legend (:func:`score_legend`)."""

    name: str
    colour: str
    total: int


class StatusAnswer(TypedDict):
    """The standings poll's JSON (:meth:`StandingsStatus.to_dict`); a wall's poll adds the
    ``round`` line; a push message says whether the event is ``public`` and carries the
    regions (``standings.tasks``)."""

    event: int
    version: int
    behind: bool
    source_version: int
    hands_version: int
    computed_at: str | None
    round: NotRequired[RoundLine | None]
    public: NotRequired[bool]
    fragment: NotRequired[bool]  # the regions are kept for the streams to fetch
    regions: NotRequired[dict[str, str]]  # gzipped regions by view, base64
    lang: NotRequired[str]  # the language the regions are in (the club's)


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

    def to_dict(self) -> StatusAnswer:
        return {
            "event": self.event_id, "version": self.version, "behind": self.behind,
            "source_version": self.source_version, "hands_version": self.hands_version,
            "computed_at": self.computed_at.isoformat() if self.computed_at else None,
        }


@dataclass
class Standings:
    """A ranking view of the event: its ``boards`` (``standings.boards``: the final results,
    the stages' tables, the qualifying standings with the cut line, or the totals) and
    ``rows``, every board's rows in order, each entry once."""

    event: Event
    status: StandingsStatus
    rows: list[StandingRow]
    tie_breaks: list[dict[str, str]]
    bye_scoring: str
    round_numbers: list[int] = field(default_factory=list)
    chart: SafeString | None = None  # the leaders' score progression (common.charts)
    # The chart's lines as a list (name, colour, total), best first: the wall shows it under
    # the chart, where long names wrap instead of running off the drawing's edge.
    chart_legend: list[LegendLine] = field(default_factory=list)
    part: str = RESULT
    boards: list[Board] = field(default_factory=list)

    @property
    def final(self) -> bool:
        """The rows are the event's final places."""
        return any(board.key == RESULT for board in self.boards)

    @property
    def ranking_sentence(self) -> str:
        staged = self.part == RESULT and (
            len(self.boards) > 1 or any(board.note for board in self.boards))
        return ranking_sentence(self.tie_breaks, staged=staged)


def score_series(rows: list[StandingRow], *, top: int
                 ) -> tuple[list[tuple[str, list[int]]], list[str]]:
    """The cumulative points per round of the first ``top`` rows that played (from 0 before
    round 1), and the rounds' labels: what :func:`score_chart` draws."""
    leaders = [r for r in rows if r.get("per_round")][:top]
    if not leaders:
        return [], []
    last_round = max(int(n) for r in leaders for n in r["per_round"])
    series = []
    for row in leaders:
        total, values = 0, [0]
        for number in range(1, last_round + 1):
            total += int(row["per_round"].get(str(number), 0))
            values.append(total)
        series.append((str(row["name"]), values))
    return series, [f"R{n}" for n in range(1, last_round + 1)]


# A wall's chart: tick labels read across a room, the lines named in a legend beside it.
WALL_TICK_SIZE = 26


def score_chart(rows: list[StandingRow], *, top: int, wall: bool = False
                ) -> SafeString | None:
    """The score-progression chart of the first ``top`` rows (inline SVG, ``common.charts``),
    drawn for a wall (``wall``: big tick labels, no names at the lines' ends) or a page; None
    before anyone has played."""
    series, steps = score_series(rows, top=top)
    if not series:
        return None
    return progress_chart(title=gettext("Score progression of the leading players"),
                          series=series,
                          steps=steps, tick_size=WALL_TICK_SIZE if wall else SMALL,
                          names=not wall)


def score_legend(rows: list[StandingRow], *, top: int) -> list[LegendLine]:
    """The lines of :func:`score_chart` in the order and colours it draws them: ``name``,
    ``colour`` and ``total`` each."""
    series, steps = score_series(rows, top=top)
    layout = progress_layout(series, steps=steps) if series else None
    if layout is None:
        return []
    return [{"name": line.name, "colour": line.colour, "total": int(line.total)}
            for line in layout.lines]


def _int_or_blank(value: int | None) -> str:
    return "" if value is None else str(int(value))


def _event(event_id: int, *, with_rows: bool) -> Event:
    queryset = Event.objects.select_related("club", "standings")
    if not with_rows:
        queryset = queryset.defer("standings__rows", "standings__tie_breaks")
    try:
        return queryset.get(pk=event_id)
    except Event.DoesNotExist:
        raise Http404(gettext("No such event")) from None


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


def standings_header(*, event_id: int, user: Actor) -> tuple[Event, StandingsStatus]:
    """The event (with its club) and its snapshot's status, without loading the rows; 404 for
    events the user may not see. One query."""
    event = _event(event_id, with_rows=False)
    check_view_event(user=user, event=event)
    return event, _status(event, _snapshot(event))


def event_public(event: Event) -> bool:
    """Whether anyone, signed in or not, may see the event: the one spelling of "public" for
    the standings (the cached poll, the push, the regions rendered ahead)."""
    return can_view_event(user=AnonymousUser(), event=event)


def push_status(*, event_id: int) -> StatusAnswer | None:
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


def standings_status(*, event_id: int, user: Actor) -> StandingsStatus:
    """The snapshot version and whether it is behind (what the pages poll)."""
    return standings_header(event_id=event_id, user=user)[1]


def event_standings(
    *, event_id: int, user: Actor, chart_top: int = 6, stage: str | None = None,
    part: str | None = None, wall: bool = False,
) -> Standings:
    """A ranking view of the event, ready for the pages, the wall, the CSV and the API.

    ``part`` (``standings.boards.PARTS``): ``result`` (the default) is the event's result: the
    final places once the event has them, else the stages seated so far (the final table, the
    semi-final tables, the bracket's places, then the qualifying standings with the cut line);
    ``totals`` is the snapshot as it stands, every game summed; a stage (``Round.Stage``, also
    given as ``stage``) is that stage's standings computed now from its rounds. ``wall``: the
    chart is drawn for a wall screen (:func:`score_chart`)."""
    event = _event(event_id, with_rows=True)
    check_view_event(user=user, event=event)
    snapshot = _snapshot(event)
    if stage is not None:
        if stage not in Round.Stage.values:
            raise DomainError(gettext("A stage is one of: %(values)s.") % {"values": ', '.join(Round.Stage.values)},
                              field="stage")
        part = stage
    part = part or RESULT
    if part not in PARTS:
        raise DomainError(gettext("A view is one of: %(result)s, %(totals)s.") % {"result": RESULT, "totals": TOTALS}, field="view")
    rows = list(snapshot.rows) if snapshot else []
    tie_breaks = translated_tie_breaks(
        list(snapshot.tie_breaks) if snapshot and snapshot.tie_breaks
        else tie_break_labels(tie_breaks_in_force(event.tie_breaks,
                                                  partnership=event.partnership))
    )
    boards = part_boards(event, part, rows,
                         list(snapshot.placements or []) if snapshot else [])
    label_rows(boards)
    shown = flat_rows(boards, pairs=event.is_pairs)
    every = [row for board in boards for row in board.rows]
    if event_ruleset(event).checks:
        # check pinochle: each player's checks, the second tally, beside the points
        checks = dict(SeatResult.objects.filter(event=event).values("entry_id")
                      .annotate(total=Sum("checks")).values_list("entry_id", "total"))
        for row in [*every, *shown]:
            row["checks"] = int(checks.get(int(row.get("entry_id") or 0), 0) or 0)
    round_numbers = sorted({int(n) for r in every for n in r.get("per_round", {})})
    for row in every:
        # The per-round cells are the bulk of a big table: built here (integers only, so
        # nothing to escape) instead of a template loop of rows x rounds.
        per_round = row.get("per_round", {})
        row["round_cells"] = mark_safe("".join(  # noqa: S308
            f'<td class="num round">{_int_or_blank(per_round.get(str(n)))}</td>'
            for n in round_numbers
        ))
    chart_rows = shown
    if part == RESULT:
        # The result's leaders, drawn with their points over every game.
        by_key = {row_key(r, pairs=event.is_pairs): r for r in rows}
        chart_rows = [by_key.get(row_key(r, pairs=event.is_pairs), r) for r in shown]
    return Standings(
        event=event, status=_status(event, snapshot), rows=shown, tie_breaks=tie_breaks,
        bye_scoring=bye_text(event), round_numbers=round_numbers,
        chart=score_chart(chart_rows, top=chart_top, wall=wall) if chart_top else None,
        chart_legend=score_legend(chart_rows, top=chart_top) if chart_top else [],
        part=part, boards=boards,
    )


class CardHand(TypedDict):
    """A hand of a player's game, from the player's side."""

    number: int
    bidder: str
    bid: int | None
    trump: str
    result: str
    points: int
    against: int
    running: int
    declared: bool


class CardRound(TypedDict):
    """A round of a player's card (:func:`player_card`); a pair's card names the pair met."""

    number: int
    table: int
    position: str
    match: str
    table_id: int
    partner: str
    opponents: list[str]
    points: int
    against: int
    status: str
    won: bool
    hands: list[CardHand]
    forfeit: str  # the side that forfeited a walkover ("" for a game played out)
    adjusted: dict[str, object] | None  # the director's adjusted result (kind, points, reason)
    opponent_pair: NotRequired[int | None]
    opponent_name: NotRequired[str]


class PlayerCard(TypedDict):
    event: Event
    entry: Entry
    rounds: list[CardRound]
    byes: list[int]
    row: StandingRow | None
    penalties: list[Penalty]


class PairCard(PlayerCard):
    pair: Pair
    members: list[Entry]


def player_card(*, event_id: int, entry_id: int, user: Actor) -> PlayerCard:
    """One player's night: per round the table, partner, opponents, the game and its hands
    (points from the player's side), or the bye. A handful of queries whatever the size."""
    event = _event(event_id, with_rows=True)
    check_view_event(user=user, event=event)
    entry = Entry.objects.select_related("player").filter(event=event, pk=entry_id).first()
    if entry is None:
        raise Http404(gettext("No such player in this event"))
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
    ruleset = event_ruleset(event)
    at_table: dict[int, list[str]] = {}
    for table_id, position in names:
        at_table.setdefault(table_id, []).append(position)

    def against(points: dict[str, int], side: str) -> int:
        """The best score against ``side`` (the other partnership's, or the best opponent's)."""
        return max((int(v) for s, v in points.items() if s != side), default=0)

    rounds: list[CardRound] = []
    for seat in mine:
        game = seat.table.game
        side = ruleset.side_of(seat.position)
        here = table_seats(ruleset, at_table.get(seat.table_id, ()))
        running = 0
        lines: list[CardHand] = []
        for r in hands.get(game.pk, []):
            running += int(r.points.get(side, 0))
            lines.append({"number": r.hand.number, "bidder": r.bidder, "bid": r.bid,
                          "trump": SUIT_SYMBOLS.get(r.trump, ""),
                          "result": r.result.replace("_", " "), "points": r.points.get(side, 0),
                          "against": against(r.points or {}, side), "running": running,
                          "declared": r.bidder == seat.position})
        rounds.append({
            "number": seat.table.round.number, "table": seat.table.number,
            "position": seat.position, "match": seat.table.match, "table_id": seat.table_id,
            "partner": " & ".join(names.get((seat.table_id, p), "")
                                  for p in partners_of(ruleset, seat.position)),
            "opponents": [names.get((seat.table_id, p), "")
                          for p in opponents_of(ruleset, seat.position, here)],
            "points": (game.totals or {}).get(side, 0),
            "against": against(game.totals or {}, side),
            "status": game.status, "won": game.winner == side, "hands": lines,
            # A walkover: which side forfeited ("" for a game played out).
            "forfeit": game.forfeit,
            # The director's adjusted result (kind, points, reason), or None.
            "adjusted": game.adjusted,
        })
    byes = list(Bye.objects.filter(entry=entry).values_list("round__number", flat=True))
    snapshot = _snapshot(event)
    row = next((r for r in snapshot.rows if int(r["entry_id"]) == entry.pk), None) \
        if snapshot else None
    return {"event": event, "entry": entry, "rounds": rounds, "byes": sorted(byes), "row": row,
            "penalties": penalties_of(event, entry)}


def pair_card(*, event_id: int, pair_id: int, user: Actor) -> PairCard:
    """One pair's event: its standings row and, per round, the pair it met (or its bye), the
    bracket match, the game and its hands. The pair's players always sit together, so the
    rounds are those of its first player (:func:`player_card`)."""
    event = _event(event_id, with_rows=False)
    check_view_event(user=user, event=event)
    pair = Pair.objects.filter(event=event, pk=pair_id).first()
    if pair is None:
        raise Http404(gettext("No such pair in this event"))
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


def round_status(event: Event) -> RoundLine | None:
    """The state of play a wall screen shows above the standings: the latest round, its status
    and how many of its tables have finished; None before the first round. Two queries."""
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return None
    games = Game.objects.filter(table__round=latest).values_list("status", flat=True)
    tables = len(games)
    done = sum(1 for s in games if s != Game.Status.PLAYING)
    number = latest.number
    # the event's own word for a sitting: a progressive day plays games, a club night rounds
    said = {"sitting": f"{sitting_title(event.sitting)} {number}", "done": done,
            "tables": tables, "word": sitting_word(event.sitting)}
    if event.status == Event.Status.FINISHED:
        text = gettext("Final results")
    elif latest.status == Round.Status.SEATED:
        text = gettext("%(sitting)s is seated: find your table; play starts soon") % said
    elif latest.status == Round.Status.PLAYING:
        text = ngettext("%(sitting)s playing: %(done)s of %(tables)s table finished",
                        "%(sitting)s playing: %(done)s of %(tables)s tables finished",
                        tables) % said
    else:
        text = gettext("%(sitting)s closed: the next %(word)s is not seated yet") % said
    return {"number": number, "status": latest.status, "tables": tables, "finished": done,
            "text": text}

"""Standings reads shared by the standings pages and the API, and the standings computed from
the seat results (:func:`standings_compute`, no writes: ``standings.services`` stores it).

Each selector loads what its page needs in as few queries as possible: the standings page and
the API read one row (the event with its club and snapshot); the version poll reads the same row
without the snapshot's rows, so polling every few seconds from every wall screen stays cheap.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Aggregate, Count, Max, Q, Sum, TextField
from django.http import Http404
from django.utils.safestring import SafeString, mark_safe

from clubs.permissions import can_view_event, check_view_event
from common.charts import progress_chart
from common.errors import DomainError
from ranking import (
    EntryTotals,
    Meeting,
    RoundScores,
    bye_score,
    standings_rows,
    tie_break_labels,
    tie_breaks_in_force,
)
from ranking.pairs import (
    PAIR_TIE_BREAKS,
    PairBye,
    PairGame,
    PairInfo,
    pair_standings,
    validate_pair_tie_breaks,
)
from scoring.models import Game, HandRevision, SeatResult
from tournaments.models import Bye, Entry, Event, Pair, Round, Seat

from .models import StandingsSnapshot

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


@dataclass
class Standings:
    event: Event
    status: StandingsStatus
    rows: list[dict[str, Any]]
    tie_breaks: list[dict[str, str]]
    bye_scoring: str
    round_numbers: list[int] = field(default_factory=list)
    chart: SafeString | None = None  # the leaders' score progression (common.charts)

    @property
    def ranking_sentence(self) -> str:
        labels = [t["label"].lower() for t in self.tie_breaks]
        if not labels:
            return ""
        return "Ranked by " + ", then ".join(labels) + "."


def score_series(rows: list[dict[str, Any]], *, top: int
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


def score_chart(rows: list[dict[str, Any]], *, top: int) -> SafeString | None:
    """The score-progression chart of the first ``top`` rows (inline SVG, ``common.charts``);
    None before anyone has played."""
    series, steps = score_series(rows, top=top)
    if not series:
        return None
    return progress_chart(title="Score progression of the leading players", series=series,
                          steps=steps)


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


# --- the standings computed from the seat results (no writes) -----------------------------------
@dataclass(frozen=True)
class Computed:
    rows: list[dict[str, Any]]
    tie_breaks: list[dict[str, str]]
    # The rows as JSON text (``json.dumps(rows, separators=(",", ":"), sort_keys=True)``) when
    # the computation has it already (the incremental path reuses unchanged rows' text).
    rows_json: str | None = None


class RoundPoints(Aggregate):
    """An entry's points per round as a JSON object ``{"round number": points}`` (JSON text):
    ``json_object_agg`` on PostgreSQL, ``json_group_object`` on SQLite. An entry sits at one
    table per round (constraint ``seat_entry_once_per_round``), so the keys are unique."""

    function = "json_object_agg"
    template = "%(function)s(%(expressions)s)"
    output_field = TextField()

    def as_postgresql(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, template="%(function)s(%(expressions)s)::text",
                           **extra)

    def as_sqlite(self, compiler: Any, connection: Any, **extra: Any) -> Any:
        return self.as_sql(compiler, connection, function="json_group_object", **extra)


def _results(event: Event, rounds: Collection[int] | None) -> Any:
    """The event's seat results, or those of the given rounds (a stage's standings)."""
    rows = SeatResult.objects.filter(event=event)
    return rows if rounds is None else rows.filter(round_number__in=list(rounds))


def _entry_totals(event: Event, rounds: Collection[int] | None = None) -> list[EntryTotals]:
    """Totals per entry from ONE GROUP BY over the event's seat results (index
    seatresult_event_entry_idx), the per-round points riding along as one JSON object per entry:
    250 rows come back for a 250-player event, not 3,000."""
    names = {
        pk: (name, status == Entry.Status.ACTIVE, alternate)
        for pk, name, status, alternate in Entry.objects.filter(event=event).values_list(
            "pk", "player__name", "status", "alternate"
        )
    }
    grouped = (
        _results(event, rounds).order_by().values("entry_id")
        .annotate(
            sum_points=Sum("points"),
            n_games=Count("id", filter=Q(finished=True)),
            n_wins=Count("id", filter=Q(won=True, finished=True)),
            declared=Sum("hands_declared"),
            made=Sum("hands_made"),
            set=Sum("hands_set"),
            best=Max("points", filter=Q(finished=True)),
            rounds=RoundPoints("round_number", "points"),
        )
        .values_list("entry_id", "sum_points", "n_games", "n_wins", "declared", "made", "set",
                     "best", "rounds")
    )
    found = {row[0]: row for row in grouped}
    totals = []
    for pk, (name, active, alternate) in names.items():
        agg = found.get(pk)
        if agg is None:
            totals.append(EntryTotals(entry_id=pk, name=name, active=active, alternate=alternate))
            continue
        _, points, games, wins, declared, made, set_, best, per_round = agg
        totals.append(EntryTotals(
            entry_id=pk, name=name, active=active, points=points or 0, games=games, wins=wins,
            hands_declared=declared or 0, hands_made=made or 0, hands_set=set_ or 0,
            highest_game=best,
            per_round={int(k): v for k, v in json.loads(per_round).items()} if per_round else {},
            alternate=alternate,
        ))
    return totals


def _round_scores(event: Event, rounds: Collection[int] | None = None) -> dict[int, RoundScores]:
    """Per round, the finished games' winning scores and all scores (for bye averages):
    a GROUP BY returning one row per round."""
    rows = (
        _results(event, rounds).filter(finished=True).order_by().values("round_number")
        .annotate(
            wt=Sum("points", filter=Q(won=True)), wc=Count("id", filter=Q(won=True)),
            at=Sum("points"), ac=Count("id"),
        )
        .values_list("round_number", "wt", "wc", "at", "ac")
    )
    return {n: RoundScores(wt or 0, wc, at or 0, ac) for n, wt, wc, at, ac in rows}


def _meetings_for(event: Event, rounds: Collection[int] | None = None) -> Any:
    def meetings(ids: set[int]) -> list[Meeting]:
        return [
            Meeting(*values)
            for values in _results(event, rounds).filter(
                entry_id__in=ids, finished=True
            ).values_list("game_id", "entry_id", "side", "won")
        ]

    return meetings


def stage_rounds(event: Event, stage: str) -> list[int]:
    """The numbers of the event's rounds of one stage (``Round.Stage``)."""
    return list(event.rounds.filter(stage=stage).values_list("number", flat=True))


def _pair_games(event: Event, rounds: Collection[int] | None) -> list[PairGame]:
    """The finished games of a pair event, pair against pair (the N seat's pair plays N-S)."""
    pair_at: dict[tuple[int, str], int] = {}
    seats = Seat.objects.filter(round__event=event, position__in=("N", "E"))
    if rounds is not None:
        seats = seats.filter(round__number__in=list(rounds))
    for table_id, position, pair_id in seats.values_list("table_id", "position", "entry__pair_id"):
        pair_at[(table_id, position)] = pair_id
    games = Game.objects.filter(table__round__event=event).exclude(status=Game.Status.PLAYING)
    if rounds is not None:
        games = games.filter(table__round__number__in=list(rounds))
    out = []
    for game_id, table_id, number, totals, winner, cut_winner in games.values_list(
            "pk", "table_id", "table__round__number", "totals", "winner", "cut_winner"):
        ns, ew = pair_at.get((table_id, "N")), pair_at.get((table_id, "E"))
        if ns is None or ew is None:
            continue
        side = winner or cut_winner
        out.append(PairGame(
            round_number=number, game_id=game_id, pairs=(ns, ew),
            points=(int((totals or {}).get("NS", 0)), int((totals or {}).get("EW", 0))),
            winner=ns if side == "NS" else ew if side == "EW" else None,
        ))
    return out


def _pair_byes(event: Event, rounds: Collection[int] | None,
               games: list[PairGame]) -> list[PairBye]:
    """A bye per pair and round, scored by the event's bye policy from that round's games."""
    byes = Bye.objects.filter(round__event=event, entry__pair__isnull=False)
    if rounds is not None:
        byes = byes.filter(round__number__in=list(rounds))
    sitting = set(byes.values_list("round__number", "entry__pair_id"))
    scores: dict[int, list[int]] = {}
    for game in games:
        sums = scores.setdefault(game.round_number, [0, 0, 0, 0])
        if game.winner is not None:
            sums[0] += game.points[game.pairs.index(game.winner)]
            sums[1] += 1
        sums[2] += sum(game.points)
        sums[3] += 2
    return [
        PairBye(round_number=number, pair_id=pair_id, points=bye_score(
            scoring=event.bye_scoring, fixed_points=event.bye_points,
            scores=RoundScores(*scores.get(number, [0, 0, 0, 0]))))
        for number, pair_id in sorted(sitting)
    ]


def _pair_rows(event: Event, rounds: Collection[int] | None) -> Computed:
    """Standings per pair: wins (a bye counts as one), points, then the named tie-breaks."""
    members: dict[int, list[tuple[int, str, bool]]] = {}
    for pair_id, entry_id, name, status in Entry.objects.filter(
            event=event, pair__isnull=False).order_by("pk").values_list(
            "pair_id", "pk", "player__name", "status"):
        members.setdefault(pair_id, []).append((entry_id, name, status == Entry.Status.ACTIVE))
    infos = [
        PairInfo(pair_id=pk, name=name or " & ".join(n for _, n, _ in members.get(pk, [])),
                 players=tuple(n for _, n, _ in members.get(pk, [])),
                 active=all(a for _, _, a in members.get(pk, [])))
        for pk, name in Pair.objects.filter(event=event).order_by("pk").values_list("pk", "name")
    ]
    games = _pair_games(event, rounds)
    hands: dict[int, list[int]] = {}
    for entry_id, declared, made, set_ in _results(event, rounds).values_list(
            "entry_id", "hands_declared", "hands_made", "hands_set"):
        sums = hands.setdefault(entry_id, [0, 0, 0])
        sums[0] += declared
        sums[1] += made
        sums[2] += set_
    tie_breaks = validate_pair_tie_breaks(event.tie_breaks or None)
    rows = []
    for row in pair_standings(infos, games, _pair_byes(event, rounds, games), tie_breaks):
        data = row.to_dict()
        entries = [e for e, _, _ in members.get(row.pair_id, [])]
        counted = [hands.get(e, [0, 0, 0]) for e in entries]
        data.update({
            "entry_id": entries[0] if entries else 0, "entry_ids": entries,
            "alternate": False,
            "hands_declared": sum(c[0] for c in counted), "hands_made": sum(c[1] for c in counted),
            "hands_set": sum(c[2] for c in counted),
        })
        data.setdefault("bye_points", 0)
        rows.append(data)
    labels = [{"name": "wins", "label": "Wins (a bye counts as a win)"},
              {"name": "points", "label": "Total points"}]
    labels += [{"name": n, "label": PAIR_TIE_BREAKS[n]} for n in tie_breaks]
    return Computed(rows, labels)


def standings_compute(*, event: Event, rounds: Collection[int] | None = None) -> Computed:
    """The event's ranked standings from its seat results (no writes): over every round, or
    over the given rounds only (one stage's standings, e.g. the qualifying games). A pair
    event ranks its pairs."""
    if event.is_pairs:
        return _pair_rows(event, rounds)
    tie_breaks = tie_breaks_in_force(event.tie_breaks, partnership=event.partnership)
    byes_of = Bye.objects.filter(round__event=event)
    if rounds is not None:
        byes_of = byes_of.filter(round__number__in=list(rounds))
    byes = list(byes_of.values_list("round__number", "entry_id"))
    averaged = event.bye_scoring in (Event.ByeScoring.AVERAGE_WINNING, Event.ByeScoring.AVERAGE_ALL)
    rows = standings_rows(
        totals=_entry_totals(event, rounds),
        byes=byes,
        round_scores=_round_scores(event, rounds) if byes and averaged else {},
        tie_breaks=tie_breaks,
        bye_scoring=event.bye_scoring,
        bye_points=event.bye_points,
        meetings_for=_meetings_for(event, rounds),
    )
    return Computed([row.to_dict() for row in rows], tie_break_labels(tie_breaks))


def qualifying_order(event: Event) -> list[tuple[int, int]]:
    """The players eligible for a cut or a place, in qualifying order, as (entry id, rank):
    the qualifying stage's standings without alternates and players who withdrew. In a pair
    event: the pairs still playing, as (pair id, rank)."""
    rounds = stage_rounds(event, Round.Stage.QUALIFYING)
    if event.is_pairs:
        return [(int(r["pair_id"]), int(r["rank"]))
                for r in standings_compute(event=event, rounds=rounds).rows if r["active"]]
    eligible = set(
        Entry.objects.filter(event=event, status=Entry.Status.ACTIVE, alternate=False)
        .values_list("pk", flat=True)
    )
    rows = standings_compute(event=event, rounds=rounds).rows
    return [(int(r["entry_id"]), int(r["rank"])) for r in rows if r["entry_id"] in eligible]

"""Reads for score entry: the table page, the director's desktop entry, the audit and the API.

Vocabulary: a *table state* is everything a device at the table needs to enter the next hand —
the seats and players, the game's running score, the hands so far (their live revisions) and
what the next hand is (its number and pre-filled dealer). Each selector owns its
``select_related``/``prefetch_related`` so pages and the API ask the same questions the same way.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime
from types import SimpleNamespace
from typing import Any, NotRequired, TypedDict

from django.db import connection
from django.db.models import Prefetch, Q
from django.http import Http404
from django.utils.translation import gettext

from common.errors import DomainError
from common.labels import (
    OUTCOME_LABELS,
    RESULT_LABELS,
    SEAT_NAMES,
    SUIT_SYMBOLS,
    reads_english,
    sitting_title,
)
from common.rulesets import event_ruleset, ruleset_for, table_seats, table_sides
from rules_engine import Outcome, Ruleset, needs_tricks
from tournaments.models import Event, EventLog, Round, Seat, Table
from tournaments.selectors import results_final

from .models import DESK_SOURCES, NO_BID_OUTCOMES, Game, Hand, HandRevision


class SeatRow(TypedDict):
    """A seat of :func:`seats_of`."""

    position: str
    seat_name: str
    side: str
    name: str
    entry_id: int | None


class SidePoints(TypedDict):
    side: str
    points: int
    total: int


class HandValues(TypedDict, total=False):
    """A stored hand's values in the rules engine's input shape (``rules_engine.parse_hand``):
    only the fields its outcome carries (:func:`revision_values`)."""

    dealer: str
    outcome: str
    meld: dict[str, int]
    bidder: str
    bid: int
    trump: str
    counters: dict[str, int]
    renege_seat: str
    tricks: dict[str, int]
    quadruple_run: str
    partner: str
    misdeal_seat: str
    widow_seen: bool
    check_melds: dict[str, list[str]]


class RevisionRow(TypedDict):
    """A revision as the audit, the table page and the API read it (:func:`revision_row`);
    a game's hands (:func:`game_hands`) add the running score after each."""

    id: int
    hand_id: int
    number: int
    revision: int
    is_live: bool
    values: HandValues
    summary: str
    dealer: str
    bidder: str
    bid: int | None
    trump: str
    trump_symbol: str
    outcome: str
    outcome_label: str
    renege_seat: str
    meld: dict[str, int]
    counters: dict[str, int] | None
    points: dict[str, int]
    result: str
    result_label: str
    made: bool | None
    reason: str
    author: str
    source: str
    source_label: str
    note: str
    created_at: datetime
    running: NotRequired[dict[str, int]]
    point_list: NotRequired[list[SidePoints]]


class GameVersion(TypedDict):
    version: int
    status: str


class NextRound(TypedDict):
    number: int
    seated: bool


class TableStatus(TypedDict):
    """What a table's phone polls (:func:`table_status`)."""

    game: GameVersion
    round: int
    round_status: str
    is_open: bool
    next_round: NextRound


def revision_values(revision: HandRevision) -> HandValues:
    """A revision's entered values in the rules engine's input shape: only the fields its
    outcome carries (``rules_engine.fields_for``; a misdeal carries its dealer alone)."""
    values: HandValues = {"dealer": revision.dealer, "outcome": revision.outcome}
    if revision.outcome not in NO_BID_OUTCOMES and revision.meld:
        values["meld"] = revision.meld
    if revision.bidder:
        values["bidder"] = revision.bidder
    if revision.bid is not None:
        values["bid"] = revision.bid
    if revision.trump:
        values["trump"] = revision.trump
    if revision.counters is not None:
        values["counters"] = revision.counters
    if revision.renege_seat:
        values["renege_seat"] = revision.renege_seat
    if revision.tricks is not None:
        values["tricks"] = revision.tricks
    if revision.quadruple_run:
        values["quadruple_run"] = revision.quadruple_run
    if revision.partner:
        values["partner"] = revision.partner
    if revision.misdeal_seat:
        values["misdeal_seat"] = revision.misdeal_seat
    if revision.widow_seen is not None:
        values["widow_seen"] = revision.widow_seen
    if revision.check_melds is not None:
        values["check_melds"] = revision.check_melds
    return values


def entry_refusal(round_: Round, *, as_director: bool = False) -> DomainError | None:
    """THE definition of "the round is open" for score entry, used by the services, the table
    page and the API alike: a table's phone may write while the round is not closed and the
    event not over (a seated round that the director has not started yet accepts hands too: the
    players are at their tables). A director may also change a closed round's hands (with a
    reason, see ``scoring.services``). Returns the refusal, or None when entry is open."""
    if as_director:
        return results_final(round_.event)
    closed_by = entry_closed_by(event_status=round_.event.status, round_status=round_.status)
    if closed_by == "event":
        return DomainError(gettext("This event is over."), field="event")
    if closed_by == "round":
        return DomainError(
            gettext("%(sitting_title)s %(number)s is closed: only a director can change its hands now.") % {"sitting_title": sitting_title(round_.event.sitting), "number": round_.number},
            field="round", code="round_closed",
        )
    return None


def entry_closed_by(*, event_status: str, round_status: str) -> str | None:
    """What stops a table's phone writing, from the two statuses alone: ``"event"`` (over),
    ``"round"`` (closed) or None (open). :func:`entry_refusal` and the table's status poll
    (:func:`table_status`, which reads the statuses without the rows) share it."""
    if event_status in Event.OVER:
        return "event"
    if round_status == Round.Status.CLOSED:
        return "round"
    return None


def table_by_token(*, token: str) -> Table:
    """The table a QR code opens, with its round, event, club and game; 404 for any other token."""
    try:  # get(): no ORDER BY (first() would sort by the model's ordering across the joins)
        table = Table.objects.select_related("round__event__club", "game").get(token=token)
    except Table.DoesNotExist:
        raise Http404(gettext("No such table")) from None
    if not hasattr(table, "game"):
        raise Http404(gettext("No such table"))
    return table


def seats_of(table: Table, ruleset: Ruleset | None = None) -> list[SeatRow]:
    """The table's seats clockwise from North with the player sitting there, each with the
    side it plays for (its partnership, or itself where each plays alone)."""
    ruleset = ruleset or event_ruleset(table.round.event)
    seats = {
        s.position: s
        for s in Seat.objects.filter(table=table).select_related("entry__player")
    }
    rows: list[SeatRow] = []
    for position in table_seats(ruleset, seats):
        seat = seats.get(position)
        rows.append({
            "position": position,
            "seat_name": str(SEAT_NAMES[position]),
            "side": ruleset.side_of(position),
            "name": seat.entry.player.name if seat else "",
            "entry_id": seat.entry_id if seat else None,
        })
    return rows


def describe_values(values: Mapping[str, object] | None) -> str:
    """One line for people: ``Dealer S · N bid 55 in ♥ · meld NS 24 / EW 32 · counters ...``
    (a stored revision's values, or what a refusal says is stored now)."""
    if not values:
        return ""
    parts = [gettext("Dealer %(seat)s") % {"seat": values.get("dealer", "?")}]
    outcome = str(values.get("outcome", "played"))
    if outcome == Outcome.MISDEAL:
        parts.append(gettext("misdeal"))
        return " · ".join(parts)
    if outcome == Outcome.TECHNICAL_MISDEAL:
        parts.append(gettext("technical misdeal called by %(seat)s")
                     % {"seat": values.get("misdeal_seat", "?")})
        return " · ".join(parts)
    trump = values.get("trump")
    said = {"seat": values.get("bidder", "?"), "bid": values.get("bid", "?"),
            "trump": SUIT_SYMBOLS.get(trump, trump) if isinstance(trump, str) else trump}
    parts.append(gettext("%(seat)s bid %(bid)s in %(trump)s") % said if trump
                 else gettext("%(seat)s bid %(bid)s") % said)
    if outcome != "played":
        label = str(OUTCOME_LABELS.get(outcome, outcome))
        label = label.lower() if reads_english() else label
        if outcome == "renege" and values.get("renege_seat"):
            label = gettext("%(outcome)s by %(seat)s") % {"outcome": label,
                                                          "seat": values["renege_seat"]}
        parts.append(label)
    groups = {"meld": gettext("meld %(sides)s"), "counters": gettext("counters %(sides)s"),
              "tricks": gettext("tricks %(sides)s")}
    for group, words in groups.items():
        given = values.get(group)
        if isinstance(given, Mapping) and given:
            parts.append(words % {"sides": " / ".join(
                f"{k} {v}" for k, v in sorted(given.items(), reverse=True))})
    return " · ".join(parts)


def revision_row(revision: HandRevision) -> RevisionRow:
    values = revision_values(revision)
    return {
        "id": revision.pk,
        "hand_id": revision.hand_id,
        "number": revision.hand.number,
        "revision": revision.revision,
        "is_live": revision.is_live,
        "values": values,
        "summary": describe_values(values),
        "dealer": revision.dealer,
        "bidder": revision.bidder,
        "bid": revision.bid,
        "trump": revision.trump,
        "trump_symbol": SUIT_SYMBOLS.get(revision.trump, ""),
        "outcome": revision.outcome,
        "outcome_label": str(OUTCOME_LABELS.get(revision.outcome, revision.outcome)),
        "renege_seat": revision.renege_seat,
        "meld": revision.meld,
        "counters": revision.counters,
        "points": revision.points,
        "result": revision.result,
        "result_label": str(RESULT_LABELS.get(revision.result, revision.result)),
        "made": revision.made,
        "reason": revision.reason,
        "author": revision.author.get_username() if revision.author else "",
        "source": revision.source,
        "source_label": revision.get_source_display(),
        "note": revision.note,
        "created_at": revision.created_at,
    }


def game_hands(game: Game, sides: tuple[str, ...]) -> list[RevisionRow]:
    """The game's hands in order (their live values), each with the running score after it."""
    revisions = (
        HandRevision.objects.filter(hand__game=game, is_live=True)
        .select_related("hand", "author")
        .order_by("hand__number")
    )
    running = dict.fromkeys(sides, 0)
    rows = []
    for revision in revisions:
        row = revision_row(revision)
        for side in sides:
            running[side] += int(revision.points.get(side, 0))
        row["running"] = dict(running)
        row["point_list"] = [
            {"side": side, "points": revision.points.get(side, 0), "total": running[side]}
            for side in sides
        ]
        rows.append(row)
    return rows


# A table's game, round and event, joined from its token: the plain queries below (the phones'
# most frequent reads) select from it. Building the ORM's query cost several times what
# PostgreSQL took to answer it.
_TABLE_JOIN = (
    f"FROM {Table._meta.db_table} t "
    f"JOIN {Game._meta.db_table} g ON g.table_id = t.id "
    f"JOIN {Round._meta.db_table} r ON r.id = t.round_id "
    f"JOIN {Event._meta.db_table} e ON e.id = r.event_id "
    "WHERE t.token = %s"
)
TABLE_STATUS_SQL = (
    "SELECT g.version, g.status, r.number, r.status, e.status, EXISTS ("  # noqa: S608
    f"SELECT 1 FROM {Round._meta.db_table} n WHERE n.event_id = r.event_id "
    f"AND n.number = r.number + 1) {_TABLE_JOIN}"
)
TABLE_RULESET_SQL = (
    "SELECT e.ruleset_preset, e.ruleset_overrides, "  # noqa: S608
    f"(SELECT COUNT(*) FROM {Seat._meta.db_table} s WHERE s.table_id = t.id) {_TABLE_JOIN}"
)


def _table_row(sql: str, token: str) -> tuple[Any, ...]:
    """The one row ``sql`` (selecting from :data:`_TABLE_JOIN`) finds for a table's token; 404
    for a token that opens no table (or a table without a game)."""
    with connection.cursor() as cursor:
        cursor.execute(sql, [token])
        row = cursor.fetchone()
    if row is None:
        raise Http404(gettext("No such table"))
    return tuple(row)


def table_status(*, token: str) -> TableStatus:
    """What a table's phone polls every few seconds (``table_live.js``, ``where_next.js``):
    ``{"game": {"version", "status"}, "round", "round_status", "is_open", "next_round":
    {"number", "seated"}}``. One query reading no hands and no names, so the room's polls
    stay cheap; the page fetches its live fragment only when the version moved. 404 for a
    token that opens no table (or a table without a game)."""
    version, game_status, number, round_status, event_status, next_seated = _table_row(
        TABLE_STATUS_SQL, token)
    return {
        "game": {"version": version, "status": game_status},
        "round": number,
        "round_status": round_status,
        "is_open": entry_closed_by(event_status=event_status, round_status=round_status) is None,
        "next_round": {"number": number + 1, "seated": bool(next_seated)},
    }


def table_ruleset(*, token: str) -> tuple[Ruleset, tuple[str, ...]]:
    """The rules a table's hands are scored by and the table's seats, for the check the entry
    form calls as a hand is typed (three or four a hand): one plain query, without building the
    table, round, event and club that :func:`table_by_token` returns (most of the check's time
    went there). 404 as :func:`table_status`."""
    preset, overrides, seated = _table_row(TABLE_RULESET_SQL, token)
    if isinstance(overrides, str | bytes):  # the JSON's text (SQLite; PostgreSQL as Django reads it)
        overrides = json.loads(overrides)
    ruleset = ruleset_for(preset=preset, overrides=overrides)
    # the table's seats: a table of the size seated (the largest, should a seat be empty)
    size = seated if seated in ruleset.table_sizes else max(ruleset.table_sizes)
    return ruleset, tuple(ruleset.seats_for(size))


def round_is_open(round_: Round) -> bool:
    """Whether a table's phone may still write (see :func:`entry_refusal`)."""
    return entry_refusal(round_) is None


class SideTotal(TypedDict):
    side: str
    points: int
    players: str
    is_winner: bool


class TableState(TypedDict):
    """Everything a device needs to show a table and enter its next hand (:func:`table_state`)."""

    event: Event
    round: Round
    table: Table
    game: Game
    seats: list[SeatRow]
    seat_names: dict[str, str]
    sides: tuple[str, ...]
    # the seat that sits the next hand out, where one more player than the hands dealt sits at
    # the table (the dealer)
    sitting_out: str | None
    needs_tricks: bool
    hands: list[RevisionRow]
    totals: list[SideTotal]
    next_number: int
    deals_played: int
    misdeals: int
    next_dealer: str
    is_open: bool
    can_enter: bool
    deals_per_round: int | None
    game_target: int | None
    counters_total: int
    scorer_name: str
    confirmers: list[SeatRow]
    confirmed_by_name: str


def table_state(*, table: Table) -> TableState:
    """Everything a device needs to show a table and enter its next hand."""
    round_ = table.round
    event = round_.event
    game = Game.objects.get(pk=table.game.pk)  # fresh: totals and status change under us
    ruleset = event_ruleset(event)
    seats = seats_of(table, ruleset)
    positions = [s["position"] for s in seats]
    sides = table_sides(ruleset, positions)
    hands = game_hands(game, sides)
    last = hands[-1] if hands else None
    # A misdeal is redealt by the same dealer and is not one of the game's deals; the deal
    # passes to the left, round every seat of the table (a player sitting out deals too).
    # (a technical misdeal too, unless the ruleset passes the deal on after one)
    redeal = {Outcome.MISDEAL} | (
        {Outcome.TECHNICAL_MISDEAL} if ruleset.misdeal_redeal == "same_dealer" else set())
    if last is None:
        next_dealer = positions[0]
    elif last["outcome"] in redeal:
        next_dealer = last["dealer"]
    else:
        next_dealer = ruleset.next_dealer(last["dealer"], positions)
    misdeals = sum(1 for h in hands if h["outcome"] in NO_BID_OUTCOMES)
    open_ = round_is_open(round_)
    names = {s["position"]: s["name"] for s in seats}
    totals: list[SideTotal] = [
        {
            "side": side,
            "points": int((game.totals or {}).get(side, 0)),
            "players": " & ".join(names[p] for p in ruleset.seats_of(side) if names.get(p)),
            "is_winner": game.winner == side,
        }
        for side in sides
    ]
    scorer_side = ruleset.side_of(game.scorer_position) if game.scorer_position else ""
    confirmers = [s for s in seats if s["side"] != scorer_side and s["entry_id"]]
    return {
        "event": event,
        "round": round_,
        "table": table,
        "game": game,
        "seats": seats,
        "seat_names": names,
        "sides": sides,
        # the seat that sits the next hand out, where one more player than the hands dealt sits
        # at the table (the dealer)
        "sitting_out": ruleset.sitting_out(positions, next_dealer),
        "needs_tricks": needs_tricks(ruleset),
        "hands": hands,
        "totals": totals,
        "next_number": len(hands) + 1,
        "deals_played": len(hands) - misdeals,
        "misdeals": misdeals,
        "next_dealer": next_dealer,
        "is_open": open_,
        "can_enter": open_ and game.status == Game.Status.PLAYING,
        "deals_per_round": event.deals_per_round,
        "game_target": ruleset.game_target,
        "counters_total": ruleset.counters_total,
        "scorer_name": names.get(game.scorer_position, ""),
        "confirmers": confirmers,
        "confirmed_by_name": game.confirmed_by.player.name if game.confirmed_by else "",
    }


def hand_with_context(*, hand_id: int) -> Hand:
    """A hand with its game, table, round, event and club (for permission checks); 404 if none."""
    hand = (
        Hand.objects.select_related("game__table__round__event__club")
        .filter(pk=hand_id)
        .first()
    )
    if hand is None:
        raise Http404(gettext("No such hand"))
    return hand


def hand_history(*, hand: Hand) -> list[RevisionRow]:
    """Every revision of a hand, oldest first, with who, when, from where and why."""
    revisions = hand.revisions.select_related("hand", "author").order_by("revision")
    return [revision_row(r) for r in revisions]


def event_rounds(*, event: Event) -> list[Round]:
    """The event's rounds with their tables (and each table's game and seats) for pickers."""
    tables = Table.objects.select_related("game").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("entry__player"))
    ).order_by("number")
    return list(
        Round.objects.filter(event=event)
        .prefetch_related(Prefetch("tables", queryset=tables))
        .order_by("number")
    )


def games_for_event(event: Event, *, unconfirmed_only: bool = False,
                    to_confirm_only: bool = False) -> list[SimpleNamespace]:
    """The event's games, by round and table, each with ``players`` (by seat) attached.

    With ``unconfirmed_only`` only games still playing or finished but not confirmed are listed
    (the director's "which tables are we waiting for" view); with ``to_confirm_only`` only those
    awaiting a confirmation: finished, or left unconfirmed in a closed round (the director
    screen's list). Two queries whatever the size: the games (with their table's and round's
    numbers and the confirming player's name) and the seated players' names. Plain rows, not
    models (384 games of a big day would be 1,500 models): each game reads as the pages read a
    game (``pk``, ``status``, ``hands_count``, ``totals``, ``winner``, ``forfeit``,
    ``adjusted``, ``table.number``, ``table.round.number``, ``confirmed_by.player.name``).
    """
    games = (
        Game.objects.filter(table__round__event=event)
        .order_by("table__round__number", "table__number")
    )
    if unconfirmed_only or to_confirm_only:
        games = games.exclude(status=Game.Status.CONFIRMED)
    if to_confirm_only:
        games = games.filter(Q(status=Game.Status.FINISHED)
                             | Q(table__round__status=Round.Status.CLOSED))
    rows = list(games.values_list(
        "pk", "table_id", "table__number", "table__round__number", "status", "hands_count",
        "totals", "winner", "forfeit", "adjusted", "confirmed_by_id",
        "confirmed_by__player__name"))
    names: dict[int, dict[str, str]] = {}
    seats = (Seat.objects.filter(table__round__event=event).order_by()
             .values_list("table_id", "position", "entry__player__name"))
    if unconfirmed_only or to_confirm_only:
        seats = seats.filter(table_id__in=[row[1] for row in rows])
    for table_id, position, name in seats:
        names.setdefault(table_id, {})[position] = name
    result = []
    rounds: dict[int, SimpleNamespace] = {}
    ruleset = event_ruleset(event)
    for (pk, table_id, table_number, round_number, status, hands_count, totals, winner,
         forfeit, adjusted, confirmed_by_id, confirmer) in rows:
        by_position = names.get(table_id, {})
        positions = table_seats(ruleset, by_position)
        round_ = rounds.setdefault(round_number, SimpleNamespace(number=round_number))
        result.append(SimpleNamespace(
            pk=pk, id=pk, table_id=table_id, status=status, hands_count=hands_count,
            totals=totals, winner=winner, forfeit=forfeit, adjusted=adjusted,
            table=SimpleNamespace(pk=table_id, id=table_id, number=table_number, round=round_),
            confirmed_by=None if confirmed_by_id is None else SimpleNamespace(
                pk=confirmed_by_id, player=SimpleNamespace(name=confirmer)),
            players=[{"position": p, "name": by_position.get(p, "")} for p in positions],
            # the players as one line, as the games' table shows them ("–" for an empty seat)
            players_line=" · ".join(by_position.get(p) or "–" for p in positions),
            totals_list=[{"side": side, "points": points}
                         for side, points in (totals or {}).items()],
        ))
    return result


def desk_confirmations(event: Event) -> dict[tuple[int, int], str]:
    """(round, table) -> where the desk's confirmation came from, in words ("signed score
    sheet"), for the games a director confirmed at the desk (the log's ``games_confirmed``)."""
    found: dict[tuple[int, int], str] = {}
    for details in EventLog.objects.filter(event=event, action="games_confirmed").order_by(
            "created_at", "pk").values_list("details", flat=True):
        label = DESK_SOURCES.get(str(details.get("source")), str(details.get("source")))
        for table in details.get("tables", []):
            found[(int(details.get("round", 0)), int(table))] = label
    return found

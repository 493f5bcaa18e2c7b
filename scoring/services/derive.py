"""A game's derived rows: its totals, winner, status and seat results rebuilt from its live hands
(one game, or a whole event at once), and the adjusted averages that follow the round's games."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from typing import NotRequired, TypedDict

from django.db import OperationalError, connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import DomainError
from common.rulesets import event_ruleset, table_seats, table_sides
from rules_engine import Ruleset, score_game
from tournaments.models import Event, Round, Seat

from ..models import NO_BID_OUTCOMES, Game, HandRevision, SeatResult
from .parse import revision_hand

# A forfeited game's ``finish_reason``.
FORFEIT = "forfeit"


# An adjusted game's ``finish_reason``, and the kinds of adjusted result a director can give.
ADJUSTED = "adjusted"


def _locked_game(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__round__event")
        .get(pk=game.pk)
    )


def _lock_idle(games: QuerySet[Game]) -> list[Game] | None:
    """``games`` locked without waiting, for a writer already holding the event's row: a hand
    on its way, or a director's correction, holds its game's row and takes the event's next, so
    waiting for it would deadlock. None while another writer holds one of them (nothing waits;
    the savepoint leaves the transaction usable for the refusal)."""
    try:
        with transaction.atomic():
            return list(games.select_for_update(of=("self",), nowait=True))
    except OperationalError:
        return None


def round_games_lock_idle(round_: Round) -> None:
    """Lock every game of ``round_`` without waiting (:func:`_lock_idle`), for a director's
    re-draw. Refused (``round``, code ``busy``) while a table is writing. Once they are locked,
    no hand can be on its way."""
    if _lock_idle(Game.objects.filter(table__round=round_).only("pk")) is None:
        raise DomainError(gettext("A table of this round is entering a hand right now: look at the round again, then decide."),
                          field="round", code="busy")


def event_games_lock_idle(event: Event) -> None:
    """Lock every game of the event without waiting (:func:`_lock_idle`), for a new deal count
    decided once the event's row is held (the caller's copy of the event was out of date, so
    the games were not locked first). Refused (``deals_per_round``, code ``busy``) while a
    table is writing."""
    if _lock_idle(Game.objects.filter(table__round__event=event).order_by("pk").only("pk")) is None:
        raise DomainError(gettext("A table is entering a hand right now: look at the event again, then change the deals per round."),
                          field="deals_per_round", code="busy")


def level_games_lock_idle(round_: Round) -> list[Game]:
    """The games of ``round_`` that ended level and wait for their cut (no longer playing, no
    winner, no cut), by table, locked without waiting (:func:`_lock_idle`), for the seating of
    the next round, which settles them. Refused (``round``, code ``busy``) while a director
    corrects one; the worker's seating retries."""
    found = _lock_idle(Game.objects.filter(table__round=round_, winner="", cut_winner="")
                       .exclude(status=Game.Status.PLAYING).select_related("table")
                       .order_by("table__number"))
    if found is None:
        raise DomainError(gettext("A game of this round is being corrected right now: look at the round again, then seat the next one."),
                          field="round", code="busy")
    return found


def _live_revisions(game: Game) -> list[HandRevision]:
    return list(
        HandRevision.objects.filter(hand__game=game, is_live=True)
        .select_related("hand")
        .order_by("hand__number")
    )


class Derived(TypedDict):
    """A game's fields derived from its live hands (:func:`_derive`); ``confirmed_by`` and
    ``confirmed_at`` are there (None) when the confirmation is cleared."""

    totals: dict[str, int]
    checks: dict[str, int] | None
    winner: str
    finish_reason: str
    hands_count: int
    status: str
    cut_winner: str
    confirmed_by: NotRequired[None]
    confirmed_at: NotRequired[None]


class AveragedResult(TypedDict, total=False):
    """An adjusted result of the round's average (``Game.adjusted``), as far as
    :func:`_averages_follow` reads it."""

    kind: str
    points: dict[str, int]
    reason: str
    games: int
    of: int


def _derive(
    *, game: Game, event: Event, round_number: int, revisions: Sequence[HandRevision],
    seats: Sequence[tuple[str, int]], ruleset: Ruleset,
) -> tuple[Derived, list[SeatResult]]:
    """A game's derived fields and seat results from its live hands (no queries). A forfeited
    game is decided for the other side whatever its hands say: no points for either side (the
    standings score the walkover, see ``standings.services``), hands entered before kept."""
    table = table_seats(ruleset, [position for position, _ in seats])
    sides = table_sides(ruleset, table)
    checks: dict[str, int] | None = None
    if game.forfeit:
        totals = {side: 0 for side in sides}
        finished, reason = True, FORFEIT
        winner = next(side for side in sides if side != game.forfeit)
    elif game.adjusted:
        # The director's adjusted result decides, whatever the hands say.
        given = game.adjusted.get("points") or {}
        totals = {side: int(given.get(side, 0)) for side in sides}
        finished, reason = True, ADJUSTED
        top = max(totals.values())
        leaders = [side for side, points in totals.items() if points == top]
        winner = leaders[0] if len(leaders) == 1 else ""
    elif revisions:
        hands = [revision_hand(r, ruleset, table) for r in revisions]
        result = score_game(hands, ruleset, max_deals=event.deals_per_round, seats=table)
        if result.finished_after is None and game.time_called:
            # Time: the game ends after the deals played (misdeals are not deals). Misdeals
            # after the last deal (redealing when time was called) score nothing and are kept
            # as entered, but are left out of the re-score: past the last counted deal the
            # engine would refuse them as hands after the end of the game.
            counted = [i for i, h in enumerate(hands) if h.outcome not in NO_BID_OUTCOMES]
            if counted:
                result = score_game(hands[:counted[-1] + 1], ruleset, max_deals=len(counted),
                                    seats=table)
        totals = dict(result.totals[-1])
        checks = dict(result.check_totals) if result.check_totals is not None else None
        winner, reason = result.winner or "", result.reason or ""
        finished = result.finished_after is not None
        if game.time_called and (not finished or reason == "deals"):
            finished, reason = True, "time"
    else:
        totals = {side: 0 for side in sides}
        finished = game.time_called
        winner, reason = "", "time" if finished else ""
    status = game.status
    if finished and status == Game.Status.PLAYING:
        status = Game.Status.FINISHED
    elif not finished:
        status = Game.Status.PLAYING
    fields: Derived = {
        "totals": totals, "checks": checks, "winner": winner, "finish_reason": reason,
        "hands_count": len(revisions), "status": status,
        # A cut settles a level game only while it stays level.
        "cut_winner": game.cut_winner if finished and not winner else "",
    }
    if not finished:
        fields["confirmed_by"] = fields["confirmed_at"] = None
    declared: dict[str, list[HandRevision]] = {}
    for r in revisions:
        if r.bidder:
            declared.setdefault(r.bidder, []).append(r)
    rows = []
    for position, entry_id in seats:
        side = ruleset.side_of(position)
        mine = declared.get(position, [])
        rows.append(SeatResult(
            game_id=game.pk, event_id=event.pk, entry_id=entry_id, round_number=round_number,
            position=position, side=side, points=totals.get(side, 0),
            opponents_points=sum(v for s, v in totals.items() if s != side),
            won=finished and winner == side, finished=finished,
            hands_declared=len(mine), hands_made=sum(1 for r in mine if r.made),
            hands_set=sum(1 for r in mine if r.made is False),
            checks=int((checks or {}).get(side, 0)),
        ))
    return fields, rows


def seat_rows(game: Game) -> list[tuple[str, int]]:
    """The (position, entry id) of every seat at the game's table: one query, kept on the
    game for the rest of the write (a locked game's seats do not move under it)."""
    rows: list[tuple[str, int]] | None = getattr(game, "_seat_rows", None)
    if rows is None:
        rows = list(Seat.objects.filter(table_id=game.table_id).values_list("position", "entry_id"))
        game._seat_rows = rows  # type: ignore[attr-defined]
    return rows


def game_seats(game: Game, ruleset: Ruleset) -> tuple[str, ...]:
    """The seats of the game's table, clockwise (``common.rulesets.table_seats``)."""
    return table_seats(ruleset, [position for position, _ in seat_rows(game)])


def level_sides(game: Game, ruleset: Ruleset) -> list[str]:
    """The sides of a finished game level at the top of its totals, in the table's order: the
    sides a cut of the cards settles (both partnerships of a drawn four-handed game)."""
    sides = table_sides(ruleset, game_seats(game, ruleset))
    totals = game.totals or {}
    top = max((int(totals.get(side, 0)) for side in sides), default=0)
    return [side for side in sides if int(totals.get(side, 0)) == top]


def _game_write(game: Game, revisions: Sequence[HandRevision], *, bump_version: bool,
                clear_confirmation: bool = False) -> None:
    """Write a game's derived fields and seat results from its live hands: four queries (the
    seats, one UPDATE of the game, the seat results replaced). ``game`` carries its table, round
    and event (as :func:`_locked_game` loads them); its fields are updated in place."""
    event = game.table.round.event
    was_decided = game.status != Game.Status.PLAYING
    seats = seat_rows(game)
    fields, rows = _derive(
        game=game, event=event, round_number=game.table.round.number, revisions=revisions,
        seats=seats, ruleset=event_ruleset(event),
    )
    if clear_confirmation:
        fields["confirmed_by"] = fields["confirmed_at"] = None
    now = timezone.now()
    update: dict[str, object] = {**fields, "updated_at": now}
    if bump_version:
        update["version"] = F("version") + 1
    Game.objects.filter(pk=game.pk).update(**update)
    for name, value in fields.items():
        setattr(game, name, value)
    game.updated_at = now
    if bump_version:
        game.version += 1
    SeatResult.objects.filter(game_id=game.pk).delete()
    SeatResult.objects.bulk_create(rows)
    # a result that counts for the round's average moved: the averaged games follow
    if ((was_decided or game.status != Game.Status.PLAYING)
            and (game.adjusted or {}).get("kind") != "average"):
        _averages_follow(game)


def game_recompute(*, game: Game) -> Game:
    """Rebuild a game's derived totals, status and seat results from its live hands."""
    game = Game.objects.select_related("table__round__event").get(pk=game.pk)
    _game_write(game, _live_revisions(game), bump_version=False)
    return game


def _games_update(updates: Sequence[tuple[int, Derived]], *, now: datetime) -> None:
    """Write derived game fields for many games: one UPDATE ... FROM (VALUES ...) on
    PostgreSQL, a row at a time elsewhere."""
    if not updates:
        return
    if connection.vendor != "postgresql":
        for pk, fields in updates:
            Game.objects.filter(pk=pk).update(**fields, updated_at=now)
        return
    table = Game._meta.db_table
    for start in range(0, len(updates), 500):
        chunk = updates[start:start + 500]
        values = ", ".join(
            ["(%s::bigint, %s::jsonb, %s::text, %s::text, %s::int, %s::text, %s::boolean, "
             "%s::text, %s::jsonb)"]
            * len(chunk)
        )
        params: list[int | str | bool | None] = []
        for pk, f in chunk:
            params += [pk, json.dumps(f["totals"]), f["winner"], f["finish_reason"],
                       f["hands_count"], f["status"], "confirmed_by" in f, f["cut_winner"],
                       None if f["checks"] is None else json.dumps(f["checks"])]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS g SET totals = v.totals, winner = v.winner, "  # noqa: S608
                "finish_reason = v.reason, hands_count = v.hands, status = v.status, "
                "cut_winner = v.cut, checks = v.checks, "
                "confirmed_by_id = CASE WHEN v.clear THEN NULL ELSE g.confirmed_by_id END, "
                "confirmed_at = CASE WHEN v.clear THEN NULL ELSE g.confirmed_at END, "
                "updated_at = %s "
                f"FROM (VALUES {values}) AS v(id, totals, winner, reason, hands, status, clear, "
                "cut, checks) "
                "WHERE g.id = v.id",
                [now, *params],
            )


def _seat_results_insert(rows: Sequence[SeatResult]) -> None:
    """Insert many seat results: COPY on PostgreSQL (bulk_create spends its time preparing
    values), bulk_create elsewhere."""
    if connection.vendor != "postgresql":
        SeatResult.objects.bulk_create(rows, batch_size=1000)
        return
    columns = _SEAT_RESULT_FIELDS  # the attribute names are the column names (no db_column)
    with connection.cursor() as cursor, cursor.copy(
        f"COPY {SeatResult._meta.db_table} ({', '.join(columns)}, event_id) FROM STDIN"
    ) as copy:
        for row in rows:
            copy.write_row([*(getattr(row, f) for f in _SEAT_RESULT_FIELDS), row.event_id])


_SEAT_RESULT_FIELDS = (
    "game_id", "entry_id", "round_number", "position", "side", "points", "opponents_points",
    "won", "finished", "hands_declared", "hands_made", "hands_set", "checks",
)


def _untouched(game: Game, revisions: Sequence[HandRevision] | None) -> bool:
    """A game never scored: seated, no hand entered, nothing decided by a director (no
    forfeit, no adjusted result), its totals never written. The scoring services derive a game
    the first time something happens to it, so until then it has no seat results, and the
    standings no column for its round (the kept totals of ``standings.incremental``, the
    verifier's ``untouched``, an imported archive); a full rebuild leaves it so."""
    return not revisions and not game.totals and not game.forfeit and not game.adjusted


@transaction.atomic
def event_recompute(*, event: Event) -> int:
    """Rebuild every game of the event from its hands in a handful of queries (the full rebuild
    behind ``rebuild_standings``); returns the number of games. A game never scored stays
    untouched (:func:`_untouched`): a round just seated gets no seat results of 0 here that the
    hands' own path would not write."""
    ruleset = event_ruleset(event)
    games = list(
        Game.objects.select_for_update(of=("self",))
        .filter(table__round__event=event).select_related("table__round").order_by("pk")
    )
    revisions: dict[int, list[HandRevision]] = {}
    for r in (
        HandRevision.objects.filter(hand__game__table__round__event=event, is_live=True)
        .select_related("hand").order_by("hand__game_id", "hand__number")
    ):
        revisions.setdefault(r.hand.game_id, []).append(r)
    seats: dict[int, list[tuple[str, int]]] = {}
    for table_id, position, entry_id in Seat.objects.filter(
        table__round__event=event
    ).values_list("table_id", "position", "entry_id"):
        seats.setdefault(table_id, []).append((position, entry_id))
    now = timezone.now()
    rows: list[SeatResult] = []
    updates: list[tuple[int, Derived]] = []
    for game in games:
        if _untouched(game, revisions.get(game.pk)):
            continue
        fields, game_rows = _derive(
            game=game, event=event, round_number=game.table.round.number,
            revisions=revisions.get(game.pk, []), seats=seats.get(game.table_id, []),
            ruleset=ruleset,
        )
        rows.extend(game_rows)
        # Usually nothing changed: write only the games that differ (a per-row UPDATE beats
        # bulk_update's CASE expressions by far at this size).
        changed = {k: v for k, v in fields.items()
                   if getattr(game, k if k != "confirmed_by" else "confirmed_by_id") != v}
        if changed:
            updates.append((game.pk, fields))
    _games_update(updates, now=now)
    stored = sorted(SeatResult.objects.filter(event=event).values_list(*_SEAT_RESULT_FIELDS))
    fresh = sorted(tuple(getattr(r, f) for f in _SEAT_RESULT_FIELDS) for r in rows)
    if stored != fresh:
        SeatResult.objects.filter(event=event).delete()
        _seat_results_insert(rows)
    return len(games)


def _round_average(game: Game) -> tuple[int, int, int] | None:
    """The mean of the side totals of the round's other games played out (decided, not
    forfeited or themselves averaged), rounded half up, with how many games it averages and
    how many the round has besides ``game``: ``(mean, games, of)``; None when there is none
    yet."""
    others = list(
        Game.objects.filter(table__round_id=game.table.round_id).exclude(pk=game.pk)
        .values_list("status", "forfeit", "totals", "adjusted"))
    counted = [totals or {} for status, forfeit, totals, adjusted in others
               if status != Game.Status.PLAYING and not forfeit
               and not (adjusted and adjusted.get("kind") == "average")]
    totals = [int(points) for game_totals in counted for points in game_totals.values()]
    if not totals:
        return None
    mean = int((Decimal(sum(totals)) / Decimal(len(totals))).quantize(
        Decimal(1), rounding=ROUND_HALF_UP))
    return mean, len(counted), len(others)


def _averaged_in_round(round_id: int) -> QuerySet[Game]:
    """The games of the round given its average, locked in one order: a hand locks them after
    its own game and before the event's row (:func:`_averages_follow`), and so does a
    director's decision (:func:`averaged_games_lock`)."""
    return (Game.objects.select_for_update(of=("self",))
            .filter(table__round_id=round_id, adjusted__kind="average").order_by("pk"))


def averaged_games_lock(round_id: int) -> None:
    """For a director's decision holding games of the round and about to take the event's row:
    the round's averaged games first, which the decision's results move (in the order a hand
    takes them: no deadlock with a hand on its way)."""
    list(_averaged_in_round(round_id).only("pk"))


def _averages_follow(game: Game) -> None:
    """A game of the round changed its result: every game of the round given the round's
    average follows it (the mean of the games played out so far), until the round is closed.
    An average given when 4 of 50 games were finished is the average of all 49 in the end."""
    if game.table.round.status == Round.Status.CLOSED:
        return
    averaged = list(_averaged_in_round(game.table.round_id).exclude(pk=game.pk)
                    .select_related("table__round__event"))
    for other in averaged:
        found = _round_average(other)
        if found is None:
            continue
        mean, counted, of = found
        before: AveragedResult = {}
        if other.adjusted:
            before = other.adjusted
        given = {side: mean for side in before.get("points", {})}
        if given == before.get("points") and counted == before.get("games"):
            continue
        adjusted = {**before, "points": given, "games": counted, "of": of}
        Game.objects.filter(pk=other.pk).update(adjusted=adjusted)
        other.adjusted = adjusted
        _game_write(other, _live_revisions(other), bump_version=True)

"""Score entry: the only code that writes hands.

Flow of one entry (docs/architecture.md, "A hand, end to end"): lock the game row, turn the submitted values into a rules-engine
hand, score it, and either raise field-level errors (nothing stored) or store the hand and its
first revision in one transaction, rebuild the game's derived rows, bump the event's
``hands_version``, and queue a standings update on commit.

Concurrency: the game row lock serialises writers across processes. A device that submits a new
hand for a number that already exists, or a correction based on a revision that is no longer
live, gets a :class:`ConflictError` carrying the stored values. A retried submission carrying
the same idempotency key returns the revision stored the first time.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from common.errors import ConflictError, DomainError
from common.rulesets import event_ruleset
from common.tasks import (
    ROUND_CONFIRMED,
    ratings_request_update,
    standings_request_update,
    task_queue,
)
from rules_engine import Hand as EngineHand
from rules_engine import Outcome, RulesError, Ruleset, parse_hand, score_game, score_hand
from tournaments.models import Event, Round, Seat
from tournaments.selectors import results_final_check
from tournaments.services import (
    check_event_settings_change,
    event_lock,
    event_log,
    event_results_changed,
    hands_version_bump,
    pair_withdraw,
)

from .models import DESK_SOURCES, Game, Hand, HandRevision, SeatResult
from .selectors import entry_refusal, revision_values

# A forfeited game's ``finish_reason``.
FORFEIT = "forfeit"
# An adjusted game's ``finish_reason``, and the kinds of adjusted result a director can give.
ADJUSTED = "adjusted"
ADJUST_KINDS = {
    "points": "Both sides' points, as the director sets them",
    "average": "Average of the round (the mean of the other games' side totals, following them "
               "until the round closes)",
    "forfeit": "A forfeit by one side (formats with forfeits)",
}
# An adjusted side's points are at most this far from 0 (the column is a 32-bit integer).
ADJUSTED_POINTS_LIMIT = 100_000

HAND_FIELDS = ("dealer", "bidder", "bid", "trump", "outcome", "renege_seat", "meld", "counters")


def _clean_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """Drop empty form fields so the engine reports what is missing, not what is blank."""
    cleaned: dict[str, Any] = {}
    for key in HAND_FIELDS:
        value = values.get(key)
        if value in (None, ""):
            continue
        if isinstance(value, Mapping):
            inner = {k: v for k, v in value.items() if v not in (None, "")}
            if not inner:
                continue
            value = inner
        cleaned[key] = value
    return cleaned


def hand_check(*, values: Mapping[str, Any], ruleset: Ruleset) -> tuple[EngineHand, Any]:
    """Validate and score values without storing anything (also used for live form checks)."""
    hand = parse_hand(_clean_values(values), ruleset)
    return hand, score_hand(hand, ruleset)


# Parsed hands by their stored values: a save re-derives its game from every live hand, and a
# hand's values never change once stored (a correction is a new revision with its own values), so
# each hand is parsed once per process instead of once per later save of its game. Kept per
# ruleset (``Ruleset.memo``), keyed by the values themselves, never by a row's id, so nothing
# needs forgetting: a correction, a deletion or another ruleset simply asks for other keys.
PARSED_HANDS_KEPT = 4096  # per ruleset, least recently used out
_parsed_lock = threading.Lock()


def _values_key(values: Mapping[str, Any]) -> tuple[Any, ...]:
    return tuple(
        (k, json.dumps(v, sort_keys=True) if isinstance(v, Mapping) else v)
        for k, v in sorted(values.items())
    )


def revision_hand(revision: HandRevision, ruleset: Ruleset) -> EngineHand:
    """The rules engine's hand of a stored revision (``parse_hand`` of its values), parsed once
    per process, ruleset and values (see ``PARSED_HANDS_KEPT``)."""
    values = revision_values(revision)
    key = _values_key(values)
    kept: OrderedDict[tuple[Any, ...], EngineHand] = ruleset.memo("parsed_hands", OrderedDict)
    with _parsed_lock:
        hand = kept.get(key)
        if hand is not None:
            kept.move_to_end(key)
            return hand
    hand = parse_hand(values, ruleset)
    with _parsed_lock:
        kept[key] = hand
        while len(kept) > PARSED_HANDS_KEPT:
            kept.popitem(last=False)
    return hand


def _locked_game(game: Game) -> Game:
    return (
        Game.objects.select_for_update(of=("self",))
        .select_related("table__round__event")
        .get(pk=game.pk)
    )


def _live_revisions(game: Game) -> list[HandRevision]:
    return list(
        HandRevision.objects.filter(hand__game=game, is_live=True)
        .select_related("hand")
        .order_by("hand__number")
    )


def _check_open(game: Game, *, as_director: bool, note: str) -> None:
    """May this writer change this game's hands now? A confirmed game is locked: the table's
    link can no longer change it, and a director must say why (the change then clears the
    confirmation, visibly: see :func:`_after_write`)."""
    refusal = entry_refusal(game.table.round, as_director=as_director)
    if refusal is not None:
        raise refusal
    if game.forfeit:
        raise DomainError(
            f"This game was forfeited by {game.forfeit}: it takes no more hands.",
            field="number", code="forfeited",
        )
    if game.adjusted:
        raise DomainError(
            "This game has an adjusted result from the director: it takes no more hands.",
            field="number", code="adjusted",
        )
    if game.status == Game.Status.CONFIRMED:
        if not as_director:
            raise DomainError(
                "This game is confirmed: only a director can change it now. Ask the director.",
                field="number", code="confirmed",
            )
        if not note.strip():
            raise DomainError("Say why a confirmed game is changed.", field="note")
    if game.table.round.status == Round.Status.CLOSED and not note.strip():
        raise DomainError("Say why a closed round's hand is changed.", field="note")


def _replayed(key: str | None, *, game: Game, hand: Hand | None = None) -> HandRevision | None:
    """The revision stored earlier under ``key`` (a retried submission), or None.

    Keys are unique across all games; a key stored for another game or hand is refused rather
    than answered with that other hand (a device must not learn or claim another table's hand).
    """
    if not key:
        return None
    earlier = HandRevision.objects.filter(idempotency_key=key).select_related("hand").first()
    if earlier is None:
        return None
    if earlier.hand.game_id != game.pk or (hand is not None and earlier.hand_id != hand.pk):
        raise DomainError(
            "This submission key was already used for another hand; reload the page and "
            "enter the hand again.",
            field="idempotency_key",
        )
    return earlier


def _store_revision(
    *, hand: Hand, number: int, engine_hand: EngineHand, score: Any, author: Any, source: str,
    note: str, idempotency_key: str | None,
) -> HandRevision:
    data = engine_hand.to_dict()
    return HandRevision.objects.create(
        hand=hand,
        revision=number,
        is_live=True,
        dealer=data["dealer"],
        bidder=data.get("bidder") or "",
        bid=data.get("bid"),
        trump=data.get("trump") or "",
        outcome=data["outcome"],
        renege_seat=data.get("renege_seat") or "",
        meld=dict(data.get("meld") or {}),
        counters=dict(data["counters"]) if data.get("counters") is not None else None,
        points=dict(score.points),
        result=score.result,
        made=score.made,
        reason=score.reason[:200],
        author=_user(author),
        source=source,
        note=note[:200],
        idempotency_key=idempotency_key or None,
    )


def _after_write(game: Game, revisions: Sequence[HandRevision], *, author: Any = None,
                 note: str = "") -> None:
    """Re-derive the locked game from its live hands (``revisions``, in hand order), then mark
    the event's standings behind. A change to a confirmed game clears its confirmation and says
    so in the event log. The event row is bumped last (``tournaments.services.hands_version_bump``):
    callers write nothing after this but the round's start (``hand_submit``, once a round)."""
    if game.status == Game.Status.CONFIRMED:
        event_log(game.table.round.event, author, "confirmation_cleared",
                  round=game.table.round.number, table=game.table.number,
                  confirmed_by=game.confirmed_by_id, note=note)
        game.status = Game.Status.FINISHED
        _game_write(game, revisions, bump_version=True, clear_confirmation=True)
        # its rating changes are undone until it is confirmed again
        ratings_request_update(game_id=game.pk, round_id=game.table.round_id)
    else:
        _game_write(game, revisions, bump_version=True)
    event_id = game.table.round.event_id
    hands_version_bump(event_id=event_id)
    standings_request_update(event_id=event_id)


@transaction.atomic
def hand_submit(
    *,
    game: Game,
    number: int,
    values: Mapping[str, Any],
    author: Any = None,
    source: str = HandRevision.Source.TABLE,
    idempotency_key: str | None = None,
    as_director: bool = False,
    note: str = "",
    table_device: bool = False,
) -> HandRevision:
    """Store a new hand (the next one of the game) after the rules engine accepts it.

    ``table_device``: the table's own phone writes (its token, no login). It names the game's
    keeper first (:func:`game_set_scorer`): before that its hands are refused, naming
    ``scorer``, so that a player of the other side confirms the game. A scorer's or a director's
    desk enters for any table and is not asked.

    A retried submission (same ``idempotency_key``) returns the revision stored the first time,
    with ``replayed`` set on it; a new one has ``replayed`` false.
    """
    locked = _locked_game(game)
    # Checked under the lock: a twin request that committed while we waited is seen here.
    earlier = _replayed(idempotency_key, game=game)
    if earlier is not None:
        earlier.replayed = True  # type: ignore[attr-defined]
        return earlier
    _check_open(locked, as_director=as_director, note=note)
    ruleset = event_ruleset(locked.table.round.event)
    revisions = _live_revisions(locked)
    expected = len(revisions) + 1
    if number < expected:
        current = revisions[number - 1] if number >= 1 else None
        raise ConflictError(
            f"Hand {number} has already been entered (by another device?). "
            "Check the stored values below; correct them if they are wrong.",
            field="number",
            current=revision_values(current) | {"revision": current.revision} if current else None,
        )
    if number != expected:
        raise DomainError(f"The next hand of this game is hand {expected}.", field="number")
    if locked.status != Game.Status.PLAYING and revisions:
        raise DomainError("This game is over; no more hands can be entered.", field="number",
                          code="game_over")
    if table_device and not as_director and not locked.scorer_position:
        raise DomainError(
            "Name the player who keeps score on this phone first (tap their name): a player of "
            "the other side confirms the game at the end.",
            field="scorer", code="no_scorer",
        )
    engine_hand, score = hand_check(values=values, ruleset=ruleset)
    hand = Hand.objects.create(game=locked, number=number)
    revision = _store_revision(
        hand=hand, number=1, engine_hand=engine_hand, score=score, author=author,
        source=source, note=note, idempotency_key=idempotency_key,
    )
    _after_write(locked, [*revisions, revision], author=author, note=note)
    round_ = locked.table.round
    if round_.status == Round.Status.SEATED:
        # The first hand of a round the director did not start: play has begun (the director
        # screen times tables from here). One conditional UPDATE, once per round, and after
        # the event's row, in the order a director's start takes them (the event, then the
        # round): the other order deadlocked with a director starting the round meanwhile.
        Round.objects.filter(pk=round_.pk, status=Round.Status.SEATED).update(
            status=Round.Status.PLAYING, started_at=timezone.now())
        round_.status = Round.Status.PLAYING
    revision.replayed = False  # type: ignore[attr-defined]
    return revision


@transaction.atomic
def hand_correct(
    *,
    hand: Hand,
    values: Mapping[str, Any],
    expected_revision: int,
    author: Any = None,
    source: str = HandRevision.Source.DIRECTOR,
    note: str = "",
    as_director: bool = False,
    idempotency_key: str | None = None,
) -> HandRevision:
    """Replace a hand's live values by a new revision; the old one is kept for the audit."""
    earlier = _replayed(idempotency_key, game=hand.game, hand=hand)
    if earlier is not None:
        return earlier
    locked = _locked_game(hand.game)
    _check_open(locked, as_director=as_director, note=note)
    live = HandRevision.objects.select_for_update().get(hand=hand, is_live=True)
    if live.revision != expected_revision:
        raise ConflictError(
            f"Hand {hand.number} was changed by someone else (now version {live.revision}). "
            "Check the stored values and try again.",
            field="expected_revision",
            current=revision_values(live) | {"revision": live.revision},
        )
    ruleset = event_ruleset(locked.table.round.event)
    engine_hand, score = hand_check(values=values, ruleset=ruleset)
    new_values = engine_hand.to_dict()
    if all(new_values.get(k) == revision_values(live).get(k) for k in HAND_FIELDS) and not note:
        return live  # nothing changed: no revision
    revisions = _live_revisions(locked)
    replayed = [r if r.hand_id != hand.pk else None for r in revisions]
    engine_hands = [
        engine_hand if r is None else revision_hand(r, ruleset) for r in replayed
    ]
    try:
        score_game(engine_hands, ruleset, max_deals=locked.table.round.event.deals_per_round)
    except RulesError as exc:
        raise DomainError(
            f"With this change the game would end before its last entered hand "
            f"({exc.errors[0].message}). Correct or delete the later hands first.",
            field="number",
        ) from None
    HandRevision.objects.filter(pk=live.pk).update(is_live=False)
    revision = _store_revision(
        hand=hand, number=live.revision + 1, engine_hand=engine_hand, score=score,
        author=author, source=source, note=note, idempotency_key=idempotency_key,
    )
    _after_write(locked, [revision if r.hand_id == hand.pk else r for r in revisions],
                 author=author, note=note)
    return revision


def _user(actor: Any) -> Any:
    return actor if getattr(actor, "is_authenticated", False) else None


@transaction.atomic
def hand_delete_last(
    *, game: Game, number: int, expected_revision: int, note: str, author: Any = None,
    as_director: bool = False,
) -> HandRevision:
    """Delete the last hand of a game (entered by mistake). The caller names the hand and the
    revision it saw: anything else is stale (a phone entered another hand meanwhile, or a double
    submit already deleted it) and answers with a conflict, deleting nothing. The hand keeps its
    row and its history: a final revision records the deletion, who made it and why."""
    if not note.strip():
        raise DomainError("Say why the hand is deleted.", field="note")
    locked = _locked_game(game)
    _check_open(locked, as_director=as_director, note=note)
    revisions = _live_revisions(locked)
    if not revisions:
        raise DomainError("This game has no hands.", field="number")
    live = revisions[-1]
    last = live.hand
    if last.number != number or live.revision != expected_revision:
        raise ConflictError(
            f"The last hand is now hand {last.number} (version {live.revision}), not the one "
            "you saw; nothing was deleted. Check it and try again.",
            field="number",
            current=revision_values(live) | {"number": last.number, "revision": live.revision},
        )
    HandRevision.objects.filter(pk=live.pk).update(is_live=False)
    deletion = HandRevision.objects.create(
        hand=last, revision=live.revision + 1, is_live=False, is_deletion=True,
        dealer=live.dealer, bidder=live.bidder, bid=live.bid, trump=live.trump,
        outcome=live.outcome, renege_seat=live.renege_seat, meld=live.meld,
        counters=live.counters, points=live.points, result=live.result, made=live.made,
        reason="deleted", author=_user(author),
        source=HandRevision.Source.DIRECTOR if as_director else HandRevision.Source.TABLE,
        note=note[:200],
    )
    Hand.objects.filter(pk=last.pk).update(deleted_at=timezone.now())
    event_log(locked.table.round.event, author, "hand_deleted", table=locked.table.number,
              round=locked.table.round.number, hand=last.number, values=revision_values(live),
              note=note)
    _after_write(locked, revisions[:-1], author=author, note=note)
    return deletion


def _derive(
    *, game: Game, event: Event, round_number: int, revisions: Sequence[HandRevision],
    seats: Sequence[tuple[str, int]], ruleset: Ruleset,
) -> tuple[dict[str, Any], list[SeatResult]]:
    """A game's derived fields and seat results from its live hands (no queries). A forfeited
    game is decided for the other side whatever its hands say: no points for either side (the
    standings score the walkover, see ``standings.services``), hands entered before kept."""
    if game.forfeit:
        totals = {side: 0 for side in ruleset.sides}
        finished, reason = True, FORFEIT
        winner = next(side for side in ruleset.sides if side != game.forfeit)
    elif game.adjusted:
        # The director's adjusted result decides, whatever the hands say.
        given = game.adjusted.get("points") or {}
        totals = {side: int(given.get(side, 0)) for side in ruleset.sides}
        finished, reason = True, ADJUSTED
        top = max(totals.values())
        leaders = [side for side, points in totals.items() if points == top]
        winner = leaders[0] if len(leaders) == 1 else ""
    elif revisions:
        hands = [revision_hand(r, ruleset) for r in revisions]
        result = score_game(hands, ruleset, max_deals=event.deals_per_round)
        if result.finished_after is None and game.time_called:
            # Time: the game ends after the deals played (misdeals are not deals). Misdeals
            # after the last deal (redealing when time was called) score nothing and are kept
            # as entered, but are left out of the re-score: past the last counted deal the
            # engine would refuse them as hands after the end of the game.
            counted = [i for i, h in enumerate(hands) if h.outcome != Outcome.MISDEAL]
            if counted:
                result = score_game(hands[:counted[-1] + 1], ruleset, max_deals=len(counted))
        totals = dict(result.totals[-1])
        winner, reason = result.winner or "", result.reason or ""
        finished = result.finished_after is not None
        if game.time_called and (not finished or reason == "deals"):
            finished, reason = True, "time"
    else:
        totals = {side: 0 for side in ruleset.sides}
        finished = game.time_called
        winner, reason = "", "time" if finished else ""
    status = game.status
    if finished and status == Game.Status.PLAYING:
        status = Game.Status.FINISHED
    elif not finished:
        status = Game.Status.PLAYING
    fields: dict[str, Any] = {
        "totals": totals, "winner": winner, "finish_reason": reason,
        "hands_count": len(revisions), "status": status,
        # A cut settles a level game only while it stays level.
        "cut_winner": game.cut_winner if finished and not winner else "",
    }
    if not finished:
        fields |= {"confirmed_by": None, "confirmed_at": None}
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
        ))
    return fields, rows


def _game_write(game: Game, revisions: Sequence[HandRevision], *, bump_version: bool,
                clear_confirmation: bool = False) -> None:
    """Write a game's derived fields and seat results from its live hands: four queries (the
    seats, one UPDATE of the game, the seat results replaced). ``game`` carries its table, round
    and event (as :func:`_locked_game` loads them); its fields are updated in place."""
    event = game.table.round.event
    was_decided = game.status != Game.Status.PLAYING
    seats = list(Seat.objects.filter(table_id=game.table_id).values_list("position", "entry_id"))
    fields, rows = _derive(
        game=game, event=event, round_number=game.table.round.number, revisions=revisions,
        seats=seats, ruleset=event_ruleset(event),
    )
    if clear_confirmation:
        fields |= {"confirmed_by": None, "confirmed_at": None}
    now = timezone.now()
    update: dict[str, Any] = {**fields, "updated_at": now}
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


def _games_update(updates: Sequence[tuple[int, dict[str, Any]]], *, now: Any) -> None:
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
             "%s::text)"]
            * len(chunk)
        )
        params: list[Any] = []
        for pk, f in chunk:
            params += [pk, json.dumps(f["totals"]), f["winner"], f["finish_reason"],
                       f["hands_count"], f["status"], "confirmed_by" in f, f["cut_winner"]]
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {table} AS g SET totals = v.totals, winner = v.winner, "  # noqa: S608
                "finish_reason = v.reason, hands_count = v.hands, status = v.status, "
                "cut_winner = v.cut, "
                "confirmed_by_id = CASE WHEN v.clear THEN NULL ELSE g.confirmed_by_id END, "
                "confirmed_at = CASE WHEN v.clear THEN NULL ELSE g.confirmed_at END, "
                "updated_at = %s "
                f"FROM (VALUES {values}) AS v(id, totals, winner, reason, hands, status, clear, "
                "cut) "
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
    "won", "finished", "hands_declared", "hands_made", "hands_set",
)


@transaction.atomic
def event_recompute(*, event: Event) -> int:
    """Rebuild every game of the event from its hands in a handful of queries (the full rebuild
    behind ``rebuild_standings``); returns the number of games."""
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
    updates: list[tuple[int, dict[str, Any]]] = []
    for game in games:
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


@transaction.atomic
def game_set_scorer(*, game: Game, position: str) -> Game:
    """Name the seat that keeps score on the table's phone (the *keeper*): a player of the other
    side confirms the game (:func:`game_confirm`). Named before the first hand (the table's phone
    enters no hand before, see :func:`hand_submit`) and fixed from then on: once a hand is
    stored another keeper is refused, naming ``scorer``; naming the same seat again answers the
    game unchanged (a phone's retry). A game whose first hands came from a desk may still name its
    keeper while it is played, never once it is over (the winners would pick who confirms)."""
    locked = _locked_game(game)
    ruleset = event_ruleset(locked.table.round.event)
    if position not in ruleset.seats:
        raise DomainError(f"Pick the seat of the player keeping score: {', '.join(ruleset.seats)}.",
                          field="scorer", code="invalid_choice")
    if locked.scorer_position == position:
        return locked
    names = {s.position: s.entry.player.name
             for s in Seat.objects.filter(table=locked.table).select_related("entry__player")}
    if position not in names:
        raise DomainError("Nobody sits at that seat of this table.", field="scorer",
                          code="invalid_choice")
    if locked.scorer_position and locked.hands_count:
        keeper = names.get(locked.scorer_position) or locked.scorer_position
        raise DomainError(
            f"{keeper} ({locked.scorer_position}) keeps score for this game since its first "
            "hand; the keeper cannot change now.",
            field="scorer", code="scorer_chosen",
        )
    if locked.status != Game.Status.PLAYING:
        raise DomainError("This game is over: the keeper is named before the first hand, not "
                          "after the last.", field="scorer", code="game_over")
    locked.scorer_position = position
    locked.save(update_fields=["scorer_position"])
    return locked


def _round_confirmed_advance(round_: Round) -> None:
    """Once every game of the round is confirmed, ask (on commit) for what follows: formats that
    seat themselves build the next round (``draw.tasks.round_confirmed``, idempotent)."""
    if not Game.objects.filter(table__round_id=round_.pk).exclude(
            status=Game.Status.CONFIRMED).exists():
        task_queue(ROUND_CONFIRMED, args=(round_.event_id, round_.number))


@transaction.atomic
def game_confirm(*, game: Game, position: str) -> Game:
    """A player of the side that did not keep score confirms the finished game: a player of the
    keeper's side is refused. A game without a keeper had its hands entered at a desk (the
    table's phone names one before its first hand): any of its players confirms it."""
    locked = _locked_game(game)
    ruleset = event_ruleset(locked.table.round.event)
    if locked.status == Game.Status.CONFIRMED:
        return locked
    results_final_check(locked.table.round.event)
    if locked.status != Game.Status.FINISHED:
        raise DomainError("The game is not finished yet.", field="status")
    seat = Seat.objects.filter(table=locked.table, position=position).select_related("entry").first()
    if seat is None:
        raise DomainError("That seat is not at this table.", field="position")
    if locked.scorer_position and ruleset.side_of(position) == ruleset.side_of(locked.scorer_position):
        raise DomainError(
            f"{position} is on the keeper's side ({locked.scorer_position} kept score): a player "
            "of the other side confirms.", field="position", code="scorer_side",
        )
    _game_confirmed(locked, by=seat.entry)
    _round_confirmed_advance(locked.table.round)
    return locked


def _game_confirmed(locked: Game, *, by: Any = None) -> None:
    """Mark the locked, finished game confirmed (``by`` the entry that confirmed it; None at
    the desk) and queue its rating; the caller then asks for the round's advance."""
    locked.status = Game.Status.CONFIRMED
    locked.confirmed_by = by
    locked.confirmed_at = timezone.now()
    locked.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    ratings_request_update(game_id=locked.pk, round_id=locked.table.round_id)


@transaction.atomic
def games_confirm_at_desk(*, round_: Round, tables: Sequence[int], source: str,
                          actor: Any = None) -> list[dict[str, Any]]:
    """A director confirms finished games of ``round_`` at the desk (from the players' signed
    score sheets, ``source``), table by table: each finished game is confirmed as if its other
    side had confirmed it (the rating, and once the round's last game is confirmed its advance);
    a game still playing or a table the round does not have is refused with its reason while the
    others are confirmed; a game already confirmed says so. One log row names the director, the
    source and the tables. Returns one result per table asked, in the order asked:
    ``{"table", "confirmed", "already"?, "error"?, "code"?}``."""
    if source not in DESK_SOURCES:
        raise DomainError(f"Say where the confirmation comes from: {', '.join(DESK_SOURCES)}.",
                          field="source")
    asked = list(dict.fromkeys(int(t) for t in tables))
    if not asked:
        raise DomainError("Pick at least one table.", field="tables")
    event = round_.event
    if event.status in (Event.Status.FINISHED, Event.Status.CANCELLED):
        raise DomainError("This event is over: reopen it before confirming games.",
                          field="round", code="event_over")
    games = {g.table.number: g for g in Game.objects.filter(
        table__round=round_, table__number__in=asked).select_related("table")}
    results: dict[int, dict[str, Any]] = {}
    confirmed: list[int] = []
    for number in sorted(asked):  # one lock order for every writer: no deadlock between desks
        game = games.get(number)
        if game is None:
            results[number] = {"table": number, "confirmed": False, "code": "no_table",
                               "error": f"Round {round_.number} has no table {number}."}
            continue
        locked = _locked_game(game)
        if locked.status == Game.Status.CONFIRMED:
            results[number] = {"table": number, "confirmed": True, "already": True}
        elif locked.status != Game.Status.FINISHED:
            hands = locked.hands_count
            results[number] = {
                "table": number, "confirmed": False, "code": "not_finished",
                "error": f"Table {number} is still playing ({hands} hand"
                         f"{'' if hands == 1 else 's'} entered): the game is not finished."}
        else:
            _game_confirmed(locked)
            confirmed.append(number)
            results[number] = {"table": number, "confirmed": True}
    if confirmed:
        event_log(event, actor, "games_confirmed", round=round_.number, tables=confirmed,
                  source=source)
        _round_confirmed_advance(round_)
    return [results[n] for n in asked]


@transaction.atomic
def round_call_time(*, round_: Round, actor: Any = None, confirm_empty: bool = False) -> list[int]:
    """Time is up for a timed round: every game still playing ends after the deals entered,
    the side ahead winning (a level game is settled by a cut). Returns the tables ended.
    The games then wait for confirmation like any finished game.

    A table still playing with no hand entered would end 0-0: that is refused (code
    ``no_hands``, field ``confirm``, naming the tables) unless ``confirm_empty`` says the
    director has seen it (the tables may be keeping paper sheets, entered later)."""
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    results_final_check(event)
    word = event.sitting
    if round_.status == Round.Status.CLOSED:
        raise DomainError(f"{word.capitalize()} {round_.number} is closed.", field="round")
    games = list(
        Game.objects.select_for_update(of=("self",)).select_related("table__round__event")
        .filter(table__round=round_, status=Game.Status.PLAYING).order_by("table__number")
    )
    empty = [g.table.number for g in games if not g.hands_count]
    if empty and not confirm_empty:
        tables = ", ".join(str(n) for n in empty)
        if len(empty) == 1:
            what = f"table {tables}: calling time now ends its game 0-0"
        elif len(empty) == len(games):
            what = f"any table (tables {tables}): calling time now ends every game 0-0"
        else:
            what = f"tables {tables}: calling time now ends their games 0-0"
        raise DomainError(
            f"No hand has been entered at {what}. Call time anyway?",
            field="confirm", code="no_hands")
    for game in games:
        game.time_called = True
        Game.objects.filter(pk=game.pk).update(time_called=True)
        _game_write(game, _live_revisions(game), bump_version=True)
    ended = [g.table.number for g in games]
    event_log(event, actor, "time_called", round=round_.number, tables=ended)
    if ended:
        event_results_changed(event)
    _round_confirmed_advance(round_)
    return ended


@transaction.atomic
def game_settle_tie(*, game: Game, winner: str, actor: Any = None) -> Game:
    """A finished game that ended level: record the side that won the cut of the cards (the
    table's high/low cut, entered by the director). The points stand; the cut decides who moves
    on (or reaches the final). If the round was waiting for it, the advance follows."""
    locked = _locked_game(game)
    results_final_check(locked.table.round.event)
    if locked.status == Game.Status.PLAYING:
        raise DomainError("The game is not finished yet.", field="status")
    if locked.winner:
        raise DomainError(f"The game did not end level: {locked.winner} won it.",
                          field="winner", code="not_level")
    ruleset = event_ruleset(locked.table.round.event)
    if winner not in ruleset.sides:
        raise DomainError(f"The cut's winner is one side: {' or '.join(ruleset.sides)}.",
                          field="winner")
    round_ = locked.table.round
    if round_.status == Round.Status.CLOSED and round_.event.rounds.filter(
            number=round_.number + 1).exists():
        raise DomainError("The next round has been seated from this result; re-draw it first.",
                          field="winner", code="seated")
    locked.cut_winner = winner
    locked.save(update_fields=["cut_winner"])
    event_log(round_.event, actor, "tie_cut", round=round_.number,
              table=locked.table.number, winner=winner, by="table")
    if locked.status == Game.Status.CONFIRMED:
        _round_confirmed_advance(round_)
    return locked


@transaction.atomic
def game_forfeit(*, game: Game, side: str, reason: str, actor: Any = None,
                 withdraw: bool = False) -> Game:
    """A side that cannot go on forfeits the game (a walkover): the game is decided for the
    other side without its hands, confirmed at once, and what follows a confirmed game follows
    (the standings, and a format that seats itself advances). Formats whose spec allows
    forfeits only (a pair event). The winner scores what a bye scores and the forfeiting side
    nothing (``standings.services``); hands entered before stay in the game's history but count
    for nothing. With ``withdraw`` the forfeiting pair also withdraws from the later rounds.

    Refused for a confirmed game (its result was played out), a closed round or an event that
    is over. Asking again for the same side returns the game unchanged."""
    event = Event.objects.select_for_update().get(pk=game.table.round.event_id)
    results_final_check(event)
    locked = _locked_game(game)
    round_ = locked.table.round
    spec = event.spec
    if not spec.forfeits:
        raise DomainError(f"A {spec.label.lower()} has no forfeits: enter the game's hands, or "
                          "withdraw the player.", field="format", code="no_forfeits")
    ruleset = event_ruleset(event)
    if side not in ruleset.sides or side not in ("NS", "EW"):
        raise DomainError("Name the side that forfeits: NS or EW.", field="side")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("Say why the side forfeits.", field="reason")
    if locked.forfeit == side:
        return locked
    if locked.forfeit:
        raise DomainError(f"{locked.forfeit} has already forfeited this game.", field="side",
                          code="forfeited")
    if event.status != Event.Status.RUNNING:
        raise DomainError("This event is not running.", field="event")
    if round_.status == Round.Status.CLOSED:
        raise DomainError(f"{event.spec.sitting_title} {round_.number} is closed: only a game "
                          f"of the open {event.sitting} can be forfeited.", field="round",
                          code="round_closed")
    if locked.status == Game.Status.CONFIRMED:
        raise DomainError("This game was played to its end and confirmed; it cannot be "
                          "forfeited now.", field="game", code="confirmed")
    seats = {s.position: s.entry for s in
             Seat.objects.filter(table_id=locked.table_id).select_related("entry__pair")}
    forfeiting = seats.get("N" if side == "NS" else "E")
    pair = forfeiting.pair if forfeiting is not None else None
    if pair is None:
        raise DomainError("No pair sits at that side of this table.", field="side")
    now = timezone.now()
    Game.objects.filter(pk=locked.pk).update(
        forfeit=side, status=Game.Status.CONFIRMED, confirmed_by=None, confirmed_at=now)
    locked.forfeit, locked.status = side, Game.Status.CONFIRMED
    locked.confirmed_by, locked.confirmed_at = None, now
    _game_write(locked, _live_revisions(locked), bump_version=True)
    event_log(event, actor, "game_forfeited", round=round_.number, table=locked.table.number,
              side=side, pair=pair.pk, name=str(pair), reason=reason[:200],
              withdrawn=withdraw, hands=locked.hands_count)
    if withdraw and any(m.status == m.Status.ACTIVE for m in pair.members.all()):
        pair_withdraw(pair=pair, actor=actor, forfeited=True)
    event_results_changed(event)
    _round_confirmed_advance(round_)
    return locked


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


def _averages_follow(game: Game) -> None:
    """A game of the round changed its result: every game of the round given the round's
    average follows it (the mean of the games played out so far), until the round is closed.
    An average given when 4 of 50 games were finished is the average of all 49 in the end."""
    if game.table.round.status == Round.Status.CLOSED:
        return
    averaged = list(
        Game.objects.select_related("table__round__event").select_for_update()
        .filter(table__round_id=game.table.round_id, adjusted__kind="average")
        .exclude(pk=game.pk))
    for other in averaged:
        found = _round_average(other)
        if found is None:
            continue
        mean, counted, of = found
        before: dict[str, Any] = dict(other.adjusted or {})
        given = {side: mean for side in before.get("points", {})}
        if given == before.get("points") and counted == before.get("games"):
            continue
        adjusted = {**before, "points": given, "games": counted, "of": of}
        Game.objects.filter(pk=other.pk).update(adjusted=adjusted)
        other.adjusted = adjusted
        _game_write(other, _live_revisions(other), bump_version=True)


def _adjusted_points(points: Any, sides: Sequence[str]) -> dict[str, int]:
    """Both (every) side's points as the director gives them, checked: a whole number per side,
    within ``ADJUSTED_POINTS_LIMIT``; each refusal names ``points.<side>``."""
    if not isinstance(points, Mapping):
        raise DomainError(f"Give each side's points: {', '.join(sides)}.", field="points")
    unknown = sorted(set(points) - set(sides))
    if unknown:
        raise DomainError(f"{unknown[0]} is not a side of this game ({', '.join(sides)}).",
                          field=f"points.{unknown[0]}")
    out: dict[str, int] = {}
    for side in sides:
        value = points.get(side)
        if value is None or value == "":
            raise DomainError(f"Give {side}'s points.", field=f"points.{side}")
        try:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ValueError
            number = int(str(value).strip())
        except ValueError:
            raise DomainError(f"{side}'s points are a whole number.",
                              field=f"points.{side}") from None
        if abs(number) > ADJUSTED_POINTS_LIMIT:
            raise DomainError(f"{side}'s points are at most {ADJUSTED_POINTS_LIMIT:,} either side "
                              "of 0.", field=f"points.{side}")
        out[side] = number
    return out


@transaction.atomic
def game_adjust(*, game: Game, kind: str, reason: str, points: Any = None, side: str = "",
                actor: Any = None) -> Game:
    """A director gives a game that cannot be played out (a player taken ill, a fouled deck)
    an adjusted result, saying why: both sides' ``points``, the ``average`` of the round (every
    side scores the mean of the other games' side totals), or a ``forfeit`` by one ``side``
    (``game_forfeit``; formats whose spec allows forfeits). The game is then decided and
    confirmed at once and what follows a confirmed game follows (the standings, the ratings,
    the advance of a format that seats itself); it shows as adjusted everywhere. Hands entered
    before stay in its history but count for nothing, and it takes no more.

    The event's policy: points and the round's average in every format, a forfeit where the
    format has forfeits. A confirmed game may be adjusted too (the reason is always required);
    once a later round is seated, only without changing who won it."""
    event = Event.objects.select_for_update().get(pk=game.table.round.event_id)
    results_final_check(event)
    reason = reason.strip() if isinstance(reason, str) else ""
    if not isinstance(kind, str) or kind not in ADJUST_KINDS:
        raise DomainError(f"An adjusted result is one of: {', '.join(ADJUST_KINDS)}.",
                          field="kind")
    if not reason:
        raise DomainError("Say why the game gets an adjusted result.", field="reason")
    if len(reason) > 200:
        raise DomainError("Keep the reason under 200 characters.", field="reason")
    spec = event.spec
    if kind == "forfeit":
        if not spec.forfeits:
            raise DomainError(f"A {spec.label.lower()} has no forfeits: give both sides' points "
                              "or the round's average.", field="kind", code="no_forfeits")
        done = game_forfeit(game=game, side=side, reason=reason, actor=actor)
        adjusted = {"kind": kind, "side": side, "points": dict(done.totals or {}),
                    "reason": reason}
        Game.objects.filter(pk=done.pk).update(adjusted=adjusted)
        done.adjusted = adjusted
        return done
    if event.status != Event.Status.RUNNING:
        raise DomainError("This event is not running.", field="event")
    locked = _locked_game(game)
    round_ = locked.table.round
    if locked.forfeit:
        raise DomainError(f"This game was forfeited by {locked.forfeit}.", field="game",
                          code="forfeited")
    ruleset = event_ruleset(event)
    if kind == "points":
        given = _adjusted_points(points, ruleset.sides)
    else:
        found = _round_average(locked)
        if found is None:
            raise DomainError(f"No other game of {event.sitting} {round_.number} has a result to "
                              "average yet: give both sides' points.", field="kind",
                              code="no_average")
        average, counted, of = found
        given = {s: average for s in ruleset.sides}
    top = max(given.values())
    leaders = [s for s, v in given.items() if v == top]
    winner = leaders[0] if len(leaders) == 1 else ""
    if (locked.status == Game.Status.CONFIRMED and (winner or locked.cut_winner)
            != (locked.winner or locked.cut_winner)
            and event.rounds.filter(number__gt=round_.number).exists()):
        raise DomainError(f"The next {event.sitting} has been seated from this game's result; "
                          "an adjusted result may not change who won it now.", field="points",
                          code="seated")
    was = {"status": locked.status, "totals": locked.totals, "winner": locked.winner}
    result: dict[str, Any] = {"kind": kind, "points": given, "reason": reason}
    if kind == "average":  # what it averages so far; it follows them (_averages_follow)
        result |= {"games": counted, "of": of}
    adjusted = result
    now = timezone.now()
    Game.objects.filter(pk=locked.pk).update(
        adjusted=adjusted, status=Game.Status.CONFIRMED, confirmed_by=None, confirmed_at=now)
    locked.adjusted, locked.status = adjusted, Game.Status.CONFIRMED
    locked.confirmed_by, locked.confirmed_at = None, now
    _game_write(locked, _live_revisions(locked), bump_version=True)
    event_log(event, actor, "game_adjusted", round=round_.number, table=locked.table.number,
              kind=kind, points=given, reason=reason, was=was)
    ratings_request_update(game_id=locked.pk, round_id=round_.pk)
    event_results_changed(event)
    _round_confirmed_advance(round_)
    return locked


@transaction.atomic
def event_settings_update(*, event: Event, actor: Any = None, **settings: Any) -> Event:
    """Change an event's settings (checked by ``tournaments.services.
    check_event_settings_change``) and re-derive what depends on them: a new deal count
    re-derives every game from its hands; the standings follow. The one service that changes an
    event's settings (the pages, the API and the demo all come here)."""
    locked = event_lock(event)
    hands_entered = Hand.objects.filter(game__table__round__event=locked).exists()
    changed = _event_settings_write(locked, actor=actor, hands_entered=hands_entered,
                                    settings=settings)
    if not changed:
        return locked
    if hands_entered and "deals_per_round" in changed:
        confirmed = _confirmed_tables(locked)
        try:
            event_recompute(event=locked)
        except RulesError as exc:
            raise DomainError(
                f"Some games already have more hands than that ({exc.errors[0].message}).",
                field="deals_per_round",
            ) from None
        reopened = sorted(confirmed - _confirmed_tables(locked))
        if reopened:
            # Never undo a confirmation silently: the log and the director's page say so.
            event_log(locked, actor, "confirmations_cleared", reason="deals_per_round",
                      games=[list(g) for g in reopened])
    event_results_changed(locked)
    return locked


def _event_settings_write(locked: Event, *, actor: Any, hands_entered: bool,
                          settings: dict[str, Any]) -> set[str]:
    """Store the checked settings on the locked event, with a log row; returns the names of the
    fields that changed."""
    changed = check_event_settings_change(event=locked, hands_entered=hands_entered, **settings)
    for field, value in changed.items():
        setattr(locked, field, value)
    if changed:
        locked.save(update_fields=list(changed))
        event_log(locked, actor, "settings", changed=sorted(changed))
    return set(changed)


def _confirmed_tables(event: Event) -> set[tuple[int, int]]:
    """(round, table) of the event's confirmed games."""
    return set(
        Game.objects.filter(table__round__event=event, status=Game.Status.CONFIRMED)
        .values_list("table__round__number", "table__number")
    )

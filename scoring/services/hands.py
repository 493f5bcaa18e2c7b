"""Writing hands: a new hand, a correction (a new revision, exactly one live) and deleting the
last hand; each locks the game, stores, rebuilds the game's rows and queues the standings.

A correction or deletion of a hand whose result the players had seen (a confirmed game, or a
game of a closed round: the writer must say why) is also one of the event's public
corrections (``tournaments.corrections``), with the hand and the game's totals before and
after."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import ConflictError, DomainError
from common.rulesets import event_ruleset
from common.tasks import (
    ratings_request_update,
    standings_request_update,
)
from common.types import Actor, actor_user
from rules_engine import Hand as EngineHand
from rules_engine import HandScore, RulesError, score_game
from tournaments import corrections
from tournaments.models import Round
from tournaments.services import (
    event_log,
    hands_version_bump,
)

from ..models import Game, Hand, HandRevision
from ..selectors import entry_refusal, revision_values
from .derive import _game_write, _live_revisions, _locked_game, game_seats
from .parse import HAND_FIELDS, hand_check, revision_hand


def _check_open(game: Game, *, as_director: bool, note: str) -> None:
    """May this writer change this game's hands now? A confirmed game is locked: the table's
    link can no longer change it, and a director must say why (the change then clears the
    confirmation, visibly: see :func:`_after_write`)."""
    refusal = entry_refusal(game.table.round, as_director=as_director)
    if refusal is not None:
        raise refusal
    if game.forfeit:
        raise DomainError(
            gettext("This game was forfeited by %(forfeit)s: it takes no more hands.") % {"forfeit": game.forfeit},
            field="number", code="forfeited",
        )
    if game.adjusted:
        raise DomainError(
            gettext("This game has an adjusted result from the director: it takes no more hands."),
            field="number", code="adjusted",
        )
    if game.status == Game.Status.CONFIRMED:
        if not as_director:
            raise DomainError(
                gettext("This game is confirmed: only a director can change it now. Ask the director."),
                field="number", code="confirmed",
            )
        if not note.strip():
            raise DomainError(gettext("Say why a confirmed game is changed."), field="note")
    if game.table.round.status == Round.Status.CLOSED and not note.strip():
        raise DomainError(gettext("Say why a closed round's hand is changed."), field="note")


def _shown(game: Game) -> bool:
    """Were this game's results final to its players (a change is then a public correction)?
    Confirmed, or its round closed."""
    return (game.status == Game.Status.CONFIRMED
            or game.table.round.status == Round.Status.CLOSED)


def totals_words(totals: Mapping[str, object] | None, winner: str = "") -> str:
    """A game's totals in a few words: "NS 420 · EW 380 (NS won)"."""
    if not totals:
        return "no result"
    text = " · ".join(f"{side} {points}" for side, points in totals.items())
    return f"{text} ({winner} won)" if winner else text


def hand_words(revision: HandRevision, number: int) -> str:
    """A hand in a few words: "hand 3: N bid 350 in hearts, made; NS +420 · EW +60"."""
    what = revision.outcome.replace("_", " ")
    if revision.bidder and revision.bid is not None:
        trump = f" in {revision.trump}" if revision.trump else ""
        made = "" if revision.made is None else (", made" if revision.made else ", set")
        what = f"{revision.bidder} bid {revision.bid}{trump}{made}"
    points = " · ".join(f"{side} {value:+d}" for side, value in (revision.points or {}).items())
    return f"hand {number}: {what}; {points}" if points else f"hand {number}: {what}"


class GameState(TypedDict):
    """A game's result before and after a change to its hands (the event log's details)."""

    status: str
    totals: dict[str, int]
    winner: str


def _game_state(game: Game) -> GameState:
    return {"status": game.status, "totals": dict(game.totals or {}), "winner": game.winner}


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
            gettext("This submission key was already used for another hand; reload the page and enter the hand again."),
            field="idempotency_key",
        )
    return earlier


def _store_revision(
    *, hand: Hand, number: int, engine_hand: EngineHand, score: HandScore, author: Actor | None,
    source: str, note: str, idempotency_key: str | None,
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
        tricks=dict(data["tricks"]) if data.get("tricks") is not None else None,
        quadruple_run=data.get("quadruple_run") or "",
        partner=data.get("partner") or "",
        misdeal_seat=data.get("misdeal_seat") or "",
        widow_seen=data.get("widow_seen"),
        check_melds=data.get("check_melds"),
        points=dict(score.points),
        result=score.result,
        made=score.made,
        reason=score.reason[:200],
        author=actor_user(author),
        source=source,
        note=note[:200],
        idempotency_key=idempotency_key or None,
    )


def _after_write(game: Game, revisions: Sequence[HandRevision], *, as_director: bool,
                 author: Actor | None = None, note: str = "", bump: bool = True) -> None:
    """Re-derive the locked game from its live hands (``revisions``, in hand order), then mark
    the event's standings behind. A change to a confirmed game clears its confirmation and says
    so in the event log. The event row is bumped last (``tournaments.services.hands_version_bump``):
    callers write nothing after this but the round's start (``hand_submit``, once a round).
    ``bump`` false: the caller records a correction first, then calls :func:`_bump`."""
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
    if bump:
        _bump(game, as_director=as_director)


def _bump(game: Game, *, as_director: bool) -> None:
    """The event's standings are behind its hands: the event row's bump, the last write; then
    entry is checked again (:func:`_still_open`) under that row's lock."""
    event_id = game.table.round.event_id
    hands_version_bump(event_id=event_id)
    _still_open(game, as_director=as_director)
    standings_request_update(event_id=event_id)


def _still_open(game: Game, *, as_director: bool) -> None:
    """Entry was checked (:func:`_check_open`) with the round and the event as read with the
    game; it is checked again once the bump holds the event's row. A director closing the round
    or ending the event takes that row first, so a close that committed while this write was
    under way is seen by this new statement, and the write is refused as it would have been a
    moment later: nothing is stored (a table's phone is told the round is closed; a director
    is asked to look again). Another table's first hand starting the round changes nothing."""
    round_ = game.table.round
    status, event_status = Round.objects.filter(pk=round_.pk).values_list(
        "status", "event__status").get()
    started = (round_.status, status) == (Round.Status.SEATED, Round.Status.PLAYING)
    if event_status == round_.event.status and (status == round_.status or started):
        return
    refusal = entry_refusal(Round.objects.select_related("event").get(pk=round_.pk),
                            as_director=as_director)
    raise refusal or ConflictError(
        gettext("The director changed this round or the event while this was being stored: nothing was stored. Look again, then enter it again."),
        field="round")


@transaction.atomic
def hand_submit(
    *,
    game: Game,
    number: int,
    values: Mapping[str, object],
    author: Actor | None = None,
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
            gettext("Hand %(number)s has already been entered (by another device?). Check the stored values below; correct them if they are wrong.") % {"number": number},
            field="number",
            current=revision_values(current) | {"revision": current.revision} if current else None,
        )
    if number != expected:
        raise DomainError(gettext("The next hand of this game is hand %(expected)s.") % {"expected": expected}, field="number")
    if locked.status != Game.Status.PLAYING and revisions:
        raise DomainError(gettext("This game is over; no more hands can be entered."), field="number",
                          code="game_over")
    if table_device and not as_director and not locked.scorer_position:
        raise DomainError(
            gettext("Name the player who keeps score on this phone first (tap their name): a player of the other side confirms the game at the end."),
            field="scorer", code="no_scorer",
        )
    engine_hand, score = hand_check(values=values, ruleset=ruleset,
                                    seats=game_seats(locked, ruleset))
    hand = Hand.objects.create(game=locked, number=number)
    revision = _store_revision(
        hand=hand, number=1, engine_hand=engine_hand, score=score, author=author,
        source=source, note=note, idempotency_key=idempotency_key,
    )
    _after_write(locked, [*revisions, revision], as_director=as_director, author=author,
                 note=note)
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
    values: Mapping[str, object],
    expected_revision: int,
    author: Actor | None = None,
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
            gettext("Hand %(number)s was changed by someone else (now version %(revision)s). Check the stored values and try again.") % {"number": hand.number, "revision": live.revision},
            field="expected_revision",
            current=revision_values(live) | {"revision": live.revision},
        )
    ruleset = event_ruleset(locked.table.round.event)
    seats = game_seats(locked, ruleset)
    engine_hand, score = hand_check(values=values, ruleset=ruleset, seats=seats)
    new_values = engine_hand.to_dict()
    if all(new_values.get(k) == revision_values(live).get(k) for k in HAND_FIELDS) and not note:
        return live  # nothing changed: no revision
    revisions = _live_revisions(locked)
    replayed = [r if r.hand_id != hand.pk else None for r in revisions]
    engine_hands = [
        engine_hand if r is None else revision_hand(r, ruleset, seats) for r in replayed
    ]
    try:
        score_game(engine_hands, ruleset, max_deals=locked.table.round.event.deals_per_round,
                   seats=seats)
    except RulesError as exc:
        raise DomainError(
            gettext("With this change the game would end before its last entered hand (%(message)s). Correct or delete the later hands first.") % {"message": exc.errors[0].message},
            field="number",
        ) from None
    round_ = locked.table.round
    with corrections.correction_record(
            event=round_.event, kind=corrections.HAND_CORRECTED, actor=author, reason=note,
            round_number=round_.number, table_number=locked.table.number,
            when=_shown(locked)) as draft:
        was = _game_state(locked)
        HandRevision.objects.filter(pk=live.pk).update(is_live=False)
        revision = _store_revision(
            hand=hand, number=live.revision + 1, engine_hand=engine_hand, score=score,
            author=author, source=source, note=note, idempotency_key=idempotency_key,
        )
        _after_write(locked, [revision if r.hand_id == hand.pk else r for r in revisions],
                     as_director=as_director, author=author, note=note, bump=False)
        draft.was = f"{hand_words(live, hand.number)} (game {totals_words(was['totals'])})"
        draft.became = (f"{hand_words(revision, hand.number)} "
                        f"(game {totals_words(locked.totals)})")
        draft.before = {"hand": hand.number, "revision": live.revision,
                        "values": revision_values(live), "points": dict(live.points),
                        "game": was}
        draft.after = {"hand": hand.number, "revision": revision.revision,
                       "values": revision_values(revision), "points": dict(revision.points),
                       "game": _game_state(locked)}
    # after the correction's row: the event's row is the last write
    _bump(locked, as_director=as_director)
    return revision


@transaction.atomic
def hand_delete_last(
    *, game: Game, number: int, expected_revision: int, note: str, author: Actor | None = None,
    as_director: bool = False,
) -> HandRevision:
    """Delete the last hand of a game (entered by mistake). The caller names the hand and the
    revision it saw: anything else is stale (a phone entered another hand meanwhile, or a double
    submit already deleted it) and answers with a conflict, deleting nothing. The hand keeps its
    row and its history: a final revision records the deletion, who made it and why."""
    if not note.strip():
        raise DomainError(gettext("Say why the hand is deleted."), field="note")
    locked = _locked_game(game)
    _check_open(locked, as_director=as_director, note=note)
    revisions = _live_revisions(locked)
    if not revisions:
        raise DomainError(gettext("This game has no hands."), field="number")
    live = revisions[-1]
    last = live.hand
    if last.number != number or live.revision != expected_revision:
        raise ConflictError(
            gettext("The last hand is now hand %(number)s (version %(revision)s), not the one you saw; nothing was deleted. Check it and try again.") % {"number": last.number, "revision": live.revision},
            field="number",
            current=revision_values(live) | {"number": last.number, "revision": live.revision},
        )
    round_ = locked.table.round
    with corrections.correction_record(
            event=round_.event, kind=corrections.HAND_DELETED, actor=author, reason=note,
            round_number=round_.number, table_number=locked.table.number,
            when=_shown(locked)) as draft:
        was = _game_state(locked)
        HandRevision.objects.filter(pk=live.pk).update(is_live=False)
        deletion = HandRevision.objects.create(
            hand=last, revision=live.revision + 1, is_live=False, is_deletion=True,
            dealer=live.dealer, bidder=live.bidder, bid=live.bid, trump=live.trump,
            outcome=live.outcome, renege_seat=live.renege_seat, meld=live.meld,
            counters=live.counters, tricks=live.tricks, quadruple_run=live.quadruple_run,
            partner=live.partner, misdeal_seat=live.misdeal_seat, widow_seen=live.widow_seen,
            check_melds=live.check_melds,
            points=live.points, result=live.result, made=live.made,
            reason="deleted", author=actor_user(author),
            source=HandRevision.Source.DIRECTOR if as_director else HandRevision.Source.TABLE,
            note=note[:200],
        )
        Hand.objects.filter(pk=last.pk).update(deleted_at=timezone.now())
        event_log(locked.table.round.event, author, "hand_deleted", table=locked.table.number,
                  round=locked.table.round.number, hand=last.number, values=revision_values(live),
                  note=note)
        _after_write(locked, revisions[:-1], as_director=as_director, author=author, note=note,
                     bump=False)
        draft.was = f"{hand_words(live, last.number)} (game {totals_words(was['totals'])})"
        draft.became = f"hand {last.number} deleted (game {totals_words(locked.totals)})"
        draft.before = {"hand": last.number, "revision": live.revision,
                        "values": revision_values(live), "points": dict(live.points), "game": was}
        draft.after = {"hand": last.number, "deleted": True, "game": _game_state(locked)}
    # after the correction's row: the event's row is the last write
    _bump(locked, as_director=as_director)
    return deletion

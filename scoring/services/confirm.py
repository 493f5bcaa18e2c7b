"""A game's keeper and its confirmation, at the table (the other side confirms) or at the desk
(signed sheets in bulk); the last confirmation of a round asks for the automatic advance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NotRequired, TypedDict

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import DomainError
from common.rulesets import event_ruleset, table_seats
from common.tasks import (
    ROUND_CONFIRMED,
    ratings_request_update,
    task_queue,
)
from common.types import Actor
from tournaments.models import Entry, Round, Seat
from tournaments.selectors import results_final_check
from tournaments.services import (
    event_log,
)

from ..models import DESK_SOURCES, Game
from .derive import _locked_game


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
    names = {s.position: s.entry.player.name
             for s in Seat.objects.filter(table=locked.table).select_related("entry__player")}
    seats = table_seats(ruleset, names)
    if position not in seats:
        raise DomainError(gettext("Pick the seat of the player keeping score: %(values)s.") % {"values": ', '.join(seats)},
                          field="scorer", code="invalid_choice")
    if locked.scorer_position == position:
        return locked
    if position not in names:
        raise DomainError(gettext("Nobody sits at that seat of this table."), field="scorer",
                          code="invalid_choice")
    if locked.scorer_position and locked.hands_count:
        keeper = names.get(locked.scorer_position) or locked.scorer_position
        raise DomainError(
            gettext("%(keeper)s (%(scorer_position)s) keeps score for this game since its first hand; the keeper cannot change now.") % {"keeper": keeper, "scorer_position": locked.scorer_position},
            field="scorer", code="scorer_chosen",
        )
    if locked.status != Game.Status.PLAYING:
        raise DomainError(gettext("This game is over: the keeper is named before the first hand, not after the last."), field="scorer", code="game_over")
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
        raise DomainError(gettext("The game is not finished yet."), field="status")
    seat = Seat.objects.filter(table=locked.table, position=position).select_related("entry").first()
    if seat is None:
        raise DomainError(gettext("That seat is not at this table."), field="position")
    if locked.scorer_position == position:
        raise DomainError(
            gettext("%(position)s kept score: another player at the table confirms.") % {"position": position},
            field="position", code="scorer_side",
        )
    if locked.scorer_position and ruleset.side_of(position) == ruleset.side_of(locked.scorer_position):
        raise DomainError(
            gettext("%(position)s is on the keeper's side (%(scorer_position)s kept score): a player of the other side confirms.") % {"position": position, "scorer_position": locked.scorer_position}, field="position", code="scorer_side",
        )
    _game_confirmed(locked, by=seat.entry)
    _round_confirmed_advance(locked.table.round)
    return locked


def _game_confirmed(locked: Game, *, by: Entry | None = None) -> None:
    """Mark the locked, finished game confirmed (``by`` the entry that confirmed it; None at
    the desk) and queue its rating; the caller then asks for the round's advance."""
    locked.status = Game.Status.CONFIRMED
    locked.confirmed_by = by
    locked.confirmed_at = timezone.now()
    locked.save(update_fields=["status", "confirmed_by", "confirmed_at"])
    ratings_request_update(game_id=locked.pk, round_id=locked.table.round_id)


class DeskResult(TypedDict):
    """What became of one table a director confirmed at the desk (:func:`games_confirm_at_desk`);
    the games page names the round."""

    table: int
    confirmed: bool
    already: NotRequired[bool]
    code: NotRequired[str]
    error: NotRequired[str]
    round: NotRequired[int]


@transaction.atomic
def games_confirm_at_desk(*, round_: Round, tables: Sequence[int], source: str,
                          actor: Actor | None = None) -> list[DeskResult]:
    """A director confirms finished games of ``round_`` at the desk (from the players' signed
    score sheets, ``source``), table by table: each finished game is confirmed as if its other
    side had confirmed it (the rating, and once the round's last game is confirmed its advance);
    a game still playing or a table the round does not have is refused with its reason while the
    others are confirmed; a game already confirmed says so. One log row names the director, the
    source and the tables. Returns one result per table asked, in the order asked:
    ``{"table", "confirmed", "already"?, "error"?, "code"?}``."""
    if source not in DESK_SOURCES:
        raise DomainError(gettext("Say where the confirmation comes from: %(values)s.") % {"values": ', '.join(DESK_SOURCES)},
                          field="source")
    asked = list(dict.fromkeys(int(t) for t in tables))
    if not asked:
        raise DomainError(gettext("Pick at least one table."), field="tables")
    event = round_.event
    if event.is_over:
        raise DomainError(gettext("This event is over: reopen it before confirming games."),
                          field="round", code="event_over")
    games = {g.table.number: g for g in Game.objects.filter(
        table__round=round_, table__number__in=asked).select_related("table")}
    results: dict[int, DeskResult] = {}
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

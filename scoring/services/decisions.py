"""The director's decisions on games: calling time, settling a level game by the cut, a forfeit
(walkover), an adjusted result (points, the round's average, a forfeit). A forfeit and an
adjusted result are public corrections of the event (``tournaments.corrections``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import DomainError
from common.labels import lower_in_english, sitting_title, sitting_word, translated
from common.rulesets import event_ruleset, table_sides
from common.tasks import (
    ratings_request_update,
)
from common.types import Actor
from tournaments import corrections
from tournaments.models import Event, Round, Seat
from tournaments.selectors import results_final_check
from tournaments.services import (
    event_log,
    event_results_changed,
    pair_withdraw,
)

from ..models import Game
from .confirm import _round_confirmed_advance
from .derive import (
    _game_write,
    _live_revisions,
    _locked_game,
    _round_average,
    averaged_games_lock,
    game_seats,
    level_sides,
)
from .hands import GameState, totals_words

ADJUST_KINDS = {
    "points": "Both sides' points, as the director sets them",
    "average": "Average of the round (the mean of the other games' side totals, following them "
               "until the round closes)",
    "forfeit": "A forfeit by one side (formats with forfeits)",
}


# An adjusted side's points are at most this far from 0 (the column is a 32-bit integer).
ADJUSTED_POINTS_LIMIT = 100_000


@transaction.atomic
def round_call_time(*, round_: Round, actor: Actor | None = None,
                    confirm_empty: bool = False) -> list[int]:
    """Time is up for a timed round: every game still playing ends after the deals entered,
    the side ahead winning (a level game is settled by a cut). Returns the tables ended.
    The games then wait for confirmation like any finished game.

    A table still playing with no hand entered would end 0-0: that is refused (code
    ``no_hands``, field ``confirm``, naming the tables) unless ``confirm_empty`` says the
    director has seen it (the tables may be keeping paper sheets, entered later)."""
    # The games' rows before the event's, in the order a hand takes them (its game, then the
    # event's row last): a hand on its way at one of them is waited for, never deadlocked.
    games = list(
        Game.objects.select_for_update(of=("self",)).select_related("table__round__event")
        .filter(table__round=round_, status=Game.Status.PLAYING).order_by("table__number")
    )
    averaged_games_lock(round_.pk)
    event = Event.objects.select_for_update().get(pk=round_.event_id)
    results_final_check(event)
    word = event.sitting
    # read under the event's lock, which a director's close takes first
    if Round.objects.get(pk=round_.pk).status == Round.Status.CLOSED:
        raise DomainError(gettext("%(value)s %(number)s is closed.") % {"value": word.capitalize(), "number": round_.number}, field="round")
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
            gettext("No hand has been entered at %(what)s. Call time anyway?") % {"what": what},
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
def game_settle_tie(*, game: Game, winner: str, actor: Actor | None = None) -> Game:
    """A finished game that ended level: record the side that won the cut of the cards (the
    table's high/low cut, entered by the director). The points stand; the cut decides who moves
    on (or reaches the final). If the round was waiting for it, the advance follows."""
    locked = _locked_game(game)
    results_final_check(locked.table.round.event)
    if locked.status == Game.Status.PLAYING:
        raise DomainError(gettext("The game is not finished yet."), field="status")
    if locked.winner:
        raise DomainError(gettext("The game did not end level: %(winner)s won it.") % {"winner": locked.winner},
                          field="winner", code="not_level")
    ruleset = event_ruleset(locked.table.round.event)
    level = level_sides(locked, ruleset)
    if winner not in level:
        raise DomainError(gettext("The cut's winner is one of the sides level at the top: %(values)s.") % {"values": ' or '.join(level)}, field="winner")
    round_ = locked.table.round
    if round_.status == Round.Status.CLOSED and round_.event.rounds.filter(
            number=round_.number + 1).exists():
        raise DomainError(gettext("The next round has been seated from this result; re-draw it first."),
                          field="winner", code="seated")
    locked.cut_winner = winner
    locked.save(update_fields=["cut_winner"])
    event_log(round_.event, actor, "tie_cut", round=round_.number,
              table=locked.table.number, winner=winner, by="table")
    if locked.status == Game.Status.CONFIRMED:
        _round_confirmed_advance(round_)
    return locked


@transaction.atomic
def game_forfeit(*, game: Game, side: str, reason: str, actor: Actor | None = None,
                 withdraw: bool = False) -> Game:
    """A side that cannot go on forfeits the game (a walkover): the game is decided for the
    other side without its hands, confirmed at once, and what follows a confirmed game follows
    (the standings, and a format that seats itself advances). Formats whose spec allows
    forfeits only (a pair event). The winner scores what a bye scores and the forfeiting side
    nothing (``standings.services``); hands entered before stay in the game's history but count
    for nothing. With ``withdraw`` the forfeiting pair also withdraws from the later rounds.

    Refused for a confirmed game (its result was played out), a closed round or an event that
    is over. Asking again for the same side returns the game unchanged."""
    locked = _locked_game(game)  # the games' rows before the event's, as a hand takes them
    averaged_games_lock(locked.table.round_id)
    event = Event.objects.select_for_update().get(pk=locked.table.round.event_id)
    results_final_check(event)
    # read under the event's lock, which a director's close takes first
    round_ = Round.objects.get(pk=locked.table.round_id)
    spec = event.spec
    if not spec.forfeits:
        raise DomainError(gettext("A %(value)s has no forfeits: enter the game's hands, or withdraw the player.") % {"value": lower_in_english(translated(spec.label))}, field="format", code="no_forfeits")
    ruleset = event_ruleset(event)
    # a game of two sides (partnerships, teams of three, or two players head to head)
    if side not in ruleset.sides or len(ruleset.sides) != 2:
        raise DomainError(gettext("Name the side that forfeits: %(values)s.") % {"values": ' or '.join(ruleset.sides)},
                          field="side")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError(gettext("Say why the side forfeits."), field="reason")
    if locked.forfeit == side:
        return locked
    if locked.forfeit:
        raise DomainError(gettext("%(forfeit)s has already forfeited this game.") % {"forfeit": locked.forfeit}, field="side",
                          code="forfeited")
    if event.status != Event.Status.RUNNING:
        raise DomainError(gettext("This event is not running."), field="event")
    if round_.status == Round.Status.CLOSED:
        raise DomainError(gettext("%(sitting_title)s %(number)s is closed: only a game of the open %(sitting)s can be forfeited.") % {"sitting_title": sitting_title(event.sitting), "number": round_.number, "sitting": sitting_word(event.sitting)}, field="round",
                          code="round_closed")
    if locked.status == Game.Status.CONFIRMED:
        raise DomainError(gettext("This game was played to its end and confirmed; it cannot be forfeited now."), field="game", code="confirmed")
    seats = {s.position: s.entry for s in
             Seat.objects.filter(table_id=locked.table_id).select_related("entry__pair")}
    forfeiting = seats.get(ruleset.seats_of(side)[0])
    pair = forfeiting.pair if forfeiting is not None else None
    if pair is None:
        raise DomainError(gettext("No pair sits at that side of this table."), field="side")
    with corrections.correction_record(
            event=event, kind=corrections.GAME_FORFEITED, actor=actor, reason=reason[:200],
            round_number=round_.number, table_number=locked.table.number) as draft:
        was: GameState = {"status": locked.status, "totals": dict(locked.totals or {}),
                          "winner": locked.winner}
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
        draft.was = f"{totals_words(was['totals'], was['winner'])}, {was['status']}"
        draft.became = (f"{pair} ({side}) forfeited: {locked.winner or 'the other side'} wins "
                        f"({totals_words(locked.totals)})")
        draft.before = {"game": was}
        draft.after = {"game": {"status": locked.status, "totals": dict(locked.totals or {}),
                                "winner": locked.winner}, "forfeit": side, "pair_id": pair.pk,
                       "withdrawn": withdraw}
    event_results_changed(event)  # the event's row last, after the correction's
    _round_confirmed_advance(round_)
    return locked


def _adjusted_points(points: object, sides: Sequence[str]) -> dict[str, int]:
    """Both (every) side's points as the director gives them, checked: a whole number per side,
    within ``ADJUSTED_POINTS_LIMIT``; each refusal names ``points.<side>``."""
    if not isinstance(points, Mapping):
        raise DomainError(gettext("Give each side's points: %(values)s.") % {"values": ', '.join(sides)}, field="points")
    unknown = sorted(set(points) - set(sides))
    if unknown:
        raise DomainError(gettext("%(unknown)s is not a side of this game (%(values)s).") % {"unknown": unknown[0], "values": ', '.join(sides)},
                          field=f"points.{unknown[0]}")
    out: dict[str, int] = {}
    for side in sides:
        value = points.get(side)
        if value is None or value == "":
            raise DomainError(gettext("Give %(side)s's points.") % {"side": side}, field=f"points.{side}")
        try:
            if isinstance(value, bool) or not isinstance(value, int | str):
                raise ValueError
            number = int(str(value).strip())
        except ValueError:
            raise DomainError(gettext("%(side)s's points are a whole number.") % {"side": side},
                              field=f"points.{side}") from None
        if abs(number) > ADJUSTED_POINTS_LIMIT:
            raise DomainError(gettext("%(side)s's points are at most %(adjusted_points_limit)s either side of 0.") % {"side": side, "adjusted_points_limit": format(ADJUSTED_POINTS_LIMIT, ',')}, field=f"points.{side}")
        out[side] = number
    return out


@transaction.atomic
def game_adjust(*, game: Game, kind: str, reason: str, points: object = None, side: str = "",
                actor: Actor | None = None) -> Game:
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
    locked = _locked_game(game)  # the games' rows before the event's, as a hand takes them
    averaged_games_lock(locked.table.round_id)
    event = Event.objects.select_for_update().get(pk=locked.table.round.event_id)
    results_final_check(event)
    reason = reason.strip() if isinstance(reason, str) else ""
    if not isinstance(kind, str) or kind not in ADJUST_KINDS:
        raise DomainError(gettext("An adjusted result is one of: %(values)s.") % {"values": ', '.join(ADJUST_KINDS)},
                          field="kind")
    if not reason:
        raise DomainError(gettext("Say why the game gets an adjusted result."), field="reason")
    if len(reason) > 200:
        raise DomainError(gettext("Keep the reason under 200 characters."), field="reason")
    spec = event.spec
    if kind == "forfeit":
        if not spec.forfeits:
            raise DomainError(gettext("A %(value)s has no forfeits: give both sides' points or the round's average.") % {"value": lower_in_english(translated(spec.label))}, field="kind", code="no_forfeits")
        done = game_forfeit(game=game, side=side, reason=reason, actor=actor)
        adjusted: dict[str, object] = {"kind": kind, "side": side,
                                       "points": dict(done.totals or {}), "reason": reason}
        Game.objects.filter(pk=done.pk).update(adjusted=adjusted)
        done.adjusted = adjusted
        return done
    if event.status != Event.Status.RUNNING:
        raise DomainError(gettext("This event is not running."), field="event")
    round_ = locked.table.round
    if locked.forfeit:
        raise DomainError(gettext("This game was forfeited by %(forfeit)s.") % {"forfeit": locked.forfeit}, field="game",
                          code="forfeited")
    ruleset = event_ruleset(event)
    sides = table_sides(ruleset, game_seats(locked, ruleset))
    if kind == "points":
        given = _adjusted_points(points, sides)
    else:
        found = _round_average(locked)
        if found is None:
            raise DomainError(gettext("No other game of %(sitting)s %(number)s has a result to average yet: give both sides' points.") % {"sitting": sitting_word(event.sitting), "number": round_.number}, field="kind",
                              code="no_average")
        average, counted, of = found
        given = {s: average for s in sides}
    top = max(given.values())
    leaders = [s for s, v in given.items() if v == top]
    winner = leaders[0] if len(leaders) == 1 else ""
    if (locked.status == Game.Status.CONFIRMED and (winner or locked.cut_winner)
            != (locked.winner or locked.cut_winner)
            and event.rounds.filter(number__gt=round_.number).exists()):
        raise DomainError(gettext("The next %(sitting)s has been seated from this game's result; an adjusted result may not change who won it now.") % {"sitting": sitting_word(event.sitting)}, field="points",
                          code="seated")
    was = {"status": locked.status, "totals": locked.totals, "winner": locked.winner}
    result: dict[str, object] = {"kind": kind, "points": given, "reason": reason}
    if kind == "average":  # what it averages so far; it follows them (_averages_follow)
        result |= {"games": counted, "of": of}
    adjusted = result
    with corrections.correction_record(
            event=event, kind=corrections.GAME_ADJUSTED, actor=actor, reason=reason,
            round_number=round_.number, table_number=locked.table.number) as draft:
        now = timezone.now()
        Game.objects.filter(pk=locked.pk).update(
            adjusted=adjusted, status=Game.Status.CONFIRMED, confirmed_by=None, confirmed_at=now)
        locked.adjusted, locked.status = adjusted, Game.Status.CONFIRMED
        locked.confirmed_by, locked.confirmed_at = None, now
        _game_write(locked, _live_revisions(locked), bump_version=True)
        event_log(event, actor, "game_adjusted", round=round_.number, table=locked.table.number,
                  kind=kind, points=given, reason=reason, was=was)
        ratings_request_update(game_id=locked.pk, round_id=round_.pk)
        how = "the round's average" if kind == "average" else "points"
        draft.was = f"{totals_words(was['totals'], was['winner'])}, {was['status']}"
        draft.became = f"adjusted ({how}): {totals_words(locked.totals, locked.winner)}"
        draft.before = {"game": was}
        draft.after = {"game": {"status": locked.status, "totals": dict(locked.totals or {}),
                                "winner": locked.winner}, "adjusted": adjusted}
    event_results_changed(event)  # the event's row last, after the correction's
    _round_confirmed_advance(round_)
    return locked

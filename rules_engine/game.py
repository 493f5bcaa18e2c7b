"""A game: hands in order, running totals, how and when the game ends."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from .checks import settlement
from .errors import RulesError
from .hands import Hand, table_of
from .i18n import Text, gettext_noop
from .rulesets import Ruleset
from .scoring import HandScore, HandScoreDict, score_hand

__all__ = ["GameResult", "score_game"]


class GameDict(TypedDict):
    """A game as :meth:`GameResult.to_dict` writes it (the checks' keys under ``checks``)."""

    totals: list[dict[str, int]]
    winner: str | None
    reason: str | None
    finished_after: int | None
    finished: bool
    target: int | None
    hands: list[HandScoreDict]
    check_totals: NotRequired[dict[str, int]]
    game_checks: NotRequired[dict[str, int]]
    check_settlement: NotRequired[dict[str, int]]


@dataclass(frozen=True, slots=True)
class GameResult:
    """Running totals after each hand and, once decided, the winner and why.

    ``reason`` is one of ``target`` (a side reached the target alone), ``bid_and_out`` (the
    declaring side went out, winning a hand on which more than one side passed the target, or the
    only way out in a bid-out game), ``overtime``, ``quadruple_run``, ``all_tricks`` (a side took
    every trick under ``all_tricks=wins_game``), ``slide_out``, ``deals`` (a fixed number of
    deals was played). With ``target_exceed`` a side must pass the target, not just reach it.
    ``finished_after`` is the number (from 1) of the hand that ended the game.

    Under ``checks`` (check pinochle) ``check_totals`` is each side's checks over the hands plus
    ``game_checks``, what winning the game earned (``checks.game`` to the winner, once the game
    is decided), and ``check_settlement`` the stakes each side won (positive) or owes; all three
    are None elsewhere and left out of :meth:`to_dict`.
    """

    totals: list[dict[str, int]]
    winner: str | None
    reason: str | None
    finished_after: int | None
    scores: list[HandScore] = field(default_factory=list)
    target: int | None = None
    check_totals: dict[str, int] | None = None
    game_checks: dict[str, int] | None = None
    check_settlement: dict[str, int] | None = None

    def to_dict(self) -> GameDict:
        d: GameDict = {
            "totals": [dict(t) for t in self.totals],
            "winner": self.winner,
            "reason": self.reason,
            "finished_after": self.finished_after,
            "finished": self.finished_after is not None,
            "target": self.target,
            "hands": [s.to_dict() for s in self.scores],
        }
        if self.check_totals is not None:
            d["check_totals"] = dict(self.check_totals)
            d["game_checks"] = dict(self.game_checks or {})
            d["check_settlement"] = dict(self.check_settlement or {})
        return d


def _unique_top(totals: dict[str, int], among: Sequence[str]) -> str | None:
    best = max(totals[s] for s in among)
    top = [s for s in among if totals[s] == best]
    return top[0] if len(top) == 1 else None


def score_game(
    hands: Sequence[Hand],
    ruleset: Ruleset,
    max_deals: int | None = None,
    seats: Sequence[str] | None = None,
) -> GameResult:
    """Score hands in order and decide the game.

    ``seats`` is the table's (default the ruleset's own); totals are kept for every side of
    that table (:meth:`Ruleset.sides_for`), so at a table of four in a three-player game with
    ``sit_out="dealer"`` each of the four players has a total and scores only in the hands
    they did not deal. Every hand must have been parsed for the same table (``hands[i]``,
    code ``wrong_table``).
    Hands after the one that ended the game are an error (``hands[i]``, code ``game_over``).
    ``max_deals`` (or the ruleset's ``max_deals``) ends the game after that many deals, misdeals
    not counted; the higher total then wins (a tie has no winner).
    """
    rs = ruleset
    limit = max_deals if max_deals is not None else rs.max_deals
    if limit is not None and limit < 1:
        raise RulesError.single("max_deals", "bad_value", Text(gettext_noop("max_deals must be at least 1")))
    table = table_of(rs, seats)
    sides = rs.sides_for(len(table))
    sit_out = len(table) > rs.players
    for i, hand in enumerate(hands):
        if (hand.seats is not None) != sit_out or (sit_out and hand.seats != table):
            raise RulesError.single(
                f"hands[{i}]",
                "wrong_table",
                Text(gettext_noop("hand %(value)s was entered for a table of %(value2)s, this game is at a table of %(count)s"), value=i + 1, value2=len(hand.seats) if hand.seats is not None else rs.players, count=len(table)),
            )
    totals = dict.fromkeys(sides, 0)
    history: list[dict[str, int]] = []
    scores: list[HandScore] = []
    target = rs.game_target
    winner: str | None = None
    reason: str | None = None
    finished: int | None = None
    deals = 0
    slide = dict.fromkeys(sides, 0)

    def out(total: int, goal: int) -> bool:
        """Whether a total ends the game: reaching the target, or passing it (target_exceed)."""
        return total > goal if rs.target_exceed else total >= goal

    for i, hand in enumerate(hands):
        if finished is not None:
            raise RulesError.single(
                f"hands[{i}]",
                "game_over",
                Text(gettext_noop("the game was already over after hand %(finished)s (%(value)s won by %(reason)s); hand %(value2)s cannot be added"), finished=finished, value=winner or 'nobody', reason=reason, value2=i + 1),
            )
        sc = score_hand(hand, rs)
        scores.append(sc)
        for s, p in sc.points.items():
            totals[s] += p
        history.append(dict(totals))
        if sc.result == "misdeal":
            continue
        deals += 1
        d = sc.declaring_side
        if hand.quadruple_run is not None and rs.quadruple_run_wins:
            winner, reason, finished = hand.quadruple_run, "quadruple_run", i + 1
            continue
        if sc.all_tricks is not None and rs.all_tricks == "wins_game":
            # from any score, whoever bid and whether or not the bid was made
            winner, reason, finished = sc.all_tricks, "all_tricks", i + 1
            continue
        if target is not None:
            over = [s for s in sides if out(totals[s], target)]
            if rs.out_rule == "bid_out":
                if d is not None and sc.made and out(totals[d], target):
                    winner, reason, finished = d, "bid_and_out", i + 1
                    continue
                if rs.slide_out:
                    for s in sides:
                        if not out(totals[s], target):
                            slide[s] = 0
                        elif d is not None and d != s and s != sc.sitting_out and sc.made is False:
                            slide[s] += 1
                    ready = [s for s in sides if slide[s] >= rs.slide_out_sets]
                    if ready:
                        top = _unique_top(totals, ready)
                        if top is not None:
                            winner, reason, finished = top, "slide_out", i + 1
                            continue
            elif len(over) == 1:
                winner, reason, finished = over[0], "target", i + 1
                continue
            elif len(over) > 1:
                rule = rs.tie_rule
                if rule == "declaring_side" and d in over:
                    winner, reason, finished = d, "bid_and_out", i + 1
                    continue
                if rule == "overtime":
                    while len(over) > 1:
                        target += rs.overtime_step
                        over = [s for s in sides if out(totals[s], target)]
                    if len(over) == 1:
                        winner, reason, finished = over[0], "overtime", i + 1
                        continue
                else:
                    top = _unique_top(totals, over)
                    if top is not None:
                        winner, reason, finished = top, "target", i + 1
                        continue
        if limit is not None and deals >= limit:
            winner, reason, finished = _unique_top(totals, sides), "deals", i + 1
    if not rs.checks:
        return GameResult(history, winner, reason, finished, scores, target)
    game_checks = dict.fromkeys(sides, 0)
    if winner is not None:
        game_checks[winner] = rs.check_values.get("game", 0)
    check_totals = {s: sum(sc.checks.get(s, 0) for sc in scores) + game_checks[s] for s in sides}
    return GameResult(
        history,
        winner,
        reason,
        finished,
        scores,
        target,
        check_totals,
        game_checks,
        settlement(check_totals),
    )

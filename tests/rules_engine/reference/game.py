"""The end of a game written from the rule texts: hands' points added up in order, and the
first hand after which somebody has won.

* pagat: the first side to 500 or more wins; both on the same hand: the bidding side.
* three-handed: several over 1,000 on one hand are settled by the option ``tie_rule``: the
  bidder if among them (bid and out), else the highest score (a level top plays on); or
  overtime: the contest moves to 1,250, then 1,500, ... until one alone is over.
* cutthroat (``out_rule=bid_out``): only a bidder who makes the bid and is then over the target
  goes out; with ``slide_out`` a side at or over the target wins once the others have failed
  their bids ``slide_out_sets`` times while it stayed there.
* the club sheet: a quadruple run wins; the encyclopedia: taking every trick wins
  (``all_tricks=wins_game``); a game of a fixed number of deals goes to the highest total.

``target_exceed``: a side must pass the target rather than reach it. Misdeals are not deals.
"""

from __future__ import annotations

from typing import Any


def decide(
    hands: list[dict[str, Any]],
    options: dict[str, Any],
    sides: list[str],
) -> tuple[str | None, str | None, int | None]:
    """``hands``: per hand ``points``, ``declaring`` (side or None), ``made``, ``misdeal``,
    ``sweep`` (the side that took every trick, or None), ``quadruple`` (side or None) and
    ``sitting_out`` (seat or None). Returns (winner, reason, number of the deciding hand)."""
    o = options
    totals = {s: 0 for s in sides}
    target = o["game_target"]
    deals = 0
    failures = {s: 0 for s in sides}

    def over(total: int, goal: int) -> bool:
        return total > goal if o["target_exceed"] else total >= goal

    def single_top(among: list[str]) -> str | None:
        best = max(totals[s] for s in among)
        top = [s for s in among if totals[s] == best]
        return top[0] if len(top) == 1 else None

    for number, h in enumerate(hands, start=1):
        for s, p in h["points"].items():
            totals[s] += p
        if h["misdeal"]:
            continue
        deals += 1
        d = h["declaring"]
        if o["quadruple_run_wins"] and h["quadruple"]:
            return h["quadruple"], "quadruple_run", number
        if o["all_tricks"] == "wins_game" and h["sweep"]:
            return h["sweep"], "all_tricks", number
        if target is not None:
            out = [s for s in sides if over(totals[s], target)]
            if o["out_rule"] == "bid_out":
                if d is not None and h["made"] and over(totals[d], target):
                    return d, "bid_and_out", number
                if o["slide_out"]:
                    for s in sides:
                        if not over(totals[s], target):
                            failures[s] = 0
                        # the texts do not say whether a player sitting the hand out (a
                        # three-handed game at a table of four) counts the others' failures:
                        # here, as in the engine, not
                        elif d not in (None, s) and h["made"] is False and s != h["sitting_out"]:
                            failures[s] += 1
                    ready = [s for s in sides if failures[s] >= o["slide_out_sets"]]
                    if ready and single_top(ready):
                        return single_top(ready), "slide_out", number
            elif len(out) == 1:
                return out[0], "target", number
            elif len(out) > 1:
                if o["tie_rule"] == "declaring_side" and d in out:
                    return d, "bid_and_out", number
                if o["tie_rule"] == "overtime":
                    while len(out) > 1:
                        target += o["overtime_step"]
                        out = [s for s in sides if over(totals[s], target)]
                    if len(out) == 1:
                        return out[0], "overtime", number
                elif single_top(out):
                    return single_top(out), "target", number
        if o["max_deals"] is not None and deals >= o["max_deals"]:
            return single_top(sides), "deals", number
    return None, None, None


def check_tally(
    hands: list[dict[str, int]],
    winner: str | None,
    options: dict[str, Any],
    sides: list[str],
) -> tuple[dict[str, int], dict[str, int], dict[str, int]]:
    """Check pinochle over a game: each player's checks from the hands, plus "winning the game
    +5 checks" (``checks.game``); then "each check you gain means that the other players owe
    you a dollar", and each check lost is a dollar owed to each of them. Returns (check totals,
    the game's checks, dollars won or owed)."""
    game = {s: (options["checks.game"] if s == winner else 0) for s in sides}
    totals = {s: sum(h.get(s, 0) for h in hands) + game[s] for s in sides}
    money = dict.fromkeys(sides, 0)
    for s in sides:
        for other in sides:
            if other != s:
                money[s] += totals[s]  # the other owes s for each of s's checks
                money[s] -= totals[other]  # s owes the other for each of theirs
    return totals, game, money

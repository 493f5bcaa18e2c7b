"""Hand scoring written from the rule texts, plainly: one function, read top to bottom.

Input is what a scorer enters (``Hand.to_dict()``), the ruleset's options (a plain dict, read by
the meaning the help text gives each option), the number of players dealt in and, at a table
where the dealer sits out, the table's seats. Output: points per side, made (True, False or
None), the verdict and the checks per side (empty unless the option ``checks`` is on).

Where the texts speak:

* pagat: made → both sides add meld + tricks; set → the bidders score nothing and lose the bid,
  the others keep meld and tricks; no marriage → the bid is lost, nobody scores meld; a throw-in
  → the bid is lost, the others score their meld.
* the club sheet / pagat's "minimum 20": a side's meld counts only at 20 or more; a side taking
  fewer than 20 counters scores nothing, and a declaring side taking fewer is set; a throw-in
  gives the others meld + 20 for cards; a renege by the declaring side: set, the others their
  meld and 20 counters; by a defender: the declarers score the bid, the offenders lose their
  meld and take a set.
* three-handed: a player taking no trick loses the meld; a declarer whose meld and every
  counter cannot reach the bid must concede; a renege by the bidder is a double set, the others
  count meld; by a non-bidder: the bidder scores bid and meld, the offender loses all meld and
  is set, the third player scores only meld; a forced bidder may concede unseen: −bid and the
  others score nothing.
* check pinochle: the checks below.
* six-handed and racehorse: two teams of three, every player between two opponents; eight-handed:
  four teams of two, partners opposite (``teams``: seat -> team). Racehorse: "if a team's count
  plus meld does not equal their bid, they go set"; "the other team retains meld and count
  provided they took at least 10 in the count": the minimum holds the defenders only (the
  option ``min_counters_declarer`` off).
* five-handed: the bidder calls a partner for the hand, "everyone else plays against the team"
  (:func:`score_called`): the two are one side for the hand, the others each their own.
"""

from __future__ import annotations

from typing import Any

PARTNERS = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def counters_in_deck(options: dict[str, Any]) -> int:
    single = options["deck"] == "single"
    ranks = "ATKQJ9" if single else "ATKQJ"
    copies = 2 if single else 4
    per_suit = sum(options["counter_values"][r] for r in ranks)
    return per_suit * 4 * copies + options["last_trick"]


def score(
    hand: dict[str, Any],
    options: dict[str, Any],
    players: int,
    table: list[str] | None = None,
    teams: dict[str, str] | None = None,
) -> tuple[dict[str, int], bool | None, str, dict[str, int]]:
    """``teams``: seat -> team at tables of two, five, six and eight (sides are the teams, or
    each seat where the seat is its own team)."""
    o = options
    all_seats = table or ["N", "E", "S", "W"][: 4 if players == 4 else 3]
    if teams is not None:
        sides = list(dict.fromkeys(teams.values()))

        def side_of(seat: str) -> str:
            return teams[seat]
    elif players == 4:
        sides = ["NS", "EW"]

        def side_of(seat: str) -> str:
            return PARTNERS[seat]
    else:
        sides = list(all_seats)

        def side_of(seat: str) -> str:
            return seat

    points = {s: 0 for s in sides}
    checks = {s: 0 for s in sides} if o["checks"] else {}
    outcome = hand["outcome"]
    if outcome in ("misdeal", "technical_misdeal"):
        return points, None, "misdeal", checks

    d = side_of(hand["bidder"])
    bid = hand["bid"]
    if table is not None and len(table) > players:
        playing = [s for s in sides if s != hand["dealer"]]
    else:
        playing = sides
    others = [s for s in playing if s != d]
    raw_meld = {s: hand["meld"].get(s, 0) for s in playing}
    # a side's meld counts only when it reaches the minimum
    meld = {s: (m if m >= o["min_meld"] else 0) for s, m in raw_meld.items()}
    counters = hand.get("counters") or {}
    tricks = hand.get("tricks") or {}
    total = counters_in_deck(o)

    def lose_bid() -> None:
        policy = o["set_policy"]
        if policy == "subtract_bid":
            points[d] = -bid
        elif policy == "double_bid":
            points[d] = -2 * bid
        elif policy == "subtract_bid_and_meld":
            points[d] = -(bid + raw_meld[d])
        else:  # opponents_gain_bid: the bidders score nothing, every other side gains the bid
            points[d] = 0
            for s in others:
                points[s] += bid

    def concede() -> tuple[bool, str]:
        if hand.get("widow_seen") is False:
            lose_bid()
            return False, "surrendered"
        for s in others:
            if o["surrender_policy"] == "meld":
                points[s] = meld[s]
            elif o["surrender_policy"] == "meld_plus_bonus":
                points[s] = meld[s] + o["surrender_bonus"]
        lose_bid()
        return False, "surrendered"

    doomed = (
        o["forced_concession"]
        and o["all_tricks"] != "wins_game"
        and meld[d] + total < bid
    )
    made: bool | None
    if outcome == "no_marriage":
        for s in others:
            points[s] = meld[s] if o["board_set_opponents"] == "meld" else 0
        lose_bid()
        made, result = False, "board_set"
    elif outcome == "surrender":
        made, result = concede()
    elif outcome == "played" and o["min_meld"] and o["short_meld"] == "set" and raw_meld[d] < o["min_meld"]:
        # too little meld to play: set at once, the others score their meld
        for s in others:
            points[s] = meld[s]
        lose_bid()
        made, result = False, "board_set"
    elif doomed:
        made, result = concede()
    elif outcome == "renege":
        offender = side_of(hand["renege_seat"])
        if offender == d:
            rule = o["renege_declarer"]
            for s in others:
                if rule == "set":
                    if counters.get(s, 0) >= o["min_counters"]:
                        points[s] = meld[s] + counters.get(s, 0)
                elif rule == "set_bonus":
                    points[s] = meld[s] + o["renege_bonus"]
                else:
                    points[s] = meld[s]
            if rule == "double_set":
                points[d] = -2 * bid
            else:
                lose_bid()
            made, result = False, "renege"
        else:
            points[d] = bid + (meld[d] if o["renege_defender"] == "bid_and_meld" else 0)
            for s in others:
                points[s] = -bid if s == offender else meld[s]
            made, result = True, "renege"
    else:  # played out
        if o["meld_needs_trick"]:
            meld = {s: (m if tricks.get(s, 0) > 0 else 0) for s, m in meld.items()}
        enough = {s: counters[s] >= o["min_counters"] for s in playing}
        if not o["min_counters_declarer"]:
            enough[d] = True
        for s in others:
            points[s] = meld[s] + counters[s] if enough[s] else 0
        if enough[d] and meld[d] + counters[d] >= bid:
            points[d] = meld[d] + counters[d]
            made, result = True, "made"
        else:
            lose_bid()
            if o["set_keeps_meld"] and enough[d]:
                points[d] += meld[d]
            made, result = False, "set"
        if o["all_tricks"] == "bonus":
            for s in playing:
                if tricks.get(s) == sum(tricks.values()):
                    points[s] += o["all_tricks_bonus"]

    if o["checks"]:
        for s, names in (hand.get("check_melds") or {}).items():
            if (
                o["checks.meld_saved_only"]
                and o["meld_needs_trick"]
                and result in ("made", "set")
                and tricks.get(s, 0) == 0
            ):
                continue
            for name in names:
                key = name
                if name in ("double_aces", "double_kings", "double_queens", "double_jacks"):
                    key = "double_around"
                checks[s] += o["checks." + key]
                if name == "double_aces" and o["checks.doubles"] == "add":
                    checks[s] += o["checks.aces"]
        if made is False and hand.get("widow_seen") is not False:
            checks[d] -= o["checks.lose_looked"]
            if result in ("set", "renege"):
                checks[d] -= o["checks.lose_played"]
    return points, made, result, checks


# the teams of the tables of six and eight, as the texts seat them (and the engine names them)
TEAMS: dict[int, dict[str, str]] = {
    6: {"N": "NSESW", "SE": "NSESW", "SW": "NSESW", "NE": "NESNW", "S": "NESNW", "NW": "NESNW"},
    8: {"N": "NS", "S": "NS", "NE": "NESW", "SW": "NESW", "E": "EW", "W": "EW",
        "SE": "SENW", "NW": "SENW"},
}  # fmt: skip


def score_table(
    hand: dict[str, Any], options: dict[str, Any], seats: list[str]
) -> tuple[dict[str, int], bool | None, str, dict[str, int]]:
    """A hand at a table of two, six or eight (fixed sides), or five (a called partner)."""
    if options["called_partner"]:
        return score_called(hand, options, seats)
    teams = TEAMS.get(len(seats), {s: s for s in seats})
    return score(hand, options, len(seats), list(seats), teams)


def score_called(
    hand: dict[str, Any], options: dict[str, Any], seats: list[str]
) -> tuple[dict[str, int], bool | None, str, dict[str, int]]:
    """Five-handed: meld and counters come per player; the bidder and the called partner (the
    bidder alone when holding the card) add theirs up and make or lose the bid together; the
    partner scores the team's points, or nothing (``partner_scores``)."""
    bidder, partner = hand.get("bidder"), hand.get("partner")
    if bidder is None or partner is None:
        return score(hand, options, len(seats), list(seats), {s: s for s in seats})
    team = {bidder, partner}
    teams = {s: ("team" if s in team else s) for s in seats}

    def pooled(values: dict[str, int] | None) -> dict[str, int] | None:
        if values is None:
            return None
        out: dict[str, int] = {}
        for seat, n in values.items():
            out[teams[seat]] = out.get(teams[seat], 0) + n
        return out

    as_team = {
        **hand,
        "meld": pooled(hand["meld"]) or {},
        "counters": pooled(hand.get("counters")),
        "tricks": pooled(hand.get("tricks")),
    }
    if hand.get("renege_seat"):
        as_team["renege_seat"] = hand["renege_seat"]
    points, made, result, checks = score(as_team, options, len(seats), list(seats), teams)
    out = {}
    for s in seats:
        if s == bidder or s not in team:
            out[s] = points[teams[s]]
        else:
            out[s] = points["team"] if options["partner_scores"] == "team" else 0
    return out, made, result, checks

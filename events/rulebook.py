"""The rules of the evening: one page per event, written from the event's ruleset (the rules
engine's preset plus the event's overrides, through ``common.rulesets.event_ruleset``), its
format settings, bye policy and tie-breaks.

Every number on the page is read from the engine's :class:`rules_engine.Ruleset` (or the
event); the words around them are chosen here, one sentence per option value. A preset or an
override therefore shows up on the page without anyone editing it.
"""

from __future__ import annotations

from typing import TypedDict

from common.rulesets import event_ruleset
from draw.selectors import event_rules, rounds_total
from rules_engine import Ruleset
from rules_engine.rulesets import OPTION_HELP
from standings.models import StandingsSnapshot
from standings.selectors import BYE_SCORING_TEXT, standings_compute
from tournaments.models import Event

MULTIPLES = ("Single", "Double", "Triple", "Quadruple", "Five times", "Six times",
             "Seven times", "Eight times")
COPIES = {2: "two", 4: "four", 6: "six", 8: "eight"}
# check pinochle: what earns or costs checks, by the option after "checks."
CHECK_WORDS = (
    ("run", "a run in trump"), ("double_run", "a double run"), ("aces", "aces around"),
    ("roundtable", "a roundtable (a marriage in each suit)"),
    ("double_marriage", "each suit holding two marriages"),
    ("double_pinochle", "a double pinochle"),
    ("double_around", "double aces, kings, queens or jacks (each)"),
    ("seven_nines", "seven nines in the hand dealt, bid or not"),
)
RANK_NAMES = {"A": ("ace", "aces"), "T": ("ten", "tens"), "K": ("king", "kings"),
              "Q": ("queen", "queens"), "J": ("jack", "jacks"), "9": ("nine", "nines")}
# (meld option, name on the page, attribute of the ruleset holding (0, single, double, ...))
MELDS = (
    ("meld.run", "Run in trump (A 10 K Q J)", "run_t"),
    ("meld.royal_marriage", "Royal marriage (K Q of trump)", "royal_t"),
    ("meld.marriage", "Marriage (K Q of another suit)", "marriage_t"),
    ("meld.pinochle", "Pinochle (Q♠ J♦)", "pinochle_t"),
)
AROUNDS = (("meld.aces", "Aces around"), ("meld.kings", "Kings around"),
           ("meld.queens", "Queens around"), ("meld.jacks", "Jacks around"))

SET_POLICY = {
    "subtract_bid": "the declaring side loses the amount of its bid",
    "opponents_gain_bid": "the declaring side scores nothing and the opponents add the bid",
    "subtract_bid_and_meld": "the declaring side loses its bid and its meld",
    "double_bid": "the declaring side loses twice its bid",
}
HEAD_RULE = {
    "always": "Follow suit and beat the card winning the trick if you can; with no card of the "
              "suit led, trump (and beat a trump already played) if you can.",
    "trump_led": "Follow suit if you can; you must beat the winning card only when trump is "
                 "led; with no card of the suit led, trump if you can.",
}
TIE_RULE = {
    "declaring_side": "When both sides reach {target} on the same hand, the declaring side wins.",
    "highest_score": "When both sides reach {target} on the same hand, the higher score wins "
                     "(level: play another hand).",
    "overtime": "When several sides reach {target} on the same hand, the target moves up by "
                "{step} until one side alone is over it.",
}


def _join(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _points(value: int) -> str:
    return f"{value} point{'s' if value != 1 else ''}"


def _ladder(rs: Ruleset) -> str:
    """The first bids on the ladder and where the steps change, e.g. "50, 51, 52 … 60, 65"."""
    parts = [", ".join(str(b) for b in rs.next_bids(None, 3))]
    for start, _ in rs.bid_steps:
        parts.append(", ".join(str(b) for b in rs.next_bids(start - 1, 3)))
    return " … ".join(parts) + " …"


class MeldRow(TypedDict):
    option: str
    name: str
    what: str
    values: list[int | str]  # per multiple: the points, or "wins the game"


class MeldTable(TypedDict):
    columns: list[str]
    rows: list[MeldRow]


def meld_table(rs: Ruleset) -> MeldTable:
    """The meld values by multiple: ``{"columns": [...], "rows": [{"name", "what",
    "values": [int | "wins the game"]}]}`` straight from the ruleset's tables."""
    columns = list(MULTIPLES[: rs.copies])
    rows: list[MeldRow] = []
    for option, name, attribute in MELDS:
        values: list[int | str] = list(getattr(rs, attribute)[1:])
        # a quadruple (or more) that ends the game shows so, not its points
        wins = (option == "meld.run" and rs.quadruple_run_wins) or (
            option in ("meld.royal_marriage", "meld.pinochle") and rs.quadruple_melds_win)
        if wins:
            values[3:] = ["wins the game"] * len(values[3:])
        rows.append({"option": option, "name": name, "what": OPTION_HELP[option],
                     "values": values})
    for index, (option, name) in enumerate(AROUNDS):
        rows.append({"option": option, "name": name, "what": OPTION_HELP[option],
                     "values": list(rs.around_t[index][1:])})
    if rs.dix:
        rows.append({"option": "meld.dix", "name": "Dix (nine of trump)",
                     "what": OPTION_HELP["meld.dix"],
                     "values": [rs.dix * n for n in range(1, rs.copies + 1)]})
    if rs.round_house:
        rows.append({"option": "meld.round_house", "name": "Round house (K Q of every suit)",
                     "what": OPTION_HELP["meld.round_house"],
                     "values": [rs.round_house * n for n in range(1, rs.copies + 1)]})
    if rs.run_extra:
        rows.append({"option": "meld.run_extra", "name": "Extra king or queen beside a run",
                     "what": OPTION_HELP["meld.run_extra"],
                     "values": [rs.run_extra * n for n in range(1, rs.copies + 1)]})
    return {"columns": columns, "rows": rows}


def _who_plays(rs: Ruleset) -> str:
    """The table: partnerships, teams or players alone."""
    if rs.called_partner:
        return (f"{rs.players} players at a table, each keeping their own score; in each hand "
                "the declarer plays with a called partner against everyone else.")
    if rs.individual:
        return f"{rs.players} players at a table, each playing for themselves."
    if rs.players == 4:
        return ("4 players in two partnerships at a table: North and South against East and "
                "West.")
    teams = len(rs.sides)
    where = "every player sits between two opponents" if teams == 2 else "partners sit opposite"
    return (f"{rs.players} players at a table in {COPIES.get(teams, str(teams))} teams of "
            f"{rs.side_size}: {where}.")


def _table_section(rs: Ruleset) -> list[str]:
    ranks = ", ".join(
        "10" if r == "T" else r for r in rs.deck.ranks)
    copies = COPIES.get(rs.copies, str(rs.copies))
    dealt = (f"; {rs.widow} go to the widow (the blind), which the declarer takes."
             if rs.widow else ".")
    lines = [
        _who_plays(rs),
        f"A {rs.deck.value} deck of {rs.deck.size} cards: {ranks} in each suit, {copies} of "
        f"each card. Each player gets {rs.hand_size} cards" + dealt,
    ]
    if rs.nines_added:
        lines.append(f"{rs.nines_added} nines, one of each suit per four, are added to the pack "
                     "so the deal comes out even; they meld and count nothing.")
    if rs.stock:
        lines.append(f"The other {rs.stock} cards are the stock: drawn or passed over while the "
                     "hands are built, they end up on each player's pile and their counters "
                     "count for that player.")
    if rs.pass_cards:
        lines.append(f"After trump is named, each of the declarer's partners passes "
                     f"{rs.pass_cards} cards to the declarer.")
    if 4 in rs.table_sizes and rs.individual:
        lines.append("When the players do not fill tables of three, a table seats four: the "
                     "dealer deals to the other three and sits that hand out, scoring nothing "
                     "for it; the deal passes to the left round all four.")
    lines.append(HEAD_RULE[rs.head_rule])
    misdeal = _misdeal(rs.misdeal_rule)
    if misdeal:
        again = ("the same dealer deals again" if rs.misdeal_redeal == "same_dealer"
                 else "the next dealer deals")
        lines.append(f"A player dealt {misdeal} may call a misdeal: {again}.")
    return lines


def _misdeal(rule: str) -> str:
    """The engine's own description of a misdeal rule ("13+ non-counters and no aces")."""
    for part in OPTION_HELP["misdeal_rule"].split(";"):
        name, _, what = part.strip().partition(":")
        if name.strip() == rule and what.strip():
            return what.strip()
    return ""


def _bidding_section(rs: Ruleset) -> list[str]:
    steps = [f"by {rs.bid_step}"] + [f"from {start} by {step}" for start, step in rs.bid_steps]
    lines = [f"The lowest opening bid is {rs.min_bid}; bids go up {_join(steps)}: {_ladder(rs)}"]
    others = rs.players - 1
    if rs.forced_opening:
        lines.append(f"The player at the dealer's left opens at {rs.min_bid} without a choice; "
                     "the others bid over it or pass.")
    if rs.called_partner:
        gets = ("scores what the declarer scores, made or set" if rs.partner_scores == "team"
                else "helps but scores nothing for the hand")
        lines.append("The declarer names trump and calls a card of trump: the first other "
                     "player holding it is the declarer's partner for the hand (the declarer "
                     "plays alone holding it), and everyone else plays alone against them. "
                     f"Their meld and counters add up for the bid; the partner {gets}.")
    if rs.dealer_lowest_bid is not None:
        lines.append(f"If the other {others} players pass, the dealer may open at "
                     f"{rs.dealer_lowest_bid}, one step below the lowest opening bid.")
    if rs.dealer_stuck is not None:
        lines.append(f"If the other {others} players pass, the dealer is stuck with a bid of "
                     f"{rs.dealer_stuck}.")
    elif not rs.forced_opening:
        lines.append("If everybody passes, the cards are thrown in and dealt again.")
    if rs.trump_marriage_required:
        gets = ("the opponents score their meld" if rs.board_set_opponents == "meld"
                else "nobody scores meld")
        lines.append("The declarer names trump and must hold a marriage in trump; without one "
                     f"the hand is a board set: {SET_POLICY[rs.set_policy]} and {gets}.")
    return lines


def _meld_section(rs: Ruleset) -> list[str]:
    lines = ["Meld is counted per player and added up per side. A card may serve in one meld of "
             "each class: runs and marriages, pinochles, arounds."]
    if rs.min_meld:
        lines.append(f"A side's meld counts only when it is at least {rs.min_meld}"
                     + (f" and the side takes at least {rs.min_counters} in counters."
                        if rs.min_counters else "."))
    if rs.min_meld and rs.short_meld == "set":
        lines.append(f"A declaring side with less than {rs.min_meld} meld is set without "
                     "playing the hand.")
    if rs.meld_needs_trick:
        lines.append("A player must take a trick to save their meld.")
    if rs.run_extra:
        lines.append(f"An extra king or queen of trump beside a run, with no partner for a royal "
                     f"marriage, counts {rs.run_extra} more each.")
    if rs.round_house:
        lines.append(f"A round house (a king and a queen of every suit) counts {rs.round_house} "
                     "more than its marriages and arounds.")
    if rs.options["meld.quadruple_pinochle"] and rs.copies >= 4:
        lines.append(f"A quadruple pinochle (four queens of spades and four jacks of diamonds) "
                     f"counts {rs.pinochle_t[4]}.")
    return lines


def _counting_section(rs: Ruleset) -> list[str]:
    values = dict(zip("ATKQJ9", rs.counter_values, strict=True))
    groups: dict[int, list[str]] = {}
    for rank in rs.deck.ranks:
        if values[rank]:
            groups.setdefault(values[rank], []).append(RANK_NAMES[rank][1])
    counts = "; ".join(f"{_join(names).capitalize()} count {_points(value)} each"
                       for value, names in sorted(groups.items(), reverse=True))
    lines = [f"{counts}; the last trick counts {_points(rs.last_trick)}: "
             f"{rs.counters_total} counters in each hand."]
    if rs.min_counters and rs.min_counters_declarer:
        lines.append(f"A side must take at least {rs.min_counters} in counters to score; a "
                     "declaring side that takes fewer is set.")
    elif rs.min_counters:
        lines.append(f"A side other than the declaring side must take at least "
                     f"{rs.min_counters} in counters to keep its meld and counters; the "
                     "declaring side makes its bid on meld plus counters, whatever it took.")
    return lines


def _scoring_section(rs: Ruleset) -> list[str]:
    keeps = "; it keeps its meld (scores it less the set)" if rs.set_keeps_meld else ""
    lines = ["The declaring side makes its bid when its meld plus its counters reach the bid: "
             "each side then scores its meld and its counters.",
             f"A set: {SET_POLICY[rs.set_policy]}{keeps}; the opponents score their meld and "
             "counters."]
    if rs.surrender_policy == "nothing":
        gets = "the opponents score nothing"
    elif rs.surrender_policy == "meld":
        gets = "the opponents score their meld"
    else:
        gets = f"the opponents score their meld plus {rs.surrender_bonus}"
    lines.append(f"Throwing in the hand (surrender) after the meld: {SET_POLICY[rs.set_policy]}"
                 f" and {gets}.")
    # where taking every trick wins the game, a declarer may play for it instead (pinochling:
    # rules_engine.scoring plays the hand out), so nobody has to concede
    forced = rs.forced_concession and rs.all_tricks != "wins_game"
    if forced:
        lines.append("A declarer whose meld plus every counter in the deck cannot reach the bid "
                     "must concede the hand.")
    declarer = {
        "set": f"a set ({SET_POLICY[rs.set_policy]}); the opponents score their meld and "
               "counters",
        "set_bonus": f"{SET_POLICY[rs.set_policy]}; the opponents score their meld plus "
                     f"{rs.renege_bonus}",
        "double_set": "the declaring side loses twice its bid; the opponents score their meld",
    }[rs.renege_declarer]
    defender = ("the declaring side scores its bid"
                + (" and its meld" if rs.renege_defender == "bid_and_meld" else "")
                + "; the side that reneged loses its meld and the amount of the bid")
    lines.append(f"Renege by the declaring side: {declarer}.")
    lines.append(f"Renege by a defender: {defender}.")
    if forced:
        lines.append("A hand the declarer had to concede is scored as that concession, even if "
                     "it was played and somebody reneged.")
    if rs.all_tricks == "bonus":
        lines.append(f"A side that takes every trick scores {rs.all_tricks_bonus} more.")
    lines.extend(_checks_lines(rs))
    return lines


def _checks_lines(rs: Ruleset) -> list[str]:
    """Check pinochle's second tally, one sentence per thing that earns or costs checks."""
    if not rs.checks:
        return []
    values = rs.check_values
    earned = [f"{words} {values[key]}" for key, words in CHECK_WORDS if values.get(key)]
    lines = ["Checks are kept beside the points: each check a player gains, every other player "
             "owes them a stake."]
    if earned:
        lines.append("Checks for meld, bidder or not, kept even when the bid is lost: "
                     + "; ".join(earned) + ".")
    if values.get("double_around") and rs.options["checks.doubles"] == "add":
        lines.append("Double aces earn the aces check as well.")
    if rs.options["checks.meld_saved_only"]:
        lines.append("Meld checks go only to a player who saved the meld.")
    lost = values.get("lose_looked", 0)
    if lost:
        lines.append(f"A declarer who looks at the widow and loses the hand, by conceding or "
                     f"playing, loses {lost} check{'s' if lost != 1 else ''}"
                     + (f", and {values['lose_played']} more for playing and losing"
                        if values.get("lose_played") else "")
                     + "; conceding at the opening minimum without looking costs no check.")
    if values.get("game"):
        lines.append(f"Winning the game earns {values['game']} checks.")
    return lines


def _game_section(event: Event, rs: Ruleset, word: str) -> list[str]:
    lines = []
    target = rs.game_target
    deals = event.deals_per_round or rs.max_deals
    if deals:
        lines.append(f"A {word} is {deals} deal{'s' if deals != 1 else ''} (a misdeal is dealt "
                     "again and not counted); the side ahead after the last deal wins it.")
    if target is not None:
        if rs.out_rule == "bid_out":
            lines.append(f"The game is {target}: only a declaring side that makes its bid can "
                         "go out (bid-and-out).")
            if deals:
                lines.append(f"When the {word}'s deals are played (or its time is called) "
                             "before anyone has gone out, the highest score wins it; a tie at "
                             "the top is settled by a cut of the cards.")
        else:
            goal = f"pass it (score more than {target})" if rs.target_exceed else "reach it"
            lines.append(f"The game is {target}: the first side to {goal} wins"
                         + (", even before the last deal." if deals else "."))
            tie = TIE_RULE[rs.tie_rule].format(target=target, step=rs.overtime_step)
            if rs.target_exceed:
                tie = tie.replace("reach ", "pass ")
            lines.append(tie)
        if rs.slide_out:
            # counted while the side stays there: a bid the others make in between does not
            # start the count again (rules_engine.game)
            over = f"over {target}" if rs.target_exceed else f"at or over {target}"
            times = f"{rs.slide_out_sets} time{'s' if rs.slide_out_sets != 1 else ''}"
            lines.append(f"A side {over} also wins without bidding once the others have failed "
                         f"their bids {times} while it stayed there (slide-out); falling under "
                         f"{target} starts the count again.")
    if target is not None and rs.out_rule == "bid_out" and rs.target_exceed:
        lines.append(f"Going out means passing {target}: exactly {target} is not enough.")
    if rs.quadruple_melds_win:
        lines.append("A quadruple run, a quadruple marriage in trump or a quadruple pinochle is "
                     "\"the game\": it wins the game at once.")
    elif rs.quadruple_run_wins:
        lines.append("A quadruple run in trump wins the game at once.")
    if rs.all_tricks == "wins_game":
        lines.append("A side that takes every trick wins the game at once, whatever the score "
                     "and whoever bid, made or not (pinochling): a declarer may play for it even "
                     "when the bid cannot be made. The declarer stops it by throwing the hand in "
                     "before the first card is played.")
    return lines


def tie_break_labels(event: Event) -> list[str]:
    """The order the standings rank by, as the standings page says it."""
    stored = StandingsSnapshot.objects.filter(event_id=event.pk).values_list(
        "tie_breaks", flat=True).first()
    labels = stored or standings_compute(event=event, rounds=[]).tie_breaks
    return [str(t["label"]) for t in labels]


def _format_section(event: Event, word: str) -> list[str]:
    lines = list(event_rules(event))
    if event.is_pairs:
        lines.insert(0, f"Fixed partnerships: each pair plays every {word} together; "
                        f"{rounds_total(event)} {word}s in all.")
    return lines


def rules_sheet(event: Event) -> dict[str, object]:
    """Everything the rules page shows, in sections of sentences plus the meld table."""
    rs = event_ruleset(event)
    word = event.sitting
    bye = BYE_SCORING_TEXT.get(event.bye_scoring, "").format(points=event.bye_points)
    if event.is_pairs:
        bye = "A pair with a bye wins the round. " + bye
    sections = [
        {"id": "rules-table", "title": "Players and cards", "lines": _table_section(rs)},
        {"id": "rules-bidding", "title": "Bidding", "lines": _bidding_section(rs)},
        {"id": "rules-meld", "title": "Meld", "lines": _meld_section(rs), "meld": True},
        {"id": "rules-counters", "title": "Counters and the last trick",
         "lines": _counting_section(rs)},
        {"id": "rules-scoring", "title": "Made, set, surrender and renege",
         "lines": _scoring_section(rs)},
        {"id": "rules-game", "title": "End of a game", "lines": _game_section(event, rs, word)},
        {"id": "rules-format", "title": f"The {event.get_format_display().split(' (')[0].lower()}",
         "lines": _format_section(event, word)},
        {"id": "rules-standings", "title": "Byes and standings",
         "lines": [bye, "Ranked by " + ", then ".join(t.lower() for t in tie_break_labels(event))
                   + "; " + ("pairs" if event.is_pairs else "players")
                   + " level on all of these share a place."]},
    ]
    return {"event": event, "ruleset": rs, "sections": sections, "meld": meld_table(rs),
            "word": word}

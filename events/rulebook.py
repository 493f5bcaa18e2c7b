"""The rules of the evening: one page per event, written from the event's ruleset (the rules
engine's preset plus the event's overrides, through ``common.rulesets.event_ruleset``), its
format settings, bye policy and tie-breaks.

Every number on the page is read from the engine's :class:`rules_engine.Ruleset` (or the
event); the words around them are chosen here, one sentence per option value, in the reader's
language (``gettext`` when the page is made; the module's tables are lazy). A preset or an
override therefore shows up on the page without anyone editing it.
"""

from __future__ import annotations

from typing import TypedDict

from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from common.labels import reads_english, sitting_word
from common.rulesets import event_ruleset
from draw.selectors import event_rules, rounds_total
from rules_engine import Ruleset
from standings.models import StandingsSnapshot
from standings.selectors import bye_text, ranking_sentence, standings_compute, translated_tie_breaks
from tournaments.models import Event

MULTIPLES = (_("Single"), _("Double"), _("Triple"), _("Quadruple"), _("Five times"),
             _("Six times"), _("Seven times"), _("Eight times"))
COPIES = {2: _("two"), 4: _("four"), 6: _("six"), 8: _("eight")}
# check pinochle: what earns or costs checks, by the option after "checks."
CHECK_WORDS = (
    ("run", _("a run in trump")), ("double_run", _("a double run")), ("aces", _("aces around")),
    ("roundtable", _("a roundtable (a marriage in each suit)")),
    ("double_marriage", _("each suit holding two marriages")),
    ("double_pinochle", _("a double pinochle")),
    ("double_around", _("double aces, kings, queens or jacks (each)")),
    ("seven_nines", _("seven nines in the hand dealt, bid or not")),
)
RANK_NAMES = {"A": _("aces"), "T": _("tens"), "K": _("kings"), "Q": _("queens"), "J": _("jacks"),
              "9": _("nines")}
# (meld option, name on the page, what it is, attribute of the ruleset holding (0, single,
# double, ...)); the words of "what" are the engine's option help (``OPTION_HELP``)
MELDS = (
    ("meld.run", _("Run in trump (A 10 K Q J)"),
     _("run in trump: single, double, triple, quadruple"), "run_t"),
    ("meld.royal_marriage", _("Royal marriage (K Q of trump)"),
     _("K-Q of trump not used in a run"), "royal_t"),
    ("meld.marriage", _("Marriage (K Q of another suit)"), _("K-Q of a suit other than trump"),
     "marriage_t"),
    ("meld.pinochle", _("Pinochle (Q♠ J♦)"), _("Q of spades with J of diamonds"), "pinochle_t"),
)
AROUNDS = (("meld.aces", _("Aces around"), _("an ace of each suit (aces around)")),
           ("meld.kings", _("Kings around"), _("a king of each suit")),
           ("meld.queens", _("Queens around"), _("a queen of each suit")),
           ("meld.jacks", _("Jacks around"), _("a jack of each suit")))
EXTRA_MELDS = {
    "meld.dix": (_("Dix (nine of trump)"), _("each nine of trump (single deck)")),
    "meld.round_house": (_("Round house (K Q of every suit)"),
                         _("bonus for a marriage in every suit (round house, round table), per "
                           "round house held, on top of its marriages and kings and queens "
                           "around")),
    "meld.run_extra": (_("Extra king or queen beside a run"),
                       _("each extra king or queen of trump beside a run, not paired in a royal "
                         "marriage")),
}
MISDEALS = {"no_aces": _("13+ non-counters and no aces"), "nines": _("5+ nines")}

SET_POLICY = {
    "subtract_bid": _("the declaring side loses the amount of its bid"),
    "opponents_gain_bid": _("the declaring side scores nothing and the opponents add the bid"),
    "subtract_bid_and_meld": _("the declaring side loses its bid and its meld"),
    "double_bid": _("the declaring side loses twice its bid"),
}
HEAD_RULE = {
    "always": _("Follow suit and beat the card winning the trick if you can; with no card of "
                "the suit led, trump (and beat a trump already played) if you can."),
    "trump_led": _("Follow suit if you can; you must beat the winning card only when trump is "
                   "led; with no card of the suit led, trump if you can."),
}
TIE_RULE = {
    "declaring_side": _("When both sides reach %(target)s on the same hand, the declaring side "
                        "wins."),
    "highest_score": _("When both sides reach %(target)s on the same hand, the higher score "
                       "wins (level: play another hand)."),
    "overtime": _("When several sides reach %(target)s on the same hand, the target moves up by "
                  "%(step)s until one side alone is over it."),
}
TIE_RULE_EXCEED = {
    "declaring_side": _("When both sides pass %(target)s on the same hand, the declaring side "
                        "wins."),
    "highest_score": _("When both sides pass %(target)s on the same hand, the higher score "
                       "wins (level: play another hand)."),
    "overtime": _("When several sides pass %(target)s on the same hand, the target moves up by "
                  "%(step)s until one side alone is over it."),
}


def _join(words: list[str]) -> str:
    words = [str(w) for w in words]
    if len(words) == 1:
        return words[0]
    return gettext("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]),
                                                 "last": words[-1]}


def _points(value: int) -> str:
    return ngettext("%(n)s point", "%(n)s points", value) % {"n": value}


def _ladder(rs: Ruleset) -> str:
    """The first bids on the ladder and where the steps change, e.g. "50, 51, 52 … 60, 65"."""
    parts = [", ".join(str(b) for b in rs.next_bids(None, 3))]
    for start, _step in rs.bid_steps:
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
    columns = [str(m) for m in MULTIPLES[: rs.copies]]
    rows: list[MeldRow] = []
    for option, name, what, attribute in MELDS:
        values: list[int | str] = list(getattr(rs, attribute)[1:])
        # a quadruple (or more) that ends the game shows so, not its points
        wins = (option == "meld.run" and rs.quadruple_run_wins) or (
            option in ("meld.royal_marriage", "meld.pinochle") and rs.quadruple_melds_win)
        if wins:
            values[3:] = [gettext("wins the game")] * len(values[3:])
        rows.append({"option": option, "name": str(name), "what": str(what), "values": values})
    for index, (option, name, what) in enumerate(AROUNDS):
        rows.append({"option": option, "name": str(name), "what": str(what),
                     "values": list(rs.around_t[index][1:])})
    for option, value in (("meld.dix", rs.dix), ("meld.round_house", rs.round_house),
                          ("meld.run_extra", rs.run_extra)):
        if value:
            name, what = EXTRA_MELDS[option]
            rows.append({"option": option, "name": str(name), "what": str(what),
                         "values": [value * n for n in range(1, rs.copies + 1)]})
    return {"columns": columns, "rows": rows}


def _who_plays(rs: Ruleset) -> str:
    """The table: partnerships, teams or players alone."""
    if rs.called_partner:
        return gettext("%(players)s players at a table, each keeping their own score; in each "
                       "hand the declarer plays with a called partner against everyone "
                       "else.") % {"players": rs.players}
    if rs.individual:
        return gettext("%(players)s players at a table, each playing for themselves.") % {
            "players": rs.players}
    if rs.players == 4:
        return gettext("4 players in two partnerships at a table: North and South against East "
                       "and West.")
    teams = len(rs.sides)
    values = {"players": rs.players, "teams": COPIES.get(teams, str(teams)),
              "size": rs.side_size}
    if teams == 2:
        return gettext("%(players)s players at a table in %(teams)s teams of %(size)s: every "
                       "player sits between two opponents.") % values
    return gettext("%(players)s players at a table in %(teams)s teams of %(size)s: partners "
                   "sit opposite.") % values


def _table_section(rs: Ruleset) -> list[str]:
    ranks = ", ".join(
        "10" if r == "T" else r for r in rs.deck.ranks)
    values = {"deck": rs.deck.size, "ranks": ranks, "copies": COPIES.get(rs.copies, str(rs.copies)),
              "cards": rs.hand_size, "widow": rs.widow}
    deck = {"single": gettext("A single deck of %(deck)s cards"),
            "double": gettext("A double deck of %(deck)s cards"),
            "triple": gettext("A triple deck of %(deck)s cards")}.get(
        str(rs.deck.value), gettext("A %(kind)s deck of %(deck)s cards") % {
            "kind": rs.deck.value, "deck": "%(deck)s"})
    if rs.widow:
        dealt = gettext("%(deck)s: %(ranks)s in each suit, %(copies)s of each card. Each player "
                        "gets %(cards)s cards; %(widow)s go to the widow (the blind), which the "
                        "declarer takes.")
    else:
        dealt = gettext("%(deck)s: %(ranks)s in each suit, %(copies)s of each card. Each player "
                        "gets %(cards)s cards.")
    lines = [_who_plays(rs), dealt % {**values, "deck": deck % values}]
    if rs.nines_added:
        lines.append(gettext("%(nines)s nines, one of each suit per four, are added to the pack "
                             "so the deal comes out even; they meld and count nothing.")
                     % {"nines": rs.nines_added})
    if rs.stock:
        lines.append(gettext("The other %(stock)s cards are the stock: drawn or passed over "
                             "while the hands are built, they end up on each player's pile and "
                             "their counters count for that player.") % {"stock": rs.stock})
    if rs.pass_cards:
        lines.append(gettext("After trump is named, each of the declarer's partners passes "
                             "%(cards)s cards to the declarer.") % {"cards": rs.pass_cards})
    if 4 in rs.table_sizes and rs.individual:
        lines.append(gettext("When the players do not fill tables of three, a table seats four: "
                             "the dealer deals to the other three and sits that hand out, "
                             "scoring nothing for it; the deal passes to the left round all "
                             "four."))
    lines.append(str(HEAD_RULE[rs.head_rule]))
    misdeal = MISDEALS.get(rs.misdeal_rule)
    if misdeal:
        if rs.misdeal_redeal == "same_dealer":
            lines.append(gettext("A player dealt %(what)s may call a misdeal: the same dealer "
                                 "deals again.") % {"what": misdeal})
        else:
            lines.append(gettext("A player dealt %(what)s may call a misdeal: the next dealer "
                                 "deals.") % {"what": misdeal})
    return lines


def _bidding_section(rs: Ruleset) -> list[str]:
    steps = [gettext("by %(step)s") % {"step": rs.bid_step}] + [
        gettext("from %(start)s by %(step)s") % {"start": start, "step": step}
        for start, step in rs.bid_steps]
    lines = [gettext("The lowest opening bid is %(bid)s; bids go up %(steps)s: %(ladder)s")
             % {"bid": rs.min_bid, "steps": _join(steps), "ladder": _ladder(rs)}]
    others = rs.players - 1
    if rs.forced_opening:
        lines.append(gettext("The player at the dealer's left opens at %(bid)s without a "
                             "choice; the others bid over it or pass.") % {"bid": rs.min_bid})
    if rs.called_partner:
        if rs.partner_scores == "team":
            lines.append(gettext(
                "The declarer names trump and calls a card of trump: the first other player "
                "holding it is the declarer's partner for the hand (the declarer plays alone "
                "holding it), and everyone else plays alone against them. Their meld and "
                "counters add up for the bid; the partner scores what the declarer scores, "
                "made or set."))
        else:
            lines.append(gettext(
                "The declarer names trump and calls a card of trump: the first other player "
                "holding it is the declarer's partner for the hand (the declarer plays alone "
                "holding it), and everyone else plays alone against them. Their meld and "
                "counters add up for the bid; the partner helps but scores nothing for the "
                "hand."))
    if rs.dealer_lowest_bid is not None:
        lines.append(ngettext(
            "If the other %(others)s player passes, the dealer may open at %(bid)s, one step "
            "below the lowest opening bid.",
            "If the other %(others)s players pass, the dealer may open at %(bid)s, one step "
            "below the lowest opening bid.", others) % {"others": others,
                                                       "bid": rs.dealer_lowest_bid})
    if rs.dealer_stuck is not None:
        lines.append(ngettext(
            "If the other %(others)s player passes, the dealer is stuck with a bid of %(bid)s.",
            "If the other %(others)s players pass, the dealer is stuck with a bid of %(bid)s.",
            others) % {"others": others, "bid": rs.dealer_stuck})
    elif not rs.forced_opening:
        lines.append(gettext("If everybody passes, the cards are thrown in and dealt again."))
    if rs.trump_marriage_required:
        if rs.board_set_opponents == "meld":
            text = gettext("The declarer names trump and must hold a marriage in trump; without "
                           "one the hand is a board set: %(set)s and the opponents score their "
                           "meld.")
        else:
            text = gettext("The declarer names trump and must hold a marriage in trump; without "
                           "one the hand is a board set: %(set)s and nobody scores meld.")
        lines.append(text % {"set": SET_POLICY[rs.set_policy]})
    return lines


def _meld_section(rs: Ruleset) -> list[str]:
    lines = [gettext("Meld is counted per player and added up per side. A card may serve in one "
                     "meld of each class: runs and marriages, pinochles, arounds.")]
    if rs.min_meld and rs.min_counters:
        lines.append(gettext("A side's meld counts only when it is at least %(meld)s and the "
                             "side takes at least %(counters)s in counters.")
                     % {"meld": rs.min_meld, "counters": rs.min_counters})
    elif rs.min_meld:
        lines.append(gettext("A side's meld counts only when it is at least %(meld)s.")
                     % {"meld": rs.min_meld})
    if rs.min_meld and rs.short_meld == "set":
        lines.append(gettext("A declaring side with less than %(meld)s meld is set without "
                             "playing the hand.") % {"meld": rs.min_meld})
    if rs.meld_needs_trick:
        lines.append(gettext("A player must take a trick to save their meld."))
    if rs.run_extra:
        lines.append(gettext("An extra king or queen of trump beside a run, with no partner for "
                             "a royal marriage, counts %(points)s more each.")
                     % {"points": rs.run_extra})
    if rs.round_house:
        lines.append(gettext("A round house (a king and a queen of every suit) counts %(points)s "
                             "more than its marriages and arounds.") % {"points": rs.round_house})
    if rs.options["meld.quadruple_pinochle"] and rs.copies >= 4:
        lines.append(gettext("A quadruple pinochle (four queens of spades and four jacks of "
                             "diamonds) counts %(points)s.") % {"points": rs.pinochle_t[4]})
    return lines


def _counting_section(rs: Ruleset) -> list[str]:
    values = dict(zip("ATKQJ9", rs.counter_values, strict=True))
    groups: dict[int, list[str]] = {}
    for rank in rs.deck.ranks:
        if values[rank]:
            groups.setdefault(values[rank], []).append(str(RANK_NAMES[rank]))
    english = reads_english()
    counts = "; ".join(
        gettext("%(cards)s count %(points)s each") % {
            "cards": _join(names).capitalize() if english else capfirst(_join(names)),
            "points": _points(value)}
        for value, names in sorted(groups.items(), reverse=True))
    lines = [gettext("%(counts)s; the last trick counts %(last)s: %(total)s counters in each "
                     "hand.") % {"counts": counts, "last": _points(rs.last_trick),
                                 "total": rs.counters_total}]
    if rs.min_counters and rs.min_counters_declarer:
        lines.append(gettext("A side must take at least %(counters)s in counters to score; a "
                             "declaring side that takes fewer is set.")
                     % {"counters": rs.min_counters})
    elif rs.min_counters:
        lines.append(gettext("A side other than the declaring side must take at least "
                             "%(counters)s in counters to keep its meld and counters; the "
                             "declaring side makes its bid on meld plus counters, whatever it "
                             "took.") % {"counters": rs.min_counters})
    return lines


def _scoring_section(rs: Ruleset) -> list[str]:
    policy = str(SET_POLICY[rs.set_policy])
    if rs.set_keeps_meld:
        made_set = gettext("A set: %(set)s; it keeps its meld (scores it less the set); the "
                           "opponents score their meld and counters.") % {"set": policy}
    else:
        made_set = gettext("A set: %(set)s; the opponents score their meld and counters.") % {
            "set": policy}
    lines = [gettext("The declaring side makes its bid when its meld plus its counters reach "
                     "the bid: each side then scores its meld and its counters."), made_set]
    if rs.surrender_policy == "nothing":
        gets = gettext("the opponents score nothing")
    elif rs.surrender_policy == "meld":
        gets = gettext("the opponents score their meld")
    else:
        gets = gettext("the opponents score their meld plus %(bonus)s") % {
            "bonus": rs.surrender_bonus}
    lines.append(gettext("Throwing in the hand (surrender) after the meld: %(set)s and "
                         "%(gets)s.") % {"set": policy, "gets": gets})
    # where taking every trick wins the game, a declarer may play for it instead (pinochling:
    # rules_engine.scoring plays the hand out), so nobody has to concede
    forced = rs.forced_concession and rs.all_tricks != "wins_game"
    if forced:
        lines.append(gettext("A declarer whose meld plus every counter in the deck cannot reach "
                             "the bid must concede the hand."))
    declarer = {
        "set": gettext("a set (%(set)s); the opponents score their meld and counters"),
        "set_bonus": gettext("%(set)s; the opponents score their meld plus %(bonus)s"),
        "double_set": gettext("the declaring side loses twice its bid; the opponents score "
                              "their meld"),
    }[rs.renege_declarer] % {"set": policy, "bonus": rs.renege_bonus}
    if rs.renege_defender == "bid_and_meld":
        defender = gettext("the declaring side scores its bid and its meld; the side that "
                           "reneged loses its meld and the amount of the bid")
    else:
        defender = gettext("the declaring side scores its bid; the side that reneged loses its "
                           "meld and the amount of the bid")
    lines.append(gettext("Renege by the declaring side: %(what)s.") % {"what": declarer})
    lines.append(gettext("Renege by a defender: %(what)s.") % {"what": defender})
    if forced:
        lines.append(gettext("A hand the declarer had to concede is scored as that concession, "
                             "even if it was played and somebody reneged."))
    if rs.all_tricks == "bonus":
        lines.append(gettext("A side that takes every trick scores %(bonus)s more.")
                     % {"bonus": rs.all_tricks_bonus})
    lines.extend(_checks_lines(rs))
    return lines


def _checks_lines(rs: Ruleset) -> list[str]:
    """Check pinochle's second tally, one sentence per thing that earns or costs checks."""
    if not rs.checks:
        return []
    values = rs.check_values
    earned = [f"{words} {values[key]}" for key, words in CHECK_WORDS if values.get(key)]
    lines = [gettext("Checks are kept beside the points: each check a player gains, every other "
                     "player owes them a stake.")]
    if earned:
        lines.append(gettext("Checks for meld, bidder or not, kept even when the bid is lost: "
                             "%(list)s.") % {"list": "; ".join(earned)})
    if values.get("double_around") and rs.options["checks.doubles"] == "add":
        lines.append(gettext("Double aces earn the aces check as well."))
    if rs.options["checks.meld_saved_only"]:
        lines.append(gettext("Meld checks go only to a player who saved the meld."))
    lost = values.get("lose_looked", 0)
    if lost:
        looked = ngettext("A declarer who looks at the widow and loses the hand, by conceding or "
                          "playing, loses %(checks)s check",
                          "A declarer who looks at the widow and loses the hand, by conceding or "
                          "playing, loses %(checks)s checks", lost) % {"checks": lost}
        if values.get("lose_played"):
            looked = gettext("%(looked)s, and %(more)s more for playing and losing") % {
                "looked": looked, "more": values["lose_played"]}
        lines.append(gettext("%(looked)s; conceding at the opening minimum without looking "
                             "costs no check.") % {"looked": looked})
    if values.get("game"):
        lines.append(ngettext("Winning the game earns %(checks)s check.",
                              "Winning the game earns %(checks)s checks.", values["game"])
                     % {"checks": values["game"]})
    return lines


def _game_section(event: Event, rs: Ruleset) -> list[str]:
    lines = []
    target = rs.game_target
    deals = event.deals_per_round or rs.max_deals
    game = event.sitting == "game"
    if deals:
        if game:
            text = ngettext("A game is %(deals)s deal (a misdeal is dealt again and not "
                            "counted); the side ahead after the last deal wins it.",
                            "A game is %(deals)s deals (a misdeal is dealt again and not "
                            "counted); the side ahead after the last deal wins it.", deals)
        else:
            text = ngettext("A round is %(deals)s deal (a misdeal is dealt again and not "
                            "counted); the side ahead after the last deal wins it.",
                            "A round is %(deals)s deals (a misdeal is dealt again and not "
                            "counted); the side ahead after the last deal wins it.", deals)
        lines.append(text % {"deals": deals})
    if target is not None:
        values = {"target": target, "step": rs.overtime_step}
        if rs.out_rule == "bid_out":
            lines.append(gettext("The game is %(target)s: only a declaring side that makes its "
                                 "bid can go out (bid-and-out).") % values)
            if deals:
                lines.append(
                    gettext("When the game's deals are played (or its time is called) before "
                            "anyone has gone out, the highest score wins it; a tie at the top is "
                            "settled by a cut of the cards.") if game else
                    gettext("When the round's deals are played (or its time is called) before "
                            "anyone has gone out, the highest score wins it; a tie at the top is "
                            "settled by a cut of the cards."))
        else:
            if rs.target_exceed:
                text = (gettext("The game is %(target)s: the first side to pass it (score more "
                                "than %(target)s) wins, even before the last deal.") if deals
                        else gettext("The game is %(target)s: the first side to pass it (score "
                                     "more than %(target)s) wins."))
            else:
                text = (gettext("The game is %(target)s: the first side to reach it wins, even "
                                "before the last deal.") if deals
                        else gettext("The game is %(target)s: the first side to reach it wins."))
            lines.append(text % values)
            tie = (TIE_RULE_EXCEED if rs.target_exceed else TIE_RULE)[rs.tie_rule]
            lines.append(str(tie) % values)
        if rs.slide_out:
            # counted while the side stays there: a bid the others make in between does not
            # start the count again (rules_engine.game)
            over = (gettext("over %(target)s") if rs.target_exceed
                    else gettext("at or over %(target)s")) % values
            lines.append(ngettext(
                "A side %(over)s also wins without bidding once the others have failed their "
                "bids %(times)s time while it stayed there (slide-out); falling under %(target)s "
                "starts the count again.",
                "A side %(over)s also wins without bidding once the others have failed their "
                "bids %(times)s times while it stayed there (slide-out); falling under "
                "%(target)s starts the count again.", rs.slide_out_sets)
                % {"over": over, "times": rs.slide_out_sets, "target": target})
    if target is not None and rs.out_rule == "bid_out" and rs.target_exceed:
        lines.append(gettext("Going out means passing %(target)s: exactly %(target)s is not "
                             "enough.") % {"target": target})
    if rs.quadruple_melds_win:
        lines.append(gettext("A quadruple run, a quadruple marriage in trump or a quadruple "
                             "pinochle is \"the game\": it wins the game at once."))
    elif rs.quadruple_run_wins:
        lines.append(gettext("A quadruple run in trump wins the game at once."))
    if rs.all_tricks == "wins_game":
        lines.append(gettext("A side that takes every trick wins the game at once, whatever the "
                             "score and whoever bid, made or not (pinochling): a declarer may "
                             "play for it even when the bid cannot be made. The declarer stops "
                             "it by throwing the hand in before the first card is played."))
    return lines


def tie_break_labels(event: Event) -> list[dict[str, str]]:
    """The order the standings rank by, as the standings page says it (in the reader's
    language)."""
    stored = StandingsSnapshot.objects.filter(event_id=event.pk).values_list(
        "tie_breaks", flat=True).first()
    labels = stored or standings_compute(event=event, rounds=[]).tie_breaks
    return translated_tie_breaks(list(labels))


def _format_section(event: Event) -> list[str]:
    lines = list(event_rules(event))
    if event.is_pairs:
        total = rounds_total(event)
        if event.sitting == "game":
            text = ngettext("Fixed partnerships: each pair plays every game together; %(n)s game "
                            "in all.", "Fixed partnerships: each pair plays every game together; "
                            "%(n)s games in all.", total)
        else:
            text = ngettext("Fixed partnerships: each pair plays every round together; %(n)s "
                            "round in all.", "Fixed partnerships: each pair plays every round "
                            "together; %(n)s rounds in all.", total)
        lines.insert(0, text % {"n": total})
    return lines


def rules_sheet(event: Event) -> dict[str, object]:
    """Everything the rules page shows, in sections of sentences plus the meld table."""
    rs = event_ruleset(event)
    word = event.sitting
    bye = bye_text(event)
    if event.is_pairs:
        bye = gettext("A pair with a bye wins the round. %(bye)s") % {"bye": bye}
    level = (gettext("Pairs level on all of these share a place.") if event.is_pairs
             else gettext("Players level on all of these share a place."))
    ranked = ranking_sentence(tie_break_labels(event))
    format_name = str(event.get_format_display()).split(" (")[0]
    sections = [
        {"id": "rules-table", "title": gettext("Players and cards"), "lines": _table_section(rs)},
        {"id": "rules-bidding", "title": gettext("Bidding"), "lines": _bidding_section(rs)},
        {"id": "rules-meld", "title": gettext("Meld"), "lines": _meld_section(rs), "meld": True},
        {"id": "rules-counters", "title": gettext("Counters and the last trick"),
         "lines": _counting_section(rs)},
        {"id": "rules-scoring", "title": gettext("Made, set, surrender and renege"),
         "lines": _scoring_section(rs)},
        {"id": "rules-game", "title": gettext("End of a game"), "lines": _game_section(event, rs)},
        {"id": "rules-format", "title": (gettext("The %(format)s") % {"format": format_name.lower()}
                                         if reads_english() else format_name),
         "lines": _format_section(event)},
        {"id": "rules-standings", "title": gettext("Byes and standings"),
         "lines": [bye, f"{ranked[:-1]}; {level[:1].lower()}{level[1:]}" if reads_english()
                   else f"{ranked} {level}"]},
    ]
    return {"event": event, "ruleset": rs, "sections": sections, "meld": meld_table(rs),
            "word": sitting_word(word)}

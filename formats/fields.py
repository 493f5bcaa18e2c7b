"""The formats' settings as a form asks for them: label, help, choices, bounds and default of
each key (plain data; ``tournaments.forms`` builds its fields from these, the formats' specs say
which keys each format takes, and ``formats.pair_settings`` / ``pairing.progressive.settings``
validate what is stored).

Three groups: the individual formats' settings (form field = key), the pair formats' own
(``pair_<key>``) and a pair format's playoff (``playoff_<key>``, each for the kinds of bracket it
applies to)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules_engine.i18n import gettext_noop

Kind = Literal["choice", "int_choice", "int", "bool", "rounds"]


@dataclass(frozen=True)
class SettingField:
    name: str  # the form field
    key: str  # the settings key (``Event.format_settings[key]``, or ``playoff[key]``)
    label: str
    kind: Kind
    help: str = ""
    choices: tuple[tuple[str | int, str], ...] = ()
    initial: str | int | bool | None = None
    minimum: int | None = None
    maximum: int | None = None
    placeholder: str = ""
    # The form checks the bounds itself; otherwise they only shape the input and the format's
    # validation words the refusal.
    form_bounds: bool = True
    # Playoff fields: the kinds of bracket the field applies to.
    kinds: tuple[str, ...] = ()


_TIES = (("system_cut", gettext_noop("The system cuts the cards (seeded and logged)")),
         ("table_cut", gettext_noop("The table cuts the cards and enters the result")))

INDIVIDUAL: tuple[SettingField, ...] = (
    SettingField("movement", "movement", gettext_noop("Movement"), "choice", initial="winners_move", choices=(
        ("winners_move", gettext_noop("Winners move, losers stay")),
        ("fixed_seats", gettext_noop("Fixed seat movement (N stays, S down one, E up one, W up two)")))),
    SettingField("direction", "direction", gettext_noop("Winners move"), "choice", initial="up", choices=(
        ("up", gettext_noop("Toward table 1 (table 1's winners to the last table)")),
        ("down", gettext_noop("Away from table 1")))),
    SettingField("draw", "draw", gettext_noop("Partner draw"), "choice", initial="system", choices=(
        ("system", gettext_noop("The system draws partners (high/low)")),
        ("table", gettext_noop("The table draws partners")))),
    SettingField("cut", "cut", gettext_noop("Cut"), "int_choice", initial=8, choices=(
        (8, gettext_noop("Top 8: two semi-final tables, then the final table")),
        (4, gettext_noop("Top 4: straight to the final table")),
        (0, gettext_noop("No cut: the qualifying standings are the result")))),
    SettingField("semi_partners", "semi_partners", gettext_noop("Semi-final partners"), "choice",
                 initial="seeded", choices=(
                     ("seeded", gettext_noop("Seeded: 1+8 v 4+5 at table 1, 2+7 v 3+6 at table 2")),
                     ("draw", gettext_noop("Drawn by the system")))),
    SettingField("final_rule", "final_rule", gettext_noop("Final"), "choice", initial="rotate", choices=(
        ("rotate", gettext_noop("Three games, partners rotate; highest individual total wins")),
        ("single_game", gettext_noop("One game, seeds 1+4 v 2+3")))),
    SettingField("ties", "ties", gettext_noop("Level games"), "choice", initial="system_cut", choices=_TIES),
    SettingField("game_minutes", "game_minutes", gettext_noop("Game time limit (minutes)"), "int",
                 minimum=10, maximum=240,
                 help=gettext_noop("Optional, 10 to 240. Leave empty for games that end by deals.")),
)

PAIRS: tuple[SettingField, ...] = (
    SettingField("pair_first_draw", "first_draw", gettext_noop("First round draw"), "choice",
                 initial="seeded", choices=(
                     ("seeded", gettext_noop("Seeded: by seed, then in the order the pairs registered")),
                     ("random", gettext_noop("Drawn at random")))),
    SettingField("pair_groups", "groups", gettext_noop("Groups"), "int", initial=1, minimum=1, form_bounds=False,
                 help=gettext_noop("The pairs are split into this many groups (by seed, snake order); each "
                      "pair plays every other pair of its group once.")),
    SettingField("pair_ties", "ties", gettext_noop("Level games"), "choice", initial="system_cut",
                 choices=_TIES),
    SettingField("pair_game_minutes", "game_minutes", gettext_noop("Game time limit (minutes)"), "int",
                 minimum=10, maximum=240,
                 help=gettext_noop("Optional, 10 to 240: when the director calls time, the side ahead wins. "
                      "Leave empty for games that end by deals.")),
    SettingField("pair_third_place", "third_place", gettext_noop("Third-place match"), "bool",
                 help=gettext_noop("Single elimination: the semi-final losers play for third.")),
    SettingField("pair_reset", "reset", gettext_noop("Grand final reset"), "bool", initial=True,
                 help=gettext_noop("Double elimination: a second grand final when the losers' bracket side "
                      "wins the first.")),
    SettingField("pair_consolation", "consolation", gettext_noop("Consolation rounds"), "rounds",
                 placeholder="1, 2",
                 help=gettext_noop('The rounds whose losers play a consolation bracket, e.g. "1, 2" (single '
                      "elimination: rounds of the bracket; double: rounds of the losers' "
                      "bracket). Empty for none.")),
)

PLAYOFF: tuple[SettingField, ...] = (
    SettingField("playoff_kind", "kind", gettext_noop("Playoff"), "choice", initial="", choices=(
        ("", gettext_noop("None: the qualifying standings are the result")),
        ("single", gettext_noop("Single elimination bracket")),
        ("double", gettext_noop("Double elimination bracket"))),
        help=gettext_noop("A bracket after the qualifying rounds for the top pairs, seeded in their "
             "standings order."), kinds=("single", "double")),
    SettingField("playoff_cut", "cut", gettext_noop("Playoff cut (pairs)"), "int", initial=8, minimum=2,
                 form_bounds=False,
                 help=gettext_noop("How many of the top pairs go on to the playoff."),
                 kinds=("single", "double")),
    SettingField("playoff_third_place", "third_place", gettext_noop("Playoff third-place match"), "bool",
                 help=gettext_noop("Single elimination: the semi-final losers play for third."),
                 kinds=("single",)),
    SettingField("playoff_reset", "reset", gettext_noop("Playoff grand final reset"), "bool", initial=True,
                 help=gettext_noop("Double elimination: a second grand final when the losers' bracket side "
                      "wins the first."), kinds=("double",)),
    SettingField("playoff_consolation", "consolation", gettext_noop("Playoff consolation rounds"), "rounds",
                 placeholder="1, 2",
                 help=gettext_noop('The playoff rounds whose losers play a consolation bracket, e.g. "1, 2". '
                      "Empty for none."), kinds=("single", "double")),
    SettingField("playoff_lower", "lower", gettext_noop("Lower bracket (pairs)"), "int", minimum=0,
                 placeholder="0",
                 help=gettext_noop("A split final: the next pairs after the cut play a lower bracket of the "
                      "same kind at the same time, for the places after the upper bracket's. "
                      "Empty or 0 for none."), kinds=("single", "double")),
)

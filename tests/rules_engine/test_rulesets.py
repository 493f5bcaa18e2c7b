from __future__ import annotations

import json

import pytest

from rules_engine import (
    PRESET_NAMES,
    RulesError,
    check_bid,
    get_ruleset,
    list_rulesets,
    max_bid,
    max_side_meld,
)
from rules_engine.bids import bids_above
from rules_engine.inputs import shown
from rules_engine.rulesets import OPTION_HELP

PRESETS = [
    "pagat_double_deck",
    "club_double_deck",
    "npa_double_deck",
    "single_deck_partnership",
    "three_handed",
    "cutthroat",
]


def test_the_six_presets_exist_and_cite_a_seed() -> None:
    # the presets for other table sizes follow (tests/rules_engine/test_big_tables.py)
    assert list(PRESET_NAMES)[: len(PRESETS)] == PRESETS
    for rs in list_rulesets():
        assert rs.title and rs.seed
        assert any(word in rs.seed for word in ("pagat", "club", "wikipedia"))
        json.dumps(rs.to_dict())  # JSON-serialisable
        assert set(rs.options) == set(OPTION_HELP)


@pytest.mark.parametrize(
    ("name", "players", "deck_size", "hand", "counters", "target", "min_bid"),
    [
        ("pagat_double_deck", 4, 80, 20, 50, 500, 50),
        ("club_double_deck", 4, 80, 20, 50, 500, 50),
        ("npa_double_deck", 4, 80, 20, 50, 500, 50),
        ("single_deck_partnership", 4, 48, 12, 250, 1000, 150),
        ("three_handed", 3, 48, 15, 250, 1000, 300),
        ("cutthroat", 3, 48, 16, 250, 1000, 300),
    ],
)
def test_preset_shapes(
    name: str, players: int, deck_size: int, hand: int, counters: int, target: int, min_bid: int
) -> None:
    rs = get_ruleset(name)
    assert rs.players == players
    assert rs.deck.size == deck_size
    assert rs.hand_size == hand
    assert rs.counters_total == counters
    assert rs.game_target == target
    assert rs.min_bid == min_bid
    if players == 4:
        assert rs.sides == ("NS", "EW")
        assert rs.seats == ("N", "E", "S", "W")
        assert rs.side_of("S") == "NS" and rs.side_of("W") == "EW"
    else:
        assert rs.sides == rs.seats == ("N", "E", "S")
        assert rs.side_of("E") == "E"


def test_next_dealer_is_clockwise() -> None:
    rs = get_ruleset("pagat_double_deck")
    assert [rs.next_dealer(s) for s in "NESW"] == ["E", "S", "W", "N"]
    three = get_ruleset("three_handed")
    assert [three.next_dealer(s) for s in "NES"] == ["E", "S", "N"]


def test_double_deck_bid_ladder() -> None:
    rs = get_ruleset("pagat_double_deck")
    valid = [b for b in range(40, 101) if rs.is_valid_bid(b)]
    assert valid == list(range(50, 61)) + [65, 70, 75, 80, 85, 90, 95, 100]
    assert "below the opening minimum of 50" in (rs.bid_error(49) or "")
    assert "steps of 5" in (rs.bid_error(62) or "")
    assert rs.bid_error("x") is not None
    assert rs.bid_error(True) is not None


def test_single_deck_ladder_steps_of_ten() -> None:
    rs = get_ruleset("single_deck_partnership")
    assert rs.is_valid_bid(150) and rs.is_valid_bid(260)
    assert not rs.is_valid_bid(155)
    assert not get_ruleset("three_handed").is_valid_bid(290)


def test_meld_tables() -> None:
    pagat = get_ruleset("pagat_double_deck").options
    assert pagat["meld.run"] == [15, 150, 225, 300]
    assert pagat["meld.pinochle"] == [4, 30, 60, 90]
    club = get_ruleset("club_double_deck")
    assert club.options["meld.pinochle"] == [4, 30, 90, 300]
    assert club.options["meld.aces"] == [10, 100, 200, 300]
    assert club.quadruple_run_wins
    npa = get_ruleset("npa_double_deck").options
    assert npa["meld.run"][0] == 25 and npa["meld.pinochle"][0] == 15
    single = get_ruleset("single_deck_partnership").options
    assert single["meld.run"] == [150, 1500] and single["meld.dix"] == 10
    assert single["meld.pinochle"] == [40, 300]


def test_overrides_are_applied_and_reported() -> None:
    rs = get_ruleset("pagat_double_deck", {"game_target": 250, "min_meld": "20"})
    assert rs.game_target == 250 and rs.min_meld == 20
    assert rs.options["game_target"] == 250
    assert rs.overrides == {"game_target": 250, "min_meld": "20"}
    assert get_ruleset("pagat_double_deck").game_target == 500


def test_cli_style_values() -> None:
    rs = get_ruleset(
        "npa_double_deck",
        {
            "meld.run": "25,150,225,300",
            "trump_marriage_required": "false",
            "bid_steps": "60:5,100:10",
            "counter_values": "A=1,T=1,K=1",
            "dealer_stuck": "null",
        },
    )
    assert rs.run_t == (0, 25, 150, 225, 300)
    assert not rs.trump_marriage_required
    assert rs.is_valid_bid(95) and not rs.is_valid_bid(105) and rs.is_valid_bid(110)
    assert rs.dealer_stuck is None


def test_scale_rescales_every_point_value() -> None:
    rs = get_ruleset("pagat_double_deck", {"scale": 10})
    assert rs.run_t[1] == 150 and rs.counters_total == 500 and rs.min_bid == 500
    assert rs.is_valid_bid(510) and rs.is_valid_bid(650) and not rs.is_valid_bid(620)
    small = get_ruleset("single_deck_partnership", {"scale": 1})
    assert small.run_t[1] == 15 and small.counters_total == 25 and small.game_target == 100


def test_count_method_shorthand() -> None:
    rs = get_ruleset("single_deck_partnership", {"count_method": "classic"})
    assert rs.counters_total == 250
    assert rs.counter_values[:5] == (11, 10, 4, 3, 2)


@pytest.mark.parametrize(
    ("overrides", "field", "code"),
    [
        ({"colour": "red"}, "options.colour", "unknown_option"),
        ({"min_meld": "lots"}, "options.min_meld", "bad_type"),
        ({"min_meld": -1}, "options.min_meld", "bad_type"),
        ({"set_policy": "forgive"}, "options.set_policy", "bad_choice"),
        ({"meld.run": [15, 150]}, "options.meld.run", "wrong_length"),
        ({"slide_out": True}, "options.slide_out", "inconsistent"),
        ({"dealer_stuck": 45}, "options.dealer_stuck", "inconsistent"),
        ({"min_counters": 60}, "options.min_counters", "inconsistent"),
        ({"widow": 3}, "options.widow", "inconsistent"),
        ({"meld.dix": 1}, "options.meld.dix", "inconsistent"),
        ({"players": 3}, "options.players", "inconsistent"),
        ({"bid_steps": [[70, 5], [60, 10]]}, "options.bid_steps", "inconsistent"),
        ({"quadruple_run_wins": "maybe"}, "options.quadruple_run_wins", "bad_type"),
    ],
)
def test_bad_overrides_name_the_option(overrides: dict[str, object], field: str, code: str) -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("pagat_double_deck", overrides)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == (field, code)


def test_all_bad_overrides_are_reported_together() -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("pagat_double_deck", {"a": 1, "b": 2, "min_meld": "x"})
    assert len(exc.value.errors) == 3


def test_unknown_ruleset() -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("bridge")
    assert exc.value.errors[0].field == "ruleset"
    assert exc.value.errors[0].code == "unknown_ruleset"


def test_min_bid_override_carries_the_stuck_dealer() -> None:
    rs = get_ruleset("pagat_double_deck", {"min_bid": 25})
    assert rs.dealer_stuck == 25


def test_rulesets_are_immutable() -> None:
    rs = get_ruleset("club_double_deck")
    with pytest.raises(AttributeError):
        rs.min_bid = 10  # type: ignore[misc]
    assert get_ruleset("club_double_deck") == rs
    assert hash(rs) == hash(get_ruleset("club_double_deck"))


def test_option_aliases() -> None:
    rs = get_ruleset(
        "pagat_double_deck",
        {"surrender_policy": "meld_plus_25", "head_rule": "post_1945", "set_policy": "progressive"},
    )
    assert (rs.surrender_policy, rs.surrender_bonus) == ("meld_plus_bonus", 25)
    assert rs.head_rule == "trump_led" and rs.set_policy == "opponents_gain_bid"


def test_forced_concession_is_a_three_player_preset_option() -> None:
    assert "forced_concession" in OPTION_HELP
    on = {rs.name for rs in list_rulesets() if rs.forced_concession}
    assert on == {"three_handed", "cutthroat", "check_pinochle"}


def test_the_bid_ladder_ends_where_no_hand_can_reach() -> None:
    rs = get_ruleset("pagat_double_deck")
    # the most a side can meld (572, two hands from one deck) plus all 50 counters
    assert max_bid(rs) == 622
    assert check_bid(620, rs) is None
    assert check_bid(625, rs) == (
        "too_high",
        "bid 625 can never be made here: meld and counters together come to at most 622",
    )
    assert check_bid(61, rs) == rs.bid_check(61) and check_bid(61, rs) is not None
    assert bids_above(610, rs) == [615, 620] and bids_above(620, rs) == []
    three = get_ruleset("three_handed")
    # one hand with the widow (18 cards) at its best, plus every counter
    assert max_bid(three) == max_side_meld(three) + 250
    assert check_bid(max_bid(three), three) is None
    assert check_bid(max_bid(three) + 10, three) is not None


@pytest.mark.parametrize("bid", [10**30, -(10**30), 10**5000, "60", 60.0, None], ids=shown)
def test_bid_checks_never_echo_huge_numbers(bid: object) -> None:
    problem = check_bid(bid, get_ruleset("pagat_double_deck"))
    assert problem is not None and len(problem[1]) < 200


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"min_bid": 10**30}, "options.min_bid"),
        ({"game_target": 10**5000}, "options.game_target"),
        ({"meld.run": [15, 150, 225, 10**9]}, "options.meld.run"),
        ({"widow": 80}, "options.widow"),
        ({"x" * 100_000: 1}, "options." + "x" * 40),
    ],
    ids=["min_bid", "game_target", "meld.run", "widow", "long key"],
)
def test_absurd_options_are_refused_briefly(overrides: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("pagat_double_deck", overrides)
    assert exc.value.errors[0].field.startswith(field)
    assert len(str(exc.value)) < 500


def test_an_empty_ruleset_name_is_not_the_default() -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("")
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("ruleset", "unknown_ruleset")


NEW_OPTIONS = ("meld.run_extra", "set_keeps_meld", "dealer_opens_lower", "target_exceed",
               "all_tricks", "all_tricks_bonus")


def test_the_options_from_the_rule_texts_are_off_in_every_preset() -> None:
    for rs in list_rulesets():
        assert rs.run_extra == 0 and not rs.set_keeps_meld and not rs.dealer_opens_lower
        assert not rs.target_exceed and rs.all_tricks == "nothing"
        assert rs.dealer_lowest_bid is None
        for name in NEW_OPTIONS:
            assert name in rs.options and name in OPTION_HELP
    # the bonus is at the preset's scale: the encyclopedia's 250 at x10, 25 at x1
    assert get_ruleset("single_deck_partnership").all_tricks_bonus == 250
    assert get_ruleset("single_deck_partnership", {"scale": 1}).all_tricks_bonus == 25


@pytest.mark.parametrize(
    ("preset", "overrides", "field", "code"),
    [
        ("single_deck_partnership", {"meld.run_extra": -20}, "options.meld.run_extra", "bad_type"),
        ("single_deck_partnership", {"meld.run_extra": "twenty"}, "options.meld.run_extra",
         "bad_type"),
        ("three_handed", {"set_keeps_meld": "maybe"}, "options.set_keeps_meld", "bad_type"),
        ("three_handed", {"dealer_opens_lower": 2}, "options.dealer_opens_lower", "bad_type"),
        ("three_handed", {"target_exceed": None}, "options.target_exceed", "bad_type"),
        ("cutthroat", {"all_tricks": "moon"}, "options.all_tricks", "bad_choice"),
        ("cutthroat", {"all_tricks_bonus": -1}, "options.all_tricks_bonus", "bad_type"),
        ("cutthroat", {"all_tricks": "bonus", "all_tricks_bonus": 0},
         "options.all_tricks_bonus", "inconsistent"),
        ("pagat_double_deck", {"dealer_opens_lower": True, "min_bid": 1},
         "options.dealer_opens_lower", "inconsistent"),
        ("pagat_double_deck", {"set_keeps_meld": True, "set_policy": "subtract_bid_and_meld"},
         "options.set_keeps_meld", "inconsistent"),
    ],
)
def test_bad_values_of_the_new_options_name_the_option(
    preset: str, overrides: dict[str, object], field: str, code: str
) -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset(preset, overrides)
    assert [(e.field, e.code) for e in exc.value.errors] == [(field, code)]


def test_the_new_options_read_from_the_command_line_words() -> None:
    rs = get_ruleset("three_handed", {"meld.run_extra": "20", "set_keeps_meld": "yes",
                                      "dealer_opens_lower": "on", "target_exceed": "true",
                                      "all_tricks": "wins_game"})
    assert (rs.run_extra, rs.set_keeps_meld, rs.dealer_opens_lower, rs.target_exceed,
            rs.all_tricks, rs.dealer_lowest_bid) == (20, True, True, True, "wins_game", 290)
    # a stuck dealer may be held to the lower opening too
    assert get_ruleset("pagat_double_deck", {"dealer_opens_lower": True,
                                             "dealer_stuck": 49}).dealer_stuck == 49

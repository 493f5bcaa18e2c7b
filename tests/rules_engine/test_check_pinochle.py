"""Check pinochle: the preset, the checks a hand earns or costs, their entry and the game's."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from rules_engine import RulesError, get_ruleset, list_rulesets, parse_hand, score_game, score_hand
from rules_engine.checks import settlement

CHECK = get_ruleset("check_pinochle")


def hand(**over: Any) -> dict[str, Any]:
    """N bids 350 in hearts and makes it: 390 meld (a run and a roundtable) + 150 counters."""
    base: dict[str, Any] = {
        "dealer": "S",
        "bidder": "N",
        "bid": 350,
        "trump": "H",
        "meld": {"N": 390, "E": 100, "S": 0},
        "counters": {"N": 150, "E": 100, "S": 0},
        "tricks": {"N": 10, "E": 5, "S": 0},
        "check_melds": {"N": ["run", "roundtable"], "E": ["aces"]},
    }
    base.update(over)
    return {k: v for k, v in base.items() if v is not None}


def score(data: dict[str, Any], **options: object) -> Any:
    rs = get_ruleset("check_pinochle", options) if options else CHECK
    return score_hand(parse_hand(data, rs), rs)


def errors_of(data: dict[str, Any], rs: Any = CHECK) -> list[tuple[str, str]]:
    with pytest.raises(RulesError) as exc:
        parse_hand(data, rs)
    return [(e.field, e.code) for e in exc.value.errors]


# --- the preset ----------------------------------------------------------------------------------


def test_the_preset_is_three_handed_to_a_thousand_with_the_texts_checks() -> None:
    assert (CHECK.players, CHECK.game_target, CHECK.widow, CHECK.min_bid) == (3, 1000, 3, 300)
    assert CHECK.checks and CHECK.forced_concession and CHECK.meld_needs_trick
    assert CHECK.check_values == {
        "run": 1, "double_run": 2, "aces": 1, "roundtable": 2, "double_marriage": 1,
        "double_pinochle": 1, "double_around": 2, "seven_nines": 5, "lose_looked": 1,
        "lose_played": 1, "game": 5,
    }  # fmt: skip
    # every other preset keeps no checks
    assert [rs.name for rs in list_rulesets() if rs.checks] == ["check_pinochle"]


def test_other_presets_json_is_unchanged() -> None:
    rs = get_ruleset("three_handed")
    data = hand(check_melds=None)
    out = score_hand(parse_hand(data, rs), rs)
    assert out.checks == {} and "checks" not in out.to_dict()
    game = score_game([parse_hand(data, rs)], rs).to_dict()
    assert not {"check_totals", "game_checks", "check_settlement"} & set(game)


def test_checks_need_players_who_play_alone() -> None:
    with pytest.raises(RulesError) as exc:
        get_ruleset("pagat_double_deck", {"checks": True})
    assert exc.value.errors[0].field == "options.checks"
    assert get_ruleset("cutthroat", {"checks": True, "checks.run": 1}).checks


# --- what a hand earns -----------------------------------------------------------------------------


def test_meld_checks_go_to_bidder_and_defenders() -> None:
    out = score(hand())
    assert out.made and out.checks == {"N": 3, "E": 1, "S": 0}
    assert out.to_dict()["checks"] == {"N": 3, "E": 1, "S": 0}
    assert out.checks_reason == "N +3 (run, roundtable); E +1 (aces)"
    assert "checks" not in out.reason  # the points' reason is three-handed's own
    assert out.to_dict()["checks_reason"] == out.checks_reason


def test_a_set_keeps_meld_checks_and_costs_two() -> None:
    # N bid 550 and made 540: set after playing, -1 for looking, -1 more for playing
    out = score(hand(bid=550))
    assert out.result == "set" and out.points["N"] == -550
    assert out.checks == {"N": 3 - 2, "E": 1, "S": 0}
    # without the optional second check
    assert score(hand(bid=550), **{"checks.lose_played": 0}).checks["N"] == 3 - 1


def test_a_throw_in_after_looking_costs_one() -> None:
    data = hand(outcome="surrender", counters=None, tricks=None)
    out = score(data)
    assert out.result == "surrendered" and out.checks == {"N": 3 - 1, "E": 1, "S": 0}


def test_the_forced_concession_costs_one_not_two() -> None:
    # 0 meld + 250 counters cannot reach 300: the played hand is a concession
    data = hand(
        bid=300,
        meld={"N": 0, "E": 100, "S": 0},
        check_melds={"E": ["aces"]},
    )
    out = score(data)
    assert out.result == "surrendered" and out.checks == {"N": -1, "E": 1, "S": 0}


def test_conceding_without_looking_costs_the_bid_and_no_check() -> None:
    data = hand(
        bid=300,
        outcome="surrender",
        counters=None,
        tricks=None,
        widow_seen=False,
        meld={"N": 0, "E": 0, "S": 0},
        check_melds=None,
    )
    out = score(data)
    assert out.points == {"N": -300, "E": 0, "S": 0}
    assert out.checks == {"N": 0, "E": 0, "S": 0}
    # after looking, the opponents score their meld and the declarer loses a check
    seen = score({**data, "widow_seen": True, "meld": {"N": 0, "E": 100, "S": 0}})
    assert seen.points == {"N": -300, "E": 100, "S": 0} and seen.checks["N"] == -1


def test_only_the_opening_minimum_may_be_conceded_unseen() -> None:
    data = hand(outcome="surrender", counters=None, tricks=None, widow_seen=False)
    assert errors_of(data) == [("widow_seen", "not_minimum")]
    assert errors_of({**data, "widow_seen": "no", "bid": 300}) == [("widow_seen", "bad_type")]
    # no widow, no such field
    cut = get_ruleset("cutthroat")
    assert ("widow_seen", "not_in_ruleset") in errors_of(
        {**data, "meld": {"N": 0, "E": 0, "S": 0}, "check_melds": None}, cut
    )


def test_renege_by_the_declarer_is_a_played_loss_and_by_a_defender_none() -> None:
    declarer = hand(outcome="renege", renege_seat="N", tricks=None)
    assert score(declarer).checks["N"] == 3 - 2
    defender = hand(outcome="renege", renege_seat="E", tricks=None, counters=None)
    out = score(defender)
    assert out.made and out.checks == {"N": 3, "E": 1, "S": 0}


def test_seven_nines_need_no_bid() -> None:
    data = hand(check_melds={"S": ["seven_nines"]}, meld={"N": 390, "E": 100, "S": 10})
    assert score(data).checks == {"N": 0, "E": 0, "S": 5}
    assert score(data, **{"checks.seven_nines": 10}).checks["S"] == 10


def test_double_aces_replace_or_add_to_the_aces_check() -> None:
    data = hand(meld={"N": 390, "E": 1000, "S": 0}, check_melds={"E": ["double_aces"]})
    assert score(data).checks["E"] == 2
    assert score(data, **{"checks.doubles": "add"}).checks["E"] == 3


def test_double_marriages_count_per_suit() -> None:
    data = hand(
        meld={"N": 390, "E": 80, "S": 0},
        check_melds={"E": ["double_marriage", "double-marriage"]},
    )
    assert score(data).checks["E"] == 2
    assert errors_of({**data, "check_melds": {"E": ["double_marriage"] * 5}}) == [
        ("check_melds.E[4]", "duplicate")
    ]


def test_meld_checks_on_unsaved_meld_are_an_option() -> None:
    data = hand(counters={"N": 250, "E": 0, "S": 0}, tricks={"N": 15, "E": 0, "S": 0})
    assert score(data).checks["E"] == 1  # kept, as the text keeps them on a set or a throw-in
    out = score(data, **{"checks.meld_saved_only": True})
    assert out.checks["E"] == 0 and "E took no trick" in out.checks_reason


def test_a_misdeal_earns_no_check() -> None:
    out = score({"dealer": "S", "outcome": "misdeal"})
    assert out.checks == {"N": 0, "E": 0, "S": 0}


# --- the entry is checked --------------------------------------------------------------------------


def test_check_melds_are_held_to_the_meld() -> None:
    # a run and a roundtable are at least 350 of meld; 240 cannot hold them
    data = hand(meld={"N": 240, "E": 100, "S": 0})
    assert errors_of(data) == [("check_melds.N", "meld_too_low")]
    # double pinochle alone is 300
    assert errors_of(hand(check_melds={"E": ["double_pinochle"]})) == [
        ("check_melds.E", "meld_too_low")
    ]


def test_check_melds_must_fit_in_the_players_cards() -> None:
    # double aces and double kings are 16 cards; a defender holds 15
    many = ["double_aces", "double_kings"]
    data = hand(meld={"N": 390, "E": 1000, "S": 0}, check_melds={"E": many})
    assert errors_of(data) == [("check_melds.E", "too_many_cards")]


def test_bad_check_melds_name_their_field() -> None:
    data = hand(check_melds={"N": ["run", "flush"], "E": ["aces", "straight"], "W": []})
    assert errors_of(data) == [
        ("check_melds.N[1]", "duplicate"),
        ("check_melds.E[1]", "bad_choice"),
        ("check_melds.W", "bad_side"),
    ]
    assert errors_of(hand(check_melds={"N": "run"})) == [("check_melds.N", "bad_type")]
    assert errors_of(hand(check_melds=["run"])) == [("check_melds", "bad_type")]
    assert errors_of(hand(check_melds={"N": ["aces", "double_aces"]})) == [
        ("check_melds.N", "duplicate")
    ]
    off = get_ruleset("check_pinochle", {"checks.double_pinochle": 0})
    data = hand(meld={"N": 390, "E": 300, "S": 0}, check_melds={"E": ["double_pinochle"]})
    assert errors_of(data, off) == [("check_melds.E[0]", "not_in_ruleset")]
    pagat = get_ruleset("three_handed")
    assert ("check_melds", "not_in_ruleset") in errors_of(hand(), pagat)


def test_a_hand_round_trips() -> None:
    h = parse_hand(hand(), CHECK)
    assert h.check_melds == {"N": ("run", "roundtable"), "E": ("aces",), "S": ()}
    assert parse_hand(h.to_dict(), CHECK) == h


# --- the game --------------------------------------------------------------------------------------


def test_the_game_adds_the_winners_checks_and_settles() -> None:
    big = hand(
        bid=600,
        meld={"N": 540, "E": 100, "S": 0},
        counters={"N": 250, "E": 0, "S": 0},
        tricks={"N": 15, "E": 0, "S": 0},
        check_melds={"N": ["run", "aces", "roundtable"], "E": ["aces"]},
    )
    hands = [parse_hand(big, CHECK), parse_hand(dict(big, dealer="N"), CHECK)]
    res = score_game(hands, CHECK)
    assert res.winner == "N" and res.game_checks == {"N": 5, "E": 0, "S": 0}
    assert res.check_totals == {"N": 4 + 4 + 5, "E": 2, "S": 0}
    assert res.check_settlement == {"N": 3 * 13 - 15, "E": 3 * 2 - 15, "S": -15}
    assert sum(res.check_settlement.values()) == 0
    d = res.to_dict()
    assert d["check_totals"] == res.check_totals and d["hands"][0]["checks"]["N"] == 4
    ten = get_ruleset("check_pinochle", {"checks.game": 10})
    assert score_game(hands, ten).game_checks == {"N": 10, "E": 0, "S": 0}
    # an undecided game earns nobody the game's checks
    assert score_game(hands[:1], CHECK).game_checks == {"N": 0, "E": 0, "S": 0}


def test_settlement_pays_each_check_by_every_other_player() -> None:
    assert settlement({"N": 1, "E": 0, "S": 0}) == {"N": 2, "E": -1, "S": -1}
    assert settlement({"N": -1, "E": 0, "S": 0, "W": 0}) == {"N": -3, "E": 1, "S": 1, "W": 1}


def test_a_table_of_four_keys_checks_by_every_seat() -> None:
    seats = ["N", "E", "S", "W"]
    data = hand(
        dealer="W",
        check_melds={"N": ["run", "roundtable"], "E": ["aces"]},
    )
    h = parse_hand(data, CHECK, seats)
    out = score_hand(h, CHECK)
    assert out.checks == {"N": 3, "E": 1, "S": 0, "W": 0} and out.sitting_out == "W"
    sitter = hand(dealer="S", check_melds={"S": ["aces"]})
    assert errors_of_table(sitter, seats) == [("check_melds.S", "sitting_out")]
    res = score_game([h], CHECK, seats=seats)
    assert res.check_totals == {"N": 3, "E": 1, "S": 0, "W": 0}


def errors_of_table(data: dict[str, Any], seats: list[str]) -> list[tuple[str, str]]:
    with pytest.raises(RulesError) as exc:
        parse_hand(data, CHECK, seats)
    return [(e.field, e.code) for e in exc.value.errors if e.field.startswith("check_melds")]


# --- the command line ------------------------------------------------------------------------------


def run_cli(*args: str, stdin: str) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run(
        [sys.executable, "-m", "rules_engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )
    out: dict[str, Any] = json.loads(proc.stdout)
    return proc.returncode, out


def test_the_command_line_prints_checks() -> None:
    code, out = run_cli("score", "--ruleset", "check_pinochle", stdin=json.dumps(hand()))
    assert code == 0 and out["checks"] == {"N": 3, "E": 1, "S": 0}
    code, out = run_cli("game", "--ruleset", "check_pinochle", stdin=json.dumps([hand()]))
    assert code == 0 and out["check_totals"] == {"N": 3, "E": 1, "S": 0}
    assert out["game_checks"] == {"N": 0, "E": 0, "S": 0}
    code, out = run_cli(
        "score", "--ruleset", "check_pinochle", stdin=json.dumps(hand(meld={"N": 0, "E": 100, "S": 0}))
    )
    assert code == 2 and "check_melds.N" in [e["field"] for e in out["errors"]]

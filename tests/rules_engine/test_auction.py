from __future__ import annotations

import pytest

from rules_engine import RulesError, get_ruleset, validate_auction

PAGAT = get_ruleset("pagat_double_deck")


def run(
    dealer: str, calls: str, preset: str = "pagat_double_deck"
) -> tuple[str | None, int | None]:
    result = validate_auction(dealer, calls.split(), get_ruleset(preset))
    assert result.complete
    return result.declarer, result.bid


def error(dealer: str, calls: str, preset: str = "pagat_double_deck") -> tuple[str, str]:
    with pytest.raises(RulesError) as exc:
        validate_auction(dealer, calls.split(), get_ruleset(preset))
    return exc.value.errors[0].field, exc.value.errors[0].code


def test_simple_auction_from_the_dealers_left() -> None:
    # dealer S: W, N, E, S bid in turn; passed players are skipped
    assert run("S", "pass 51 pass 55 pass") == ("S", 55)
    assert run("S", "50 51 52 53 pass pass pass") == ("S", 53)
    assert run("N", "50 pass pass 60 pass") == ("N", 60)


def test_passed_players_are_skipped() -> None:
    # W opens, N passes; then E, S, W (not N) call
    result = validate_auction("S", ["50", "pass", "51", "52", "53", "pass", "pass"], PAGAT)
    assert [c.seat for c in result.calls] == ["W", "N", "E", "S", "W", "E", "S"]
    assert (result.declarer, result.bid) == ("W", 53)


def test_dealer_stuck() -> None:
    assert run("S", "pass pass pass") == ("S", 50)
    assert run("S", "pass pass pass 50") == ("S", 50)
    assert run("S", "pass pass pass 55") == ("S", 55)
    assert error("S", "pass pass pass pass") == ("calls[3]", "dealer_stuck")
    result = validate_auction("S", ["pass"] * 3, PAGAT)
    assert result.dealer_stuck and result.calls[-1].forced


def test_without_a_stuck_dealer_everybody_may_pass() -> None:
    result = validate_auction("N", ["pass"] * 4, get_ruleset("single_deck_partnership"))
    assert result.complete and result.redeal and result.declarer is None
    three = validate_auction("N", ["pass"] * 3, get_ruleset("three_handed"))
    assert three.redeal


@pytest.mark.parametrize(
    ("calls", "field", "code"),
    [
        ("45", "calls[0]", "below_minimum"),
        ("50 61", "calls[1]", "wrong_step"),
        ("55 55", "calls[1]", "not_higher"),
        ("55 52", "calls[1]", "not_higher"),
        ("50 hello", "calls[1]", "bad_call"),
        ("50 pass pass pass pass", "calls[4]", "auction_over"),
        ("50 N:pass", "calls[1]", "ok"),
        ("50 E:51", "calls[1]", "out_of_turn"),
        ("50 pass 51 52 N:53", "calls[4]", "already_passed"),
    ],
)
def test_illegal_calls(calls: str, field: str, code: str) -> None:
    if code == "ok":
        validate_auction("S", calls.split(), PAGAT)
        return
    assert error("S", calls) == (field, code)


def test_messages_say_what_is_wrong() -> None:
    with pytest.raises(RulesError) as exc:
        validate_auction("S", ["55", "55"], PAGAT)
    assert "bid at least 56" in exc.value.errors[0].message
    with pytest.raises(RulesError) as exc:
        validate_auction("S", ["60", "62"], PAGAT)
    assert "steps of 5" in exc.value.errors[0].message


def test_incomplete_auction_reports_whose_turn() -> None:
    result = validate_auction("S", ["50", "pass"], PAGAT)
    assert not result.complete and result.next_seat == "E" and result.declarer is None


def test_three_handed_auction() -> None:
    assert run("S", "300 310 pass pass", "three_handed") == ("E", 310)
    assert error("S", "300 305", "three_handed") == ("calls[1]", "wrong_step")
    assert error("S", "250", "three_handed") == ("calls[0]", "below_minimum")


def test_bad_dealer() -> None:
    with pytest.raises(RulesError) as exc:
        validate_auction("W", ["pass"], get_ruleset("cutthroat"))
    assert exc.value.errors[0].field == "dealer"


@pytest.mark.parametrize(
    ("call", "code"),
    [
        ("685", "too_high"),
        ("9" * 5000, "too_high"),
        (10**5000, "too_high"),
        ("²", "bad_call"),
        ("-5", "below_minimum"),
    ],
    ids=["685", "5000 digits", "huge int", "superscript", "negative"],
)
def test_impossible_calls(call: object, code: str) -> None:
    with pytest.raises(RulesError) as exc:
        validate_auction("S", [call], PAGAT)
    assert (exc.value.errors[0].field, exc.value.errors[0].code) == ("calls[0]", code)
    assert len(exc.value.errors[0].message) < 200


def test_nothing_outbids_the_ceiling() -> None:
    with pytest.raises(RulesError) as exc:
        validate_auction("S", ["620", "620"], PAGAT)
    assert "no higher bid exists" in exc.value.errors[0].message


def test_the_dealer_opens_one_lower_when_everybody_passed() -> None:
    # the encyclopedia: "bidding begins at 20, or as little as 19 if dealer"
    rs = get_ruleset("three_handed", {"scale": 1, "min_bid": 20, "bid_step": 1,
                                      "dealer_opens_lower": True})
    res = validate_auction("S", ["pass", "pass", "19"], rs)
    assert (res.declarer, res.bid, res.complete) == ("S", 19, True)
    for calls, bad in ((["19"], 0), (["20", "pass", "19"], 2), (["pass", "pass", "18"], 2)):
        with pytest.raises(RulesError) as exc:
            validate_auction("S", calls, rs)
        assert exc.value.errors[0].field == f"calls[{bad}]"
    with pytest.raises(RulesError) as exc:
        validate_auction("S", ["pass", "pass", "19"], get_ruleset("three_handed", {"scale": 1,
                         "min_bid": 20, "bid_step": 1}))
    assert exc.value.errors[0].code == "below_minimum"

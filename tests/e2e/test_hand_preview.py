"""The browser's live check of a typed hand (static/js/hand_preview.js) answers exactly as the
check endpoint does: thousands of hands generated from the engine's own rulesets (every preset,
both scales, and overrides for every set, surrender and renege policy) are checked by the
endpoint's code and by the script in Chromium, and every answer (status, points, verdict,
reason, or each error's field, code and message) must be the same. Hands the script leaves to
the server (text in a number field, a number over the form's limit) are exactly those the
endpoint's serializer refuses."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from rules_engine import (
    PRESET_NAMES,
    RulesError,
    Ruleset,
    browser_rules,
    get_ruleset,
    parse_hand,
    score_hand,
)
from scoring.api import HandValuesInput, hand_check_answer

pytestmark = pytest.mark.e2e

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "hand_preview.js"
OUTCOMES = ("played", "no_marriage", "surrender", "renege", "misdeal")
SEATS = ("N", "E", "S", "W")
CASES_PER_RULESET = 300

# The presets whose hands the browser scores itself (``browser_rules(...)["preview"]``): tables
# of five, six and eight, and teams of three, are checked by the server as typed.
PREVIEWED = [name for name in PRESET_NAMES if browser_rules(get_ruleset(name))["preview"]]

RULESETS: list[tuple[str, dict[str, Any]]] = [
    *((name, {}) for name in PREVIEWED),
    *((name, {"scale": 10 if get_ruleset(name).options["scale"] == 1 else 1}) for name in PREVIEWED),
    ("pagat_double_deck", {"set_policy": "opponents_gain_bid"}),
    ("pagat_double_deck", {"set_policy": "subtract_bid_and_meld", "surrender_policy": "nothing"}),
    ("pagat_double_deck", {"set_policy": "double_bid", "dealer_opens_lower": True}),
    ("pagat_double_deck", {"all_tricks": "bonus"}),
    ("club_double_deck", {"set_keeps_meld": True, "renege_declarer": "double_set"}),
    ("npa_double_deck", {"renege_defender": "bid_and_meld", "min_counters": 0}),
    ("single_deck_partnership", {"renege_declarer": "set", "trump_marriage_required": True}),
    ("three_handed", {"renege_declarer": "set", "surrender_policy": "meld_plus_bonus",
                      "surrender_bonus": 50}),
    ("three_handed", {"meld_needs_trick": False}),
    ("cutthroat", {"meld_needs_trick": False, "set_policy": "opponents_gain_bid",
                   "renege_declarer": "set_bonus", "renege_bonus": 100}),
]


def _totals(hex_bits: str) -> list[int]:
    bits = int(hex_bits, 16)
    return [n for n in range(bits.bit_length()) if (bits >> n) & 1]


def _number(rng: random.Random, good: list[int], top: int, unit: int) -> Any:
    """A value for a number field: mostly one that can be, sometimes a typing slip."""
    roll = rng.random()
    if roll < 0.65:
        return rng.choice(good)
    if roll < 0.75:
        return rng.randrange(0, top + 2)  # anything up to just past the top
    if roll < 0.82:
        return top + rng.choice((1, unit, 10 * unit, 1000))
    if roll < 0.86 and unit > 1:
        return rng.choice(good) + 1  # not a multiple of the unit
    if roll < 0.90:
        return rng.choice(("5a", "", None, 10001))  # the serializer's to refuse, or blank
    return rng.choice(good[:3] or [0])


def _cases(rs: Ruleset, rng: random.Random) -> list[dict[str, Any]]:
    rules = browser_rules(rs)
    side_meld = _totals(rules["meld_side"])
    defender_meld = _totals(rules["meld_defender"]) if rules["meld_defender"] else side_meld
    total, unit = rs.counters_total, rs.counter_unit
    ladder = rs.next_bids(None, 60)
    bids = [b for b in ladder if b <= rules["max_bid"]]
    if rs.dealer_lowest_bid is not None:
        bids.append(rs.dealer_lowest_bid)
    out: list[dict[str, Any]] = []
    for _ in range(CASES_PER_RULESET):
        outcome = rng.choice(OUTCOMES)
        carried = set(rules["fields"][outcome])
        seats = list(rs.seats)
        v: dict[str, Any] = {"dealer": rng.choice(seats if rng.random() < 0.9 else SEATS),
                             "outcome": outcome}
        if "bidder" in carried and rng.random() < 0.92:
            v["bidder"] = rng.choice(seats if rng.random() < 0.95 else SEATS)
        if "bid" in carried and rng.random() < 0.92:
            v["bid"] = _number(rng, bids, rules["max_bid"], rs.bid_step)
        if "trump" in carried and rng.random() < 0.92:
            v["trump"] = rng.choice("SHDC")
        if "renege_seat" in carried and rng.random() < 0.92:
            v["renege_seat"] = rng.choice(seats)
        if "meld" in carried:
            meld: dict[str, Any] = {}
            for side in rs.sides:
                if rng.random() < 0.93:
                    pool = side_meld if rng.random() < 0.7 else defender_meld
                    meld[side] = _number(rng, pool[:40] + pool[::7], pool[-1], unit)
            v["meld"] = meld
        if "counters" in carried and rng.random() < 0.9:
            counters: dict[str, Any] = {}
            left = total
            for i, side in enumerate(rs.sides):
                if i == len(rs.sides) - 1 and rng.random() < 0.85:
                    counters[side] = left  # the form fills the last side in
                elif rng.random() < 0.95:
                    x = rng.randrange(0, left // unit + 1) * unit
                    counters[side] = x if rng.random() < 0.9 else _number(rng, [x], total, unit)
                    left -= x
            v["counters"] = counters
        out.append(v)
    return out


def _engine(values: dict[str, Any], rs: Ruleset) -> dict[str, Any] | None:
    """The check endpoint's answer; None where its serializer refuses the values."""
    serializer = HandValuesInput(data=values)
    if not serializer.is_valid():
        return None
    try:
        return {"status": 200, "body": hand_check_answer(serializer.values(), rs)}
    except RulesError as exc:
        return {"status": 400, "body": {"errors": exc.api_errors()}}


def test_the_browser_checks_and_scores_every_generated_hand_as_the_engine_does(
    browser: Browser,
) -> None:
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><title>hand preview</title>")
        page.add_script_tag(path=str(SCRIPT))
        rng = random.Random(26)
        seen: Counter[str] = Counter()
        compared = 0
        for name, overrides in RULESETS:
            rs = get_ruleset(name, overrides)
            rules = browser_rules(rs)
            cases = _cases(rs, rng)
            answers = page.evaluate(
                "([rules, cases]) => cases.map(v => HandPreview.check(rules, v))", [rules, cases]
            )
            for values, got in zip(cases, answers, strict=True):
                want = _engine(values, rs)
                where = f"{name} {overrides} {values}"
                if want is None:
                    # the serializer's own refusals are left to the server
                    assert got is None, where
                    seen["server"] += 1
                    continue
                assert got == want, where
                compared += 1
                if want["status"] == 200:
                    seen[want["body"]["result"]] += 1
                else:
                    seen.update(f"{e['field'].split('.')[0]}:{e['code']}"
                                for e in want["body"]["errors"])
    finally:
        page.context.close()
    # the generated hands reach every verdict and every message the form can meet
    for kind in ("made", "set", "board_set", "surrendered", "renege", "misdeal", "server",
                 "dealer:bad_seat", "bidder:required", "bidder:bad_seat", "bid:required",
                 "bid:bad_bid", "bid:too_high", "trump:required", "meld:required",
                 "meld:too_high", "meld:not_achievable", "counters:required", "counters:too_high",
                 "counters:not_multiple", "counters:bad_sum", "renege_seat:required",
                 "tricks:required", "outcome:not_in_ruleset"):
        assert seen[kind] >= 3, (kind, seen)
    assert compared >= 0.8 * CASES_PER_RULESET * len(RULESETS)


# Rulesets where tricks are entered (meld needs a trick, or taking every trick counts), each at
# every table it seats: three players, and four with the dealer sitting out.
TRICK_RULESETS: list[tuple[str, dict[str, Any]]] = [
    ("three_handed", {}),
    ("cutthroat", {}),
    ("three_handed", {"all_tricks": "bonus", "dealer_opens_lower": True}),
    ("cutthroat", {"all_tricks": "wins_game", "meld_needs_trick": False}),
    ("single_deck_partnership", {"all_tricks": "bonus"}),
    ("pagat_double_deck", {"all_tricks": "wins_game"}),
]


def _split(rng: random.Random, total: int, parts: int) -> list[int]:
    cuts = sorted(rng.randint(0, total) for _ in range(parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def _at_table(values: dict[str, Any], rs: Ruleset, table: tuple[str, ...],
              rng: random.Random) -> dict[str, Any]:
    """A generated hand moved to the table (the sides N, E, S become the players clockwise from
    the dealer's left) and given tricks, mostly adding up, now and then not."""
    v = dict(values)
    took = _split(rng, rs.hand_size, len(rs.sides))
    if rng.random() < 0.3:  # every trick to one side
        took = [0] * len(rs.sides)
        took[rng.randrange(len(rs.sides))] = rs.hand_size
    if v["outcome"] == "played" and rng.random() < 0.5:
        # a hand as it could have been played: small meld, counters that go with the tricks
        low = _totals(browser_rules(rs)["meld_defender"] or browser_rules(rs)["meld_side"])[:6]
        unit, total = rs.counter_unit, rs.counters_total
        counters = [round(total * t / rs.hand_size / unit) * unit for t in took]
        top = max(range(len(took)), key=lambda i: took[i])
        counters[top] += total - sum(counters)
        v.update(bidder=rs.seats[took.index(max(took)) if rng.random() < 0.6 else rng.randrange(
                     len(rs.seats))] if rs.individual else rng.choice(rs.seats),
                 bid=rng.choice(rs.next_bids(None, 8)), trump=rng.choice("SHDC"),
                 meld={x: rng.choice(low) for x in rs.sides},
                 counters=dict(zip(rs.sides, counters, strict=True)))
    names = {s: s for s in rs.sides}
    if len(table) > rs.players:
        dealer = rng.choice(table)
        at = table.index(dealer)
        names = {s: table[(at + 1 + i) % len(table)] for i, s in enumerate(rs.sides)}
        if rng.random() < 0.04:
            names[rs.sides[rng.randrange(3)]] = dealer  # the sitter-out named by mistake
        for k in ("bidder", "renege_seat"):
            if k in v:
                v[k] = names.get(v[k], v[k])
        for k in ("meld", "counters"):
            if isinstance(v.get(k), dict):
                v[k] = {names.get(s, s): x for s, x in v[k].items()}
        if rng.random() < 0.96:
            v["dealer"] = dealer
        else:
            v.pop("dealer")
    if v["outcome"] == "played" and rng.random() < 0.95:
        sides = [names[s] for s in rs.sides]
        tricks = dict(zip(sides, took, strict=True))
        roll = rng.random()
        if roll < 0.05:
            tricks[sides[0]] += 1
        elif roll < 0.08:
            del tricks[sides[-1]]
        v["tricks"] = tricks
    # numbers only, as the serializer hands them on (blank ones dropped)
    for k, x in list(v.items()):
        if isinstance(x, dict):
            v[k] = {s: n for s, n in x.items() if n is not None}
        elif x is None or x == "":
            del v[k]
    return v


def _refused_by_the_form(values: dict[str, Any]) -> bool:
    """What the endpoint's serializer refuses (no dealer, a number it cannot read)."""
    if "dealer" not in values:
        return True
    numbers = [values.get("bid")] + [n for x in values.values() if isinstance(x, dict)
                                     for n in x.values()]
    return any(n is not None and (not isinstance(n, int) or n > 10000) for n in numbers)


def _engine_at(values: dict[str, Any], rs: Ruleset, table: tuple[str, ...]) -> dict[str, Any]:
    try:
        score = score_hand(parse_hand(values, rs, table), rs)
    except RulesError as exc:
        return {"status": 400, "body": {"errors": exc.api_errors()}}
    body = {"points": dict(score.points), "declaring_side": score.declaring_side,
            "made": score.made, "result": str(score.result), "reason": score.reason}
    if score.sitting_out is not None:
        body["sitting_out"] = score.sitting_out
    return {"status": 200, "body": body}


def test_the_browser_scores_tricks_and_a_table_with_a_sitter_out_as_the_engine_does(
    browser: Browser,
) -> None:
    page = browser.new_page()
    try:
        page.set_content("<!doctype html><title>hand preview</title>")
        page.add_script_tag(path=str(SCRIPT))
        rng = random.Random(36)
        seen: Counter[str] = Counter()
        compared = 0
        for name, overrides in TRICK_RULESETS:
            rs = get_ruleset(name, overrides)
            rules = browser_rules(rs)
            for n in rs.table_sizes:
                table = tuple(rs.seats_for(n))
                cases = [_at_table(v, rs, table, rng) for v in _cases(rs, rng)]
                answers = page.evaluate(
                    "([rules, cases, seats]) => cases.map(v => HandPreview.check(rules, v, seats))",
                    [rules, cases, list(table)],
                )
                for values, got in zip(cases, answers, strict=True):
                    where = f"{name} {overrides} {table} {values}"
                    if _refused_by_the_form(values):
                        assert got is None, where
                        continue
                    want = _engine_at(values, rs, table)
                    assert got == want, where
                    compared += 1
                    if want["status"] == 200:
                        seen[want["body"]["result"]] += 1
                        seen["sitting_out"] += "sitting_out" in want["body"]
                        seen["every_trick"] += "took every trick" in want["body"]["reason"]
                    else:
                        seen.update(f"{e['field'].split('.')[0]}:{e['code']}"
                                    for e in want["body"]["errors"])
    finally:
        page.context.close()
    for kind in ("made", "set", "surrendered", "renege", "misdeal", "sitting_out", "every_trick",
                 "tricks:required", "tricks:bad_sum", "counters:impossible",
                 "meld:sitting_out", "bidder:sitting_out"):
        assert seen[kind] >= 3, (kind, seen)
    assert compared >= 0.8 * CASES_PER_RULESET * 10


@pytest.mark.django_db(transaction=True)
def test_typing_a_whole_hand_on_the_table_page_sends_no_check(
    live_server, phone: Page, output_dir: Path,
) -> None:
    from tests.e2e.entry_form import enter_hand, tile
    from tests.scoring.factories import seated_table

    table = seated_table()
    checks: list[str] = []
    phone.on("request", lambda r: checks.append(r.url) if "/check/" in r.url else None)
    phone.goto(f"{live_server.url}/t/{table.token}/")
    expect(phone.get_by_role("heading", name="Hand 1")).to_be_visible()
    preview = phone.locator("[data-preview]")

    # a bid off the ladder and a meld no hand can show: named next to their fields at once
    enter_hand(phone, {"bidder": "N", "bid": "63", "trump": "H", "meld_NS": "13",
                       "meld_EW": "32", "counters_NS": "27"})
    expect(phone.locator("#id_counters_EW")).to_have_value("23")
    expect(phone.locator("#err-bid")).to_have_text(
        "bid 63 is not allowed: from 60 bids go up in steps of 5 (60 or 65)")
    expect(phone.locator("#err-meld_NS")).to_have_text(
        "no combination of melds adds up to 13; did you mean 12 or 14?")
    expect(preview).to_have_class("preview bad")
    phone.locator("#id_bid").scroll_into_view_if_needed()
    phone.screenshot(path=str(output_dir / "entry-preview-errors.png"))

    # corrected: the score of the hand, made, and no message left
    phone.fill("#id_bid", "51")
    phone.fill("#id_meld_NS", "24")
    expect(preview).to_have_text("NS +51 · EW +55 — made")
    expect(phone.locator("#err-bid")).to_have_text("")
    expect(phone.locator("#err-meld_NS")).to_have_text("")
    phone.fill("#id_counters_NS", "20")
    expect(preview).to_have_text("NS -51 · EW +62 — set")
    # a board set and a throw-in score without counters
    tile(phone, "outcome", "surrender")
    expect(preview).to_have_text("NS -51 · EW +32 — surrendered")
    tile(phone, "outcome", "played")
    phone.fill("#id_counters_NS", "27")
    expect(preview).to_have_text("NS +51 · EW +55 — made")
    phone.screenshot(path=str(output_dir / "entry-preview-made.png"))
    phone.wait_for_timeout(600)
    assert checks == []

    # text in a number field is the server's to judge: that one hand is checked there
    with phone.expect_response("**/check/") as checked:
        phone.fill("#id_bid", "5a")
    assert checked.value.status == 400
    expect(phone.locator("#err-bid")).to_have_text("A valid integer is required.")
    assert len(checks) == 1

    phone.fill("#id_bid", "51")
    expect(preview).to_have_text("NS +51 · EW +55 — made")
    phone.click("[data-save]")
    expect(phone.locator("[data-saved-banner]")).to_have_text("Hand 1 saved.")
    expect(phone.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert len(checks) == 1


def test_the_browser_leaves_exactly_the_big_tables_to_the_server() -> None:
    left = {name for name in PRESET_NAMES if name not in PREVIEWED}
    assert left == {name for name in PRESET_NAMES
                    if max(get_ruleset(name).table_sizes) > 4 or get_ruleset(name).side_size > 2}
    assert {"pagat_double_deck", "three_handed", "cutthroat", "two_handed"} <= set(PREVIEWED)

"""The rules page of the games for tables of two, five, six and eight and of check pinochle:
every option the preset plays (or an event turns on) has its sentence, with its number read
from the rules engine."""

from __future__ import annotations

import html as html_lib
import re
from typing import Any

import pytest
from django.urls import reverse

from common.rulesets import event_ruleset
from rules_engine import Ruleset
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db


def _sections(client, **event: object) -> tuple[dict[str, str], dict[str, list[str]], Ruleset]:
    ev: Any = EventFactory(deals_per_round=None, **event)
    response = client.get(reverse("event-rules", args=[ev.pk]))
    assert response.status_code == 200
    html = response.content.decode()

    def text(raw: str) -> str:
        return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", raw))).strip()

    sections = {
        sid: text(body)
        for sid, body in re.findall(r'<section class="card" id="([^"]+)">(.*?)</section>', html, re.S)
    }
    rows = {
        option: [text(c) for c in re.findall(r'<td class="num">(.*?)</td>', cells, re.S)]
        for option, cells in re.findall(r'<tr data-meld="([^"]+)">(.*?)</tr>', html, re.S)
    }
    headings = re.findall(r'<span class="long">(.*?)</span>', html)
    return sections, {**rows, "_columns": headings}, event_ruleset(ev)


def test_two_handed_names_the_stock_and_the_round_house(client) -> None:
    s, rows, rs = _sections(client, ruleset_preset="two_handed",
                            ruleset_overrides={"meld.round_house": 10})
    assert "2 players at a table, each playing for themselves" in s["rules-table"]
    assert f"The other {rs.stock} cards are the stock" in s["rules-table"]
    assert f"counts {rs.round_house} more" in s["rules-meld"]
    assert rows["meld.round_house"] == ["10", "20"]


def test_five_handed_names_the_called_partner(client) -> None:
    s, _, rs = _sections(client, ruleset_preset="five_handed")
    assert "in each hand the declarer plays with a called partner" in s["rules-table"]
    assert "calls a card of trump: the first other player holding it" in s["rules-bidding"]
    assert "the partner scores what the declarer scores" in s["rules-bidding"]
    s, _, _ = _sections(client, ruleset_preset="five_handed",
                        ruleset_overrides={"partner_scores": "nothing"})
    assert "the partner helps but scores nothing" in s["rules-bidding"]


def test_six_handed_names_its_teams_and_every_multiple(client) -> None:
    s, rows, rs = _sections(client, ruleset_preset="six_handed_triple_deck")
    assert "6 players at a table in two teams of 3: every player sits between two opponents" \
        in s["rules-table"]
    assert f"A triple deck of {rs.deck.size} cards" in s["rules-table"]
    assert "six of each card" in s["rules-table"]
    assert rows["_columns"][:6] == ["Single", "Double", "Triple", "Quadruple", "Five times",
                                    "Six times"]
    assert rows["meld.aces"] == [str(v) for v in rs.around_t[0][1:]]
    assert f"The lowest opening bid is {rs.min_bid}" in s["rules-bidding"]
    assert f"the last trick counts {rs.last_trick} points" in s["rules-counters"]


def test_racehorse_names_every_option_it_plays(client) -> None:
    s, rows, rs = _sections(client, ruleset_preset="racehorse",
                            ruleset_overrides={"pass_cards": 3})
    table = s["rules-table"]
    assert f"{rs.widow} go to the widow (the blind)" in table
    assert f"{rs.nines_added} nines, one of each suit per four, are added" in table
    assert "each of the declarer's partners passes 3 cards" in table
    assert f"opens at {rs.min_bid} without a choice" in s["rules-bidding"]
    assert "cards are thrown in" not in s["rules-bidding"]
    assert (f"A side other than the declaring side must take at least {rs.min_counters}"
            in s["rules-counters"])
    assert "\"the game\": it wins the game at once" in s["rules-game"]
    assert rows["meld.royal_marriage"][3:] == ["wins the game"] * 3
    assert rows["meld.pinochle"][:3] == ["40", "300", "900"]
    assert rows["meld.aces"] == ["100"] + ["1000"] * 5


def test_eight_handed_names_the_optional_quadruple_pinochle(client) -> None:
    s, rows, rs = _sections(client, ruleset_preset="eight_handed_double_deck",
                            ruleset_overrides={"meld.quadruple_pinochle": 1000})
    assert "8 players at a table in four teams of 2: partners sit opposite" in s["rules-table"]
    assert "A quadruple pinochle (four queens of spades and four jacks of diamonds) counts 1000" \
        in s["rules-meld"]
    assert rows["meld.pinochle"][3] == "1000" and len(rows["meld.pinochle"]) == 8
    plain, _, _ = _sections(client, ruleset_preset="eight_handed_double_deck")
    assert "quadruple pinochle" not in plain["rules-meld"]


def test_check_pinochle_lists_its_checks(client) -> None:
    s, _, rs = _sections(client, ruleset_preset="check_pinochle")
    scoring = s["rules-scoring"]
    values = rs.check_values
    assert "every other player owes them a stake" in scoring
    assert f"a run in trump {values['run']}" in scoring
    assert f"a roundtable (a marriage in each suit) {values['roundtable']}" in scoring
    assert f"seven nines in the hand dealt, bid or not {values['seven_nines']}" in scoring
    assert f"loses {values['lose_looked']} check" in scoring
    assert f"Winning the game earns {values['game']} checks" in scoring
    plain, _, _ = _sections(client, ruleset_preset="three_handed")
    assert "Checks" not in plain["rules-scoring"]

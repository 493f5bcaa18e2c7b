"""The rules of the evening: one page per event written from the event's ruleset and format.
Every number the tests look for is read from the rules engine's ruleset (a preset, or a
preset with the event's overrides), never written down here, so the page is shown to follow
the engine for two presets and a custom override."""

from __future__ import annotations

import datetime
import html as html_lib
import re

import pytest
from django.urls import reverse

from common.rulesets import event_ruleset
from draw.selectors import event_rules
from events.rulebook import HEAD_RULE, SET_POLICY, meld_table
from ranking import TIE_BREAKS
from rules_engine import get_ruleset
from standings.selectors import bye_text
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.tournaments.factories import EventFactory, progressive_event
from tournaments.models import Event
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def _page(client, event: Event) -> str:
    response = client.get(reverse("event-rules", args=[event.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _text(html: str) -> str:
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))).strip()


def _section(html: str, section_id: str) -> str:
    found = re.search(rf'<section class="card" id="{section_id}">(.*?)</section>', html, re.S)
    assert found, f"no section {section_id}"
    return _text(found.group(1))


def _meld_rows(html: str) -> dict[str, list[str]]:
    rows = {}
    for option, cells in re.findall(r'<tr data-meld="([^"]+)">(.*?)</tr>', html, re.S):
        rows[option] = [_text(c) for c in re.findall(r'<td class="num">(.*?)</td>', cells, re.S)]
    return rows


def _expected_meld(ruleset) -> dict[str, list[str]]:
    """The meld values by multiple as the engine's options hold them."""
    out = {}
    for option in ("meld.run", "meld.royal_marriage", "meld.marriage", "meld.pinochle",
                   "meld.aces", "meld.kings", "meld.queens", "meld.jacks"):
        values = [str(v) for v in ruleset.options[option]]
        if option == "meld.run" and ruleset.quadruple_run_wins:
            values[-1] = "wins the game"
        out[option] = values
    if ruleset.options["meld.dix"]:
        out["meld.dix"] = [str(ruleset.options["meld.dix"] * n) for n in range(1, ruleset.copies + 1)]
    return out


@pytest.mark.parametrize("preset", ["pagat_double_deck", "club_double_deck",
                                    "single_deck_partnership"])
def test_the_page_shows_the_presets_own_numbers(client, preset: str) -> None:
    event = EventFactory(ruleset_preset=preset, deals_per_round=None)
    ruleset = get_ruleset(preset)
    html = _page(client, event)
    assert _meld_rows(html) == _expected_meld(ruleset)
    bidding = _section(html, "rules-bidding")
    assert f"The lowest opening bid is {ruleset.options['min_bid']}" in bidding
    assert f"by {ruleset.options['bid_step']}" in bidding
    for start, step in ruleset.options["bid_steps"]:
        assert f"from {start} by {step}" in bidding
    if ruleset.options["dealer_stuck"] is not None:
        assert f"stuck with a bid of {ruleset.options['dealer_stuck']}" in bidding
    counters = _section(html, "rules-counters")
    assert f"the last trick counts {ruleset.options['last_trick']} point" in counters
    assert f"{ruleset.counters_total} counters in each hand" in counters
    game = _section(html, "rules-game")
    assert f"The game is {ruleset.options['game_target']}" in game
    table = _section(html, "rules-table")
    assert f"{ruleset.deck.size} cards" in table and f"{ruleset.hand_size} cards" in table
    assert str(HEAD_RULE[ruleset.options["head_rule"]]) in table  # lazy: the reader's language
    scoring = _section(html, "rules-scoring")
    if ruleset.options["surrender_policy"] == "meld_plus_bonus":
        assert f"their meld plus {ruleset.options['surrender_bonus']}" in scoring
    if ruleset.options["renege_declarer"] == "set_bonus":
        assert f"their meld plus {ruleset.options['renege_bonus']}" in scoring
    meld = _section(html, "rules-meld")
    if ruleset.options["min_meld"]:
        assert f"at least {ruleset.options['min_meld']}" in meld
    # the page is printable and readable on a phone
    assert "data-print" in html and 'name="viewport"' in html


def test_two_presets_differ_where_their_rulesets_differ(client) -> None:
    pagat = _page(client, EventFactory(ruleset_preset="pagat_double_deck"))
    club = _page(client, EventFactory(ruleset_preset="club_double_deck"))
    a, b = get_ruleset("pagat_double_deck"), get_ruleset("club_double_deck")
    assert a.options["meld.pinochle"] != b.options["meld.pinochle"]
    assert _meld_rows(pagat)["meld.pinochle"] == [str(v) for v in a.options["meld.pinochle"]]
    assert _meld_rows(club)["meld.pinochle"] == [str(v) for v in b.options["meld.pinochle"]]
    assert b.quadruple_run_wins and not a.quadruple_run_wins
    assert "A quadruple run in trump wins the game at once." in _section(club, "rules-game")
    assert "quadruple run" not in _section(pagat, "rules-game")


def test_an_events_own_override_shows_on_its_page(client) -> None:
    club, _ = club_with_director(slug="custom")
    overrides = {"game_target": 750, "min_bid": 60, "meld.pinochle": [6, 40, 80, 120],
                 "last_trick": 5, "set_policy": "double_bid"}
    event = event_create(club=club, name="House rules", date=DAY, ruleset_preset="pagat_double_deck",
                         ruleset_overrides=overrides, deals_per_round=None)
    ruleset = event_ruleset(event)
    html = _page(client, event)
    assert _meld_rows(html)["meld.pinochle"] == [str(v) for v in ruleset.options["meld.pinochle"]]
    assert ruleset.options["meld.pinochle"] == overrides["meld.pinochle"]
    assert f"The lowest opening bid is {ruleset.min_bid}" in _section(html, "rules-bidding")
    assert f"The game is {ruleset.game_target}" in _section(html, "rules-game")
    counters = _section(html, "rules-counters")
    assert f"the last trick counts {ruleset.last_trick} points: {ruleset.counters_total} " in counters
    assert f"A set: {SET_POLICY[ruleset.set_policy]};" in _section(html, "rules-scoring")
    assert "with the club's own changes" in html
    # the meld table helper reads the same ruleset
    rows = {r["option"]: r["values"] for r in meld_table(ruleset)["rows"]}
    assert rows["meld.pinochle"] == overrides["meld.pinochle"]


def test_a_deal_count_byes_and_tie_breaks_come_from_the_event(client) -> None:
    event = EventFactory(deals_per_round=6, bye_scoring=Event.ByeScoring.FIXED, bye_points=37,
                         tie_breaks=["wins", "points", "highest_game"])
    html = _page(client, event)
    assert f"A round is {event.deals_per_round} deals" in _section(html, "rules-game")
    standings = _section(html, "rules-standings")
    assert bye_text(event) == "A bye scores 37 points." and bye_text(event) in standings
    expected = ", then ".join(TIE_BREAKS[n].lower() for n in event.tie_breaks)
    assert f"Ranked by {expected}" in standings


def test_a_progressive_day_adds_its_movement_and_stage_rules(client) -> None:
    event = progressive_event(8, deals_per_round=4,
                              format_settings={"game_minutes": 25, "direction": "down"})
    html = _page(client, event)
    fmt = _section(html, "rules-format")
    for sentence in event_rules(event):
        assert _text(sentence) in fmt
    assert "away from table 1" in fmt
    assert f"at most {event.format_settings['game_minutes']} minutes" in fmt
    assert "alternate" in fmt
    assert f"A game is {event.deals_per_round} deals" in _section(html, "rules-game")


def test_a_pair_event_says_its_format_and_the_pair_tie_breaks(client) -> None:
    club, _ = club_with_director(slug="pairs-rules")
    event = event_create(club=club, name="Pairs", date=DAY, format=Event.Format.SWISS,
                         rounds_planned=4, deals_per_round=2)
    for _ in range(4):
        pair_register(event=event, players=[PlayerFactory(club=club), PlayerFactory(club=club)])
    html = _page(client, event)
    fmt = _section(html, "rules-format")
    for sentence in event_rules(event):
        assert _text(sentence) in fmt
    standings = _section(html, "rules-standings")
    assert "A pair with a bye wins the round." in standings
    assert "wins (a bye counts as a win)" in standings


def test_the_phone_page_and_the_event_page_link_the_rules(client) -> None:
    from draw.services import round_create
    from tests.tournaments.factories import event_with_players

    event = event_with_players(players=4, status="running")
    table = round_create(event=event).tables.get()
    rules = reverse("event-rules", args=[event.pk])
    assert rules in client.get(reverse("table-entry", args=[table.token])).content.decode()
    assert rules in client.get(reverse("event-detail", args=[event.pk])).content.decode()


@pytest.mark.parametrize("all_tricks", ["bonus", "wins_game"])
def test_the_options_from_the_rule_texts_show_on_the_page(client, all_tricks: str) -> None:
    overrides = {"meld.run_extra": 20, "set_keeps_meld": True, "dealer_opens_lower": True,
                 "dealer_stuck": None, "target_exceed": True, "all_tricks": all_tricks}
    event = EventFactory(ruleset_preset="single_deck_partnership", ruleset_overrides=overrides)
    ruleset = event_ruleset(event)
    html = _page(client, event)
    assert _meld_rows(html)["meld.run_extra"] == [str(ruleset.run_extra * n) for n in (1, 2)]
    assert f"counts {ruleset.run_extra} more each" in _section(html, "rules-meld")
    assert (f"the dealer may open at {ruleset.dealer_lowest_bid}, one step below"
            in _section(html, "rules-bidding"))
    scoring = _section(html, "rules-scoring")
    assert "it keeps its meld" in scoring
    game = _section(html, "rules-game")
    assert f"the first side to pass it (score more than {ruleset.game_target}) wins" in game
    if all_tricks == "bonus":
        assert f"takes every trick scores {ruleset.all_tricks_bonus} more" in scoring
    else:
        assert "takes every trick wins the game at once" in game
    # the preset alone says none of it
    plain = _page(client, EventFactory(ruleset_preset="single_deck_partnership"))
    assert "meld.run_extra" not in _meld_rows(plain)
    for words in ("keeps its meld", "every trick", "one step below", "pass it"):
        assert words not in _text(plain)


def test_pinochling_and_the_slide_out_show_as_the_engine_plays_them(client) -> None:
    """The encyclopedia's alternate end games ("pinochling", the slide-out) on the page of a
    cutthroat game (bid-and-out, forced concession): every trick wins even a bid that cannot be
    made, so no declarer is made to concede, and the slide-out counts the others' failed bids
    while the side stays over the target, not only three in a row."""
    overrides = {"all_tricks": "pinochling", "slide_out": True, "game_target": 600}
    event = EventFactory(ruleset_preset="cutthroat", ruleset_overrides=overrides)
    ruleset = event_ruleset(event)
    assert ruleset.all_tricks == "wins_game" and ruleset.forced_concession
    html = _page(client, event)
    game = _section(html, "rules-game")
    assert "takes every trick wins the game at once" in game and "(pinochling)" in game
    assert "even when the bid cannot be made" in game
    assert "stops it by throwing the hand in before the first card is played" in game
    assert (f"A side at or over 600 also wins without bidding once the others have failed their "
            f"bids {ruleset.slide_out_sets} times while it stayed there (slide-out)") in game
    assert "in a row" not in game
    assert "must concede" not in _section(html, "rules-scoring")
    # the preset alone: a declarer who cannot reach the bid concedes, and neither end game shows
    plain = _page(client, EventFactory(ruleset_preset="cutthroat"))
    assert "must concede the hand" in _section(plain, "rules-scoring")
    for words in ("pinochling", "slide-out", "every trick"):
        assert words not in _text(plain)
    # passing the target, where the game asks for it
    exceed = _page(client, EventFactory(ruleset_preset="cutthroat",
                                        ruleset_overrides={**overrides, "target_exceed": True}))
    assert "A side over 600 also wins without bidding" in _section(exceed, "rules-game")

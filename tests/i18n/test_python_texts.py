"""Texts built in Python read German for a German reader and stay as they were in English: the
pure packages' marked texts (``rules_engine.i18n``: constant, with values, with a plural, one
inside another), the formats' sentences and length, a hand's one-line summary and the ranking
sentence. No database: each is a function of its arguments and the active language."""

from __future__ import annotations

import pytest
from django.utils import translation

import formats
from common.labels import SEAT_NAMES, sitting_word, translated, translated_lines
from draw.selectors import sitting_phrase
from pairing.progressive import fixed_seats_warnings
from rules_engine.i18n import Text, gettext_noop, ngettext
from scoring.selectors import describe_values
from standings.selectors import ranking_sentence, translated_tie_breaks

HAND = {"dealer": "S", "bidder": "E", "bid": 50, "trump": "H",
        "meld": {"NS": 16, "EW": 33}, "counters": {"NS": 13, "EW": 37}}


def test_a_marked_text_with_a_plural_and_one_inside_another_reads_german() -> None:
    deals = ngettext("of %(deals)s deal", "of %(deals)s deals", 1, deals=1)
    rounds = ngettext("%(n)s round %(game)s", "%(n)s rounds %(game)s", 3, n=3, game=deals)
    assert rounds == "3 rounds of 1 deal"  # still the English str where nobody translates
    with translation.override("de"):
        assert translated(rounds) == "3 Runden zu 1 Spiel"
        assert translated(gettext_noop("Semi-final")) == "Halbfinale"
        assert translated(Text(gettext_noop("Then the top %(cut)s pairs of the standings play "
                                            "a bracket, seeded by the standings."), cut=8)) == (
            "Danach spielen die besten 8 Paare der Tabelle einen Turnierbaum, gesetzt nach der "
            "Tabelle.")
    with translation.override("en"):
        assert translated(rounds) == "3 rounds of 1 deal"


def test_a_progressive_days_length_and_rules_read_german() -> None:
    spec = formats.get("individual_progressive")
    length = spec.describe_length(10, 2, {"cut": 8}, 20)
    assert length == "10 qualifying games of 2 deals, then semi-finals and a 3-game final"
    with translation.override("de"):
        assert translated(length) == (
            "10 Vorrundenpartien zu 2 Spielen, dann Halbfinale und ein Finale über 3 Partien")
        lines = translated_lines(spec.describe({"cut": 8}, 10))
    assert lines[0].startswith("10 Vorrundenpartien; jeder Spieler schreibt")
    assert any(line.startswith("Nach jeder Partie rücken die Gewinner") for line in lines)


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Dealer S · E bid 50 in ♥ · meld NS 16 / EW 33 · counters NS 13 / EW 37"),
    ("de", "Geber S · E reizt 50 in ♥ · Meldung NS 16 / EW 33 · Stichpunkte NS 13 / EW 37"),
])
def test_a_hands_summary_in_each_language(language: str, expected: str) -> None:
    with translation.override(language):
        assert describe_values(HAND) == expected


def test_words_around_a_sitting_follow_the_language() -> None:
    with translation.override("en"):
        assert sitting_phrase("Semi-final") == "the semi-final"
        assert sitting_phrase("Round 3") == "round 3"
        assert str(SEAT_NAMES["N"]) == "North"
    with translation.override("de"):
        assert sitting_phrase("Halbfinale") == "Halbfinale"
        assert sitting_word("game") == "Partie" and sitting_word("round") == "Runde"
        assert str(SEAT_NAMES["N"]) == "Nord"


def test_the_ranking_sentence_translates_stored_english_tie_breaks() -> None:
    stored = [{"name": "points", "label": "Total points"}, {"name": "wins", "label": "Games won"}]
    with translation.override("en"):
        assert ranking_sentence(translated_tie_breaks(stored)) == (
            "Ranked by total points, then games won.")
    with translation.override("de"):
        assert ranking_sentence(translated_tie_breaks(stored)) == (
            "Reihenfolge nach „Gesamtpunkte“, dann „Gewonnene Partien“.")
        # the German labels keep their capitals, as names in quotes, not mid-sentence words
        assert ranking_sentence(translated_tie_breaks(stored), staged=True) == (
            "Die Tabelle der Vorrunde ordnet nach „Gesamtpunkte“, dann „Gewonnene Partien“.")


def test_a_movement_warning_keeps_its_english_and_reads_german_where_it_is_shown() -> None:
    (warning,) = fixed_seats_warnings(4, {"S": 2})
    assert warning.code == "partners_repeat"
    assert warning.message.startswith("With 4 tables and steps N +0, E -1, S +2, W -2, N/S "
                                      "partners repeat in game 3")
    with translation.override("de"):
        assert translated(warning.message).startswith(
            "Mit 4 Tischen und den Schritten N +0, E -1, S +2, W -2 sind N/S-Partner in "
            "Partie 3 wieder zusammen")

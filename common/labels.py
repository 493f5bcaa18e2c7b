"""Words and choices for the engine's enums, in one place for forms, pages, the API and the
database constraints. The values come from the rules engine; only the English lives here."""

from __future__ import annotations

from rules_engine import Outcome, Result

SEATS: tuple[str, ...] = ("N", "E", "S", "W")
SUITS: tuple[str, ...] = ("S", "H", "D", "C")
OUTCOMES: tuple[str, ...] = tuple(o.value for o in Outcome)
RESULTS: tuple[str, ...] = tuple(r.value for r in Result)

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SUIT_NAMES = {"S": "Spades", "H": "Hearts", "D": "Diamonds", "C": "Clubs"}
OUTCOME_LABELS = {
    Outcome.PLAYED.value: "Played",
    Outcome.NO_MARRIAGE.value: "Board set",
    Outcome.SURRENDER.value: "Surrender",
    Outcome.RENEGE.value: "Renege",
    Outcome.MISDEAL.value: "Misdeal",
}
RESULT_LABELS = {
    Result.MADE.value: "Made",
    Result.SET.value: "Set",
    Result.BOARD_SET.value: "Board set",
    Result.SURRENDERED.value: "Surrendered",
    Result.RENEGE.value: "Renege",
    Result.MISDEAL.value: "Misdeal",
}

SEAT_CHOICES = list(SEAT_NAMES.items())
SUIT_CHOICES = list(SUIT_NAMES.items())
OUTCOME_CHOICES = list(OUTCOME_LABELS.items())

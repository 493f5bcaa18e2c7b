"""One base for every refusal (``rules_engine.errors.CoreError``) and one translation to the
API's error shape, keeping each problem's field and code: a pure core's error reaches the API
response with its code, whether the handler meets it itself or a service turned it into a
``DomainError`` first."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from common.api import exception_handler
from common.errors import ConflictError, DomainError
from formats.pair_settings import PairSettingsError
from pairing.bracket.model import BracketError
from pairing.progressive.model import ProgressiveError
from pairing.rotation.model import RotationError
from pairing.round_robin import ScheduleError
from ranking.ratings import RatingInputError
from ranking.standings import RankingError
from rules_engine import CoreError, FieldError, RulesError
from tests.clubs.factories import club_with_director

PURE_ERRORS = [
    RulesError([FieldError("bid", "too_low", "The bid is below the minimum."),
                FieldError("trump", "required", "Name the trump suit.")]),
    BracketError("Eight entrants at most.", field="entrants", code="too_many"),
    PairSettingsError("format_settings.ties", "Choose one.", "bad_choice"),
    ProgressiveError("tables[2].S", "Seated twice.", "duplicate"),
    ScheduleError("At least two pairs are needed.", "pairs", "too_few"),
    RotationError("players", "Too few players.", "too_few"),
    RankingError("Unknown tie-break.", field="tie_breaks[1]", code="unknown"),
    RatingInputError("A game has two sides.", field="sides", code="one_side"),
]


@pytest.mark.parametrize("error", PURE_ERRORS, ids=lambda e: type(e).__name__)
def test_the_handler_answers_a_pure_core_error_with_its_field_and_code(
        error: CoreError) -> None:
    assert isinstance(error, CoreError) and isinstance(error, ValueError)
    response = exception_handler(error, {})
    assert response is not None and response.status_code == 400
    first = response.data["errors"][0]
    assert (first["field"], first["code"], first["message"]) == (
        error.field, error.code, error.message)
    assert first["code"] != "invalid"


def test_a_rules_error_answers_every_problem() -> None:
    response = exception_handler(PURE_ERRORS[0], {})
    assert response is not None
    assert [(e["field"], e["code"]) for e in response.data["errors"]] == [
        ("bid", "too_low"), ("trump", "required")]


def test_a_service_keeps_the_pure_errors_code_and_field() -> None:
    core = ProgressiveError("cut", "The cut is 8, 4 or 0.", "bad_choice")
    refused = DomainError.of(core, field_prefix="format_settings.")
    assert (refused.field, refused.code, refused.message) == (
        "format_settings.cut", "bad_choice", "The cut is 8, 4 or 0.")
    assert DomainError("Nope.").code == "invalid"  # the default stays
    conflict = exception_handler(ConflictError("Changed meanwhile.", field="number",
                                               current={"n": 1}), {})
    assert conflict is not None and conflict.status_code == 409
    assert conflict.data == {"errors": [{"field": "number", "code": "conflict",
                                         "message": "Changed meanwhile."}], "current": {"n": 1}}


@pytest.mark.django_db
@pytest.mark.parametrize(("event_format", "settings", "field", "code"), [
    # pairing.progressive's ProgressiveError (its code was dropped on the way before)
    ("individual_progressive", {"game_minutes": 5}, "format_settings.game_minutes", "bad_value"),
    ("individual_progressive", {"colour": "red"}, "format_settings.colour", "unknown_field"),
    # formats.pair_settings' PairSettingsError
    ("swiss", {"first_draw": "sideways"}, "format_settings.first_draw", "bad_choice"),
])
def test_a_pure_core_error_reaches_the_api_response_with_its_code(
        event_format: str, settings: dict[str, object], field: str, code: str) -> None:
    club, director = club_with_director()
    api = APIClient()
    api.force_authenticate(director)
    response = api.post("/api/events/", {
        "club": club.slug, "name": "Open", "date": "2026-11-22", "format": event_format,
        "format_settings": settings}, format="json")
    assert response.status_code == 400, response.content
    [error] = response.json()["errors"]
    assert (error["field"], error["code"]) == (field, code)
    assert error["message"]

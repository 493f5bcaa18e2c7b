"""The API's director actions built on ``tournaments.api_actions.DirectorAction`` (the event
API's, conduct's, registrations') keep the shape each view had by hand: the event first (404
outside a private club, 403 without the director's role, 401/403 anonymous), then what the URL
names in it (404, before the body is read), then the body (400 naming the field); and the schema
describes each action by its own docstring."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Membership
from config import api_urls
from draw.services import round_create
from tests.clubs.factories import UserFactory, club_with_director
from tests.tournaments.factories import event_with_players
from tournaments.api_actions import DirectorAction
from tournaments.models import EventLog

pytestmark = pytest.mark.django_db

# A place no event has, for every part of the URLs (round 99, table 99, a pair, entry,
# arrival, penalty, call or registration 0).
MISSING = {"number": 99, "table": 99, "pair_id": 0, "entry_id": 0, "arrival_id": 0,
           "penalty_id": 0, "call_id": 0, "rid": 0}


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            assert isinstance(pattern, URLPattern)
            yield prefix + str(pattern.pattern), pattern


def _actions() -> list[tuple[str, type[DirectorAction]]]:
    found = []
    for route, pattern in _routes(api_urls.urlpatterns):
        view = getattr(pattern.callback, "cls", None)
        if isinstance(view, type) and issubclass(view, DirectorAction):
            found.append((route, view))
    return found


def _path(route: str, pk: int, **parts: int) -> str:
    path = "/api/" + route.replace("<int:pk>", str(pk))
    for name, value in parts.items():
        path = path.replace(f"<int:{name}>", str(value))
    assert "<" not in path, path
    return path


def _client(user: Any) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return api


def test_the_api_has_its_director_actions() -> None:
    names = {view.__name__ for _, view in _actions()}
    assert {"EventAdvanceApi", "EntryLeaveApi", "PairLeaveApi", "RoundAdvanceApi",
            "RoundSwapApi", "TableCutApi", "TableForfeitApi", "RoundTimeApi",
            "RoundConfirmApi", "EntryAlternateApi", "SelfCheckInModeApi",
            "ArrivalDecideApi", "EventFinishApi", "EventReopenApi", "RoundStartApi",
            "RoundCloseApi", "EventEntriesBulkApi",
            # conduct
            "EventPenaltiesApi", "PenaltyWithdrawApi", "EventAppealsApi", "TableAdjustApi",
            "CallTakeApi", "CallCloseApi",
            # registrations
            "RegistrationApproveApi", "RegistrationRefuseApi", "RegistrationPaidApi",
            "RegistrationsCheckInApi"} <= names


def test_no_action_borrows_the_base_s_description() -> None:
    """The schema takes a view's docstring, falling back on its bases' and on the method's: the
    base has none, so an action is described by its own docstring or not at all."""
    assert DirectorAction.__doc__ is None
    assert DirectorAction.post.__doc__ is None


def test_refusals_come_in_order_event_then_place_then_body() -> None:
    club, director = club_with_director(slug="action-club", is_public=False)
    event = event_with_players(club=club, players=8, status="running", deals_per_round=2)
    round_create(event=event)
    outsider = _client(club_with_director(slug="elsewhere")[1])
    scorer = UserFactory(username="action-scorer")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    as_scorer, as_director, anonymous = _client(scorer), _client(director), APIClient()
    bad_body = {"held": "maybe", "winner": "up", "side": "up", "reason": "", "confirm": "maybe",
                "tables": "all", "source": "hearsay", "start": "maybe",
                "close_unfinished": "maybe", "entry_a": "x", "pair_a": "x", "alternate": "maybe",
                "mode": "sometimes", "approve": "maybe", "player_ids": "all",
                "ids": "all"}
    for route, view in _actions():
        here = _path(route, event.pk, **{k: 1 for k in MISSING})
        assert anonymous.post(here, {}, format="json").status_code in (401, 403), route
        assert outsider.post(here, {}, format="json").status_code == 404, route
        assert as_scorer.post(here, {}, format="json").status_code == 403, route
        answer = as_director.post(_path(route, event.pk, **MISSING), bad_body, format="json")
        if view.find is DirectorAction.find:  # the action is on the event itself
            assert answer.status_code == 400, (route, answer.content)
            field = answer.json()["errors"][0]["field"]
            if view.input is not None:  # the body is checked first
                assert field in bad_body, route
            else:  # the service checks the body, or the event's state, and names the field
                assert field != "__all__", (route, answer.content)
        else:
            assert answer.status_code == 404, (route, answer.content)
            assert set(answer.json()) == {"errors"}
    assert not EventLog.objects.filter(event=event, actor=director).exists()

"""The API fuzzed against its own OpenAPI schema (schemathesis), sent to the whole Django
application (every middleware, authentication, throttles, the views, the services) through its
WSGI entry point, in process, on the real PostgreSQL.

Every operation of ``/api/schema/`` gets schemathesis' coverage cases (boundary values, missing
and wrong-typed fields, other methods and media types) and generated requests, valid and
invalid ones, sent with the token of a director (the club's owner, so role changes are fuzzed
too) whose club night has a round seated and started, a player sitting out and a hand stored.
Most cases are steered to those real objects (``_steer``), so writes get past 404 and 403 to
the services and the rules engine. Two checks hold for every answer:

* no 5xx (``not_a_server_error``);
* the status code is one the schema documents for the operation (``status_code_conformance``).

A failure prints the request (as a curl command) and the answer, to replay by hand. Run with
``FUZZ_STATS=/some/file`` to get one line per request sent (method, path, status).

The world is built once for the module (``tests.shared.module_data``); each operation's
requests run in a savepoint of their own, rolled back after it, and what a request queues on
commit (the standings task, the nudges) runs when the request ends, as it would after a commit.
In process, a request costs what Django spends on it: no server thread, no socket, no database
flush between operations.
"""

from __future__ import annotations

import json
import os
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import TestCase
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from rest_framework.authtoken.models import Token
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from clubs.models import Membership
from conduct.services import director_call_raise
from draw.services import round_create, round_set_status
from scoring.services import hand_submit
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import values
from tests.shared import module_data
from tests.tournaments.factories import event_with_players

# In-process (no Celery worker, push process or browser), so it runs in the parallel lane of
# `make test`.
pytestmark = pytest.mark.django_db

# Generated examples per operation (valid and invalid together), on top of the coverage cases:
# with ~30 operations the module sends ~3,600 requests in about two and a half minutes.
EXAMPLES = 25
GENEROUS = "100000/min"  # every scope's rate, whatever scopes the settings name
APPLICATION = WSGIHandler()


def _own_schema() -> dict[str, Any]:
    """The schema ``/api/schema/`` serves, as JSON (built without a request, as the view does)."""
    raw = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(raw, renderer_context={}))


schema = schemathesis.openapi.from_dict(_own_schema())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], max_examples=EXAMPLES,
    deterministic=True, allow_x00=False,
)


@module_data
def fuzz_world() -> dict[str, Any]:
    """A club night mid-round, run by the club's owner (a director who may also give roles),
    and the owner's API token."""
    club, director = club_with_director(slug="fuzz-club")
    Membership.objects.filter(club=club, user=director).update(role=Membership.Role.OWNER)
    event = event_with_players(club=club, players=9, status="running", deals_per_round=4)
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    table = round_.tables.order_by("number").first()
    assert table is not None
    revision = hand_submit(game=table.game, number=1, values=values())
    call = director_call_raise(table=table, reason="dispute")  # a call for a director, open
    newcomer = PlayerFactory(club=club)  # on the roster, not yet checked in
    entries = list(event.entries.order_by("pk").values_list("pk", flat=True))
    return {
        "headers": {"Authorization": f"Token {Token.objects.create(user=director).key}"},
        "paths": {"slug": club.slug, "id": event.pk, "event_id": event.pk, "number": 1,
                  "entry_id": entries[0], "token": table.token, "hand_id": revision.hand_id,
                  "call_id": call.pk},
        "body": {"club": club.slug, "player_id": newcomer.pk, "entry_a": entries[0],
                 "entry_b": entries[-1], "keep": newcomer.pk, "duplicate": newcomer.pk,
                 "round": 1, "table": table.number, "number": 2, "expected_revision": 1,
                 "username": director.username},
    }


@pytest.fixture
def world(fuzz_world: dict[str, Any], settings: Any) -> Iterator[dict[str, Any]]:
    """The shared world, with the application's rate limits out of the way and the database
    connection kept across requests (the test's transaction holds every request's writes)."""
    # Rate limits are tested by tests/config/test_rate_limits.py; here they would only cut the
    # run short.
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": dict.fromkeys(
        settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], GENEROUS)}
    # Django closes a connection at the start and end of every request; in process that
    # would end the test's transaction (its test client stops the same way).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield fuzz_world
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _seed(case: Any) -> int:
    """A number fixed by the generated case: the steering below is reproducible."""
    text = json.dumps([case.path_parameters, case.body], sort_keys=True, default=str)
    return zlib.crc32(text.encode("utf-8", "backslashreplace"))


def _steer(case: Any, world: dict[str, Any]) -> None:
    """Three cases in four name the real objects: in the path, and in the body fields that
    name objects, so the request reaches the services instead of stopping at 404. Half of
    those that carry a hand keep one generated field in an otherwise valid hand, so the rules
    engine's checks and the storing of hands are fuzzed too (a random hand is rarely valid)."""
    seed = _seed(case)
    if seed % 4 == 0:
        return
    case.path_parameters = {name: world["paths"].get(name, value)
                            for name, value in (case.path_parameters or {}).items()}
    if not isinstance(case.body, dict):
        return
    body = {name: world["body"][name] if name in world["body"] and isinstance(value, int | str)
            else value for name, value in case.body.items()}
    if "dealer" in body and (seed >> 2) % 2 == 0:
        fuzzed = sorted(body)[(seed >> 3) % len(body)]
        body.update({name: value for name, value in values().items() if name != fuzzed})
    case.body = body


@schema.parametrize()
@hypothesis_settings(deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_the_api_answers_as_its_schema_says(case: Any, world: dict[str, Any]) -> None:
    _steer(case, world)
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = case.call_and_validate(
            app=APPLICATION, headers=world["headers"],
            checks=[not_a_server_error, status_code_conformance], timeout=30,
        )
    if os.environ.get("FUZZ_STATS"):  # a tally of what was sent and answered, when asked for
        with open(os.environ["FUZZ_STATS"], "a") as out:
            out.write(f"{case.method} {case.path} {response.status_code}\n")

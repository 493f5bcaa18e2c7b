"""Helpers more than one test module uses.

Rows built once for a whole test module and read by each of its tests.

Some scenarios take seconds to play through the services (a season of club nights, a whole
tournament) and are only read by the tests that use them. ``module_data(build)`` makes a
module-scoped fixture of ``build``: it writes its rows once, inside a transaction left open for
the module's tests, and rolls them all back when the module is done. Each test still runs in
its own savepoint (pytest-django's ``django_db``), so what a test writes is gone before the next
one starts, exactly as with a fixture built per test.

Use it only in modules whose tests all run in a transaction (``django_db`` without
``transaction=True``: a test that commits would end the shared transaction) and that do not
change the Python objects the fixture returns.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from django.db import transaction

T = TypeVar("T")


def module_data(build: Callable[[], T]) -> Any:
    """A module-scoped fixture named like ``build`` giving what ``build()`` returns."""

    @pytest.fixture(scope="module", name=build.__name__)
    def fixture(django_db_setup: None, django_db_blocker: Any) -> Iterator[T]:
        with django_db_blocker.unblock():
            shared = transaction.atomic()
            shared.__enter__()
            try:
                data = build()
            except BaseException:
                transaction.set_rollback(True)  # nothing of a failed build may stay behind
                shared.__exit__(None, None, None)
                raise
        try:
            yield data
        finally:
            with django_db_blocker.unblock():
                transaction.set_rollback(True)
                shared.__exit__(None, None, None)

    return fixture


def worker_holds_nothing(app: Any, timeout: float = 2.0) -> bool:
    """Whether the real Celery worker answered, within ``timeout`` seconds, that it holds no
    message: none running, reserved, or waiting for its countdown. A worker too busy to answer
    in time is not taken for an idle one."""
    inspect = app.control.inspect(timeout=timeout, limit=1)  # one worker: its answer ends it
    answers = [inspect.active(), inspect.reserved(), inspect.scheduled()]
    return all(answer is not None and not any(answer.values()) for answer in answers)

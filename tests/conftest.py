"""Suite-wide fixtures and the lanes of `make test`.

Every test under tests/integration, and any test elsewhere that uses the real servers (the
``servers`` or ``celery_app_live`` fixture), is marked ``integration``; every test under tests/e2e,
and any test elsewhere that drives the browser (``browser``, ``phone`` or ``desktop``), is marked
``e2e``. ``-m "not integration and not e2e"`` is then exactly the in-process lane that
scripts/test.sh runs in parallel runners; beside it, the ``e2e`` tests that are not
``integration`` run in runners of their own, and the ``integration`` tests one at a time.

Browser tests share one Chromium (Debian's, driven by Playwright; no browser download):
Playwright's sync API cannot be started twice in one process. Playwright is imported only when
a browser test asks for it.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.servers.basehttp import WSGIRequestHandler

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

# Playwright's sync API runs an event loop in the test thread; Django must allow ORM calls there.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

# pytest-django's ``live_server`` is Django's development server, whose request handler leaves
# Nagle's algorithm on: its answer goes out in small writes that wait for the client's delayed
# acknowledgement, about 40 ms on every request over loopback. Sending at once (TCP_NODELAY, as
# gunicorn does) takes a request to the live server from ~55 ms to ~10 ms, for the schema fuzz's
# thousands of requests and for every page a browser test loads.
WSGIRequestHandler.disable_nagle_algorithm = True

TESTS = Path(__file__).resolve().parent
SERVER_FIXTURES = {"servers", "celery_app_live"}
BROWSER_FIXTURES = {"browser", "phone", "desktop"}


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        try:
            folder = item.path.resolve().relative_to(TESTS).parts[0]
        except ValueError:
            folder = ""
        fixtures = set(getattr(item, "fixturenames", ()))
        if folder == "integration" or fixtures & SERVER_FIXTURES:
            item.add_marker(pytest.mark.integration)
        if folder == "e2e" or fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.e2e)


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--disable-background-networking", "--disable-component-update", "--no-first-run",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1366, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture(scope="session")
def output_dir() -> Path:
    path = Path(os.environ.get("TEST_OUTPUT_DIR", "test-output")) / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path


# Every test starts and ends with an empty cache (standings marks, seating jobs and rendered
# fragments live there).
# A request in German leaves German active in the thread that served it (the test's own, in
# process): each test starts and ends in the site's default language.
@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _clear_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


# A row lock names its table. In PostgreSQL a ``SELECT ... FOR UPDATE`` over a join (a
# ``select_related``, or an ordering by a related model's own ordering) locks the row of every
# joined table, the event's included: such a lock of a round then its event deadlocked with a
# table's first hand, which writes the event's row and then the round's. Every statement a test
# runs in its own thread is checked, and a lock over a join without ``OF`` fails the test.
ROW_LOCK = re.compile(r"\bFOR (?:NO KEY UPDATE|UPDATE|KEY SHARE|SHARE)\b(?! OF\b)")


@pytest.fixture(autouse=True)
def _row_locks_name_their_table() -> Iterator[None]:
    from django.db import connection

    unnamed: list[str] = []

    def check(execute: Callable[..., object], sql: str, params: object, many: bool,
              context: Mapping[str, object]) -> object:
        if " JOIN " in sql and ROW_LOCK.search(sql):
            unnamed.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(check):
        yield
    assert not unnamed, ("a row lock over a join locks every joined row: use "
                         f"select_for_update(of=(\"self\",)); {unnamed[0]}")


# Celery runs an inline (eager) task under a process-wide "a result may not be awaited here"
# flag, set on the way in and put back on the way out: two threads running inline tasks at once
# (the race tests) can leave it set, and every later ``result.get()`` in this process would
# then refuse. Each test starts with it clear.
@pytest.fixture(autouse=True)
def _results_may_be_awaited() -> Iterator[None]:
    from celery._state import _set_task_join_will_block

    _set_task_join_will_block(False)
    yield
    _set_task_join_will_block(False)


# --- the real servers `make test` starts (integration and e2e tests) ---------------------------
# Tests using them commit their transactions (``transaction=True``) so the worker, a separate
# process connected to the same test database, sees their rows. Nothing is mocked or skipped:
# run outside `make test`, the fixtures fail with a sentence saying so.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from testservers import Servers  # noqa: E402

from tests.shared import worker_holds_nothing  # noqa: E402


@pytest.fixture(scope="session")
def servers() -> Servers:
    return Servers.from_env()


@pytest.fixture
def celery_app_live(servers: Servers) -> Iterator[object]:
    """The project's Celery app publishing to the real Redis (not eager)."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    try:
        yield app
    finally:
        _until_the_worker_is_idle(app)
        app.conf.task_always_eager = previous
        settings.CELERY_TASK_ALWAYS_EAGER = previous


def _until_the_worker_is_idle(app: Any, seconds: float = 20.0) -> None:
    """Wait (at most ``seconds``) until the real worker has nothing queued, held or running: the
    test database is emptied after the test (TRUNCATE of every table), and a task of this test
    still reading it, such as a standings run a hand queued, would deadlock with the emptying.
    Idle (no message in the queues and ``worker_holds_nothing``) must be seen twice in a row:
    a task that ends between the look at the queue and the question to the worker may have
    queued the next one."""
    import redis

    broker = redis.Redis.from_url(str(settings.CELERY_BROKER_URL), socket_timeout=2)
    deadline = time.monotonic() + seconds
    idle_looks = 0
    try:
        while time.monotonic() < deadline:
            queued = sum(int(broker.llen(key)) for key in broker.scan_iter("celery*")
                         if broker.type(key) == b"list")
            idle = not queued and worker_holds_nothing(app)
            idle_looks = idle_looks + 1 if idle else 0
            if idle_looks == 2:
                return
            time.sleep(0.2)
    except Exception:  # noqa: BLE001 - a test that stopped Redis: no worker to wait for
        return
    finally:
        broker.close()


@pytest.fixture
def receiver(settings: Any) -> Iterator[Any]:
    """A push service of our own on 127.0.0.1 (``tests.following.push_receiver``; over http,
    which the settings then allow) for the test's follow-my-seat subscriptions."""
    from tests.following import push_receiver

    settings.FOLLOW_PUSH_ALLOW_LOCAL = True
    server = push_receiver.start()
    yield server
    server.server.shutdown()

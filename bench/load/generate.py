"""The load generator: locust in library mode (``locust.env.Environment`` and its local runner),
one process, gevent greenlets, ``FastHttpUser`` (geventhttpclient) for a light client.

Run by ``bench/load/run.py`` in the bench's own environment (``bench/load/.venv``, from
``bench/load/requirements.lock``): ``python bench/load/generate.py PLAN.json OUT.json``. It
prints ``START`` when the users start and ``STOP`` when the measured seconds are over (the
runner measures CPU between the two), then writes every request, every standings version
answer and every stored hand to ``OUT.json``. Before START the room opens: every device loads
its page once, over a few seconds (not measured, and it warms the web workers); in the window
each device keeps its own schedule from a random phase, as in a room already playing.

The devices, as the pages behave (``static/js``):

* the table's scorer phone (one per table; ``entry.js``, ``table_offline.js``,
  ``table_live.js``): opens ``/t/<token>/`` and names its keeper (``POST
  /api/tables/<token>/scorer/``, the page's first tap); every ``submit_every`` seconds types a
  hand — the check endpoint answers ``checks_per_hand`` times while it is typed (half-typed
  hands answer 400, expected; 0 by default: the page checks a typed hand itself,
  ``hand_preview.js``) — and saves it (``POST /api/tables/<token>/hands/`` with its own
  ``Idempotency-Key``, hand numbers in sequence); after a save it redraws from
  ``/t/<token>/live/`` (``after_save: live``, what the page does now), reloads the page
  (``reload``) or neither (``none``); every ``state_every`` seconds it asks the table's status
  (``GET /api/tables/<token>/status/``). A save without an answer (or 5xx/429) is sent again at the
  next turn with the same key, as the phone's queue does; a 403/409 or a game-over stops it.
* standings phones (``standings_phones`` per table; ``standings.js``): the standings page,
  then every ``standings_every`` seconds the version, and the fragment (``?view=phone``, as
  ``standings.js`` asks on a screen under 600 px) when
  it moved. When the page offers a push stream (``data-push-url``: the stack runs with push
  on) the phone holds it open as ``EventSource`` does (reopened 2 s after a drop), polls only
  every ``data-push-poll-seconds``, and on each pushed status shows the region the message
  carries (``inline`` in the plan: a browser that can inflate opens its stream with
  ``&view=phone`` and gets the region inside the message), else waits a random 0–250 ms and
  fetches the fragment if the version moved, from the push process when the status says it
  holds it (``"fragment": true``), else from the site.
* the standings wall (``?round=1`` version, ``?view=wall`` fragment; on a push it asks its
  ``?round=1`` version, as the page does, for the state of play) and the seating board
  (``…/wall/seating/version/`` every ``seating_every`` seconds, the page again when it moved).
* a probe polling the version every half second: not a device of the room, it dates each hand
  for the end-to-end figure (``harness.visibility``).

A night (``bench/load/night.py``) gives the plan several ``events``, each with its tables'
tokens and its ruleset: every event gets its own room as above (standings phones per table, a
wall and a seating board each); one probe reads every event's hands counter from Redis
(``RedisProbe``) instead of an HTTP probe per event; and the scorer phones of an event whose
game ends in the window (``ends``) stop after its last deal and confirm at ``round_end_at``
seconds into the window, within ``round_end_spread`` seconds of each other.

Where a page's script fetches with ``cache: "no-cache"`` (``revalidate`` in the plan, per
script) the device keeps each answer's ETag and asks again with ``If-None-Match``, as the
browser does; with ``cache: "no-store"`` it asks plainly.
"""

from __future__ import annotations

import contextlib
import html
import json
import random
import socket
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from gevent import monkey

monkey.patch_all()

import gevent  # noqa: E402
from gevent.event import Event  # noqa: E402
from gevent.lock import Semaphore  # noqa: E402
from locust import FastHttpUser, constant, task  # noqa: E402
from locust.env import Environment  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bench.load.hands import random_hand, typing_steps  # noqa: E402
from bench.load.harness import tag_attribute  # noqa: E402
from rules_engine import get_ruleset  # noqa: E402

PLAN: dict[str, Any] = {}
SAMPLES: list[list[Any]] = []  # [kind, started, ms, status, bytes]
POLLS: list[list[Any]] = []  # [who, started, ended, hands_version, source_version, pushed,
#                              event]
SUBMITS: list[float] = []  # response times of hands answered 201
SUBMIT_EVENTS: list[int] = []  # and the event of each
CONFIRMED: list[float] = []  # confirmations answered 200 (games ending in the window)
EVENTS: dict[int, dict[str, Any]] = {}  # the night's events by id (one, unless a night)
READER_EVENTS: dict[str, list[int]] = {"phone": [], "wall": [], "seating": [], "probe": []}
# The events' hands counters as the site keeps them (``standings.status.HANDS_KEY`` in Django's
# Redis cache: an int is stored as its digits), read by the Redis probe of a night.
HANDS_KEY = ":1:standings:status:{event}:hands"
ANSWERED: dict[str, list[int]] = {}  # hands answered 2xx, per table token
UNANSWERED: dict[str, list[int]] = {}  # hands whose last save got no answer (maybe stored)
STOPPED: dict[str, str] = {}  # phones that stopped saving, and why
IN_FLIGHT = [0]  # saves on their way (the run waits for them before it ends)
TOKENS: list[tuple[int, str]] = []  # (event, table token), one per scorer phone
START_AT = [float("inf")]  # the measured window: from START_AT to STOP_AT
STOP_AT = [float("inf")]
OPENING_SECONDS = 3.0  # before the window the devices open their pages over a few seconds
OPENED = [0]  # devices whose page is open
MEASURING = Event()  # set when the window starts; the devices' schedules start then
# streams open now; totals (regions: messages that carried the page's region, and their bytes)
PUSH = {"streams": 0, "messages": 0, "reconnects": 0, "regions": 0, "region_bytes": 0}
DEVICE_NUMBERS = {"phone": 0, "wall": 0}
# Each device's own timeline (monotonic seconds), for the gaps a device saw when a node went away
# (``bench/load/twonodes.py``): every save answered 2xx per table token, every pushed standings
# message per reader, each reader's streams as [opened, closed] (closed None: still open), and
# each reader's event.
TIMELINES: dict[str, dict[str, Any]] = {"saves": {}, "messages": {}, "streams": {},
                                        "events": {}}


class Device(FastHttpUser):
    abstract = True
    network_timeout = 30.0
    connection_timeout = 10.0
    wait_time = constant(0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: dict[str, tuple[str, bytes]] = {}  # the browser's cache: url -> (ETag, body)

    def call(self, kind: str, method: str, url: str, **kwargs: Any) -> tuple[int, Any, Any]:
        """One request, recorded under ``kind``; returns (status, response, start time)."""
        started = time.monotonic()
        with self.client.request(method, url, name=kind, catch_response=True, **kwargs) as r:
            r.success()  # the harness classifies statuses itself
        ended = time.monotonic()
        status = int(r.status_code or 0)
        length = 0
        if status:
            header = r.headers.get("content-length") if r.headers else None
            length = int(header) if header and header.isdigit() else len(r.content or b"")
        if started >= START_AT[0] and ended <= STOP_AT[0]:
            SAMPLES.append([kind, started, (ended - started) * 1000, status, length])
        return status, r, started

    def get(self, kind: str, url: str, revalidate: bool,
            headers: dict[str, str] | None = None) -> tuple[int, bytes, float]:
        """A GET as the page's ``fetch`` makes it: with ``cache: "no-cache"`` (``revalidate``)
        the browser keeps the last answer with its ETag and asks with ``If-None-Match``; a 304
        hands the kept body to the script. Returns (status, body, start time)."""
        headers = dict(headers or {})
        kept = self.kept.get(url) if revalidate else None
        if kept is not None:
            headers["If-None-Match"] = kept[0]
        status, response, started = self.call(kind, "GET", url, headers=headers)
        if status == 304 and kept is not None:
            return status, kept[1], started
        body = (response.content or b"") if status else b""
        etag = response.headers.get("etag") if status == 200 and response.headers else None
        if revalidate and etag:
            self.kept[url] = (etag, body)
        return status, body, started

    def pause(self, seconds: float) -> None:
        if seconds > 0:
            gevent.sleep(seconds)

    def opened(self) -> None:
        """The page is open: wait for the measured window, as a room already playing."""
        OPENED[0] += 1
        MEASURING.wait()


class ScorerPhone(Device):
    """The table's phone: checks while typing, saves a hand, redraws, polls the table."""

    def on_start(self) -> None:
        self.event, self.token = TOKENS.pop(0)
        self.rng = random.Random(f"{PLAN['seed']}-{self.token}")
        room = EVENTS[self.event]
        self.ruleset = get_ruleset(PLAN["preset"], room["overrides"])
        # A game that ends in the window (``ends``): after its last deal the other side
        # confirms at the round's end, bunched with every other such table of the night.
        self.last_deal = int(room["overrides"]["max_deals"]) if room.get("ends") else None
        self.confirmed = False
        self.number = 1
        self.dealer = "N"
        self.pending: tuple[dict[str, Any], str] | None = None
        self.stopped = False
        ANSWERED.setdefault(self.token, [])
        self.pause(self.rng.uniform(0, OPENING_SECONDS))
        self.call("table page", "GET", f"/t/{self.token}/")
        # the phone names its keeper before its first hand (the page's first tap)
        self.call("keeper", "POST", f"/api/tables/{self.token}/scorer/",
                  json={"position": "N"})
        self.opened()
        # The room is already playing: the first turn starts part-way through.
        self.into_turn = self.rng.uniform(0, PLAN["submit_every"])

    @task
    def turn(self) -> None:
        every = PLAN["submit_every"]
        joined = time.monotonic() if self.into_turn else None
        begin = time.monotonic() - self.into_turn
        self.into_turn = 0.0
        if self.pending is None:
            hand = random_hand(self.rng, self.ruleset, self.dealer)
            self.pending = (hand, str(uuid.uuid4()))
        hand, key = self.pending
        if self.last_deal is not None and self.number > self.last_deal and not self.stopped:
            self.stopped = True  # the game is over: it waits for the round's end
        steps = [] if self.stopped else typing_steps(hand, PLAN["checks_per_hand"])
        plan: list[tuple[float, str, Any]] = []
        t = 0.0
        while t < every - 1e-9:
            plan.append((t, "state", None))
            t += PLAN["state_every"]
        for i, values in enumerate(steps):
            plan.append((1.0 + i * (every - 3.0) / max(1, len(steps)), "check", values))
        if not self.stopped:
            plan.append((every - 1.0, "submit", None))
        elif self.last_deal is not None and not self.confirmed:
            plan.append((0.0, "confirm", None))
        for offset, what, values in sorted(plan, key=lambda p: p[0]):
            if joined is not None and begin + offset < joined:
                continue  # before this device joined (a slow turn later still does it all)
            self.pause(begin + offset - time.monotonic())
            if what == "state":
                self.get("table status", f"/api/tables/{self.token}/status/",
                         PLAN["revalidate"]["table"], {"Accept": "application/json"})
            elif what == "check":
                self.call("check", "POST", f"/api/tables/{self.token}/check/", json=values)
            elif what == "confirm":
                self.confirm()
            else:
                self.submit(hand, key)
        self.pause(begin + every - time.monotonic())

    def confirm(self) -> None:
        """The other side confirms the finished game at the round's end (``round_end_at``
        into the window, spread over ``round_end_spread`` seconds: the night's round ends are
        bunched on the hour); once, retried at the next turn when it got no answer."""
        at = START_AT[0] + PLAN["round_end_at"] + self.rng.uniform(0, PLAN["round_end_spread"])
        self.pause(at - time.monotonic())
        if time.monotonic() > STOP_AT[0]:
            return
        status, response, _ = self.call("confirm", "POST", f"/api/tables/{self.token}/confirm/",
                                        json={"position": "E"})
        if status == 200 or 400 <= status < 500 and status != 429:
            self.confirmed = True
            if status != 200:
                STOPPED[self.token] = f"confirm {status}: {(response.content or b'')[:200]!r}"
            else:
                CONFIRMED.append(time.monotonic())

    def submit(self, hand: dict[str, Any], key: str) -> None:
        if time.monotonic() > STOP_AT[0]:
            return  # the run is over: no new save starts
        body = {"number": self.number, **hand}
        IN_FLIGHT[0] += 1
        try:
            status, response, _ = self.call("submit", "POST",
                                            f"/api/tables/{self.token}/hands/", json=body,
                                            headers={"Idempotency-Key": key})
        finally:
            IN_FLIGHT[0] -= 1
        lost = UNANSWERED.setdefault(self.token, [])
        if self.number in lost:
            lost.remove(self.number)
        if status in (200, 201):
            TIMELINES["saves"].setdefault(self.token, []).append(time.monotonic())
            if status == 201 and time.monotonic() <= STOP_AT[0]:
                SUBMITS.append(time.monotonic())
                SUBMIT_EVENTS.append(self.event)
            ANSWERED[self.token].append(self.number)
            self.number += 1
            self.dealer = str(self.ruleset.next_dealer(self.dealer))
            self.pending = None
            after = PLAN["after_save"]
            if after == "live":
                self.call("table live", "GET", f"/t/{self.token}/live/",
                          headers={"Accept": "text/html"})
            elif after == "reload":
                self.call("table page", "GET", f"/t/{self.token}/")
        elif status in (403, 409) or (status == 400 and b"game_over" in (response.content or b"")):
            self.stopped = True  # the game ended or the round closed: nothing more to save
            STOPPED[self.token] = f"{status}: {(response.content or b'')[:200]!r}"
        elif status == 400:
            self.pending = None  # refused: a new hand for the same number (a harness bug)
        else:  # no answer, 429, 5xx: the queue sends the same hand with the same key next time
            lost.append(self.number)


def _read_until(sock: socket.socket, buffer: bytes, separator: bytes
                ) -> tuple[bytes | None, bytes]:
    """(what comes before ``separator``, the rest), reading more as needed; (None, b"") when
    the server closed the connection first."""
    while separator not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            return None, b""
        buffer += chunk
    head, _, rest = buffer.partition(separator)
    return head, rest


class StandingsReader(Device):
    """A standings page: polls the version and fetches the fragment when it moved; with a push
    stream on offer, holds it open and polls seldom (``standings.js``)."""

    abstract = True
    who = "phone"
    page = "/events/{event}/standings/"
    version_url = "/events/{event}/standings/version/"
    fragment_url = "/events/{event}/standings/fragment/?view=phone"
    kinds = ("standings page", "standings version", "standings fragment")

    def on_start(self) -> None:
        self.rng = random.Random()
        DEVICE_NUMBERS[self.who] += 1
        self.device = f"{self.who}:{DEVICE_NUMBERS[self.who]}"
        self.event = event = READER_EVENTS[self.who].pop(0)
        TIMELINES["events"][self.device] = event
        self.busy = Semaphore()  # the page's own "busy": one look at a time
        self.pause(self.rng.uniform(0, OPENING_SECONDS))
        self.version_at = self.version_url.format(event=event)
        self.fragment_at = self.fragment_url.format(event=event)
        status, response, _ = self.call(self.kinds[0], "GET", self.page.format(event=event))
        text = (response.text or "") if status == 200 else ""
        self.current = tag_attribute(text, "standings-live", "data-version")
        stream = tag_attribute(text, "standings-live", "data-push-url")
        self.every = PLAN["standings_every"]
        self.streaming = False
        self.push_fragment = html.unescape(stream).replace("/?token=", "/fragment/?token=") \
            if stream else None
        if stream:
            self.push_every = float(tag_attribute(text, "standings-live",
                                                  "data-push-poll-seconds") or 30)
            view = self.fragment_at.rsplit("view=", 1)[1]
            gevent.spawn(self.listen, html.unescape(stream)
                         + (f"&view={view}" if PLAN.get("inline", True) else ""))
        self.opened()
        # The room is already playing: the page was opened at some moment before the window,
        # so its poll falls anywhere in its period (30 s while a stream is open, else 3 s).
        self.pause(self.rng.uniform(0, self.push_every if stream else self.every))

    def look(self, answer: dict[str, Any], started: float, pushed: bool = False) -> None:
        """Show a status: the fragment when its version moved (from the push process when a
        pushed status says it holds it, else from the site); recorded when shown."""
        if str(answer["version"]) != str(self.current):
            got = 0
            if pushed and answer.get("region"):
                got = 200  # the message carried the region: the page inflates it, no request
            elif pushed and answer.get("fragment") and self.push_fragment:
                view = self.fragment_at.rsplit("view=", 1)[1]
                got, _, _ = self.get("push fragment", f"{self.push_fragment}&view={view}"
                                     f"&version={answer['version']}", False)
            if got not in (200, 304):
                # by version (&v=), as standings.js asks: no cache in front answers an older one
                got, _, _ = self.get(self.kinds[2], f"{self.fragment_at}&v={answer['version']}",
                                     PLAN["revalidate"]["standings"],
                                     {"X-Requested-With": "fetch"})
            if got not in (200, 304):
                return
            self.current = str(answer["version"])
        if time.monotonic() <= STOP_AT[0]:
            POLLS.append([self.device, started, time.monotonic(), answer["hands_version"],
                          answer["source_version"], pushed, self.event])

    def ask(self) -> tuple[dict[str, Any] | None, float]:
        status, body, started = self.get(self.kinds[1], self.version_at,
                                         PLAN["revalidate"]["standings"],
                                         {"X-Requested-With": "fetch"})
        return (json.loads(body) if status in (200, 304) else None), started

    @task
    def poll(self) -> None:
        begin = time.monotonic()
        with self.busy:
            answer, started = self.ask()
            if answer is not None:
                self.look(answer, started)
        every = self.push_every if self.streaming else self.every
        self.pause(begin + every - time.monotonic())

    def pushed(self, answer: dict[str, Any], arrived: float) -> None:
        if not answer.get("region") and str(answer["version"]) != str(self.current):
            self.pause(self.rng.uniform(0, 0.25))  # standings.js spreads the room's fetches
        with self.busy:
            if self.who == "wall":  # the wall's state of play comes with its own version
                asked, started = self.ask()
                if asked is not None:
                    same = str(asked["version"]) == str(answer["version"])
                    asked["fragment"] = answer.get("fragment") and same
                    asked["region"] = answer.get("region") if same else None
                    self.look(asked, started, pushed=True)
                return
            self.look(answer, arrived, pushed=True)

    def listen(self, url: str) -> None:
        """The page's EventSource: open, read events, reopen 2 s after a drop."""
        parts = url.split("/", 3)  # http:, "", host:port, path
        host, port = parts[2].rsplit(":", 1)
        path = "/" + parts[3]
        first = True
        while time.monotonic() < STOP_AT[0] + 5:
            if not first:
                PUSH["reconnects"] += 1
            first = False
            with contextlib.suppress(OSError):
                self.stream(host, int(port), path, parts[2])
            self.streaming = False
            gevent.sleep(2.0)

    def stream(self, host: str, port: int, path: str, netloc: str) -> None:
        with socket.create_connection((host, port), timeout=10) as sock:
            sock.sendall(f"GET {path} HTTP/1.0\r\nHost: {netloc}\r\n"
                         "Accept: text/event-stream\r\n\r\n".encode())
            sock.settimeout(60)  # a ping comes every 15 s
            head, buffer = _read_until(sock, b"", b"\r\n\r\n")
            if head is None or not head.startswith(b"HTTP/1.1 200"):
                return
            self.streaming = True
            PUSH["streams"] += 1
            opened = [time.monotonic(), None]
            TIMELINES["streams"].setdefault(self.device, []).append(opened)
            try:
                while time.monotonic() < STOP_AT[0] + 5:
                    block, buffer = _read_until(sock, buffer, b"\n\n")
                    if block is None:
                        return
                    lines = block.decode().split("\n")
                    if "event: standings" in lines:
                        data = "".join(x[6:] for x in lines if x.startswith("data: "))
                        PUSH["messages"] += 1
                        TIMELINES["messages"].setdefault(self.device, []).append(
                            time.monotonic())
                        message = json.loads(data)
                        if message.get("region"):
                            PUSH["regions"] += 1
                            PUSH["region_bytes"] += len(message["region"])
                        gevent.spawn(self.pushed, message, time.monotonic())
                    elif "event: resync" in lines:
                        gevent.spawn(self.poll_once)
            finally:
                PUSH["streams"] -= 1
                opened[1] = time.monotonic()

    def poll_once(self) -> None:
        with self.busy:
            answer, started = self.ask()
            if answer is not None:
                self.look(answer, started)


class StandingsPhone(StandingsReader):
    pass


class StandingsWall(StandingsReader):
    who = "wall"
    page = "/events/{event}/standings/wall/"
    version_url = "/events/{event}/standings/version/?round=1"
    fragment_url = "/events/{event}/standings/fragment/?view=wall"
    kinds = ("wall page", "wall version", "wall fragment")


class Probe(Device):
    """Not a device of the room: polls the version every half second so every hand's 201 is
    followed within half a second by an answer whose ``hands_version`` counts it."""

    def on_start(self) -> None:
        self.event = READER_EVENTS["probe"].pop(0)
        self.at = f"/events/{self.event}/standings/version/"
        self.opened()

    @task
    def poll(self) -> None:
        begin = time.monotonic()
        status, body, started = self.get("probe version", self.at, False,
                                         {"X-Requested-With": "fetch"})
        if status == 200 and time.monotonic() <= STOP_AT[0]:
            answer = json.loads(body)
            POLLS.append(["probe", started, time.monotonic(), answer["hands_version"],
                          answer["source_version"], False, self.event])
        self.pause(begin + 0.5 - time.monotonic())


class RedisProbe(Device):
    """A night's probe: many events, so not one HTTP probe each (two requests a second per
    event would be a fifth of the load); every quarter second one ``MGET`` of every event's
    hands counter from the site's cache (what the version poll answers from), to date each
    hand as the HTTP probe does. Not a device of the room."""

    def on_start(self) -> None:
        self.events = sorted(EVENTS)
        self.keys = [HANDS_KEY.format(event=e) for e in self.events]
        self.sock: socket.socket | None = None
        self.opened()

    def mget(self) -> list[int | None]:
        if self.sock is None:
            self.sock = socket.create_connection((PLAN["redis"]["host"], PLAN["redis"]["port"]),
                                                 timeout=5)
        parts = [b"MGET", *(k.encode() for k in self.keys)]
        self.sock.sendall(b"*%d\r\n" % len(parts)
                          + b"".join(b"$%d\r\n%s\r\n" % (len(x), x) for x in parts))
        buffer = b""
        head, buffer = _read_until(self.sock, buffer, b"\r\n")
        if head is None or not head.startswith(b"*"):
            raise OSError(f"unexpected answer from Redis: {head!r}")
        values: list[int | None] = []
        for _ in range(int(head[1:])):
            line, buffer = _read_until(self.sock, buffer, b"\r\n")
            if line is None:
                raise OSError("Redis closed the connection")
            if line == b"$-1":
                values.append(None)
                continue
            size = int(line[1:])
            while len(buffer) < size + 2:
                chunk = self.sock.recv(65536)
                if not chunk:
                    raise OSError("Redis closed the connection")
                buffer += chunk
            raw, buffer = buffer[:size], buffer[size + 2:]
            values.append(int(raw) if raw.isdigit() else None)
        return values

    @task
    def poll(self) -> None:
        begin = time.monotonic()
        try:
            values = self.mget()
        except OSError:
            if self.sock is not None:
                self.sock.close()
            self.sock = None
            values = []
        ended = time.monotonic()
        if values and ended <= STOP_AT[0]:
            for event, hands in zip(self.events, values, strict=True):
                if hands is not None:
                    POLLS.append(["probe", begin, ended, hands, -1, False, event])
        self.pause(begin + 0.25 - time.monotonic())


class SeatingWall(Device):
    """The seating board: its version every few seconds, the page again when it moved."""

    def on_start(self) -> None:
        self.every = PLAN["seating_every"]
        self.event = READER_EVENTS["seating"].pop(0)
        self.pause(random.uniform(0, OPENING_SECONDS))
        self.page = f"/events/{self.event}/wall/seating/"
        self.current = self.load()
        self.opened()
        self.pause(random.uniform(0, self.every))

    def load(self, version: object = None) -> str | None:
        # a moved board is asked by its version (?v=), as seating_board.js asks
        page = self.page if version is None else f"{self.page}?v={version}"
        status, body, _ = self.get("seating page", page, PLAN["revalidate"]["seating"])
        return tag_attribute(body.decode("utf-8", "replace"), "seating-board", "data-version") \
            if status in (200, 304) else None

    @task
    def poll(self) -> None:
        begin = time.monotonic()
        status, body, _ = self.get("seating version",
                                   f"/events/{self.event}/wall/seating/version/",
                                   PLAN["revalidate"]["seating"], {"X-Requested-With": "fetch"})
        if status in (200, 304) and str(json.loads(body)["version"]) != str(self.current):
            self.current = self.load(json.loads(body)["version"])
        self.pause(begin + self.every - time.monotonic())


def main(plan_path: str, out_path: str) -> int:
    PLAN.update(json.loads(Path(plan_path).read_text()))
    # One event (the bench's room), or a night of many (``events``: each its tokens and
    # ruleset overrides, and whether its game ends in the window).
    rooms = PLAN.get("events") or [{"event": PLAN["event"], "tokens": PLAN["tokens"],
                                    "overrides": PLAN["overrides"], "ends": False}]
    PLAN.setdefault("round_end_at", PLAN["seconds"])
    PLAN.setdefault("round_end_spread", 0.0)
    for room in rooms:
        EVENTS[room["event"]] = room
        TOKENS.extend((room["event"], token) for token in room["tokens"])
        READER_EVENTS["phone"].extend([room["event"]] * (len(room["tokens"])
                                                         * PLAN["standings_phones"]))
        READER_EVENTS["wall"].append(room["event"])
        READER_EVENTS["seating"].append(room["event"])
    tables = len(TOKENS)
    ScorerPhone.fixed_count = tables
    StandingsPhone.fixed_count = len(READER_EVENTS["phone"])
    StandingsWall.fixed_count = len(rooms)
    SeatingWall.fixed_count = len(rooms)
    probe: type[Device] = Probe
    if PLAN.get("redis"):
        probe = RedisProbe
    else:
        READER_EVENTS["probe"].extend(EVENTS)
    probe.fixed_count = 1 if probe is RedisProbe else len(rooms)
    classes = [ScorerPhone, StandingsPhone, StandingsWall, SeatingWall, probe]
    users = sum(c.fixed_count for c in classes)
    env = Environment(user_classes=classes, host=PLAN["base_url"])
    runner = env.create_local_runner()
    runner.start(users, spawn_rate=100)
    # The room opens (every page loaded once, not measured), then the window starts.
    deadline = time.monotonic() + 120
    while OPENED[0] < users and time.monotonic() < deadline:
        gevent.sleep(0.1)
    started = time.monotonic()
    START_AT[0], STOP_AT[0] = started, started + PLAN["seconds"]
    print("START", flush=True)
    MEASURING.set()
    gevent.sleep(max(0.0, STOP_AT[0] - time.monotonic()))
    print("STOP", flush=True)
    streams_at_stop = PUSH["streams"]
    deadline = time.monotonic() + ScorerPhone.network_timeout + 5
    while IN_FLIGHT[0] and time.monotonic() < deadline:
        gevent.sleep(0.05)  # saves on their way finish, so every stored hand has its answer
    runner.quit()
    Path(out_path).write_text(json.dumps({
        "users": users, "opened": OPENED[0], "started": started, "stopped": STOP_AT[0],
        "samples": SAMPLES, "polls": POLLS, "submits": SUBMITS, "submit_events": SUBMIT_EVENTS,
        "confirmed": CONFIRMED, "answered": ANSWERED,
        "unanswered": UNANSWERED, "timelines": TIMELINES, "phones_stopped": STOPPED, "in_flight_at_end": IN_FLIGHT[0],
        "push": {"streams_at_stop": streams_at_stop, "messages": PUSH["messages"],
                 "reconnects": PUSH["reconnects"], "regions": PUSH["regions"],
                 "region_bytes": PUSH["region_bytes"],
                 "readers": StandingsPhone.fixed_count + StandingsWall.fixed_count},
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1], sys.argv[2]))

"""The room of a progressive day, played against the running stack over HTTP (asyncio +
aiohttp, one process): the director, every table's scorer phone, a standings phone per table
and the walls, as the pages behave (``static/js``).

* **The director** seats game 1 (``POST /api/events/<id>/rounds/``, with the API token); for
  every later game it waits for the automatic advance (the Celery worker seats the next game
  when the last table confirms), asking ``GET /api/events/<id>/rounds/<n>/`` every half second
  as the director screen would, and hands each table's token to its phone. The time from the
  last confirmation's answer to the next game's tables is the *advance* figure.
* **A table's scorer phone** (``entry.js``, ``table_live.js``): after the players walk to the
  table it opens ``/t/<token>/``, names its keeper (``scorer``), reads the table's state (the
  next dealer), then for every hand waits the hand's time (``hand_minutes`` ÷ pace, ±30 %
  per hand), calls the check as the hand is typed (``checks_per_hand``; half-typed hands
  answer 400, expected), saves it (``POST …/hands/`` with an ``Idempotency-Key``; no answer,
  429 or 5xx: the same hand and key again, as the phone's queue does) and fetches the live
  fragment. Its status poll runs every ``state_every`` seconds all day. The game's end comes
  from the rules engine (``score_game`` with the event's deals per game), as the page shows
  it; a player of the other side confirms (``POST …/confirm/``) a minute later (simulated).
* **Standings phones** (one per table) and **standings walls** (``standings.js``): the page,
  its push stream held open (``EventSource``) for the view it shows (``&view=phone`` or
  ``wall``, as a browser that can inflate opens it), on each pushed status the region the
  message carries, or (none carried) a random 0–250 ms wait, then the fragment if the version
  moved (from the push process when the status says it holds it, else from the site); a poll
  every ``data-push-poll-seconds`` as the safety net. Every look is recorded
  (``bench.load.harness.Poll``) for the saved → shown figure.
* **The seating wall** (``seating_board.js``): its stream's ``wall`` messages make it ask the
  seating version and reload the page when it moved.
* **A probe** asks the standings version every half second: not a device of the room, it dates
  each hand for ``bench.load.harness.visibility``.

Every request is recorded as a ``bench.load.harness.Sample`` (kind, start, ms, status, bytes).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import random
import re
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bench.load.hands import random_hand, typing_steps
from bench.load.harness import Poll, Sample, tag_attribute
from rules_engine import Ruleset, parse_hand, score_game

HandKey = tuple[int, int, int]
# 404: the director asks for the next game before the automatic advance has seated it.
EXPECTED = {"submit": {409}, "check": {400}, "director round": {404}}


@dataclass
class Plan:
    base_url: str
    event: int
    director_token: str
    ruleset: Ruleset
    deals: int | None
    games: int
    tables: int
    pace: float = 30.0
    hand_minutes: float = 6.0
    move_minutes: float = 3.0
    confirm_minutes: float = 1.0
    checks_per_hand: int = 3
    state_every: float = 5.0
    standings_walls: int = 2
    revalidate: dict[str, bool] = field(default_factory=dict)
    advance_timeout: float = 180.0
    seed: int = 2026

    def real(self, minutes: float) -> float:
        """Real seconds for simulated minutes."""
        return minutes * 60.0 / self.pace


@dataclass
class Record:
    """What the room saw: the raw material of the report and of the end-of-day checks."""

    samples: list[Sample] = field(default_factory=list)
    polls: list[Poll] = field(default_factory=list)
    submits: list[float] = field(default_factory=list)  # 201 answers (monotonic)
    sent: dict[HandKey, dict[str, Any]] = field(default_factory=dict)  # answered 2xx
    unanswered: dict[HandKey, dict[str, Any]] = field(default_factory=dict)
    answered_tokens: dict[str, list[int]] = field(default_factory=dict)
    unanswered_tokens: dict[str, list[int]] = field(default_factory=dict)
    seats: dict[int, dict[int, dict[str, int]]] = field(default_factory=dict)
    advances: list[dict[str, Any]] = field(default_factory=list)
    confirms: list[float] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    push: dict[str, int] = field(default_factory=lambda: {
        "streams": 0, "streams_max": 0, "messages": 0, "wall_messages": 0, "regions": 0,
        "fragments_push": 0, "fragments_site": 0, "reconnects": 0, "readers": 0})
    started: float = 0.0  # game 1 seated (t0 of the simulated clock)
    ended: float = 0.0


class Room:
    def __init__(self, plan: Plan, session: aiohttp.ClientSession) -> None:
        self.plan = plan
        self.session = session
        self.record = Record()
        self.rng = random.Random(plan.seed)
        self.over = asyncio.Event()  # the day is done: devices stop
        self.game = 0  # the game being played
        self.tokens: dict[int, str] = {}  # table number -> token of the current game
        self.director = {"Authorization": f"Token {plan.director_token}"}

    # --- requests -------------------------------------------------------------------------
    async def call(self, kind: str, method: str, path: str, *, json_body: Any = None,
                   headers: dict[str, str] | None = None) -> tuple[int, bytes, float, Any]:
        """One request, recorded; (status, body, start, response headers). Status 0: no
        answer (refused, reset, timed out)."""
        started = time.monotonic()
        url = path if path.startswith("http") else self.plan.base_url + path
        status, body, head = 0, b"", None
        try:
            async with self.session.request(method, url, json=json_body,
                                            headers=headers) as response:
                body = await response.read()
                status, head = response.status, response.headers
        except (TimeoutError, aiohttp.ClientError, OSError):
            pass
        ms = (time.monotonic() - started) * 1000
        length = len(body)
        if head is not None and (cl := head.get("Content-Length")) and cl.isdigit():
            length = int(cl)
        self.record.samples.append(Sample(kind=kind, started=started, ms=ms, status=status,
                                          bytes=length))
        return status, body, started, head

    async def sleep(self, seconds: float) -> bool:
        """Sleep unless the day ends first; False when it ended."""
        if seconds <= 0:
            return not self.over.is_set()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self.over.wait(), seconds)
        return not self.over.is_set()

    # --- the day --------------------------------------------------------------------------
    async def day(self) -> Record:
        """Game 1 seated by the director, every game played, each next one seated by the
        automatic advance; the readers and the probe run all day."""
        plan = self.plan
        status, body, _, _ = await self.call("director seat", "POST",
                                             f"/api/events/{plan.event}/rounds/", json_body={},
                                             headers=self.director)
        if status != 201:
            raise RuntimeError(f"seating game 1 answered {status}: {body[:300]!r}")
        self.take_round(json.loads(body))
        self.record.started = time.monotonic()
        background = [asyncio.create_task(self.probe())]
        readers = [("phone", i) for i in range(plan.tables)] + \
            [("wall", i) for i in range(plan.standings_walls)]
        self.record.push["readers"] = len(readers) + 1
        background += [asyncio.create_task(self.standings_reader(who, i)) for who, i in readers]
        background.append(asyncio.create_task(self.seating_wall()))
        phones = [TablePhone(self, number) for number in sorted(self.tokens)]
        background += [asyncio.create_task(p.status_poll()) for p in phones]
        try:
            for game in range(1, plan.games + 1):
                self.game = game
                confirmed = await asyncio.gather(
                    *(p.play(game, self.tokens[p.number]) for p in phones))
                if any(t is None for t in confirmed):
                    raise RuntimeError(f"game {game}: {confirmed.count(None)} tables did not "
                                       f"finish and confirm: {self.record.problems[-5:]}")
                last = max(t for t in confirmed if t is not None)
                if game < plan.games:
                    waited = await self.await_advance(game + 1, last)
                else:
                    waited = await self.await_closed(game, last)
                hours = (time.monotonic() - self.record.started) * plan.pace / 3600
                print(f"  game {game} confirmed at every table after {hours:.2f} simulated "
                      f"hours; {'next game seated' if game < plan.games else 'closed'} "
                      f"{waited if waited is not None else float('nan'):.1f} s after the last "
                      f"confirmation; {len(self.record.sent)} hands saved", flush=True)
        finally:
            self.record.ended = time.monotonic()
            self.over.set()
            await asyncio.sleep(0)
            for task in background:
                task.cancel()
            await asyncio.gather(*background, return_exceptions=True)
        return self.record

    def take_round(self, payload: dict[str, Any]) -> None:
        number = int(payload["number"])
        self.tokens = {int(t["number"]): str(t["token"]) for t in payload["tables"]}
        self.record.seats[number] = {
            int(t["number"]): {s["position"]: int(s["entry_id"]) for s in t["seats"]}
            for t in payload["tables"]}
        if len(self.tokens) != self.plan.tables:
            raise RuntimeError(f"game {number} has {len(self.tokens)} tables, expected "
                               f"{self.plan.tables}")

    async def await_advance(self, number: int, last_confirm: float) -> float:
        deadline = time.monotonic() + self.plan.advance_timeout
        while time.monotonic() < deadline:
            status, body, _, _ = await self.call(
                "director round", "GET", f"/api/events/{self.plan.event}/rounds/{number}/",
                headers=self.director)
            if status == 200:
                self.take_round(json.loads(body))
                now = time.monotonic()
                self.record.advances.append({"game": number, "at": now,
                                             "seconds": round(now - last_confirm, 3)})
                return now - last_confirm
            await asyncio.sleep(0.5)
        raise RuntimeError(f"game {number} was not seated {self.plan.advance_timeout:.0f} s "
                           "after the last confirmation (the automatic advance)")

    async def await_closed(self, number: int, last_confirm: float) -> float | None:
        """The last game: the worker closes it (no next game)."""
        deadline = time.monotonic() + self.plan.advance_timeout
        while time.monotonic() < deadline:
            status, body, _, _ = await self.call(
                "director round", "GET", f"/api/events/{self.plan.event}/rounds/{number}/",
                headers=self.director)
            if status == 200 and json.loads(body)["status"] == "closed":
                waited = time.monotonic() - last_confirm
                self.record.advances.append({"game": None, "closed": number,
                                             "seconds": round(waited, 3)})
                return waited
            await asyncio.sleep(0.5)
        self.record.problems.append(f"game {number} was not closed by the worker within "
                                    f"{self.plan.advance_timeout:.0f} s")
        return None

    # --- the probe --------------------------------------------------------------------------
    async def probe(self) -> None:
        path = f"/events/{self.plan.event}/standings/version/"
        while not self.over.is_set():
            begin = time.monotonic()
            status, body, started, _ = await self.call("probe version", "GET", path,
                                                       headers={"X-Requested-With": "fetch"})
            if status == 200:
                answer = json.loads(body)
                self.record.polls.append(Poll("probe", started, time.monotonic(),
                                              int(answer["hands_version"]),
                                              int(answer["source_version"]), False))
            await self.sleep(begin + 0.5 - time.monotonic())

    # --- standings readers ----------------------------------------------------------------
    async def standings_reader(self, who: str, index: int) -> None:
        plan = self.plan
        page = (f"/events/{plan.event}/standings/" if who == "phone"
                else f"/events/{plan.event}/standings/wall/")
        device = f"{who}:{index + 1}"
        rng = random.Random(f"{plan.seed}-{device}")
        await self.sleep(rng.uniform(0, 3))
        status, body, _, _ = await self.call(f"{'standings' if who == 'phone' else 'wall'} page",
                                             "GET", page)
        text = body.decode("utf-8", "replace") if status == 200 else ""
        state = {"current": tag_attribute(text, "standings-live", "data-version")}
        version_url = html.unescape(tag_attribute(text, "standings-live", "data-version-url")
                                    or f"/events/{plan.event}/standings/version/")
        fragment_url = html.unescape(tag_attribute(text, "standings-live", "data-fragment-url")
                                     or f"/events/{plan.event}/standings/fragment/?view=page")
        if who == "phone":  # standings.js on a narrow screen asks for the phone's columns
            fragment_url = fragment_url.replace("view=page", "view=phone")
        stream = tag_attribute(text, "standings-live", "data-push-url")
        push_every = float(tag_attribute(text, "standings-live", "data-push-poll-seconds") or 30)
        every = float(tag_attribute(text, "standings-live", "data-poll-seconds") or 3)
        view = fragment_url.rsplit("view=", 1)[1].split("&")[0]
        stream_url = html.unescape(stream) if stream else None
        push_fragment = stream_url.replace("/?token=", "/fragment/?token=") if stream_url else None
        if stream_url:
            stream_url += f"&view={view}"  # the message then carries the region shown
        busy = asyncio.Lock()
        streaming = {"on": False}
        pending: dict[str, Any] = {}

        async def show(answer: dict[str, Any], started: float, pushed: bool) -> None:
            if str(answer["version"]) != str(state["current"]):
                got = 0
                if pushed and answer.get("region"):
                    got = 200  # the page inflates the region the message carried
                    self.record.push["regions"] += 1
                elif pushed and answer.get("fragment") and push_fragment:
                    got, _, _, _ = await self.call(
                        "push fragment", "GET",
                        f"{push_fragment}&view={view}&version={answer['version']}")
                    if got == 200:
                        self.record.push["fragments_push"] += 1
                if got not in (200, 304):
                    got, _, _, _ = await self.call("standings fragment", "GET", fragment_url,
                                                   headers={"X-Requested-With": "fetch"})
                    if got == 200:
                        self.record.push["fragments_site"] += 1
                if got not in (200, 304):
                    return
                state["current"] = str(answer["version"])
            self.record.polls.append(Poll(device, started, time.monotonic(),
                                          int(answer["hands_version"]),
                                          int(answer["source_version"]), pushed))

        async def ask() -> tuple[dict[str, Any] | None, float]:
            status, body, started, _ = await self.call("standings version", "GET", version_url,
                                                       headers={"X-Requested-With": "fetch"})
            return (json.loads(body) if status == 200 else None), started

        async def poll() -> None:
            async with busy:
                answer, started = await ask()
                if answer is not None:
                    await show(answer, started, False)

        async def drain() -> None:
            while pending:
                status = pending.pop("status")
                arrived = pending.pop("arrived")
                if not status.get("region") and str(status["version"]) != str(state["current"]):
                    await asyncio.sleep(rng.uniform(0, 0.25))
                async with busy:
                    if who == "wall":  # the wall's state of play comes with its own version
                        now, started = await ask()
                        if now is not None:
                            same = str(now["version"]) == str(status["version"])
                            now["fragment"] = status.get("fragment") and same
                            now["region"] = status.get("region") if same else None
                            await show(now, started, True)
                    else:
                        await show(status, arrived, True)

        draining: list[asyncio.Task[None]] = []

        def on_message(event: str, data: str) -> None:
            if event == "standings":
                self.record.push["messages"] += 1
                pending["status"], pending["arrived"] = json.loads(data), time.monotonic()
                if not draining or draining[-1].done():
                    draining.append(asyncio.create_task(drain()))
            elif event == "resync":
                asyncio.create_task(poll())

        listener = asyncio.create_task(
            self.listen(stream_url, streaming, on_message, poll)) if stream_url else None
        try:
            await self.sleep(rng.uniform(0, push_every if stream_url else every))
            while not self.over.is_set():
                begin = time.monotonic()
                await poll()
                await self.sleep(begin + (push_every if streaming["on"] else every)
                                 - time.monotonic())
        finally:
            if listener is not None:
                listener.cancel()
                await asyncio.gather(listener, return_exceptions=True)

    async def listen(self, url: str, streaming: dict[str, bool],
                     on_message: Callable[[str, str], None],
                     on_open: Callable[[], Awaitable[None]]) -> None:
        """An ``EventSource``: open, read events, open again 2 s after a drop."""
        first = True
        timeout = aiohttp.ClientTimeout(total=None, sock_connect=10, sock_read=60)
        while not self.over.is_set():
            if not first:
                self.record.push["reconnects"] += 1
            first = False
            try:
                async with self.session.get(url, timeout=timeout,
                                            headers={"Accept": "text/event-stream"}) as response:
                    if response.status != 200:
                        self.record.problems.append(f"push stream answered {response.status}")
                        await self.sleep(2)
                        continue
                    streaming["on"] = True
                    push = self.record.push
                    push["streams"] += 1
                    push["streams_max"] = max(push["streams_max"], push["streams"])
                    asyncio.create_task(on_open())  # what moved before the stream opened
                    try:
                        event, data = "message", []
                        async for raw in response.content:
                            line = raw.decode("utf-8", "replace").rstrip("\r\n")
                            if not line:
                                if data or event != "message":
                                    on_message(event, "\n".join(data))
                                event, data = "message", []
                            elif line.startswith("event:"):
                                event = line[6:].strip()
                            elif line.startswith("data:"):
                                data.append(line[5:].lstrip(" "))
                    finally:
                        push["streams"] -= 1
                        streaming["on"] = False
            except (TimeoutError, aiohttp.ClientError, OSError):
                pass
            await self.sleep(2.0)

    # --- the seating wall -------------------------------------------------------------------
    async def seating_wall(self) -> None:
        page = f"/events/{self.plan.event}/wall/seating/"
        status, body, _, _ = await self.call("seating page", "GET", page)
        text = body.decode("utf-8", "replace") if status == 200 else ""
        current = {"version": tag_attribute(text, "seating-board", "data-version")}
        stream = _attribute_of_live_wall(text, "data-push-url")
        version_url = html.unescape(_attribute_of_live_wall(text, "data-version-url") or
                                    f"/events/{self.plan.event}/wall/seating/version/")
        push_every = float(_attribute_of_live_wall(text, "data-push-poll-seconds") or 60)
        every = float(_attribute_of_live_wall(text, "data-poll-seconds") or 5)
        streaming = {"on": False}
        busy = asyncio.Lock()

        async def check() -> None:
            async with busy:
                got, body, _, _ = await self.call("seating version", "GET", version_url,
                                                  headers={"X-Requested-With": "fetch"})
                if got == 200 and str(json.loads(body)["version"]) != str(current["version"]):
                    got, body, _, _ = await self.call("seating page", "GET", page)
                    if got == 200:
                        current["version"] = tag_attribute(body.decode("utf-8", "replace"),
                                                           "seating-board", "data-version")

        def on_message(event: str, data: str) -> None:
            if event == "wall":
                self.record.push["wall_messages"] += 1
                asyncio.create_task(check())
            elif event == "resync":
                asyncio.create_task(check())

        listener = asyncio.create_task(self.listen(html.unescape(stream), streaming,
                                                   on_message, check)) if stream else None
        try:
            while not self.over.is_set():
                begin = time.monotonic()
                await check()
                await self.sleep(begin + (push_every if streaming["on"] else every)
                                 - time.monotonic())
        finally:
            if listener is not None:
                listener.cancel()
                await asyncio.gather(listener, return_exceptions=True)


def _attribute_of_live_wall(text: str, attribute: str) -> str | None:
    """An attribute of the ``data-live-wall`` element (the seating board's page)."""
    tag = re.search(r"<[a-zA-Z][^>]*\bdata-live-wall\b[^>]*>", text)
    if tag is None:
        return None
    found = re.search(r"\b" + re.escape(attribute) + r'="([^"]*)"', tag.group(0))
    return found.group(1) if found else None


class TablePhone:
    """The scorer phone of table ``number``: it plays that table's game of every game."""

    def __init__(self, room: Room, number: int) -> None:
        self.room, self.number = room, number
        self.rng = random.Random(f"{room.plan.seed}-table-{number}")
        self.token = ""
        self.kept: dict[str, tuple[str, bytes]] = {}

    async def status_poll(self) -> None:
        """``table_live.js``: the table's status every few seconds, all day."""
        room = self.room
        await room.sleep(self.rng.uniform(0, room.plan.state_every))
        while not room.over.is_set():
            begin = time.monotonic()
            if self.token:
                url = f"/api/tables/{self.token}/status/"
                headers = {"Accept": "application/json"}
                kept = self.kept.get(url) if room.plan.revalidate.get("table") else None
                if kept:
                    headers["If-None-Match"] = kept[0]
                status, body, _, head = await room.call("table status", "GET", url,
                                                        headers=headers)
                if status == 200 and head is not None and head.get("ETag") and \
                        room.plan.revalidate.get("table"):
                    self.kept = {url: (head["ETag"], body)}
            await room.sleep(begin + room.plan.state_every - time.monotonic())

    async def play(self, game: int, token: str) -> float | None:
        """The table's game; the time its confirmation was answered (None: it failed)."""
        room, plan = self.room, self.room.plan
        await asyncio.sleep(plan.real(plan.move_minutes) * self.rng.uniform(0.3, 1.0))
        self.token = token
        await room.call("table page", "GET", f"/t/{token}/")
        status, body, _, _ = await room.call("scorer", "POST", f"/api/tables/{token}/scorer/",
                                             json_body={"position": "N"})
        if status != 200:
            room.record.problems.append(f"game {game} table {self.number}: scorer {status}")
        status, body, _, _ = await room.call("table state", "GET", f"/api/tables/{token}/")
        state = json.loads(body) if status == 200 else {}
        dealer = str(state.get("next_dealer") or "N")
        number = int(state.get("next_number") or 1)
        engine_hands = []
        while True:
            hand = random_hand(self.rng, plan.ruleset, dealer)
            took = plan.real(plan.hand_minutes) * self.rng.uniform(0.7, 1.3)
            begin = time.monotonic()
            steps = typing_steps(hand, plan.checks_per_hand)
            for i, values in enumerate(steps):  # typed over the hand's last third
                at = took * (2 / 3 + i / (3 * max(1, len(steps))))
                await asyncio.sleep(max(0.0, begin + at - time.monotonic()))
                await room.call("check", "POST", f"/api/tables/{token}/check/",
                                json_body=values)
            await asyncio.sleep(max(0.0, begin + took - time.monotonic()))
            if not await self.submit(game, token, number, hand):
                return None
            await room.call("table live", "GET", f"/t/{token}/live/",
                            headers={"Accept": "text/html"})
            engine_hands.append(parse_hand(hand, plan.ruleset))
            if score_game(engine_hands, plan.ruleset, max_deals=plan.deals).finished_after:
                break
            number += 1
            dealer = str(plan.ruleset.next_dealer(dealer))
        # The other side reads the result and confirms it.
        await asyncio.sleep(plan.real(plan.confirm_minutes) * self.rng.uniform(0.5, 1.5))
        for _ in range(5):
            status, body, _, _ = await room.call("confirm", "POST",
                                                 f"/api/tables/{token}/confirm/",
                                                 json_body={"position": "E"})
            if status == 200:
                room.record.confirms.append(time.monotonic())
                return time.monotonic()
            if 400 <= status < 500 and status != 429:
                break
            await asyncio.sleep(2)
        room.record.problems.append(f"game {game} table {self.number}: confirm answered "
                                    f"{status}: {body[:200]!r}")
        return None

    async def submit(self, game: int, token: str, number: int, hand: dict[str, Any]) -> bool:
        """Save the hand; again with the same key while unanswered (the phone's queue)."""
        room = self.room
        key = str(uuid.uuid4())
        where = (game, self.number, number)
        body = {"number": number, **hand}
        for attempt in range(8):
            status, answer, _, _ = await room.call("submit", "POST",
                                                   f"/api/tables/{token}/hands/", json_body=body,
                                                   headers={"Idempotency-Key": key})
            if status in (200, 201):
                if status == 201:
                    room.record.submits.append(time.monotonic())
                room.record.sent[where] = hand
                room.record.unanswered.pop(where, None)
                room.record.answered_tokens.setdefault(token, []).append(number)
                lost = room.record.unanswered_tokens.get(token, [])
                if number in lost:
                    lost.remove(number)
                return True
            if status in (0, 429) or status >= 500:
                room.record.unanswered[where] = hand
                lost = room.record.unanswered_tokens.setdefault(token, [])
                if number not in lost:
                    lost.append(number)
                await asyncio.sleep(min(2 ** attempt, 10))
                continue
            room.record.problems.append(f"game {game} table {self.number} hand {number}: "
                                        f"{status} {answer[:200]!r}")
            return False
        room.record.problems.append(f"game {game} table {self.number} hand {number}: no "
                                    "answer after 8 tries")
        return False

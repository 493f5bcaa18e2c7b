"""Spectators for the load benchmark: thousands of standings streams held open on the push
process, each as a spectator's phone holds it (``standings.js`` with ``&view=phone``: the region
comes inside the message, no request follows).

Run by ``bench/load/run.py --spectators N`` (the project's environment: asyncio, uvloop when
installed, plain sockets; no HTTP client needed for an event stream):
``python bench/load/spectators.py URL N SECONDS OUT.json``. It opens ``N`` streams on ``URL``
(the page's ``data-push-url`` with its token) in batches, prints ``READY <open>`` when they are
all open, then records, per stream, when each ``event: standings`` message arrived and the
``source_version`` it said, until ``SECONDS`` have passed (or SIGTERM); then writes them to
``OUT.json`` (``looks``: per stream a list of ``[arrival, source_version]``, monotonic clock,
the same clock as the load generator's) with the drops and reconnects. Only the head of a
message is parsed (the status comes before the region).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

BATCH = 250  # streams opened at a time (the push process's listen backlog is finite)
SOURCE = re.compile(rb'"source_version":\s*(-?[0-9]+)')


class Spectators:
    def __init__(self, url: str, count: int) -> None:
        parts = urlsplit(url)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.request = (f"GET {parts.path}?{parts.query}&view=phone HTTP/1.0\r\n"
                        f"Host: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n").encode()
        self.count = count
        self.looks: list[list[tuple[float, int]]] = [[] for _ in range(count)]
        self.open = 0
        self.drops = 0
        self.failed_opens = 0
        self.bytes = 0
        self.stop = asyncio.Event()

    async def connect(self, index: int, opened: asyncio.Event | None) -> None:
        """One spectator: open, read messages, reopen 2 s after a drop (as EventSource)."""
        first = True
        while not self.stop.is_set():
            try:
                reader, writer = await asyncio.open_connection(self.host, self.port,
                                                               limit=2**20)
            except OSError:
                self.failed_opens += 1
                await asyncio.sleep(2.0)
                continue
            try:
                writer.write(self.request)
                head = await reader.readuntil(b"\r\n\r\n")
                if not head.startswith(b"HTTP/1.1 200"):
                    self.failed_opens += 1
                    await asyncio.sleep(2.0)
                    continue
                self.open += 1
                if first and opened is not None:
                    opened.set()
                first = False
                try:
                    await self.read(index, reader)
                finally:
                    self.open -= 1
                    if not self.stop.is_set():
                        self.drops += 1
            except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                pass
            finally:
                writer.close()
                with contextlib.suppress(Exception):
                    await writer.wait_closed()
            if not self.stop.is_set():
                await asyncio.sleep(2.0)

    async def read(self, index: int, reader: asyncio.StreamReader) -> None:
        mine = self.looks[index]
        while not self.stop.is_set():
            block = await reader.readuntil(b"\n\n")
            self.bytes += len(block)
            # (a chunk-size line may come first: uvicorn answers in chunks)
            at = block.find(b"event: standings", 0, 64)
            if at >= 0:
                found = SOURCE.search(block, at, at + 400)
                if found is not None:
                    mine.append((time.monotonic(), int(found.group(1))))


async def main(url: str, count: int, seconds: float, out: Path) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count + 1000), hard))
    crowd = Spectators(url, count)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, crowd.stop.set)
    tasks = []
    began = time.monotonic()
    for start in range(0, count, BATCH):
        events = [asyncio.Event() for _ in range(start, min(count, start + BATCH))]
        tasks += [asyncio.create_task(crowd.connect(start + i, e)) for i, e in enumerate(events)]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), 30)
    print(f"READY {crowd.open} {time.monotonic() - began:.1f}", flush=True)
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(crowd.stop.wait(), seconds)
    crowd.stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    out.write_text(json.dumps({
        "streams": count, "open_at_end": crowd.open, "drops": crowd.drops,
        "failed_opens": crowd.failed_opens, "bytes": crowd.bytes, "looks": crowd.looks,
    }))
    return 0


def run(argv: list[str]) -> int:
    url, count, seconds, out = argv[0], int(argv[1]), float(argv[2]), Path(argv[3])
    runner: Any = asyncio.run
    with contextlib.suppress(ImportError):
        import uvloop

        runner = uvloop.run
    return int(runner(main(url, count, seconds, out)))


if __name__ == "__main__":
    raise SystemExit(run(sys.argv[1:]))

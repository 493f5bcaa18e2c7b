"""A server-sent events reader for the tests: a stream opened on the real push process."""

from __future__ import annotations

import json
import socket
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit


@dataclass
class Message:
    event: str
    data: str
    at: float  # time.monotonic() when it was read

    def json(self) -> Any:
        return json.loads(self.data)


class SseStream:
    """``GET url`` kept open (HTTP/1.0, so the body is the bare stream, not chunked);
    :meth:`next` reads the next event (comments are kept apart)."""

    def __init__(self, url: str, *, timeout: float = 10.0) -> None:
        parts = urlsplit(url)
        self.sock = socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80),
                                             timeout=timeout)
        self.sock.sendall(f"GET {parts.path}?{parts.query} HTTP/1.0\r\n"
                          f"Host: {parts.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n", timeout)
        if head is None:
            raise TimeoutError(f"no answer from {url}")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {k.strip().lower(): v.strip()
                        for k, _, v in (line.partition(":") for line in lines[1:] if line)}
        self.comments: list[str] = []

    def _until(self, separator: bytes, timeout: float) -> bytes | None:
        """The bytes before the next ``separator`` (consumed), or None after ``timeout``."""
        deadline = time.monotonic() + timeout
        while separator not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return None
            if not chunk:
                return None  # closed by the server
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(separator)
        return head

    def body(self, timeout: float = 10.0) -> bytes:
        """The rest of a short answer (a refusal), read until the server closes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.sock.settimeout(max(deadline - time.monotonic(), 0.01))
            chunk = self.sock.recv(65536)
            if not chunk:
                break
            self.buffer += chunk
        return self.buffer

    def next(self, timeout: float = 10.0) -> Message | None:
        """The next event within ``timeout`` seconds, or None."""
        deadline = time.monotonic() + timeout
        while True:
            block = self._until(b"\n\n", max(deadline - time.monotonic(), 0))
            if block is None:
                return None
            event, data = "message", []
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    self.comments.append(line[1:].strip())
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
            if data:
                return Message(event=event, data="\n".join(data), at=time.monotonic())

    def next_of(self, kind: str, timeout: float = 10.0) -> Message | None:
        """The next event of this kind (others skipped) within ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            message = self.next(left)
            if message is None:
                return None
            if message.event == kind:
                return message
        return None

    def close(self) -> None:
        self.sock.close()

"""The web's gunicorn worker: gunicorn's sync worker, except that it does not wait for the client
to hang up after an answer.

After each answer gunicorn's sync worker half-closes the connection and then reads from it until
the client closes its side, for up to 2 s, so that request bytes left unread never make the
kernel reset the connection under the answer's last bytes. A client that has sent its whole
request has nothing left to send, and the worker then only waits for it to get round to closing:
a phone on a slow network, or a busy load generator. Measured at 128 tables (``make bench-load``,
py-spy on the workers), that wait was 7.5 % of the workers' time, time in which a free worker was
not accepting the next request, so polls queued behind it.

This worker half-closes, reads whatever the client has already sent without waiting, and closes
at once when there was nothing (the client sent only its request; the answer is delivered in
full, the kernel sends it before the end of the connection). When the client is still sending (a
body the view never read, such as an upload refused for its size) it falls back to gunicorn's
own graceful close. ``gunicorn.conf.py`` names this class for sync workers.
"""

from __future__ import annotations

import contextlib
import socket
import time
from typing import Any

from gunicorn import util
from gunicorn.workers import sync


def close_after_answer(sock: socket.socket, timeout: float = 2.0,
                       max_drain: int = 65536) -> None:
    """Half-close ``sock`` and close it, at once when the client has nothing more in flight,
    else after draining what it still sends (at most ``max_drain`` bytes or ``timeout`` s), as
    ``gunicorn.util.close_graceful`` does."""
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.setblocking(False)
        try:
            drained = len(sock.recv(4096))
        except BlockingIOError:
            return  # nothing sent after the request: nothing for the kernel to reset
        deadline = time.monotonic() + timeout
        while 0 < drained < max_drain:  # (0: the client has closed already)
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                break
            sock.settimeout(remaining)
            data = sock.recv(4096)
            if not data:
                break
            drained += len(data)
    except OSError:
        pass  # gone, or timed out: close
    finally:
        with contextlib.suppress(OSError):
            sock.close()


class _SyncUtil:
    """``gunicorn.util`` as ``gunicorn.workers.sync`` sees it in this worker: the same module,
    with :func:`close_after_answer` in place of ``close_graceful``."""

    def __getattr__(self, name: str) -> Any:
        return close_after_answer if name == "close_graceful" else getattr(util, name)


class SyncWorker(sync.SyncWorker):
    def init_process(self) -> None:
        # In this worker process only (after the fork), the sync worker's module reads its
        # helpers through _SyncUtil.
        sync.util = _SyncUtil()
        super().init_process()

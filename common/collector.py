"""Pausing Python's cyclic garbage collector around a large read that makes no cycles.

Building a big export (a day's archive: some 100,000 dicts, lists and strings, all alive until
the response is written) fills the collector's young generations again and again, and every
few requests it promotes enough objects to run a full collection over the worker's whole
heap: a third more time, on one request in four or five. The objects made here hold no
reference cycles (plain rows of the database), so nothing is left for the collector: their
memory is freed by reference counting when the response is done, and the collector runs as
usual after.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection inside the block (the collector is left as it was found after)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

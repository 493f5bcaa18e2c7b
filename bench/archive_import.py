"""What one archive import may cost: the refusal of a 25 MB archive, and the worker's import of
a big one, on PostgreSQL.

Run it with ``BENCH_SCRIPT=bench/archive_import.py bash bench/standings.sh [--players N]
[--games N]`` (a throwaway PostgreSQL, stopped and deleted afterwards). A progressive day is
played through the services as ``bench/archive.py`` plays it and exported; then:

* **the 25 MB archive**: the day's hands repeated until the file is 25 MB (far more hands than
  ``ARCHIVE_MAX_HANDS``). Measured: the checks made before parsing (size, hands counted in the
  bytes), which refuse it, against what parsing it alone would cost (``json.loads``);
* **the worker's import** of the day's archive through an ``ImportJob``
  (``archive.services.import_job_run``, what ``archive.tasks.import_archive`` runs), rolled
  back afterwards.

Time is wall time; memory is the peak of Python's allocations while the step runs
(``tracemalloc``, in a second run of the step: tracing slows it down), beside the process's
maximum resident size at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from progressive import played_day  # noqa: E402  (sets Django up)

from archive.models import ImportJob  # noqa: E402
from archive.reader import ArchiveRefused  # noqa: E402
from archive.selectors import event_archive_bytes  # noqa: E402
from archive.services import (  # noqa: E402
    archive_check_hands,
    archive_check_size,
    archive_digest,
    import_job_run,
)
from clubs.models import Club  # noqa: E402

MB = 1024 * 1024


class Rollback(Exception):
    pass


def measured(step: Callable[[], Any]) -> tuple[float, float, Any]:
    """(seconds, peak MB of Python allocations, result) of ``step``, run twice: timed, traced."""
    started = time.perf_counter()
    result = step()
    took = time.perf_counter() - started
    tracemalloc.start()
    step()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return took, peak / MB, result


def refused(raw: bytes) -> str:
    try:
        archive_check_size(len(raw))
        archive_check_hands(raw)
    except ArchiveRefused as exc:
        return f"{exc.problems[0].field}: {exc.problems[0].code}"
    return "accepted"


def big_archive(data: bytes, size: int) -> bytes:
    """The archive with its hands repeated until the file is just under ``size`` bytes."""
    archive = json.loads(data)
    hands = archive["hands"]
    per_hand = max(1, len(json.dumps(hands)) // max(1, len(hands)))
    archive["hands"] = (hands * (size // (per_hand * len(hands)) + 2))[: size // per_hand]
    raw = json.dumps(archive).encode()
    while len(raw) > size:
        archive["hands"] = archive["hands"][: int(len(archive["hands"]) * size / len(raw)) - 1]
        raw = json.dumps(archive).encode()
    return raw


def import_once(raw: bytes) -> str:
    outcome = ""
    try:
        with transaction.atomic():
            club = Club.objects.create(name="Copy", slug="copy")
            job = ImportJob.objects.create(club=club, size=len(raw), hands=0, data=raw,
                                           digest=archive_digest(raw))
            outcome = import_job_run(job_id=job.pk)
            if outcome != "done":
                print("  refused:", ImportJob.objects.get(pk=job.pk).problems[:2])
            raise Rollback
    except Rollback:
        pass
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    print(f"Playing {args.players} players, {args.games} games…", flush=True)
    event = played_day(args.players, args.games)
    data = event_archive_bytes(event=event)
    hands = len(json.loads(data)["hands"])

    big = big_archive(data, 25 * MB)
    big_hands = big.count(b'"revisions"')
    took, peak, outcome = measured(lambda: refused(big))
    parse_took, parse_peak, _ = measured(lambda: json.loads(big))
    print(f"\n25 MB archive: {len(big) / MB:.1f} MB, {big_hands:,} hands")
    print(f"  refused before parsing ({outcome}): {took * 1000:8.1f} ms, peak {peak:6.1f} MB")
    print(f"  parsing it alone would take:        {parse_took * 1000:8.1f} ms, "
          f"peak {parse_peak:6.1f} MB")

    took, peak, outcome = measured(lambda: import_once(data))
    print(f"\nThe worker's import: {len(data) / MB:.1f} MB, {hands:,} hands: {outcome}")
    print(f"  {took:8.2f} s, peak {peak:6.1f} MB of Python allocations")
    print(f"  process maximum resident size: "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0 if outcome == "done" else 1


if __name__ == "__main__":
    raise SystemExit(main())

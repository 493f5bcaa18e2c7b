"""``python -m verify ARCHIVE.json``: recompute an event from its archive and say whether the
archive's results are what its hands, seats and decisions give.

Exit status: 0 when nothing differs (one line: ``verified: N hands, M games, K standings
rows, 0 discrepancies``), 1 with each discrepancy on its own line (what, where, stored,
recomputed), 2 when the file is not an archive this verifier reads (not JSON, another format
or version, a section missing, a value of the wrong type). Needs no database and no server.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .read import Malformed, load
from .recompute import verify

MAX_SHOWN = 200


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m verify",
        description="Recompute a pinochle event from its archive (the JSON file its page "
                    "offers) and list what differs from the results it states.")
    parser.add_argument("archive", help="the event's archive file (event-….json)")
    args = parser.parse_args(argv)
    try:
        report = verify(load(args.archive))
    except Malformed as exc:
        print(f"not a readable event archive: {exc}", file=sys.stderr)
        return 2
    found = report.discrepancies
    if not found:
        print(report.summary())
        return 0
    for item in found[:MAX_SHOWN]:
        print(item.line())
    if len(found) > MAX_SHOWN:
        print(f"… and {len(found) - MAX_SHOWN} more")
    print(report.summary())
    return 1

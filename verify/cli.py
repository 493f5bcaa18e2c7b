"""``python -m verify ARCHIVE.json``: recompute an event from its archive and say whether the
archive's results are what its hands, seats and decisions give.

With ``--seed SEED`` (or, for a finished event, the seed its archive carries) every round's
seats are drawn again from the seed and compared (:mod:`verify.seating`); a round that cannot
be re-drawn with certainty is listed as not re-checkable, with why, and does not fail.

Exit status: 0 when nothing differs (the summary: ``verified: N hands, M games, K standings
rows, R rounds' seats drawn again from the seed, U not re-checkable, 0 discrepancies``), 1 with each discrepancy on its own line (what, where, stored,
recomputed), 2 when the file is not an archive this verifier reads (not JSON, another format
or version, a section missing, a value of the wrong type). Needs no database and no server.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .read import Malformed, load
from .recompute import verify
from .seating import draw_seed

MAX_SHOWN = 200


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m verify",
        description="Recompute a pinochle event from its archive (the JSON file its page "
                    "offers) and list what differs from the results it states.")
    parser.add_argument("archive", help="the event's archive file (event-….json)")
    parser.add_argument(
        "--seed", type=_seed, default=None,
        help="the event's draw seed (GET /api/events/ID/draw/ once it is finished): every "
             "round's seats are drawn again from it; without it, from the seed a finished "
             "event's archive carries")
    args = parser.parse_args(argv)
    try:
        report = verify(load(args.archive), seed=args.seed)
    except Malformed as exc:
        print(f"not a readable event archive: {exc}", file=sys.stderr)
        return 2
    found = report.discrepancies
    for number, why in report.not_recheckable:
        print(f"round {number}'s seats not re-checkable: {why}")
    if not found:
        print(report.summary())
        return 0
    for item in found[:MAX_SHOWN]:
        print(item.line())
    if len(found) > MAX_SHOWN:
        print(f"… and {len(found) - MAX_SHOWN} more")
    print(report.summary())
    return 1


def _seed(text: str) -> int:
    seed = draw_seed(text.strip())
    if seed is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a draw seed (decimal digits)")
    return seed

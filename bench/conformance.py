"""The conformance corpus: random events of every format, each verified from its archive.

Run it with ``BENCH_SCRIPT=bench/conformance.py bash bench/standings.sh [--per-format K]
[--seed S] [--max-players N] [--formats a,b]`` (a throwaway PostgreSQL, stopped and deleted
afterwards). For each format of the registry, K events (default 3; ``--per-format 5000`` for
the full corpus) are played by ``archive.generate`` with a size drawn between the smallest the
format allows and ``--max-players`` (512; small sizes drawn far more often: log-uniform), and
seeds from ``--seed``; each event's archive is checked by the verifier (``verify.verify``,
seats drawn again from the seed: the events are finished). Each event's ruleset and settings
are drawn from its seed too (``archive.generate.draw_setup``: every preset the format seats,
its settings as a director may choose them). Printed per format: events, players (smallest,
largest), the rulesets drawn (``rules``: distinct presets and variants), rounds whose seats
were drawn again and those not re-checkable, discrepancies, events finished early (a round the
format refused to seat), the time to generate and to verify, and the projected time of 5,000
events.

Any discrepancy is a bug of the product or of the verifier, and so is an event the generator
could not play (counted with the discrepancies; the run goes on): the line printed for it names
the seed, format and size, which ``manage.py generate_event`` replays (``--keep DIR`` keeps the
archives that differ). Exit status 1 when any was found.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DJANGO_SETTINGS_MODULE" not in os.environ:  # run as a script
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",
                       "DJANGO_DEBUG": "false",
                       "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})

import django  # noqa: E402

django.setup()

from celery import current_app  # noqa: E402
from django.core.management import call_command  # noqa: E402

import formats  # noqa: E402
from archive.generate import MAX_PLAYERS, generate_event, smallest_field  # noqa: E402
from verify import check, verify  # noqa: E402

FULL_CORPUS = 5000


def size(rng: random.Random, least: int, most: int, pairs: bool) -> int:
    """Players between ``least`` and ``most``, log-uniform (small fields far more often)."""
    players = int(math.exp(rng.uniform(math.log(least), math.log(most + 1))))
    players = max(least, min(most, players))
    return players - players % 2 if pairs else players


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-format", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=MAX_PLAYERS)
    parser.add_argument("--formats", default="", help="names, comma-separated (default: all)")
    parser.add_argument("--keep", metavar="DIR", help="write the archives that differ here")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)
    current_app.conf.task_always_eager = True
    names = [n for n in args.formats.split(",") if n] or formats.names()
    rng = random.Random(args.seed)
    failed = 0
    print(f"{'format':<20} {'events':>6} {'players':>9} {'rules':>5} {'seats':>6} {'not re':>6} "
          f"{'discrep':>7} {'early':>5} {'generate':>9} {'verify':>7} {'5,000 events':>13}")
    total_time = 0.0
    for name in names:
        spec = formats.get(name)
        least = smallest_field(spec)
        most = max(least, min(args.max_players, MAX_PLAYERS))
        sizes: list[int] = []
        seats = unchecked = found = early = 0
        rules: set[str] = set()
        made_s = verified_s = 0.0
        for _ in range(args.per_format):
            seed = rng.getrandbits(48)
            players = size(rng, least, most, spec.pairs)
            sizes.append(players)
            started = time.perf_counter()
            said: list[str] = []
            try:
                made = generate_event(format_name=name, players=players, seed=seed,
                                      say=said.append)
            except Exception as exc:  # a refusal or a crash the generator did not expect
                found += 1
                print(f"  {name} --players {players} --seed {seed}: not generated: "
                      f"{type(exc).__name__}: {exc}", flush=True)
                made_s += time.perf_counter() - started
                continue
            rules.add(said[0].split(";")[0])  # the first line: the rules drawn, then settings
            early += len(said) > 1
            if len(said) > 1:
                print(f"  {name} --players {players} --seed {seed}: {said[1]}", flush=True)
            made_s += time.perf_counter() - started
            started = time.perf_counter()
            report = verify(check(json.loads(made.archive)))
            verified_s += time.perf_counter() - started
            seats += report.seatings or 0
            unchecked += len(report.not_recheckable)
            if report.seatings is None:
                found += 1
                print(f"  {name} --players {players} --seed {seed}: seats not checked",
                      flush=True)
            if report.discrepancies:
                found += len(report.discrepancies)
                print(f"  {name} --players {players} --seed {seed}: "
                      f"{len(report.discrepancies)} discrepancies, first: "
                      f"{report.discrepancies[0].line()}", flush=True)
                if args.keep:
                    Path(args.keep).mkdir(parents=True, exist_ok=True)
                    (Path(args.keep) / f"{name}-{players}-{seed}.json").write_bytes(made.archive)
        failed += found
        each = (made_s + verified_s) / max(args.per_format, 1)
        total_time += each * FULL_CORPUS
        print(f"{name:<20} {args.per_format:>6} {min(sizes, default=0):>4}-{max(sizes, default=0):<4} "
              f"{len(rules):>5} {seats:>6} {unchecked:>6} {found:>7} {early:>5} {made_s:>8.1f}s {verified_s:>6.1f}s "
              f"{each * FULL_CORPUS / 3600:>11.1f} h", flush=True)
    print(f"the full corpus ({FULL_CORPUS:,} events a format, {len(names)} formats), "
          f"projected on this machine: {total_time / 3600:.0f} h of one core")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

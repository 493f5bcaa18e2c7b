"""The conformance corpus: random events of every format, each verified from its archive.

Run it with ``BENCH_SCRIPT=bench/conformance.py bash bench/standings.sh [--per-format K]
[--seed S] [--max-players N] [--formats a,b] [--jobs J] [--hours H] [--ledger DIR]`` (a
throwaway PostgreSQL, stopped and deleted afterwards). For each format of the registry, K events
(default 3; ``--per-format 5000`` for the full corpus) are played by ``archive.generate``, each
verified by ``verify.verify`` with every round's seats drawn again from the seed (the events are
finished). Event *i* of format *F* has its own seed and size, drawn from ``S/F/i`` alone, so a
corpus can be run in slices, on several processes (``--jobs``: one database each, copied from
the migrated one) and over several sittings: ``--ledger DIR`` keeps a line per event verified
(``DIR/*.jsonl``) and skips, on the next run, the events it holds; ``--hours`` stops starting
events after that long, ``--seal NAME`` keeps a finished sitting as one gzipped file (committed
under ``bench/corpus/SEED/``, so that the ledger outlives the machine), and ``--report`` prints
the ledger's summary without playing anything.

The size is log-uniform between the smallest field the format seats and ``--max-players`` (512;
small fields far more often). Each event's ruleset and settings are drawn from its seed too
(``archive.setups.draw_setup``: every preset the format seats, its settings as a director may
choose them). A tampered copy of each archive is verified with each of ``verify.tamper``'s
changes (a hand's points, a placement, a seat) that applies to it, and must be caught. Printed
per format: events, players (smallest, largest), the rulesets drawn (``rules``: distinct presets
and variants), rounds whose seats were drawn again and those not re-checkable, discrepancies,
events finished early (a round the format refused to seat), tampered copies caught of those
verified, the time to generate and to verify, and the projected time of 5,000 events.

Any discrepancy is a bug of the product or of the verifier, and so are a tampered copy that
passes and an event the generator could not play (counted with the discrepancies; the run goes on): the line printed for it names
the seed, format and size, which ``manage.py generate_event`` replays (``--keep DIR`` keeps the
archives that differ). Exit status 1 when any was found.
"""

from __future__ import annotations

import argparse
import functools
import gzip
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if "DJANGO_SETTINGS_MODULE" not in os.environ:  # run as a script
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",
                       "DJANGO_DEBUG": "false",
                       "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from celery import current_app  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

import formats  # noqa: E402
from archive.generate import MAX_PLAYERS, generate_event, smallest_field  # noqa: E402
from verify import check, verify  # noqa: E402
from verify.tamper import TAMPERINGS  # noqa: E402

FULL_CORPUS = 5000


@dataclass(frozen=True)
class Verified:
    """One event of the corpus, generated and verified: a line of the ledger."""

    corpus: int  # the corpus seed (--seed)
    format: str
    index: int
    seed: int
    players: int
    rules: str  # the preset and variants drawn ("" when not generated)
    seats: int  # rounds whose seats were drawn again
    unchecked: int  # rounds not re-checkable
    found: int  # discrepancies (an event not generated, or its seats not checked, counts one)
    early: bool  # finished early: a planned round refused
    generate_s: float
    verify_s: float
    commit: str
    tampered: int = 0  # tampered copies verified (verify.tamper: a hand's points, a place, a seat)
    caught: int = 0  # of them, those whose report named the change


def size(rng: random.Random, least: int, most: int, pairs: bool) -> int:
    """Players between ``least`` and ``most``, log-uniform (small fields far more often)."""
    players = int(math.exp(rng.uniform(math.log(least), math.log(most + 1))))
    players = max(least, min(most, players))
    return players - players % 2 if pairs else players


def event_of(corpus: int, name: str, index: int, most: int) -> tuple[int, int]:
    """Event ``index`` of format ``name``: its seed and size, from those alone."""
    spec = formats.get(name)
    least = smallest_field(spec)
    rng = random.Random(f"{corpus}/{name}/{index}")
    return rng.getrandbits(48), size(rng, least, max(least, min(most, MAX_PLAYERS)), spec.pairs)


def play_one(corpus: int, name: str, index: int, most: int, keep: str | None,
             commit: str) -> Verified:
    """Generate event ``index`` of ``name`` and verify its archive (printing what differs)."""
    seed, players = event_of(corpus, name, index, most)
    started = time.perf_counter()
    said: list[str] = []
    line = functools.partial(Verified, corpus=corpus, format=name, index=index, seed=seed,
                             players=players, commit=commit)
    try:
        made = generate_event(format_name=name, players=players, seed=seed, say=said.append)
    except Exception as exc:  # noqa: BLE001 - a refusal or a crash the generator did not expect
        print(f"  {name} --players {players} --seed {seed}: not generated: "
              f"{type(exc).__name__}: {exc}", flush=True)
        return line(rules="", seats=0, unchecked=0, found=1, early=False,
                    generate_s=time.perf_counter() - started, verify_s=0.0)
    generated = time.perf_counter() - started
    if len(said) > 1:
        print(f"  {name} --players {players} --seed {seed}: {said[1]}", flush=True)
    started = time.perf_counter()
    report = verify(check(json.loads(made.archive)))
    verified = time.perf_counter() - started
    found = len(report.discrepancies)
    if report.seatings is None:
        found += 1
        print(f"  {name} --players {players} --seed {seed}: seats not checked", flush=True)
    if report.discrepancies:
        print(f"  {name} --players {players} --seed {seed}: {len(report.discrepancies)} "
              f"discrepancies, first: {report.discrepancies[0].line()}", flush=True)
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            (Path(keep) / f"{name}-{players}-{seed}.json").write_bytes(made.archive)
    tampered = caught = 0
    for what, change in TAMPERINGS:
        copy = json.loads(made.archive)
        named = change(copy)
        if named is None:
            continue
        tampered += 1
        if any(named in d.line() for d in verify(check(copy)).discrepancies):
            caught += 1
        else:
            found += 1
            print(f"  {name} --players {players} --seed {seed}: the changed {what} was not "
                  f"caught ({named}…)", flush=True)
    return line(rules=said[0].split(";")[0], seats=report.seatings or 0,
                unchecked=len(report.not_recheckable), found=found, early=len(said) > 1,
                generate_s=generated, verify_s=verified, tampered=tampered, caught=caught)


def ledger_lines(ledger: Path) -> Iterator[Verified]:
    """The ledger's lines: the sitting under way (``*.jsonl``) and the sittings kept
    (``*.jsonl.gz``, committed under ``bench/corpus/SEED/`` so that they outlive the machine)."""
    for path in sorted([*ledger.glob("*.jsonl"), *ledger.glob("*.jsonl.gz")]):
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode()
        for line in text.splitlines():
            if line.strip():
                yield Verified(**json.loads(line))


def _ledger_order(line: str) -> tuple[str, int]:
    """Where a ledger line goes in a sealed sitting: by format, then by index."""
    verified = json.loads(line)
    return verified["format"], verified["index"]


def seal(ledger: Path, name: str) -> Path | None:
    """The sitting under way (every ``*.jsonl`` of the ledger) kept as one gzipped file,
    ``sitting-NAME.jsonl.gz``, its lines sorted by format and index (the same bytes whichever
    job played what), the plain files removed; None when there was nothing to keep."""
    plain = sorted(ledger.glob("*.jsonl"))
    lines = [line for path in plain for line in path.read_text().splitlines() if line.strip()]
    if not lines:
        return None
    lines.sort(key=_ledger_order)
    kept = ledger / f"sitting-{name}.jsonl.gz"
    if kept.exists():
        raise SystemExit(f"{kept} exists: name the sitting differently")
    kept.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode(), mtime=0))
    for path in plain:
        path.unlink()
    return kept


def share(per_format: int, jobs: int, job: int) -> range:
    """The indices job ``job`` of ``jobs`` plays: event *i* of every format goes to job *i* mod
    *J* (a single job, the default, plays them all), so each job plays every format and the
    formats stay even however fast each job goes."""
    return range(job, per_format, jobs)


def run_job(args: argparse.Namespace, names: list[str], ledger: Path) -> None:
    """Play this job's share of the corpus (every ``--jobs``-th event), skipping those in the
    ledger, until done or ``--hours`` have passed."""
    call_command("migrate", verbosity=0)
    current_app.conf.task_always_eager = True
    done = {(v.format, v.index) for v in ledger_lines(ledger) if v.corpus == args.seed}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                            capture_output=True, check=False).stdout.strip()
    deadline = time.monotonic() + args.hours * 3600 if args.hours else math.inf
    out = ledger / f"job-{os.getpid()}.jsonl"
    for index in share(args.per_format, args.jobs, args.job or 0):
        for name in names:
            if (name, index) in done:
                continue
            if time.monotonic() > deadline:
                return
            line = play_one(args.seed, name, index, args.max_players, args.keep, commit)
            with out.open("a") as ledger_file:
                ledger_file.write(json.dumps(asdict(line)) + "\n")


def run_jobs(args: argparse.Namespace, ledger: Path) -> None:
    """``--jobs`` processes side by side, each on its own copy of the migrated database."""
    call_command("migrate", verbosity=0)
    url = urlsplit(os.environ["DATABASE_URL"])
    base = url.path.lstrip("/")
    connections.close_all()
    admin = urlunsplit(url._replace(path="/postgres"))
    children = []
    with psycopg.connect(admin, autocommit=True) as conn:
        for job in range(args.jobs):
            conn.execute(f'DROP DATABASE IF EXISTS "{base}_job{job}"')
            conn.execute(f'CREATE DATABASE "{base}_job{job}" TEMPLATE "{base}"')
    for job in range(args.jobs):
        env = {**os.environ, "DATABASE_URL": urlunsplit(url._replace(path=f"/{base}_job{job}"))}
        children.append(subprocess.Popen(
            [sys.executable, __file__, *sys.argv[1:], "--job", str(job), "--ledger", str(ledger)],
            env=env))
    for child in children:
        child.wait()


def summary(ledger: Path, corpus: int, names: list[str]) -> int:
    """Print the ledger's events of corpus ``corpus``, a line a format; the discrepancies."""
    lines = [v for v in ledger_lines(ledger) if v.corpus == corpus and v.format in names]
    print(f"{'format':<22} {'events':>6} {'players':>9} {'rules':>5} {'seats':>6} {'not re':>6} "
          f"{'discrep':>7} {'early':>5} {'tampered':>12} {'generate':>9} {'verify':>7} "
          f"{'an event':>8} {'5,000 events':>13}")
    failed = 0
    total = 0.0
    for name in names:
        mine = [v for v in lines if v.format == name]
        made = sum(v.generate_s for v in mine)
        checked = sum(v.verify_s for v in mine)
        each = (made + checked) / max(len(mine), 1)
        total += each * FULL_CORPUS
        found = sum(v.found for v in mine)
        failed += found
        players = [v.players for v in mine] or [0]
        print(f"{name:<22} {len(mine):>6} {min(players):>4}-{max(players):<4} "
              f"{len({v.rules for v in mine if v.rules}):>5} {sum(v.seats for v in mine):>6} "
              f"{sum(v.unchecked for v in mine):>6} {found:>7} {sum(v.early for v in mine):>5} "
              f"{sum(v.caught for v in mine):>5}/{sum(v.tampered for v in mine):<6} {made:>8.0f}s {checked:>6.1f}s {each:>7.2f}s {each * FULL_CORPUS / 3600:>11.1f} h")
    spent = sum(v.generate_s + v.verify_s for v in lines)
    print(f"{len(lines):,} events verified in {spent / 3600:.2f} h of one core; the full corpus "
          f"({FULL_CORPUS:,} events a format, {len(names)} formats) projected on this machine: "
          f"{total / 3600:.0f} h of one core")
    for v in lines:
        if v.found:
            print(f"  found {v.found}: {v.format} --players {v.players} --seed {v.seed}")
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-format", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-players", type=int, default=MAX_PLAYERS)
    parser.add_argument("--formats", default="", help="names, comma-separated (default: all)")
    parser.add_argument("--keep", metavar="DIR", help="write the archives that differ here")
    parser.add_argument("--jobs", type=int, default=1, help="processes side by side")
    parser.add_argument("--hours", type=float, default=0.0,
                        help="start no event after this long (0: no limit)")
    parser.add_argument("--ledger", metavar="DIR",
                        help="keep a line per event here, and skip the events it holds")
    parser.add_argument("--report", action="store_true",
                        help="print the ledger's summary only")
    parser.add_argument("--seal", metavar="NAME",
                        help="keep the sitting under way as DIR/sitting-NAME.jsonl.gz (to "
                             "commit under bench/corpus/), play nothing")
    parser.add_argument("--job", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    names = [n for n in args.formats.split(",") if n] or formats.names()
    if args.seal:
        if not args.ledger:
            parser.error("--seal needs --ledger")
        kept = seal(Path(args.ledger), args.seal)
        print(f"kept as {kept}" if kept else "no sitting under way")
        return 0
    with tempfile.TemporaryDirectory() as scratch:
        ledger = Path(args.ledger or scratch)
        ledger.mkdir(parents=True, exist_ok=True)
        if args.job is not None:  # one of run_jobs' processes
            run_job(args, names, ledger)
            return 0
        if not args.report:
            if args.jobs > 1:
                run_jobs(args, ledger)
            else:
                run_job(args, names, ledger)
        return summary(ledger, args.seed, names)


if __name__ == "__main__":
    sys.exit(main())

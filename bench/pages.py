"""Page benchmark on PostgreSQL: every page a director or player opens, at 512 players.

Run it with ``make bench-pages`` (a throwaway PostgreSQL on a free loopback port, stopped and
deleted afterwards, through bench/standings.sh), or against an empty database of your own:
``DATABASE_URL=postgres://... python bench/pages.py`` (add ``--reuse`` on later runs to measure
the data the first run built; ``--only NAME`` measures the pages whose name has NAME,
``--profile NAME`` prints where their time goes). The data:

* a progressive day of ``--players`` (512: 128 tables), ``--games`` qualifying games played
  through the services as ``bench/progressive.py`` plays them (games left unconfirmed: the
  director's list of games to confirm is at its longest), then the next game seated and half
  of its deals entered at every table: the room in play;
* a single-elimination bracket of ``--pairs`` pairs (128), its first round played and the
  second seated;
* one player with ``--events`` club nights (500, weekly, 16 players a night; bulk-built as
  ``bench/profile.py`` builds them), and a season of that club spanning ``--years`` (5) of them.

Each page is requested ``--repeat`` times (30) through Django's full request stack with the test
client (no network), the cache emptied before every request (as the first view after the
event's version moved: the worst case); printed per page: the median and 95th percentile server
time and the queries it sends. Exit status 1 when a page's p95 is over 300 ms.
"""

from __future__ import annotations

import sys
from pathlib import Path

# bench/profile.py would hide the standard library's profile module (cProfile needs it): the
# benches are imported as the bench package, from the repository's root.
HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(HERE.parent))

import argparse  # noqa: E402
import cProfile  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from bench.profile import build as profile_build  # noqa: E402
from bench.profile import counted_queries  # noqa: E402
from bench.progressive import DEALS, Day, random_hand, setup  # noqa: E402  (sets Django up)
from bench.standings import p95  # noqa: E402
from clubs.models import Club, ClubPlayer, Membership, Player  # noqa: E402
from draw.services import event_status_set, round_create, round_set_status  # noqa: E402
from league.models import Season  # noqa: E402
from scoring import services as scoring_services  # noqa: E402
from scoring.models import Game  # noqa: E402
from scoring.services import hands as scoring_hands  # noqa: E402
from standings.services import standings_rebuild  # noqa: E402
from tournaments import services as event_services  # noqa: E402
from tournaments.models import Event, Round  # noqa: E402

TARGET_MS = 300.0


def quiet_standings() -> None:
    """The standings update a write asks for runs on a worker in production; the build makes
    the snapshot once at the end instead of after every hand."""
    scoring_hands.standings_request_update = lambda **kwargs: None  # type: ignore[assignment]
    event_services.standings_request_update = lambda **kwargs: None  # type: ignore[assignment]


def room(players: int, games: int) -> Event:
    """The progressive day: ``games`` played, the next seated and half its deals entered (the
    plan is two games longer, so the game in play is a qualifying game at every table)."""
    event = setup(players, games + 2, seed=26)
    day = Day(event, random.Random(26), 0)
    for number in range(1, games + 1):
        round_, _ = day.seat(number)
        day.play(round_, sample=False)
    round_, _ = day.seat(games + 1)
    for number in range(1, DEALS // 2 + 1):
        for game in Game.objects.filter(table__round=round_).order_by("table__number"):
            scoring_services.hand_submit(game=game, number=number,
                                         values=random_hand(day.rng, number))
    standings_rebuild(event_id=event.pk)
    return event


def bracket(club: Club, pairs: int) -> Event:
    """A single-elimination bracket of ``pairs``: round 1 played and confirmed, round 2 seated."""
    rng = random.Random(128)
    roster = Player.objects.bulk_create(Player(name=f"Pair player {i:03d}")
                                        for i in range(2 * pairs))
    ClubPlayer.objects.bulk_create(ClubPlayer(club=club, player=p) for p in roster)
    event = event_services.event_create(
        club=club, name="Bench bracket", date=datetime.date(2026, 11, 22),
        format="single_elimination", deals_per_round=2, seed=7)
    for i in range(pairs):
        event_services.pair_register(event=event, players=roster[2 * i:2 * i + 2], seed=i + 1)
    event = event_status_set(event=event, status=Event.Status.RUNNING)
    first = round_create(event=event)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    for game in Game.objects.filter(table__round=first).order_by("table__number"):
        for number in (1, 2):
            values = random_hand(rng, number)
            values["counters"] = {"NS": 30, "EW": 20}  # a winner: no level game
            scoring_services.hand_submit(game=game, number=number, values=values)
        scoring_services.game_confirm(game=game, position="E")
    round_set_status(round_=first, status=Round.Status.CLOSED)
    second = round_create(event=event)
    round_set_status(round_=second, status=Round.Status.PLAYING)
    standings_rebuild(event_id=event.pk)
    return event


def cpu_line() -> list[int]:
    """The host's "cpu" line of /proc/stat (user, nice, system, idle, iowait, irq, softirq,
    steal, ...), in ticks; empty where there is none."""
    try:
        with open("/proc/stat") as stat:
            return [int(v) for v in stat.readline().split()[1:]]
    except OSError:
        return []


def timed(fun: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        cache.clear()
        started = time.perf_counter()
        fun()
        out.append((time.perf_counter() - started) * 1000)
    return out


def build(args: argparse.Namespace) -> tuple[Event, Event, Player, Season, Any]:
    started = time.perf_counter()
    print(f"Building: a day of {args.players} players…", flush=True)
    day = room(args.players, args.games)
    club = day.club
    print(f"  {time.perf_counter() - started:.0f} s; a bracket of {args.pairs} pairs…", flush=True)
    pairs = bracket(club, args.pairs)
    print(f"  {time.perf_counter() - started:.0f} s; {args.events} club nights…", flush=True)
    subject = profile_build(random.Random(500), events=args.events, rounds=5, deals=4, tables=4)
    nights = Event.objects.filter(entries__player=subject).first()
    assert nights is not None
    first = nights.club.events.order_by("date").values_list("date", flat=True).first()
    assert first is not None
    season = Season.objects.create(
        club=nights.club, name="Five years", starts_on=first,
        ends_on=first + datetime.timedelta(days=365 * args.years - 1))
    user_model = Membership._meta.get_field("user").related_model
    director = user_model.objects.create_user(username="bench-director", password="x")
    for each in (club, nights.club):
        Membership.objects.create(club=each, user=director, role=Membership.Role.DIRECTOR)
    return day, pairs, subject, season, director


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=512)
    parser.add_argument("--games", type=int, default=3, help="qualifying games played (3)")
    parser.add_argument("--pairs", type=int, default=128)
    parser.add_argument("--events", type=int, default=500)
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--reuse", action="store_true",
                        help="on a database of your own: measure the data an earlier run built")
    parser.add_argument("--only", default="", help="measure only the pages whose name has this")
    parser.add_argument("--profile", default="",
                        help="print cProfile's top functions for the pages whose name has this")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("bench/pages.py measures PostgreSQL: set DATABASE_URL (or run make bench-pages)")
        return 2
    call_command("migrate", verbosity=0)
    quiet_standings()

    started = time.perf_counter()
    if args.reuse and Season.objects.filter(name="Five years").exists():
        day = Event.objects.get(name="Bench NPA day")
        pairs = Event.objects.get(name="Bench bracket")
        season = Season.objects.get(name="Five years")
        subject = Player.objects.filter(club_links__club=season.club).order_by("pk").first()
        director = Membership.objects.get(user__username="bench-director", club=day.club).user
        print("Reusing the data of an earlier run", flush=True)
    else:
        day, pairs, subject, season, director = build(args)
        print(f"  built in {time.perf_counter() - started:.0f} s", flush=True)
    # The profile reads the per-event summaries a task writes when an event is over (its
    # steady state): write any the build left missing (a no-op when they are current).
    summarised = time.perf_counter()
    call_command("profile_summaries")
    print(f"  profile summaries in {time.perf_counter() - summarised:.1f} s", flush=True)
    guest, desk = Client(), Client()
    desk.force_login(director)
    playing = day.rounds.order_by("-number").first()
    assert playing is not None
    pages: list[tuple[str, Client, str]] = [
        ("standings page", guest, f"/events/{day.pk}/standings/"),
        ("standings wall", guest, f"/events/{day.pk}/standings/wall/"),
        ("director screen", desk, f"/events/{day.pk}/director/"),
        ("seating board", guest, f"/events/{day.pk}/wall/seating/"),
        ("movement board", guest, f"/events/{day.pk}/wall/movement/"),
        ("round page", desk, f"/events/{day.pk}/rounds/{playing.number}/"),
        ("event page", desk, f"/events/{day.pk}/"),
        ("standings CSV", guest, f"/events/{day.pk}/standings.csv"),
        ("hands CSV", desk, f"/events/{day.pk}/hands.csv"),
        ("event archive", desk, f"/events/{day.pk}/archive.json"),
        ("bracket", guest, f"/events/{pairs.pk}/bracket/"),
        ("bracket standings", guest, f"/events/{pairs.pk}/standings/"),
        ("bracket director", desk, f"/events/{pairs.pk}/director/"),
        ("player profile", guest, f"/players/{subject.pk}/"),
        ("season leaderboard", guest, f"/clubs/{season.club.slug}/seasons/{season.pk}/"),
    ]
    rows = []
    failed = False
    # As a web worker does once it has loaded the application (gunicorn.conf.py,
    # post_worker_init): what lives for the whole process is moved out of the cyclic
    # collector's reach, so a full collection does not scan it again during a request.
    gc.collect()
    gc.freeze()
    before = cpu_line()
    for name, client, url in pages:
        if args.only and args.only not in name:
            continue
        response = client.get(url)
        assert response.status_code == 200, (name, url, response.status_code)
        size = len(response.content)
        cache.clear()
        queries = counted_queries(lambda client=client, url=url: client.get(url))
        values = timed(lambda client=client, url=url: client.get(url), args.repeat)
        if args.profile and args.profile in name:
            profiler = cProfile.Profile()
            profiler.enable()
            timed(lambda client=client, url=url: client.get(url), 5)
            profiler.disable()
            print(f"\n--- {name}")
            stats = pstats.Stats(profiler)
            stats.sort_stats("cumulative").print_stats(r"^(?!.*site-packages).*\.py", 30)
            stats.sort_stats("tottime").print_stats(15)
        top = p95(values)
        failed |= top > TARGET_MS
        rows.append((name, url, statistics.median(values), top, queries, size))
        print(f"  {name:20} {statistics.median(values):8.1f} {top:8.1f} {queries:5}", flush=True)

    print(f"\nPages at {args.players} players ({args.players // 4} tables, game "
          f"{playing.number} in play), a bracket of {args.pairs} pairs, a player of "
          f"{args.events} nights, a season of {args.years} years; PostgreSQL "
          f"{connection.pg_version // 10000}, {args.repeat} requests each, cache emptied "
          "before each\n")
    print(f"{'page':20} {'median ms':>10} {'p95 ms':>8} {'queries':>8} {'KB':>7}  url")
    print("-" * 100)
    for name, url, median, top, queries, size in rows:
        mark = "" if top <= TARGET_MS else "  SLOW"
        print(f"{name:20} {median:10.1f} {top:8.1f} {queries:8} {size / 1024:7.0f}  {url}{mark}")
    after = cpu_line()
    if before and after:
        spent = [b - a for a, b in zip(before, after, strict=True)]
        total = sum(spent) or 1
        print(f"\nhost CPU while measuring: {100 * (total - spent[3] - spent[4]) / total:.0f} % "
              f"busy, {100 * spent[7] / total:.1f} % stolen (/proc/stat cpu line before: "
              f"{' '.join(map(str, before[:8]))}; after: {' '.join(map(str, after[:8]))})")
    print(f"\ntarget: every page's p95 under {TARGET_MS:.0f} ms\n")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

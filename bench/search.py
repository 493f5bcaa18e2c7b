"""Search and results-hub benchmark on PostgreSQL: an archive of 100,000 events.

Run it with ``BENCH_SCRIPT=bench/search.py bash bench/standings.sh`` (a throwaway PostgreSQL on
a free loopback port, stopped and deleted afterwards; ``make bench-search``), or against an
empty database of your own: ``DATABASE_URL=postgres://... python bench/search.py`` (``--reuse``
on later runs measures the archive the first one left).

The archive is written with PostgreSQL's ``COPY`` (not the services): ``--clubs`` clubs (2,000;
one in ten private), ``--players`` players (200,000, each on one club's roster, one in twenty
on a second), ``--events`` events (100,000, spread over the clubs and ten years; one in twenty
hidden, a few drafts and cancelled ones, the rest finished) of 8 to 16 of their club's players,
each finished event with its final places. One more club is played through the services
(``bench.profile.build``: ``--real-events`` club nights of real hands, their standings and
places), so that its page and its events' pages are measured with everything they show.

Measured through Django's full request stack (the test client, no network; the cache emptied
before each request), each ``--repeat`` times, printed as median and p95 with the queries sent:

* ``GET /api/search/?q=`` over a mix of exact names (players, events, clubs), prefixes and
  misspelt names (two letters swapped), of all kinds and of one; the search page the same;
* the biggest bulk club's public page and the real club's, its events' pages and standings
  (the results page), and the club's open data feed (``/api/clubs/<slug>/results/``).

Targets: search p95 under 200 ms, pages p95 under 300 ms (exit status 1 when missed).
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

# Run as a script, this file's folder comes first on the path, and this file is named like the
# search app: the repository's root goes first, without bench/ (as bench/pages.py does).
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
sys.path.insert(0, str(ROOT))
if "DJANGO_SETTINGS_MODULE" not in os.environ:
    os.environ.update({"DJANGO_SETTINGS_MODULE": "config.settings.base",
                       "DJANGO_DEBUG": "false",
                       "DJANGO_ALLOWED_HOSTS": "testserver,127.0.0.1,localhost"})

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.test import Client  # noqa: E402
from django.utils import timezone  # noqa: E402

from bench.profile import build as profile_build  # noqa: E402
from bench.profile import counted_queries  # noqa: E402
from bench.standings import p95  # noqa: E402
from clubs.models import Club, ClubPlayer, Player  # noqa: E402
from draw.services import event_placements_compute  # noqa: E402
from standings.models import StandingsSnapshot  # noqa: E402
from standings.services import placements_store  # noqa: E402
from tournaments.models import Entry, Event  # noqa: E402

SEARCH_TARGET_MS = 200.0
PAGE_TARGET_MS = 300.0


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


FIRST = _words("James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara "
         "Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Nancy Daniel Lisa "
         "Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily "
         "Andrew Donna Joshua Michelle Kenneth Dorothy Kevin Carol Brian Amanda George Melissa "
         "Edward Deborah Ronald Stephanie Timothy Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia "
         "Jacob Kathleen Gary Amy Nicholas Shirley Eric Angela Jonathan Helen Stephen Anna Larry "
         "Brenda Justin Pamela Scott Nicole Brandon Emma Benjamin Samantha Samuel Katherine "
         "Gregory Christine Frank Debra Alexander Rachel Raymond Catherine Patrick Carolyn Jack "
         "Janet Dennis Ruth Jerry Maria Tyler Heather Aaron Diane Jose Virginia Adam Julie Henry "
         "Joyce Nathan Victoria Douglas Olivia Zachary Kelly Peter Christina Kyle Lauren Walter "
         "Joan Ethan Evelyn Jeremy Judith Harold Megan Keith Cheryl Christian Andrea Roger Hannah "
         "Noah Martha Gerald Jacqueline Carl Frances Terry Gloria Sean Ann Austin Teresa Arthur "
         "Kathryn Lawrence Sara Jesse Janice Dylan Jean Bryan Alice Joe Madison Jordan Doris Billy "
         "Abigail Bruce Julia Albert Judy Willie Grace Gabriel Denise Logan Amber Alan Marilyn "
         "Juan Beverly Wayne Danielle Roy Theresa Ralph Sophia Randy Marie Eugene Diana Vincent "
         "Brittany Russell Natalie Elijah Isabella Louis Charlotte Bobby Rose Philip Alexis "
         "Johnny Kayla")
# Surnames made of syllables: about 20,000 of them, so that names repeat as little as they do.
ONSETS = _words("Ab Al An Ar Ba Be Bi Bo Bra Bri Bu Ca Ce Cha Che Co Cra Da De Di Do Dra Du El Em En Er "
          "Fa Fe Fi Fo Fra Ga Ge Gi Go Gra Gu Ha He Hi Ho Hu Ja Je Jo Ka Ke Ki Ko Kra La Le Li Lo "
          "Lu Ma Me Mi Mo Mu Na Ne Ni No Pa Pe Pi Po Pra Ra Re Ri Ro Ru Sa Se Si So Sta Ste Stu Ta "
          "Te Ti To Tra Tu Va Ve Vi Vo Wa We Wi Wo Ya Za Ze")
MIDDLES = _words("b d g k l m n r s t v z ll nn rr tt ck nd rt st nt ld rk")
ENDS = _words("er son man ley ton ford berg stein ski wood field well ridge ham land by dale more "
        "ett ing low sby")
TOWNS = _words("Elm Oak Maple Cedar Pine Birch Willow Spruce Aspen Cherry Walnut Hickory Chestnut Poplar "
         "Ash Laurel Holly Juniper Magnolia Sycamore")
TOWN_ENDS = _words("ville ton field burg dale wood port haven ridge brook creek falls springs crossing "
             "grove hill")
KINDS_OF_CLUB = ("Pinochle Club", "Card Club", "Pinochle Society", "Senior Center Pinochle",
                 "Legion Post Pinochle", "Pinochle League", "Double Deck Club")
TIME_ZONES = ("America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles",
              "America/Phoenix", "America/Detroit", "America/Indiana/Indianapolis",
              "America/Toronto", "America/Winnipeg", "Europe/Berlin", "Europe/Vienna",
              "America/Anchorage", "Pacific/Honolulu")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
SEASONS = ("Spring", "Summer", "Autumn", "Winter", "Holiday", "New Year", "Harvest", "Valentine")
EVENT_KINDS = ("Open", "Classic", "Championship", "Invitational", "Tournament", "Cup", "Shootout")


def surnames(rng: random.Random, count: int) -> list[str]:
    found: set[str] = set()
    while len(found) < count:
        found.add(f"{rng.choice(ONSETS)}{rng.choice(MIDDLES)}"
                  f"{rng.choice('aeiou') if rng.random() < 0.4 else ''}{rng.choice(ENDS)}")
    return sorted(found)


def event_name(rng: random.Random, town: str, date: datetime.date) -> str:
    roll = rng.random()
    if roll < 0.6:
        return f"{WEEKDAYS[date.weekday()]} club night"
    if roll < 0.85:
        return f"{rng.choice(SEASONS)} {rng.choice(EVENT_KINDS)}"
    return f"{town} {rng.choice(EVENT_KINDS)} {date.year}"


# --- writing with COPY -------------------------------------------------------------------------
def copy_rows(model: type[models.Model], rows: Iterable[dict[str, Any]]) -> int:
    """Write ``rows`` (attribute name → value, the id included) into ``model``'s table with
    ``COPY``; every other column takes the model's default. Returns the rows written."""
    fields = list(model._meta.concrete_fields)
    template = model()
    now = timezone.now()
    base = {}
    for f in fields:
        value = getattr(template, f.attname)
        if value is None and (getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)):
            value = now
        base[f.attname] = value
    columns = ", ".join(connection.ops.quote_name(f.column) for f in fields)
    written = 0
    with connection.cursor() as cursor:
        raw = cursor.cursor
        with raw.copy(f"COPY {model._meta.db_table} ({columns}) FROM STDIN") as copy:
            for row in rows:
                values = []
                for f in fields:
                    value = row.get(f.attname, base[f.attname])
                    values.append(f.get_db_prep_save(value, connection))
                copy.write_row(values)
                written += 1
    with connection.cursor() as cursor:
        table = model._meta.db_table
        cursor.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                       f"(SELECT max(id) FROM {table}))")
    return written


def next_id(model: type[models.Model]) -> int:
    return (model.objects.aggregate(top=models.Max("id"))["top"] or 0) + 1


def archive(rng: random.Random, *, clubs: int, players: int, events: int) -> dict[str, Any]:
    """The bulk archive (module docstring); returns the names the query mix picks from."""
    started = time.perf_counter()
    last_names = surnames(rng, 20_000)
    club_id, player_id, event_id = next_id(Club), next_id(Player), next_id(Event)
    link_id, entry_id, snap_id = next_id(ClubPlayer), next_id(Entry), next_id(StandingsSnapshot)
    club_rows, towns = [], []
    for n in range(clubs):
        town = f"{rng.choice(TOWNS)}{rng.choice(TOWN_ENDS)}"
        towns.append(town)
        club_rows.append({"id": club_id + n, "name": f"{town} {rng.choice(KINDS_OF_CLUB)}",
                          "slug": f"club-{club_id + n}", "time_zone": rng.choice(TIME_ZONES),
                          "is_public": rng.random() >= 0.1})
    copy_rows(Club, club_rows)
    player_names = [f"{rng.choice(FIRST)} {rng.choice(last_names)}" for _ in range(players)]
    copy_rows(Player, ({"id": player_id + n, "name": name} for n, name in enumerate(player_names)))
    rosters: list[list[int]] = [[] for _ in range(clubs)]
    links = []
    for n in range(players):
        home = rng.randrange(clubs)
        rosters[home].append(player_id + n)
        links.append((home, player_id + n))
        if rng.random() < 0.05:
            other = rng.randrange(clubs)
            if other != home:
                rosters[other].append(player_id + n)
                links.append((other, player_id + n))
    copy_rows(ClubPlayer, ({"id": link_id + n, "club_id": club_id + c, "player_id": p}
                           for n, (c, p) in enumerate(links)))
    print(f"  clubs, players, rosters: {time.perf_counter() - started:.1f} s", flush=True)

    first_day = datetime.date(2016, 1, 1)
    event_rows, fields = [], []
    for n in range(events):
        c = rng.randrange(clubs)
        while len(rosters[c]) < 8:
            c = rng.randrange(clubs)
        date = first_day + datetime.timedelta(days=rng.randrange(3650))
        roll = rng.random()
        status = (Event.Status.DRAFT if roll < 0.02 else Event.Status.CANCELLED if roll < 0.03
                  else Event.Status.RUNNING if roll < 0.04 else Event.Status.FINISHED)
        event_rows.append({"id": event_id + n, "club_id": club_id + c, "date": date,
                           "name": event_name(rng, towns[c], date), "status": status,
                           "is_public": rng.random() >= 0.05, "seed": str(rng.getrandbits(64))})
        fields.append(rng.sample(rosters[c], min(len(rosters[c]), rng.randint(8, 16))))
    copy_rows(Event, event_rows)

    def entries() -> Iterator[dict[str, Any]]:
        number = entry_id
        for n, field in enumerate(fields):
            for p in field:
                yield {"id": number, "event_id": event_id + n, "player_id": p}
                number += 1

    copy_rows(Entry, entries())

    def snapshots() -> Iterator[dict[str, Any]]:
        number, first_entry = snap_id, entry_id
        names = dict(zip(range(player_id, player_id + players), player_names, strict=True))
        for n, field in enumerate(fields):
            if event_rows[n]["status"] == Event.Status.FINISHED:
                order = list(range(len(field)))
                rng.shuffle(order)
                placements = [{"place": place, "entry_id": first_entry + i,
                               "name": names[field[i]], "stage": "qualifying", "prize": None}
                              for place, i in enumerate(order, start=1)]
                yield {"id": number, "event_id": event_id + n, "version": 1,
                       "rows": [], "tie_breaks": [], "placements": placements}
                number += 1
            first_entry += len(field)

    copy_rows(StandingsSnapshot, snapshots())
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    print(f"  archive written: {time.perf_counter() - started:.1f} s "
          f"({Entry.objects.count():,} entries)", flush=True)
    return {"players": player_names, "events": [r["name"] for r in event_rows],
            "clubs": [r["name"] for r in club_rows], "surnames": last_names}


# --- the query mix -----------------------------------------------------------------------------
def misspelt(rng: random.Random, name: str) -> str:
    """``name`` with two neighbouring letters of its longest word swapped."""
    words = name.split()
    longest = max(range(len(words)), key=lambda i: len(words[i]))
    word = words[longest]
    i = rng.randrange(1, len(word) - 2) if len(word) > 3 else 0
    words[longest] = word[:i] + word[i + 1] + word[i] + word[i + 2:]
    return " ".join(words)


def query_mix(rng: random.Random, names: dict[str, Any], count: int) -> list[tuple[str, str]]:
    """``count`` queries of each shape: (shape, q)."""
    out = []
    for _ in range(count):
        out.append(("exact player", rng.choice(names["players"])))
        out.append(("exact event", rng.choice(names["events"])))
        out.append(("exact club", rng.choice(names["clubs"])))
        surname = rng.choice(names["surnames"])
        out.append(("prefix", surname[:rng.randint(3, 5)]))
        first, last = rng.choice(names["players"]).split(" ", 1)
        out.append(("prefix", f"{first} {last[:3]}"))
        out.append(("misspelt player", misspelt(rng, rng.choice(names["players"]))))
        out.append(("misspelt club", misspelt(rng, rng.choice(names["clubs"]))))
        out.append(("date", f"{rng.choice(SEASONS)} {rng.randint(2016, 2025)}"))
    return out


def timed(fun: Callable[[], Any]) -> float:
    cache.clear()
    started = time.perf_counter()
    fun()
    return (time.perf_counter() - started) * 1000


def line(name: str, times: list[float], queries: int | str, target: float) -> bool:
    worst = p95(times)
    ok = worst < target
    print(f"  {name:<44} median {statistics.median(times):7.1f} ms   p95 {worst:7.1f} ms   "
          f"queries {queries!s:>3}   {'ok' if ok else 'OVER ' + str(int(target)) + ' ms'}",
          flush=True)
    return ok


def get_ok(client: Client, url: str, *, past_the_end: bool = False, **params: Any) -> Any:
    response = client.get(url, params)
    allowed = (200, 404) if past_the_end else (200,)  # a small archive's page 2 may not be
    assert response.status_code in allowed, (url, params, response.status_code,
                                             response.content[:300])
    return response


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clubs", type=int, default=2_000)
    parser.add_argument("--players", type=int, default=200_000)
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--real-events", type=int, default=20)
    parser.add_argument("--queries", type=int, default=15, help="queries of each shape (15)")
    parser.add_argument("--repeat", type=int, default=20, help="requests of each page (20)")
    parser.add_argument("--reuse", action="store_true")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        print("bench/search.py measures PostgreSQL: set DATABASE_URL (or run bench/standings.sh)")
        return 2
    rng = random.Random(20261128)
    call_command("migrate", verbosity=0)
    if args.reuse and Event.objects.exists():
        names = {"players": list(Player.objects.values_list("name", flat=True)[:50_000]),
                 "events": list(Event.objects.values_list("name", flat=True)[:50_000]),
                 "clubs": list(Club.objects.values_list("name", flat=True)),
                 "surnames": sorted({n.split(" ", 1)[1] for n in Player.objects.values_list(
                     "name", flat=True)[:50_000] if " " in n})}
    else:
        print(f"Writing {args.clubs:,} clubs, {args.players:,} players, {args.events:,} events",
              flush=True)
        names = archive(rng, clubs=args.clubs, players=args.players, events=args.events)
        started = time.perf_counter()
        profile_build(rng, events=args.real_events, rounds=3, deals=4, tables=4)
        real = Club.objects.order_by("-id").first()
        assert real is not None
        for event in Event.objects.filter(club=real):
            placements_store(event_id=event.pk, placements=event_placements_compute(event))
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        print(f"  {args.real_events} club nights played through the services: "
              f"{time.perf_counter() - started:.1f} s", flush=True)
    client = Client()
    ok = True
    print(f"Host load average (1, 5, 15 min) on {os.cpu_count()} cores: "
          f"{', '.join(f'{v:.1f}' for v in os.getloadavg())}", flush=True)
    print("Search (the API, all kinds, page 1; then one kind; then the page)", flush=True)
    mix = query_mix(rng, names, args.queries)
    by_shape: dict[str, list[float]] = {}
    counts: dict[str, int] = {}
    found = 0
    for shape, q in mix:
        answered: list[Any] = []
        by_shape.setdefault(shape, []).append(timed(
            lambda q=q, answered=answered: answered.append(get_ok(client, "/api/search/", q=q))))
        found += bool(answered[0].json()["count"])
        counts[shape] = counts.get(shape, 0) + 1
    every = [t for times in by_shape.values() for t in times]
    for shape, times in by_shape.items():
        ok &= line(f"api: {shape} ({counts[shape]})", times, "", SEARCH_TARGET_MS)
    sample = mix[0][1]
    ok &= line(f"api: every query ({len(every)}; {found} found something)", every,
               counted_queries(lambda: get_ok(client, "/api/search/", q=sample)),
               SEARCH_TARGET_MS)
    one_kind = [timed(lambda q=q: get_ok(client, "/api/search/", q=q, kind="players", page=2,
                                          past_the_end=True))
                for _, q in mix if _ == "prefix"]
    ok &= line("api: players, page 2 of a prefix", one_kind, "", SEARCH_TARGET_MS)
    page = [timed(lambda q=q: get_ok(client, "/search/", q=q)) for _, q in mix[::2]]
    ok &= line("page /search/?q= (all kinds)", page,
               counted_queries(lambda: get_ok(client, "/search/", q=sample)), SEARCH_TARGET_MS)

    print("Public pages", flush=True)
    real = Club.objects.order_by("-id").first()
    assert real is not None
    biggest = (Club.objects.filter(is_public=True).annotate(n=models.Count("events"))
               .order_by("-n").first())
    assert biggest is not None
    real_event = Event.objects.filter(club=real).order_by("-date").first()
    assert real_event is not None
    bulk_event = Event.objects.filter(club=biggest, status=Event.Status.FINISHED,
                                      is_public=True).first()
    assert bulk_event is not None
    pages = [
        (f"club page ({biggest.events.count()} events)", f"/clubs/{biggest.slug}/", {}),
        (f"club page (real, {real.events.count()} events)", f"/clubs/{real.slug}/", {}),
        ("event page (real)", f"/events/{real_event.pk}/", {}),
        ("event results (real standings)", f"/events/{real_event.pk}/standings/", {}),
        ("event page (bulk)", f"/events/{bulk_event.pk}/", {}),
        ("event results (bulk standings)", f"/events/{bulk_event.pk}/standings/", {}),
        ("feed /api/clubs/<slug>/results/", f"/api/clubs/{biggest.slug}/results/", {}),
        ("feed, page 2", f"/api/clubs/{biggest.slug}/results/", {"page": 2}),
    ]
    for name, url, params in pages:
        if "feed" in name and not _has_feed():
            continue
        times = [timed(lambda url=url, params=params: get_ok(client, url, **params))
                 for _ in range(args.repeat)]
        ok &= line(name, times,
                   counted_queries(lambda url=url, params=params: get_ok(client, url, **params)),
                   PAGE_TARGET_MS)
    return 0 if ok else 1


def _has_feed() -> bool:
    from django.urls import NoReverseMatch, reverse
    try:
        reverse("api-club-results", args=["x"])
    except NoReverseMatch:
        return False
    return True


if __name__ == "__main__":
    sys.exit(main())

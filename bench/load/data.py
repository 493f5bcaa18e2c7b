"""The load benchmark's data, written through the project's services (a script, not an app).

Run by ``bench/load/run.py`` with the stack's environment (production settings):

* ``python bench/load/data.py setup --tables N --deals D`` — a club (created once, public), its
  director, N×4 players, a running club night whose ruleset ends a game after D deals only (no
  target, so no game ends during the run) and its first round seated and started; prints one
  JSON object: the event, its ruleset and every table's token.
* ``python bench/load/data.py check --event E --answered FILE`` — after the run: waits until
  the standings snapshot has caught up with the hands (the Celery task, or the beat reconcile),
  then compares the hands stored with those the phones were answered 2xx for (``FILE``: JSON
  ``{token: [hand numbers]}``; each stored exactly once, with exactly one revision), and the
  snapshot's rows with a recomputation from the stored seat results and from the hands
  themselves (``standings_compute`` after re-deriving every game, rolled back). Prints JSON.
* ``python bench/load/data.py advancing --tables N --ending M --deals-end E --deals-long L`` —
  the two-node bench's room (``bench/load/twonodes.py``): a club night of N tables whose game
  goes on through the window and a progressive day of M tables (it seats itself) whose game ends
  after E deals; printed as ``night`` prints its events.
* ``python bench/load/data.py rounds --events E1,E2`` — each event's rounds: number, status and
  when it was created, started and closed (ISO times), to see an automatic advance happen.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402
from django.db.models import Count  # noqa: E402

from clubs.models import Club, Membership  # noqa: E402
from clubs.services import club_create, player_create  # noqa: E402
from draw import services as draw  # noqa: E402
from draw.services import event_status_set  # noqa: E402
from scoring.models import Hand, HandRevision  # noqa: E402
from standings.models import StandingsSnapshot  # noqa: E402
from standings.selectors import standings_compute  # noqa: E402
from standings.services import games_recompute  # noqa: E402
from tournaments import services as events  # noqa: E402
from tournaments.models import Event  # noqa: E402

SLUG = "load-bench"
PRESET = "pagat_double_deck"


class _Rollback(Exception):
    pass


def _bench_club() -> tuple[Club, Any]:
    """The bench's club and its director, made on the first run and found on the next."""
    users = get_user_model()
    director, _ = users.objects.get_or_create(username="bench-director",
                                              defaults={"email": "director@bench.invalid"})
    club = Club.objects.filter(slug=SLUG).first()
    if club is None:
        owner, _ = users.objects.get_or_create(username="bench-owner",
                                               defaults={"email": "owner@bench.invalid"})
        club = club_create(name="Load bench club", slug=SLUG, owner=owner,
                           ruleset_preset=PRESET, is_public=True)
        Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club, director


def setup(tables: int, deals: int) -> dict[str, Any]:
    club, director = _bench_club()
    overrides = {"game_target": None, "max_deals": deals}
    event = events.event_create(
        club=club, name=f"Load bench, {tables} tables", date=datetime.date.today(),
        actor=director, rounds_planned=2, deals_per_round=deals, ruleset_preset=PRESET,
        ruleset_overrides=overrides, seed=tables,
    )
    prefix = f"E{event.pk}"
    players = [player_create(club=club, name=f"{prefix} player {i + 1}")
               for i in range(tables * 4)]
    events.entries_create_many(event=event, players=players, actor=director)
    round_ = draw.round_create(event=event, actor=director)
    draw.round_set_status(round_=round_, status="playing", actor=director)
    tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
    if len(tokens) != tables:
        raise SystemExit(f"expected {tables} tables, the round has {len(tokens)}")
    return {"event": event.pk, "round": round_.number, "preset": PRESET,
            "overrides": overrides, "tokens": tokens}


def night(events: int, tables: int, deals_end: int, deals_long: int, seed: int
          ) -> dict[str, Any]:
    """A Saturday night: one championship (a fifth of the tables, at least 8) whose game goes
    on through the window, and ``events - 1`` club nights and progressive days (every tenth) of
    2–12 tables, whose game ends after ``deals_end`` deals (their round ends bunched), all
    seated and started through the services. Prints the events with their tokens."""
    import random

    if events < 2 or tables < 8 + 2 * (events - 1):
        raise SystemExit(f"{events} events need at least {8 + 2 * (events - 1)} tables")
    rng = random.Random(seed)
    championship = max(8, tables // 5)
    rest = tables - championship
    sizes = [2] * (events - 1)
    left = rest - sum(sizes)
    while left > 0:  # spread the rest, smaller events the likelier, none over 12
        i = rng.randrange(len(sizes))
        if sizes[i] < 12 and rng.random() < 3 / sizes[i]:
            sizes[i] += 1
            left -= 1
        if all(size >= 12 for size in sizes):
            championship += left
            break
    club, director = _bench_club()
    out = []
    for number, size in enumerate([championship, *sizes]):
        ends = number > 0
        deals = deals_end if ends else deals_long
        overrides = {"game_target": None, "max_deals": deals}
        progressive = ends and number % 10 == 0
        kind = "championship" if not ends else "progressive day" if progressive else "club night"
        extra: dict[str, Any] = {}
        if progressive:
            extra = {"format": Event.Format.INDIVIDUAL_PROGRESSIVE,
                     "format_settings": {"cut": 0}}
        event = events_create(club=club, director=director, kind=kind, number=number,
                              tables=size, deals=deals, overrides=overrides, extra=extra)
        out.append({"event": event["event"], "kind": kind, "tables": size,
                    "tokens": event["tokens"], "overrides": overrides, "ends": ends})
    return {"preset": PRESET, "events": out}


def advancing(tables: int, ending: int, deals_end: int, deals_long: int) -> dict[str, Any]:
    """A club night that plays on and a progressive day whose game ends, both seated and
    started: the progressive day's round, once every game is confirmed, closes and the next
    one is seated by the worker (the automatic advance), wherever the web requests landed."""
    club, director = _bench_club()
    out = []
    for number, (kind, size, deals) in enumerate((("club night", tables, deals_long),
                                                  ("progressive day", ending, deals_end))):
        ends = number > 0
        overrides = {"game_target": None, "max_deals": deals}
        extra: dict[str, Any] = ({"format": Event.Format.INDIVIDUAL_PROGRESSIVE,
                                  "format_settings": {"cut": 0}} if ends else {})
        event = events_create(club=club, director=director, kind=kind, number=number,
                              tables=size, deals=deals, overrides=overrides, extra=extra)
        out.append({"event": event["event"], "kind": kind, "tables": size,
                    "tokens": event["tokens"], "overrides": overrides, "ends": ends})
    return {"preset": PRESET, "events": out}


def rounds(event_ids: list[int]) -> dict[str, Any]:
    """Each event's rounds as they stand (for the automatic advance)."""
    from tournaments.models import Round

    def when(moment: datetime.datetime | None) -> str | None:
        return moment.isoformat() if moment else None

    out: dict[str, list[dict[str, Any]]] = {}
    for row in Round.objects.filter(event_id__in=event_ids).order_by("event_id", "number"):
        out.setdefault(str(row.event_id), []).append({
            "number": row.number, "status": row.status, "created": when(row.created_at),
            "started": when(row.started_at), "closed": when(row.closed_at)})
    return {"events": out}


def events_create(*, club: Club, director: Any, kind: str, number: int, tables: int, deals: int,
                  overrides: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """One event of the night, its first round seated and started."""
    event = events.event_create(
        club=club, name=f"Night {number + 1}: {kind}, {tables} tables",
        date=datetime.date.today(), actor=director, rounds_planned=2, deals_per_round=deals,
        ruleset_preset=PRESET, ruleset_overrides=overrides, seed=number + 1, **extra,
    )
    players = [player_create(club=club, name=f"E{event.pk} player {i + 1}")
               for i in range(tables * 4)]
    events.entries_create_many(event=event, players=players, actor=director)
    if event.status != Event.Status.RUNNING:
        event = event_status_set(event=event, status=Event.Status.RUNNING, actor=director)
    round_ = draw.round_create(event=event, actor=director)
    draw.round_set_status(round_=round_, status="playing", actor=director)
    tokens = list(round_.tables.order_by("number").values_list("token", flat=True))
    if len(tokens) != tables:
        raise SystemExit(f"event {event.pk}: expected {tables} tables, the round has "
                         f"{len(tokens)}")
    return {"event": event.pk, "tokens": tokens}


def _snapshot_caught_up(event_id: int, wait: float) -> tuple[bool, float]:
    """Until the snapshot has caught up with the hands and no hand has come in for a second
    (a save the phone gave up on may still be running on a web worker of a machine loaded far
    past its cores; compared before it commits, the snapshot would look wrong); at most
    ``wait`` seconds."""
    started = time.monotonic()
    last, still_since = None, time.monotonic()
    while True:
        event = Event.objects.get(pk=event_id)
        if event.hands_version != last:
            last, still_since = event.hands_version, time.monotonic()
        snap = StandingsSnapshot.objects.filter(event_id=event_id).first()
        if snap is not None and snap.source_version >= event.hands_version \
                and time.monotonic() - still_since >= 1.0:
            return True, time.monotonic() - started
        if time.monotonic() - started > wait:
            return False, time.monotonic() - started
        time.sleep(0.25)


def _row_differences(snapshot: list[Any], again: list[Any]) -> list[str]:
    """The first few standings rows that differ, field by field (snapshot -> recomputed)."""
    out = []
    if len(snapshot) != len(again):
        out.append(f"{len(snapshot)} rows -> {len(again)}")
    for old, new in zip(snapshot, again, strict=False):
        if old != new and isinstance(old, dict) and isinstance(new, dict):
            fields = {k: (old.get(k), new.get(k)) for k in sorted(set(old) | set(new))
                      if old.get(k) != new.get(k)}
            out.append(f"row {old.get('entry', old.get('rank'))}: {fields}")
        if len(out) >= 3:
            break
    return out


def check(event_id: int, answered: dict[str, list[int]], unanswered: dict[str, list[int]],
          wait: float) -> dict[str, Any]:
    problems: list[str] = []
    caught_up, waited = _snapshot_caught_up(event_id, wait)
    if not caught_up:
        problems.append(f"standings still behind the hands after {wait:.0f} s")
    hands = (Hand.objects.filter(game__table__round__event_id=event_id)
             .annotate(n_revisions=Count("revisions"))
             .values_list("game__table__token", "number", "n_revisions"))
    stored: dict[str, list[int]] = {}
    revisions = 0
    for token, number, count in hands:
        stored.setdefault(token, []).append(number)
        revisions += count
        if count != 1:
            problems.append(f"table {token[:8]}… hand {number} has {count} revisions")
    all_revisions = HandRevision.objects.filter(hand__game__table__round__event_id=event_id).count()
    answered_total = sum(len(v) for v in answered.values())
    from_lost = 0
    for token in sorted(set(stored) | set(answered)):
        have, want = set(stored.get(token, [])), set(answered.get(token, []))
        maybe = set(unanswered.get(token, []))
        from_lost += len((have - want) & maybe)
        if want - have or (have - want) - maybe:
            problems.append(f"table {token[:8]}…: stored hands {sorted(have)}, answered 2xx "
                            f"{sorted(want)}, sent without an answer {sorted(maybe)}")
    event = Event.objects.get(pk=event_id)
    snap = StandingsSnapshot.objects.get(event_id=event_id)
    equal_stored = standings_compute(event=event).rows == snap.rows
    differences: list[str] = []
    try:
        with transaction.atomic():
            games_recompute(event=event)
            # Every figure, the rounds seated but not yet played included (the next round of
            # an automatic advance): re-deriving the games leaves those without results, as
            # the live path does until their first hand.
            again = standings_compute(event=event).rows
            equal_hands = again == snap.rows
            if not equal_hands:
                differences = _row_differences(snap.rows, again)
            raise _Rollback
    except _Rollback:
        pass
    if not equal_stored:
        problems.append("the snapshot differs from standings_compute over the stored results")
    if not equal_hands:
        problems.append("the snapshot differs from the standings recomputed from the hands: "
                        + "; ".join(differences))
    return {
        "ok": not problems, "answered": answered_total, "stored_hands": sum(map(len, stored.values())),
        "revisions": all_revisions, "stored_without_answer": from_lost, "standings_equal": equal_stored and equal_hands,
        "snapshot_version": snap.version, "waited_for_standings_s": round(waited, 2),
        "problems": problems[:20],
    }


def check_night(event_ids: list[int], answered: dict[str, list[int]],
                unanswered: dict[str, list[int]], wait: float) -> dict[str, Any]:
    """:func:`check` for every event of a night (each with its own tables' answers), within one
    wait for them all."""
    deadline = time.monotonic() + wait
    results = {}
    for event_id in event_ids:
        tokens = set(Event.objects.filter(pk=event_id).values_list(
            "rounds__tables__token", flat=True))
        mine = {t: v for t, v in answered.items() if t in tokens}
        lost = {t: v for t, v in unanswered.items() if t in tokens}
        results[event_id] = check(event_id, mine, lost, max(5.0, deadline - time.monotonic()))
    problems = [f"event {e}: {p}" for e, r in results.items() for p in r["problems"]]
    return {
        "ok": all(r["ok"] for r in results.values()), "events": len(results),
        "answered": sum(r["answered"] for r in results.values()),
        "stored_hands": sum(r["stored_hands"] for r in results.values()),
        "revisions": sum(r["revisions"] for r in results.values()),
        "stored_without_answer": sum(r["stored_without_answer"] for r in results.values()),
        "standings_equal": all(r["standings_equal"] for r in results.values()),
        "snapshot_versions": {str(e): r["snapshot_version"] for e, r in results.items()},
        "waited_for_standings_s": max(r["waited_for_standings_s"] for r in results.values()),
        "problems": problems[:20],
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("setup")
    one.add_argument("--tables", type=int, required=True)
    one.add_argument("--deals", type=int, required=True)
    two = sub.add_parser("check")
    two.add_argument("--event", type=int, required=True)
    two.add_argument("--answered", type=Path, required=True)
    two.add_argument("--wait", type=float, default=45.0)
    three = sub.add_parser("night")
    three.add_argument("--events", type=int, required=True)
    three.add_argument("--tables", type=int, required=True)
    three.add_argument("--deals-end", type=int, required=True)
    three.add_argument("--deals-long", type=int, required=True)
    three.add_argument("--seed", type=int, default=2026)
    four = sub.add_parser("check-night")
    four.add_argument("--events", required=True, help="event ids, comma-separated")
    four.add_argument("--answered", type=Path, required=True)
    four.add_argument("--wait", type=float, default=60.0)
    five = sub.add_parser("advancing")
    five.add_argument("--tables", type=int, required=True)
    five.add_argument("--ending", type=int, required=True)
    five.add_argument("--deals-end", type=int, required=True)
    five.add_argument("--deals-long", type=int, required=True)
    six = sub.add_parser("rounds")
    six.add_argument("--events", required=True, help="event ids, comma-separated")
    args = parser.parse_args()
    if args.command == "setup":
        out = setup(args.tables, args.deals)
    elif args.command == "night":
        out = night(args.events, args.tables, args.deals_end, args.deals_long, args.seed)
    elif args.command == "advancing":
        out = advancing(args.tables, args.ending, args.deals_end, args.deals_long)
    elif args.command == "rounds":
        out = rounds([int(x) for x in args.events.split(",")])
    elif args.command == "check-night":
        sent = json.loads(args.answered.read_text())
        out = check_night([int(x) for x in args.events.split(",")], sent["answered"],
                          sent.get("unanswered", {}), args.wait)
    else:
        sent = json.loads(args.answered.read_text())
        out = check(args.event, sent["answered"], sent.get("unanswered", {}), args.wait)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

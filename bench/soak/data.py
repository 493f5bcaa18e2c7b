"""The soak's data, written and read through the project's code (a script, not an app).

Run by ``bench/soak.py`` with the stack's environment (production settings):

* ``python bench/soak/data.py setup --tables N --games G`` — a club (created once, public), its
  director with an API token, N×4 players checked in to a running progressive day of G
  qualifying games of the format's deals and no cut (every game seats every table); prints one
  JSON object: the event, the director's token, the ruleset, the deals per game, the
  tie-breaks in force and every entry's name. The director seats game 1 through the API;
  the automatic advance (the Celery worker) seats the others.
* ``python bench/soak/data.py dump --event E`` — after the day: every live hand's values by
  (game, table, hand number), each hand's revision count, the seats of every game, the
  standings snapshot's rows with its versions, and the game statuses; printed as one JSON
  object for the pure comparison in ``bench/soak/recompute.py``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.production")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db.models import Count  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from clubs.models import Club, Membership  # noqa: E402
from clubs.services import club_create, player_create  # noqa: E402
from draw.services import event_status_set  # noqa: E402
from ranking import tie_breaks_in_force  # noqa: E402
from scoring.models import Game, HandRevision  # noqa: E402
from scoring.selectors import revision_values  # noqa: E402
from standings.models import StandingsSnapshot  # noqa: E402
from tournaments import services as events  # noqa: E402
from tournaments.models import Event, Seat  # noqa: E402

SLUG = "soak-bench"
PRESET = "npa_double_deck"


def setup(tables: int, games: int) -> dict[str, Any]:
    users = get_user_model()
    director, _ = users.objects.get_or_create(username="soak-director",
                                              defaults={"email": "director@soak.invalid"})
    club = Club.objects.filter(slug=SLUG).first()
    if club is None:
        owner, _ = users.objects.get_or_create(username="soak-owner",
                                               defaults={"email": "owner@soak.invalid"})
        club = club_create(name="Soak bench club", slug=SLUG, owner=owner,
                           ruleset_preset=PRESET, is_public=True)
        Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    token, _ = Token.objects.get_or_create(user=director)
    event = events.event_create(
        club=club, name=f"Soak bench, {tables} tables × {games} games",
        date=datetime.date.today(), actor=director, format=Event.Format.INDIVIDUAL_PROGRESSIVE,
        format_settings={"cut": 0}, rounds_planned=games, ruleset_preset=PRESET,
        seed=tables * 100 + games,
    )
    prefix = f"E{event.pk}"
    players = [player_create(club=club, name=f"{prefix} player {i + 1:03d}")
               for i in range(tables * 4)]
    entries = events.entries_create_many(event=event, players=players, actor=director)
    event = event_status_set(event=event, status=Event.Status.RUNNING, actor=director)
    return {
        "event": event.pk, "director_token": token.key, "preset": event.ruleset_preset,
        "overrides": event.ruleset_overrides or {}, "deals": event.deals_per_round,
        "games": games, "tables": tables,
        "tie_breaks": tie_breaks_in_force(event.tie_breaks, partnership=event.partnership),
        "entries": {str(e.pk): e.player.name for e in entries},
    }


def dump(event_id: int) -> dict[str, Any]:
    event = Event.objects.get(pk=event_id)
    hands: list[dict[str, Any]] = []
    live = (HandRevision.objects.filter(hand__game__table__round__event=event, is_live=True,
                                        hand__deleted_at__isnull=True)
            .select_related("hand__game__table__round"))
    for revision in live:
        table = revision.hand.game.table
        hands.append({"game": table.round.number, "table": table.number,
                      "number": revision.hand.number, "values": revision_values(revision)})
    revisions = (HandRevision.objects.filter(hand__game__table__round__event=event)
                 .values("hand_id").annotate(n=Count("id")).filter(n__gt=1).count())
    seats: dict[str, dict[str, dict[str, int]]] = {}
    for game, table, position, entry in Seat.objects.filter(
            table__round__event=event).values_list("table__round__number", "table__number",
                                                   "position", "entry_id"):
        seats.setdefault(str(game), {}).setdefault(str(table), {})[position] = entry
    statuses: dict[str, int] = {}
    for status in Game.objects.filter(table__round__event=event).values_list("status", flat=True):
        statuses[status] = statuses.get(status, 0) + 1
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    return {
        "event": event.pk, "hands_version": event.hands_version, "hands": hands,
        "hands_with_more_revisions": revisions, "seats": seats, "game_statuses": statuses,
        "rounds": list(event.rounds.order_by("number").values_list("number", "status")),
        "snapshot": None if snapshot is None else {
            "rows": snapshot.rows, "version": snapshot.version,
            "source_version": snapshot.source_version},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    one = sub.add_parser("setup")
    one.add_argument("--tables", type=int, required=True)
    one.add_argument("--games", type=int, required=True)
    two = sub.add_parser("dump")
    two.add_argument("--event", type=int, required=True)
    two.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "setup":
        print(json.dumps(setup(args.tables, args.games)))
    else:
        args.out.write_text(json.dumps(dump(args.event)))
        print(json.dumps({"written": str(args.out)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

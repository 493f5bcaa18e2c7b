"""``manage.py rebuild_ratings``: every player's rating from scratch, from the confirmed games.

Ratings are derived: the confirmed games are the truth. The tasks keep ratings up to date as games
are confirmed or corrected; this command makes them agree with the games whatever happened in
between (a worker that was down, an event deleted or re-dated, a merge of two players). Safe at
any time: with nothing changed it writes the same ratings again.

``--since YYYY-MM-DD`` replays only the games played from that date on, starting from the ratings
as they stood before it (the same as a full rebuild when nothing earlier changed). There is no
``--club``: a rating is one number per person across clubs, so a change in one club's games moves
every later game of those players, wherever it was played.
"""

from __future__ import annotations

import datetime
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from league.models import PlayerRating
from league.ratings import order_key, ratings_rebuild, ratings_replay_from


class Command(BaseCommand):
    help = "Rebuild players' skill ratings from the confirmed games."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--since", metavar="YYYY-MM-DD",
                            help="replay only the games played from this date on")

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.perf_counter()
        since = options.get("since")
        if since:
            try:
                day = datetime.date.fromisoformat(since)
            except ValueError:
                raise CommandError(f"--since: {since!r} is not a date (YYYY-MM-DD).") from None
            games = ratings_replay_from(key=order_key(date=day, event_id=0, round_number=0,
                                                      table_number=0, game_id=0))
        else:
            games = ratings_rebuild()
        self.stdout.write(
            f"{games} games rated, {PlayerRating.objects.count()} players with a rating, "
            f"{(time.perf_counter() - started) * 1000:.0f} ms")

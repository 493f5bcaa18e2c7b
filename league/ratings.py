"""Rating services: players' skill ratings from confirmed games (``ranking.ratings`` does the
maths; this module reads the games and stores ``PlayerRating`` and ``RatingChange`` rows).

Games are rated in *playing order* (event date, event, round, table, game), whatever order they
were confirmed in. Every change goes through :func:`ratings_replay_from`: the ratings as they
stood before the first affected game are restored from the history, everything from that game on
is deleted and rated again. So confirming a game late, correcting a confirmed game, confirming it
twice or running the task twice all leave exactly what a rebuild from scratch
(:func:`ratings_rebuild`, ``manage.py rebuild_ratings``) leaves.

One writer at a time: a transaction-scoped advisory lock on PostgreSQL (SQLite serialises writers
itself). Ratings are per person across clubs, so the lock is global; a replay is short.

**What is rated.** A rating is one public number per person, shown to everyone who may see a
club the player is on the roster of. So it counts only games anyone may see: games of public
events of public clubs. A hidden event's games, and a private club's, are never rated (they
would move a number strangers read, and name a player who played nowhere else); a club that
wants its nights rated plays them in public. Changing an event's or a club's visibility replays
the ratings (``league.signals``).

**An event counted once.** An archive imported into a second club (``archive``) makes a second
event with the same identity: the same name, date and creation time, which the import keeps.
Only the first of those events (the original, or the first import when the original is on
another site) is rated: the same games played once count once.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from clubs.models import Player
from common.rulesets import ruleset_for
from ranking.ratings import (
    GameResult,
    Rating,
    RatingInputError,
    RatingSettings,
    Side,
    rate_game,
)
from scoring.models import Game, SeatResult
from tournaments.models import Event

from .models import PlayerRating, RatingChange

# The model and parameters in force. bench/ratings.py compares the alternatives: point margins
# above 0.3 of the target (150 points of 500) recovered known skills as well as win/loss alone
# after 8 and 16 games a player (differences within the noise) and better after 32 (Spearman
# +0.02 ± 0.005, paired over 20 simulated leagues); smaller margins did worse.
SETTINGS = RatingSettings(model="plackett_luce", margin=0.3)
# pg_advisory_xact_lock key: "ratings" spelt in ASCII.
_LOCK_KEY = 0x7261_7469_6E67_73


@dataclass(frozen=True)
class RatedGame:
    """A confirmed game as it is rated."""

    game_id: int
    event_id: int
    order_key: str
    at: datetime.datetime
    result: GameResult

    @property
    def digest(self) -> str:
        text = json.dumps([self.order_key, [[list(s.players), s.points] for s in self.result.sides],
                           self.result.winner, self.result.scale])
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def players(self) -> list[int]:
        return [p for side in self.result.sides for p in side.players]


def order_key(*, date: datetime.date, event_id: int, round_number: int, table_number: int,
              game_id: int) -> str:
    """Sorts games in playing order as text (fixed-width fields)."""
    return (f"{date.isoformat()}/{event_id:012d}/{round_number:05d}/{table_number:05d}/"
            f"{game_id:012d}")


def _lock(*, wait: bool = True) -> bool:
    """The ratings' lock, held to the end of the transaction (one replay at a time); without
    ``wait``, False at once when another transaction holds it."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        if wait:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_LOCK_KEY])
            return True
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [_LOCK_KEY])
        return bool(cursor.fetchone()[0])


def _scale(preset: str, overrides: Mapping[str, object] | None) -> int:
    ruleset = ruleset_for(preset=preset, overrides=overrides)
    return int(ruleset.game_target or 10 * ruleset.counters_total)


def rated_events() -> QuerySet[Event, Any]:
    """The events whose games are rated: public events of public clubs, less the imported
    copies of an event already here (an event of the same name, date and creation time as an
    earlier one, in any club: only an import makes one, since it keeps the creation time)."""
    earlier = Event.objects.filter(name=OuterRef("name"), date=OuterRef("date"),
                                   created_at=OuterRef("created_at"), pk__lt=OuterRef("pk"))
    return (Event.objects.filter(is_public=True, club__is_public=True)
            .exclude(Exists(earlier)).values("pk"))


def event_key(*, date: datetime.date, event_id: int) -> str:
    """The order key before every game of the event (a replay from it re-rates the event)."""
    return f"{date.isoformat()}/{event_id:012d}/"


def _at_or_after(key: str, path: str) -> Q:
    """Games (through ``path``, the lookup from the queried model to the round) in the rounds
    at or after ``key``'s: a later date; the same date and a later event; the same event and
    the same or a later round. (The table and game parts of a key are left to the caller: the
    filter reads no more than the key's round.)"""
    parts = key.split("/")
    date = datetime.date.fromisoformat(parts[0])
    later = Q(**{f"{path}event__date__gt": date})
    if len(parts) < 2 or not parts[1]:
        return later | Q(**{f"{path}event__date": date})
    event_id = int(parts[1])
    same_date = Q(**{f"{path}event__date": date})
    if len(parts) < 3 or not parts[2]:
        return later | same_date & Q(**{f"{path}event_id__gte": event_id})
    return later | same_date & (Q(**{f"{path}event_id__gt": event_id})
                                | Q(**{f"{path}event_id": event_id,
                                       f"{path}number__gte": int(parts[2])}))


def rated_games(*, since: str | None = None,
                game_ids: Collection[int] | None = None) -> list[RatedGame]:
    """The confirmed games (those at or after the order key ``since``, or those of
    ``game_ids``) as they are rated, in playing order. Games that cannot be rated (fewer than
    two sides seated) are left out, and so are walkovers (a forfeited game was not played out:
    it says nothing of skill)."""
    # The ids first: inside the games' query the planner may run the imported-copy check
    # (a correlated NOT EXISTS over events) once per seat result, which on a few years of
    # nights takes minutes; as a list it is one pass over the events.
    events = list(rated_events().values_list("pk", flat=True))
    games = Game.objects.filter(status=Game.Status.CONFIRMED, forfeit="",
                                table__round__event__in=events)
    results = SeatResult.objects.filter(game__status=Game.Status.CONFIRMED, game__forfeit="",
                                        game__table__round__event__in=events)
    if since:
        # the key's round and after (not its whole date: a replay late in a day of 10 games
        # read the 1,150 games before it, each time)
        games = games.filter(_at_or_after(since, "table__round__"))
        results = results.filter(_at_or_after(since, "game__table__round__"))
    if game_ids is not None:
        games = games.filter(pk__in=list(game_ids))
        results = results.filter(game_id__in=list(game_ids))
    sides: dict[int, dict[str, list[tuple[int, int]]]] = defaultdict(dict)
    for game_id, side, points, player_id in results.values_list(
            "game_id", "side", "points", "entry__player_id"):
        sides[game_id].setdefault(side, []).append((player_id, points))
    rated: list[RatedGame] = []
    for row in games.values(
            "pk", "winner", "confirmed_at", "updated_at", "table__number",
            "table__round__number", "table__round__event_id", "table__round__event__date",
            "table__round__event__ruleset_preset", "table__round__event__ruleset_overrides"):
        by_side = sides.get(row["pk"], {})
        names = sorted(by_side)
        result = GameResult(
            sides=tuple(Side(players=tuple(sorted(p for p, _ in by_side[name])),
                             points=by_side[name][0][1]) for name in names),
            winner=names.index(row["winner"]) if row["winner"] in names else None,
            scale=_scale(row["table__round__event__ruleset_preset"],
                         row["table__round__event__ruleset_overrides"]),
        )
        if len(result.sides) < 2:
            continue
        rated.append(RatedGame(
            game_id=row["pk"], event_id=row["table__round__event_id"],
            order_key=order_key(date=row["table__round__event__date"],
                                event_id=row["table__round__event_id"],
                                round_number=row["table__round__number"],
                                table_number=row["table__number"], game_id=row["pk"]),
            at=row["confirmed_at"] or row["updated_at"], result=result,
        ))
    rated.sort(key=lambda g: g.order_key)
    return [g for g in rated if g.order_key >= since] if since else rated


def _ratings_before(key: str, players: Collection[int]) -> dict[int, Rating]:
    """Each player's rating just before the game at ``key`` (from the history)."""
    if not key or not players:
        return {}
    latest = (RatingChange.objects.filter(player_id=OuterRef("pk"), order_key__lt=key)
              .order_by("-order_key").values("pk")[:1])
    last_ids = [pk for pk in Player.objects.filter(pk__in=list(players))
                .annotate(last=Subquery(latest)).values_list("last", flat=True) if pk]
    return {
        player_id: Rating(mu, sigma)
        for player_id, mu, sigma in RatingChange.objects.filter(pk__in=last_ids)
        .values_list("player_id", "mu_after", "sigma_after")
    }


def _replay(key: str) -> int:
    games = rated_games(since=key)
    stale = RatingChange.objects.filter(order_key__gte=key) if key else RatingChange.objects.all()
    touched = set(stale.values_list("player_id", flat=True).distinct())
    for game in games:
        touched.update(game.players)
    stale.delete()
    current = _ratings_before(key, touched)
    initial = SETTINGS.initial()
    rows: list[RatingChange] = []
    for game in games:
        try:
            after = rate_game(current, game.result, SETTINGS)
        except RatingInputError:
            continue  # e.g. a player seated on both sides by a data error: not rated
        digest = game.digest
        for player_id, new in after.items():
            old = current.get(player_id, initial)
            rows.append(RatingChange(
                player_id=player_id, game_id=game.game_id, event_id=game.event_id,
                order_key=game.order_key, inputs=digest, at=game.at,
                mu_before=old.mu, sigma_before=old.sigma, mu_after=new.mu, sigma_after=new.sigma,
            ))
        current.update(after)
    RatingChange.objects.bulk_create(rows, batch_size=1000)
    _store_current(touched, current)
    return len(games)


def _store_current(players: Iterable[int], current: dict[int, Rating]) -> None:
    players = set(players)
    counts = dict(RatingChange.objects.filter(player_id__in=list(players)).order_by()
                  .values("player_id").annotate(n=Count("id")).values_list("player_id", "n"))
    now = timezone.now()
    keep = [PlayerRating(player_id=p, mu=current[p].mu, sigma=current[p].sigma, games=counts[p],
                         updated_at=now)
            for p in sorted(players) if counts.get(p) and p in current]
    PlayerRating.objects.filter(player_id__in=list(players - {r.player_id for r in keep})).delete()
    PlayerRating.objects.bulk_create(
        keep, batch_size=1000, update_conflicts=True, unique_fields=["player"],
        update_fields=["mu", "sigma", "games", "updated_at"],
    )


@transaction.atomic
def ratings_replay_from(*, key: str) -> int:
    """Rate again every confirmed game from ``key`` (an order key) on, starting from the ratings
    as they stood before it; ``""`` rebuilds everything. Returns the number of games rated."""
    _lock()
    return _replay(key)


@transaction.atomic
def ratings_rebuild() -> int:
    """Every rating from scratch, from the confirmed games (``manage.py rebuild_ratings``)."""
    _lock()
    return _replay("")


def _stale_keys(game_ids: Collection[int]) -> list[str] | None:
    """Where the ratings of these games are not what the games say now: the order keys a
    replay must start at or before (a changed game's old and new keys, a new game's key); None
    when none of them is confirmed nor was ever rated."""
    now = {game.game_id: game for game in rated_games(game_ids=game_ids)}
    stored: dict[int, set[tuple[str, str]]] = defaultdict(set)
    for game_id, key, inputs in RatingChange.objects.filter(game_id__in=list(game_ids)) \
            .values_list("game_id", "order_key", "inputs"):
        stored[game_id].add((key, inputs))
    if not now and not stored:
        return None
    keys: list[str] = []
    for game_id in set(now) | set(stored):
        game, was = now.get(game_id), stored.get(game_id, set())
        if game is not None and was == {(game.order_key, game.digest)}:
            continue
        keys += [key for key, _ in was] + ([game.order_key] if game is not None else [])
    return keys


def _rounds_games(game_ids: Collection[int]) -> list[int]:
    """The games of these games' rounds (a game that is gone, alone)."""
    rounds = set(Game.objects.filter(pk__in=list(game_ids))
                 .values_list("table__round_id", flat=True))
    found = set(Game.objects.filter(table__round_id__in=rounds).values_list("pk", flat=True))
    return sorted(found | set(game_ids))


def ratings_game_update(*, game_id: int, wait: bool = True) -> str:
    """:func:`ratings_games_update` for one game (and the rest of its round)."""
    return ratings_games_update(game_ids=[game_id], wait=wait)


@transaction.atomic
def ratings_games_update(*, game_ids: Collection[int], wait: bool = True) -> str:
    """Bring the ratings up to date with these games and the rest of their rounds, after they
    were confirmed or changed: nothing when what was rated is what the rounds' games say now
    (a second run, a re-confirmation of the same result, or a run for a game another run
    already covered), otherwise one replay from the earliest place where the rounds' ratings
    differ from their games. One run covers the confirmations queued meanwhile (at a night's
    round end, hundreds in a few seconds across many events:
    ``common.tasks.ratings_request_update`` queues one run for them); the rounds, not the
    events, so that the check does not grow with the day. Returns ``"unchanged"``,
    ``"rated"``, ``"skipped"`` (nothing in the rounds confirmed nor ever rated) or, without
    ``wait`` while another replay holds the lock, ``"busy"`` (the caller asks again later)."""
    games = _rounds_games(game_ids)
    keys = _stale_keys(games)  # read before waiting: a run after another's replay ends here
    if keys is None:
        return "skipped"
    if not keys:
        return "unchanged"
    if not _lock(wait=wait):
        return "busy"
    keys = _stale_keys(games) or []
    if not keys:
        return "unchanged"  # a replay that held the lock while this one waited covered it
    _replay(min(keys))
    return "rated"


@transaction.atomic
def ratings_event_update(*, event_id: int) -> int:
    """Rate again from the event's first game on (its visibility changed, or it was imported);
    returns the number of games rated. Nothing for an event that no longer exists."""
    date = Event.objects.filter(pk=event_id).values_list("date", flat=True).first()
    if date is None:
        return 0
    _lock()
    return _replay(event_key(date=date, event_id=event_id))

"""Reads shared by the league pages, the API and other apps: ratings and their history, seasons
and their leaderboards."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from clubs.models import Club
from clubs.permissions import can_view_event
from ranking.ratings import ordinal
from tournaments.models import Event

from .models import PlayerRating, RatingChange


# --- ratings --------------------------------------------------------------------------------------
def rating_row(mu: float, sigma: float, games: int) -> dict[str, Any]:
    return {"mu": mu, "sigma": sigma, "ordinal": ordinal(mu, sigma), "games": games}


def ratings_for(*, player_ids: Iterable[int]) -> dict[int, dict[str, Any]]:
    """Current ratings of the players who have one (confirmed games rated), by player id:
    ``mu``, ``sigma``, ``ordinal`` (what the leaderboards show as the rating: mu - 3 sigma) and
    ``games``. Players never rated are absent."""
    ids = list(player_ids)
    if not ids:
        return {}
    return {
        player_id: rating_row(mu, sigma, games)
        for player_id, mu, sigma, games in PlayerRating.objects.filter(player_id__in=ids)
        .values_list("player_id", "mu", "sigma", "games")
    }


def rating_history(*, player_id: int, user: Any = None) -> list[dict[str, Any]]:
    """The player's rating after each rated game, oldest first (playing order): ``at`` (when the
    game was confirmed, or when it ended), ``game_id``, ``event_id``, ``event_name``, ``mu``,
    ``sigma``, ``ordinal``.

    With ``user`` given, a game of an event that user may not see keeps its point (the rating
    moved) but not its names: ``event_id`` and ``game_id`` are None and ``event_name`` says
    "Private event". Without ``user`` nothing is hidden (callers that checked already)."""
    rows = list(
        RatingChange.objects.filter(player_id=player_id).order_by("order_key")
        .values("at", "game_id", "event_id", "event__name", "event__is_public", "event__club_id",
                "mu_after", "sigma_after")
    )
    visible: dict[int, bool] = {}
    if user is not None:
        events = Event.objects.filter(pk__in={r["event_id"] for r in rows}).select_related("club")
        visible = {e.pk: can_view_event(user=user, event=e) for e in events}
    history = []
    for r in rows:
        shown = user is None or visible.get(r["event_id"], False)
        history.append({
            "at": r["at"],
            "game_id": r["game_id"] if shown else None,
            "event_id": r["event_id"] if shown else None,
            "event_name": r["event__name"] if shown else "Private event",
            "mu": r["mu_after"], "sigma": r["sigma_after"],
            "ordinal": ordinal(r["mu_after"], r["sigma_after"]),
        })
    return history


def club_ratings(*, club: Club) -> list[dict[str, Any]]:
    """The club's roster players who have a rating, best rating first; level ratings share a
    rank. Each row: ``player_id``, ``name``, ``rank`` and the rating (:func:`rating_row`)."""
    rows = [
        {"player_id": player_id, "name": name, **rating_row(mu, sigma, games)}
        for player_id, name, mu, sigma, games in PlayerRating.objects.filter(
            player__club_links__club=club).values_list(
            "player_id", "player__name", "mu", "sigma", "games")
    ]
    rows.sort(key=lambda r: (-r["ordinal"], r["name"], r["player_id"]))
    previous: float | None = None
    rank = 0
    for position, row in enumerate(rows, start=1):
        if row["ordinal"] != previous:
            rank, previous = position, row["ordinal"]
        row["rank"] = rank
    return rows

"""Partners varied across a season of club nights (pure Python).

A club night avoids repeat partners within the evening (``pairing.rotation``). Regulars who come
every week should also meet new partners from one week to the next, so the rotation takes the
club's recent nights into account as a *soft* constraint after the evening's own.

Vocabulary, as this module uses it:

* **night** — one club night: its rounds (``RoundPlan``), in order.
* **partnership** — two players on one side at a table in one round (N–S or E–W at a table of
  four; two players of one team at tables of six or eight).
* **season history** — for each pair of players who partnered on an earlier night, the nights
  since each time they did (1 = the previous night, 2 = the one before, ...):
  ``SeasonHistory = Mapping[frozenset[P], tuple[int, ...]]``. ``draw`` gathers it from the
  club's earlier finished nights (``draw.season``); ``season_history`` builds it from nights.
* **season weight** — what partnering again costs the round's search: ``SEASON_WEIGHT`` for a
  partnership of the previous night, falling by ``SEASON_DECAY`` a night (never below 1), summed
  over the times the pair partnered. Recent repeats weigh more, so when a long season makes
  repeats unavoidable the pairs met longest ago meet again first. A repeat partner *within* the
  evening still costs ``engine.W_PARTNER`` (10,000): the evening's rule always comes first; a
  season repeat costs more than a repeat opponent of the evening (``engine.W_OPPONENT``).
* **season repeat** — every partnership of a pair beyond its first over the season's nights
  (partnering three times = 2 repeats), as ``season_repeats`` counts them.
* **best achievable** — the counting lower bound on the repeats: a player with ``s``
  partnerships over the season and ``k`` possible partners (the others who played on one of the
  same nights) repeats at least ``s − k`` of them, each repeat seen by both players; and all
  the partnerships cannot repeat fewer than (partnerships − pairs who could partner). With a
  complete whist design for the players (``pairing.rotation.designs``) played night after night
  the bound is reached, so it is the best achievable when the same players come every week.

A night is given as its rounds' teams (``plan_teams`` reads them from a ``RoundPlan``), so
nights at tables of four and of six or eight count alike. API::

    plan_teams(plan, teams=PARTNERS) -> list of frozensets (one round's teams)
    season_history(nights) -> SeasonHistory           (nights oldest first)
    season_weights(history) -> dict[frozenset[P], int]
    season_repeats(nights) -> SeasonQuality
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TypeVar

from .rotation.model import RoundPlan

K = TypeVar("K", bound=Hashable)

SeasonHistory = Mapping[frozenset[K], tuple[int, ...]]

# A partnership of the previous night costs this much in the round's search (the evening's
# repeat partner costs 10,000, a repeat opponent 3 plus 2 as tablemates).
SEASON_WEIGHT = 40
# Each night further back costs this share of the one after it.
SEASON_DECAY = 0.85

PARTNERS = ((0, 2), (1, 3))

# One round as the season sees it: its teams (the ids of the two players of a partnership, the
# three of a team at six-handed), and a night: its rounds in order.
Teams = Collection[frozenset[int]]
Night = Sequence[Teams]


def season_weight(nights_ago: int) -> int:
    """What one partnership ``nights_ago`` nights back costs (1 = the previous night)."""
    return max(1, round(SEASON_WEIGHT * SEASON_DECAY ** (max(nights_ago, 1) - 1)))


def season_weights(history: Mapping[frozenset[K], Sequence[int]]) -> dict[frozenset[K], int]:
    """Each pair's cost of partnering again: its partnerships' weights summed."""
    return {pair: sum(season_weight(ago) for ago in agos)
            for pair, agos in history.items() if agos}


def plan_teams(plan: RoundPlan[int], teams: Sequence[Sequence[int]] = PARTNERS
               ) -> list[frozenset[int]]:
    """The teams of a round: the players of each side at its full tables (``teams``: the seat
    indexes of each side; a table of another size, or a side of one, has no partners)."""
    size = sum(len(team) for team in teams)
    return [frozenset(table[i] for i in team) for table in plan.tables if len(table) == size
            for team in teams if len(team) > 1]


def pairs_of(teams: Teams) -> Iterable[frozenset[int]]:
    """The partnerships of a round: every two players of one team."""
    for team in teams:
        for a, b in combinations(sorted(team), 2):
            yield frozenset((a, b))


def season_history(nights: Sequence[Night]) -> dict[frozenset[int], tuple[int, ...]]:
    """The season history of ``nights`` (oldest first) as the next night sees it."""
    out: dict[frozenset[int], list[int]] = {}
    for index, night in enumerate(nights):
        ago = len(nights) - index
        for teams in night:
            for pair in pairs_of(teams):
                out.setdefault(pair, []).append(ago)
    return {pair: tuple(sorted(agos)) for pair, agos in out.items()}


@dataclass(frozen=True)
class SeasonQuality:
    """How varied the partners were over a season's nights.

    ``repeats`` counts every partnership of a pair beyond its first; ``within_nights`` those of
    them inside one night (what each night avoids by itself); ``best`` the counting lower bound
    (module docstring), the best achievable when the same players come every night."""

    nights: int
    players: int
    partnerships: int
    repeats: int
    within_nights: int
    best: int
    max_together: int

    @property
    def rate(self) -> float:
        """Repeats per partnership (0 to 1)."""
        return self.repeats / self.partnerships if self.partnerships else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"nights": self.nights, "players": self.players,
                "partnerships": self.partnerships, "repeats": self.repeats,
                "within_nights": self.within_nights, "best": self.best,
                "max_together": self.max_together, "rate": round(self.rate, 4)}


def season_repeats(nights: Sequence[Night]) -> SeasonQuality:
    """Measure the repeat partnerships of ``nights`` against the best achievable."""
    together: Counter[frozenset[int]] = Counter()
    within = 0
    per_player: Counter[int] = Counter()
    could: dict[int, set[int]] = {}
    everyone: set[int] = set()
    for night in nights:
        tonight: Counter[frozenset[int]] = Counter()
        here: set[int] = set()
        for teams in night:
            for team in teams:
                here.update(team)
            for pair in pairs_of(teams):
                tonight[pair] += 1
                for player in pair:
                    per_player[player] += 1
        within += sum(c - 1 for c in tonight.values() if c > 1)
        together.update(tonight)
        everyone |= here
        for player in here:
            could.setdefault(player, set()).update(here - {player})
    total = sum(together.values())
    excess = sum(max(0, per_player[p] - len(could.get(p, ()))) for p in per_player)
    possible = len({frozenset((p, q)) for p in could for q in could[p]})
    best = max((excess + 1) // 2, total - possible, 0)
    return SeasonQuality(
        nights=len(nights), players=len(everyone), partnerships=total,
        repeats=sum(c - 1 for c in together.values() if c > 1), within_nights=within,
        best=best, max_together=max(together.values(), default=0))


__all__ = ["PARTNERS", "SEASON_DECAY", "SEASON_WEIGHT", "Night", "SeasonHistory", "SeasonQuality",
           "Teams", "pairs_of", "plan_teams", "season_history", "season_repeats", "season_weight",
           "season_weights"]

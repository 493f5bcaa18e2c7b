"""Partner rotation for pinochle club nights and individual tournaments (pure Python).

Vocabulary (docs/architecture.md, "Words"):

* **seat** — N, E, S, W clockwise; N–S and E–W are *partners*. A table is a tuple
  ``(N, E, S, W)``; table numbers are 1-based.
* **round** — one sitting of all tables (``RoundPlan``: ``tables`` and ``byes``).
* **bye** — a player present but sitting out a round. With ``n`` players, ``n % 4`` sit out.
  Fairness: nobody sits out a second time before every present player has sat out once (byes
  are counted from the history; players fixed to a table never sit out).
* **partner / opponent / tablemate** — at a table, the player opposite you is your partner, the
  two beside you your opponents; all three are your tablemates.
* **repeat** — every meeting of a pair beyond its first (partnering three times = 2 repeats).
* **whist design** — a complete schedule where every pair partners exactly once and opposes
  exactly twice: ``n − 1`` rounds for ``n = 4k`` players, ``n`` rounds (one bye each) for
  ``n = 4k + 1``.
* **schedule** — rounds planned up front (``Schedule``) with their measured ``Quality``.

API (player ids: any hashable, orderable values — the Django side passes ints)::

    plan_schedule(players, rounds, *, seed=0, allow_repeat_partners=False) -> Schedule
    next_round(players, history, *, seed=0, fixed_tables=None) -> RoundPlan
    measure(rounds) -> Quality
    whist_design(n) -> list of (tables, byes) on 0..n−1, or None

All are deterministic for a given seed and input. Bad or impossible requests raise
``RotationError`` (a ``ValueError`` with ``field``, ``code`` and ``message``).

Quality. Repeat partners are 0 whenever a seating without them was found, and the round seater
proves it exactly (perfect-matching search over the fair bye choices) before accepting one;
``plan_schedule`` refuses more rounds than can be played without repeat partners (counting
bound, ``max_partner_free_rounds``) unless ``allow_repeat_partners=True``. Repeat opponents and
tablemates are minimised by a seeded local search and reported with their counting lower
bounds.

Whist designs (module ``designs``), each verified when built and in the tests:

* a finite-field construction for every prime power ``q ≡ 1 (mod 4)`` up to 1000, and its
  product form for every product of such prime powers (45, 65, 85, 117, ...), no search;
* cyclic starters found by the search kept in ``designs.search_starter`` (4, 8, 12, 16, 20, 21,
  24, 28) and by the patterned search in ``patterned`` (40).

Up to 100 that covers 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29, 37, 40, 41, 45, 49,
53, 61, 65, 73, 81, 85, 89, 97. The other 4n / 4n + 1 sizes (32, 33, 36, 44, 48, 52, ...) get the
best schedule the local search finds, still without repeat partners. ``design_sizes()`` lists
the covered sizes.

Command line (``python -m pairing.rotation --help``)::

    python -m pairing.rotation plan --players N --rounds R [--seed S] [--allow-repeats]
    python -m pairing.rotation next [--seed S] < history.json
    python -m pairing.rotation design --players N

Each prints one JSON object; bad input prints ``{"errors": [{"field", "code", "message"}]}``
and exits 2.
"""

from __future__ import annotations

from .designs import design_sizes, verify_whist, whist_design
from .model import Quality, RotationError, RoundPlan, Schedule, measure
from .planner import max_partner_free_rounds, next_round, plan_schedule

__all__ = [
    "Quality",
    "RotationError",
    "RoundPlan",
    "Schedule",
    "design_sizes",
    "max_partner_free_rounds",
    "measure",
    "next_round",
    "plan_schedule",
    "verify_whist",
    "whist_design",
]

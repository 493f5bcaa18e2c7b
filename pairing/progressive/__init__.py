"""The movement of an individual progressive tournament, NPA style (pure Python).

Vocabulary, as this module uses it:

* **individual event** — everyone plays for themselves; partners change from game to game and
  each player's own running total is what counts.
* **table** — four players in the seats **N, E, S, W** (clockwise). N–S are *partners* against
  the *opponents* E–W; a **side** is one partnership, ``"NS"`` or ``"EW"``. Tables are numbered
  from 1; table 1 is the **head table** and the **last table** is the highest number.
* **game** — a fixed number of deals played at one table; the side ahead at the end **wins**.
  All tables play a game, then players move for the next one.
* **seating** — where everybody sits for one game: a list of tables in table order, each
  ``{"N": id, "E": id, "S": id, "W": id}`` (the Python API also takes ``(N, E, S, W)``).
* **movement** — the rule taking one game's seating (and results) to the next:

  - ``winners_move`` (default): the two winners at a table move one table on; the two losers
    **stay**. At every table the two **stayers** (last game's partners) are split and each
    partners one of the two **arrivals**. Which arrival partners which stayer is the **draw**
    (at a real table, a high/low card cut).
  - ``fixed_seats``: everyone keeps their seat letter and moves a fixed number of tables per
    game by seat, the **steps** (``{"N": 0, "S": 1, "E": -1, "W": -2}`` by default: North stays,
    South one table toward higher numbers, East one toward table 1, West two toward table 1;
    positive = toward higher numbers, wrapping around the room). Results do not matter.

* **direction** (``winners_move``) — ``"up"`` (default): winners go toward the head table, from
  table t to t − 1, and the head table's winners go to the last table. ``"down"``: from t to
  t + 1, the last table's winners go to table 1.
* **draw mode** — ``"system"`` (default): this module pairs the arrivals with the stayers;
  ``"table"``: the table drew cards and the caller passes the result (``table_draw``, one
  ``[stayer, arrival]`` pair per table: those two partner, so do the other two).
* **history** — earlier games, each a seating or just a partner pair ``[a, b]``. The last game
  is always part of it (counted once even when the history ends with it too).
* **repeat partner / repeat opponent** — two players who partner (oppose) in the new seating and
  already did so in the history. Opponents are known only from full seatings.
* **alternate** — a player entering between games in the seat of a leaver.

Rules where the NPA rules and club practice leave the details to the director, as decided here:

* **Seats after the draw** (``winners_move``): of the two stayers, the one in the earlier seat
  (N before E before S before W) keeps it, the other takes the next seat clockwise, so the two
  now oppose; each stayer's new partner sits opposite them. Losers N–S: N stays N, S moves to E,
  arrivals at S and W. Losers E–W: E stays E, W moves to S, arrivals at W and N.
* **System draw**: of the two possible pairings at a table the one with fewer repeat
  partnerships (over the whole history) wins, then the one whose pairs partnered fewer times in
  all; only when both are equal does a seeded draw decide (``random.Random`` seeded with the
  seed, the table number and the four ids, so it is reproducible and independent of other
  tables). A repeat partnership therefore happens only when both pairings would repeat; each
  table's choice and reason is in ``quality.draws``, and a repeat adds a warning.
* **Ties**: ``winners`` gives the winning side of each table. A table may instead give
  ``null``/``None`` with ``points`` ``{"NS": n, "EW": m}``: the side with more points won. An
  exact tie is refused (``winners[i]``/``tie``): the table settles it (a high-card cut is usual)
  and the caller passes the side. A given winner that scored fewer points is refused too.
* **Alternates**: ``leaving[i]`` is replaced by ``entering[i]`` in the last game's seat before
  the movement, so the alternate moves or stays as the leaver would have. More leavers than
  alternates leaves an empty seat and is refused, naming the table (``tables[t].X``,
  ``empty_seat``); more alternates than leavers is refused too (``entering``/``no_seat``): the
  movement works on full tables and byes are the caller's business.
* **One table**: the winners "move" back to the same table; only partners change (warned).
* **Fixed seats warnings**: :func:`fixed_seats_warnings` simulates the steps for the table count
  over ``games`` games (default: as many as tables) and warns when partners would meet again.

API (player ids: hashable values — ints or strings for reproducible seeded draws)::

    next_game(seating, winners, history=(), *, movement="winners_move", direction="up",
              draw="system", seed=0, steps=None, table_draw=None, points=None,
              entering=(), leaving=(), games=None) -> ProgressiveRound
    arrivals(seating, winners, *, direction="up", points=None, entering=(), leaving=())
        -> tuple[Arrival, ...]          # who stays and who arrives, for a table draw
    fixed_seats_warnings(tables, steps=None, games=None) -> tuple[MovementWarning, ...]

``ProgressiveRound.tables`` holds ``(N, E, S, W)`` tuples (``seating()`` gives the mappings);
``quality`` has ``repeat_partners``, ``repeat_opponents``, ``moves``, ``warnings``, ``draws``,
``substitutions`` and ``settings``. Bad input raises :class:`ProgressiveError` (a ``ValueError``
with ``field``, ``code`` and ``message``, like ``pairing.rotation.RotationError``).

Command line (``python -m pairing.progressive --help``)::

    python -m pairing.progressive next [--seed S] < request.json

prints ``{"tables": [...], "quality": {...}}``; bad input prints
``{"errors": [{"field", "code", "message"}]}`` and exits 2.
"""

from __future__ import annotations

from .model import (
    DEFAULT_STEPS,
    MAX_TABLES,
    Arrival,
    Direction,
    Draw,
    DrawMode,
    Move,
    Movement,
    MovementWarning,
    ProgressiveError,
    ProgressiveQuality,
    ProgressiveRound,
    Repeat,
    Seat,
    Side,
    Substitution,
)
from .movement import arrivals, fixed_seats_warnings, next_game

__all__ = [
    "DEFAULT_STEPS",
    "MAX_TABLES",
    "Arrival",
    "Direction",
    "Draw",
    "DrawMode",
    "Move",
    "Movement",
    "MovementWarning",
    "ProgressiveError",
    "ProgressiveQuality",
    "ProgressiveRound",
    "Repeat",
    "Seat",
    "Side",
    "Substitution",
    "arrivals",
    "fixed_seats_warnings",
    "next_game",
]

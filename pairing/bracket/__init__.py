"""Elimination brackets for pairs: single and double elimination, byes, a third-place match,
a grand final with a reset and a consolation bracket (pure Python, standard library only).

Vocabulary, as this package uses it:

* **pair** — a team of two players; in a bracket it is an *entrant*, known by its id (an
  integer). The **seeds** list the pairs best first: seed 1 is the strongest.
* **match** — one game between two pairs; the pair ahead at the end **wins**. Every match has a
  **code**: ``W2-3`` is winners-bracket round 2, third match from the top; ``L3-1`` the losers
  bracket, ``C1-2`` the consolation bracket, ``GF`` the grand final, ``GF2`` its reset and
  ``3P`` the third-place match. A single-elimination final is the last winners round's only
  match (``W4-1`` for 16 pairs).
* **slot** — where a side of a match comes from: a seed, or the winner or loser of an earlier
  match.
* **single elimination** — one loss and a pair is out; ``n`` pairs play ``n - 1`` matches.
* **double elimination** — a pair is out at its second loss. A first loss sends it from the
  **winners bracket** down to the **losers bracket**. Losers rounds alternate: in the odd ones
  the losers-bracket pairs play each other, in the even ones they meet the pairs just dropping
  down from the winners bracket. The winners-bracket champion (no loss) and the losers-bracket
  champion (one loss) meet in the **grand final** ``GF``. If the losers-bracket side wins it,
  both have one loss and, with a **reset** (the default), ``GF2`` decides; without a reset
  ``GF`` decides. ``n`` pairs play ``2n - 2`` matches, or ``2n - 1`` when ``GF2`` is played.
* **bye** — when the field is not 8, 16, 32, ... pairs, the best seeds go straight to round 2.
  The bracket is laid out at the next full size and a match against an empty seat is simply
  not there: the seed's slot in round 2 is the seed itself. In the losers bracket a match that
  would have received the loser of such a match disappears too, its other side going on.
  Codes, rounds and positions stay those of the full drawing, so they can have gaps.
* **drop-in order** — which losers-bracket match a pair dropping from the winners bracket
  joins. Losers round 2 takes the drop-ins in reverse order, round 4 reverses each half, round
  6 the whole order again, and so on, so a pair never meets, in its first losers-bracket match,
  the pair it beat in its last winners-bracket match, nor, when that pair drops in turn, the
  pair that just sent it down. The losers-bracket final is the one place where this cannot be
  helped (and, with byes, a field of 5 pairs, where only three pairs reach the losers bracket
  before the winners final).
* **consolation** — a single-elimination bracket for pairs knocked out early. ``consolation``
  lists rounds whose losers enter it: winners rounds in single elimination, losers rounds in
  double elimination. Pairs that went out later are seeded higher (so they get its byes);
  within one round the order is chosen so that, as far as the bracket allows, no pair meets in
  its first consolation match a pair it may already have played.
* **depth** — the wave a match can be played in at the earliest: 1 + the deepest match its
  sides come from (seeds count 0). The room seats a wave, every match whose two pairs are
  known and which has no result yet (``State.ready``), and the next wave once all are in.
* **places** — 1 the champion, 2 the loser of the deciding match; with a third-place match 3
  and 4 from it. Otherwise pairs that went out in the same round share a place: single
  elimination of 16 gives 1, 2, 3, 3, 5 (four times), 9 (eight times). In double elimination 3
  is the losers-bracket final's loser and losers rounds share places the same way (later round,
  better place). The consolation bracket has its own places.

API::

    seed_order(size) -> list[int]           # 8 -> [1, 8, 4, 5, 2, 7, 3, 6]
    bracket_plan(entrants, *, kind="single", third_place=False, reset=True,
                 consolation=()) -> Plan    # every match, in playing order
    bracket_state(plan, seeds, results) -> State   # results: match code -> winning pair id
    elimination_places(plan) -> {code: (winner's place | None, loser's place | None)}

``Plan.match(code)`` finds a match. Bad input raises :class:`BracketError` (a ``ValueError``
with ``field``, ``code`` and ``message``).

Command line (``python -m pairing.bracket --help``)::

    python -m pairing.bracket plan --entrants N --kind single|double [--consolation 1,2]
        [--third-place] [--no-reset] [--json]
    python -m pairing.bracket state < request.json

Bad input prints ``{"errors": [{"field", "code", "message"}]}`` and exits 2.
"""

from __future__ import annotations

from .model import MAX_ENTRANTS, BracketError, Match, Plan, Slot, State
from .plan import bracket_plan, drop_order, elimination_places, seed_order
from .state import bracket_state

__all__ = [
    "MAX_ENTRANTS",
    "BracketError",
    "Match",
    "Plan",
    "Slot",
    "State",
    "bracket_plan",
    "bracket_state",
    "drop_order",
    "elimination_places",
    "seed_order",
]

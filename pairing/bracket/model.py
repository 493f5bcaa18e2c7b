"""Value types of an elimination bracket: the error, the slots, the matches, the plan and the
state of play.

See the package docstring (``pairing.bracket``) for the vocabulary.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules_engine.i18n import Text, gettext_noop

from ..errors import PairingError

# Largest bracket the planner builds (a 1024-pair bracket is already far beyond a club event).
MAX_ENTRANTS = 1024

SLOT_KINDS = ("seed", "winner", "loser")
BRACKETS = ("winners", "losers", "final", "third_place", "consolation")
KINDS = ("single", "double")


class BracketError(PairingError):
    """A bracket that cannot be built, or a result that does not fit it.

    ``field`` names the input at fault (``entrants``, ``kind``, ``third_place``, ``consolation``,
    ``seeds``, ``match``, ``winner``), ``code`` is a short machine-readable reason and ``message``
    a sentence a tournament director can act on.
    """


@dataclass(frozen=True)
class Slot:
    """Where one side of a match comes from.

    ``kind`` ``"seed"``: the pair seeded ``ref`` (1 = best); ``"winner"`` / ``"loser"``: the pair
    that wins / loses the match coded ``ref``.
    """

    kind: str
    ref: int | str

    def __post_init__(self) -> None:
        if self.kind not in SLOT_KINDS:
            raise BracketError(
                Text(gettext_noop("A slot is a seed, a winner or a loser, not %(kind)s."), kind=repr(self.kind)),
                field="slot",
                code="bad_slot",
            )

    def label(self) -> str:
        """``seed 3``, ``winner W1-2`` or ``loser L2-1``."""
        return f"{self.kind} {self.ref}"

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "ref": self.ref}


@dataclass(frozen=True)
class Match:
    """One game between two pairs, with where its winner and its loser go next.

    ``code``: ``W<round>-<position>`` winners bracket, ``L<round>-<position>`` losers bracket,
    ``C<round>-<position>`` consolation, ``GF`` grand final, ``GF2`` its reset, ``3P`` the
    third-place match. ``round`` and ``position`` are the column and the row (from the top, both
    1-based) of the full bracket's drawing; a match that a bye made unnecessary does not exist,
    so numbers can have gaps. ``winner_to`` / ``loser_to``: the code of the next match, or None
    when the pair is placed or out. ``depth`` is the wave the match can be played in at the
    earliest: 1 + the deepest match its sides come from (a seed counts 0). ``conditional``: GF2
    only, played only if the losers-bracket side wins GF.
    """

    code: str
    bracket: str
    round: int
    position: int
    sides: tuple[Slot, Slot]
    winner_to: str | None
    loser_to: str | None
    depth: int
    conditional: bool = False

    def to_dict(self) -> dict[str, object]:
        return {
            "code": self.code,
            "bracket": self.bracket,
            "round": self.round,
            "position": self.position,
            "sides": [side.to_dict() for side in self.sides],
            "winner_to": self.winner_to,
            "loser_to": self.loser_to,
            "depth": self.depth,
            "conditional": self.conditional,
        }


@dataclass(frozen=True)
class Plan:
    """Every match of a bracket, in playing order (by depth, then bracket, round, position)."""

    kind: str
    entrants: int
    third_place: bool
    reset: bool
    consolation: tuple[int, ...]
    matches: tuple[Match, ...]
    _by_code: Mapping[str, Match] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {m.code: m for m in self.matches})

    def match(self, code: str) -> Match:
        """The match coded ``code``; BracketError (field ``match``) when the plan has none."""
        found = self._by_code.get(code) if isinstance(code, str) else None
        if found is None:
            raise BracketError(
                Text(gettext_noop("There is no match %(code)s in this bracket."), code=str(code)[:20]),
                field="match",
                code="unknown_match",
            )
        return found

    def has(self, code: str) -> bool:
        return code in self._by_code

    def in_bracket(self, bracket: str) -> tuple[Match, ...]:
        """The matches of one bracket (``winners``, ``losers``, ...), in playing order."""
        return tuple(m for m in self.matches if m.bracket == bracket)

    def to_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "entrants": self.entrants,
            "third_place": self.third_place,
            "reset": self.reset,
            "consolation": list(self.consolation),
            "matches": [m.to_dict() for m in self.matches],
            "count": len(self.matches),
        }


@dataclass(frozen=True)
class State:
    """Where a bracket stands after the results so far.

    ``sides``: the two pairs of every match (None = not known yet). ``winners`` / ``losers``: per
    match with a result. ``ready``: matches whose two pairs are known, with no result yet, that
    still have to be played, in plan order: the next wave. ``skipped``: GF2 when the
    winners-bracket side won GF. ``complete``: every match that has to be played (main bracket,
    third-place match, consolation) has a result. ``losses``: main-bracket losses per entrant
    (every entrant listed). ``placements`` / ``consolation_placements``: (place, entrant), best
    first, pairs that went out in the same round sharing a place; empty until complete.
    """

    sides: Mapping[str, tuple[int | None, int | None]]
    winners: Mapping[str, int]
    losers: Mapping[str, int]
    ready: tuple[str, ...]
    skipped: frozenset[str]
    complete: bool
    champion: int | None
    losses: Mapping[int, int]
    placements: tuple[tuple[int, int], ...]
    consolation_placements: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "sides": {code: list(pair) for code, pair in self.sides.items()},
            "winners": dict(self.winners),
            "losers": dict(self.losers),
            "ready": list(self.ready),
            "skipped": sorted(self.skipped),
            "complete": self.complete,
            "champion": self.champion,
            "losses": {str(entrant): n for entrant, n in self.losses.items()},
            "placements": [{"place": p, "entrant": e} for p, e in self.placements],
            "consolation_placements": [
                {"place": p, "entrant": e} for p, e in self.consolation_placements
            ],
        }

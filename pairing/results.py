"""What happened at a table, as the round builders see it (plain values, no ORM)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class TableResult:
    """One game of one round: who sat where, what each side scored, and who won.

    ``seats`` maps a seat (``"N"``, ``"E"``, ``"S"``, ``"W"``) to an entry id; ``points`` maps a
    side (``"NS"``, ``"EW"``) to its total; ``winner`` is a side, or ``None`` while the game is
    being played (``finished`` is then false).
    """

    round_number: int
    table_number: int
    seats: Mapping[str, int]
    points: Mapping[str, int] = field(default_factory=dict)
    winner: str | None = None
    finished: bool = False
    # The bracket match played at this table (``pairing.bracket`` code), if any.
    match: str = ""

    def side_of(self, entry_id: int) -> str | None:
        for seat, who in self.seats.items():
            if who == entry_id:
                return "NS" if seat in ("N", "S") else "EW"
        return None

    def winners(self) -> tuple[int, ...]:
        """The entries on the winning side (empty while unfinished)."""
        if not self.finished or self.winner is None:
            return ()
        return tuple(sorted(e for s, e in self.seats.items() if s in self.winner))

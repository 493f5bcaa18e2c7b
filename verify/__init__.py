"""The verifier: anyone recomputes an event from its archive, without the site.

``python -m verify event.json`` reads an event archive (``archive.format`` on the site describes
it; this package reads it on its own: :mod:`verify.read`), recomputes every derived result from
the inputs alone with the same pure functions the site uses (the rules engine, the ranking, the
formats: :mod:`verify.recompute`) and lists every stored value it does not give. Pure Python:
the standard library and the pure packages (``rules_engine``, ``pairing``, ``ranking``,
``formats``), no Django, no database, no server.

Vocabulary: the *inputs* are what people entered or decided (a hand revision's values, the
seats, the byes, forfeits, adjusted results, penalties, cuts of the cards, the settings); the
*derived* values are what the site computed from them (a hand's points, a game's totals and
winner, the standings, the placements); a *discrepancy* is a derived value stored in the
archive that the recomputation does not give.
"""

from __future__ import annotations

from .read import FORMAT_NAME, VERSION, Archive, Malformed, check, load
from .recompute import Discrepancy, Report, verify

__all__ = ["FORMAT_NAME", "VERSION", "Archive", "Discrepancy", "Malformed", "Report", "check",
           "load", "verify"]

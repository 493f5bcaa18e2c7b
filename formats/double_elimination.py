"""A double-elimination bracket of pairs from the first round (``pairing.bracket``)."""

from __future__ import annotations

from .pairs import pair_format

FORMAT = pair_format(
    name="double_elimination", label="Double elimination bracket (pairs)", bracket="double",
    summary="Double elimination: a pair is out after its second loss.",
)

"""A single-elimination bracket of pairs from the first round (``pairing.bracket``)."""

from __future__ import annotations

from .pairs import pair_format

FORMAT = pair_format(
    name="single_elimination", label="Single elimination bracket (pairs)", bracket="single",
    summary="Single elimination: a pair is out after one loss.",
)

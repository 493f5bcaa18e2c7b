"""A single-elimination bracket of pairs from the first round (``pairing.bracket``)."""

from __future__ import annotations

from rules_engine.i18n import gettext_noop

from .pairs import pair_format

FORMAT = pair_format(
    name="single_elimination", label=gettext_noop("Single elimination bracket (pairs)"), bracket="single",
    summary=gettext_noop("Single elimination: a pair is out after one loss."),
)

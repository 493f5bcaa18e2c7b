"""A double-elimination bracket of pairs from the first round (``pairing.bracket``)."""

from __future__ import annotations

from rules_engine.i18n import gettext_noop

from .pairs import pair_format

FORMAT = pair_format(
    name="double_elimination", label=gettext_noop("Double elimination bracket (pairs)"), bracket="double",
    summary=gettext_noop("Double elimination: a pair is out after its second loss."),
)

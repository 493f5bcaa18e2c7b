"""English figures stay as the site always wrote them, ungrouped (1234): ``{{ value|grouped }}``
groups only where the reader's language does (German 1.234)."""

from __future__ import annotations

NUMBER_GROUPING = 0

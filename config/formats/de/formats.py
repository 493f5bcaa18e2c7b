"""German dates and numbers where they differ from Django's own German formats: dates as
28.11.2026 (Django's German long form spells the month), figures grouped as 1.234."""

from __future__ import annotations

DATE_FORMAT = "d.m.Y"
SHORT_DATE_FORMAT = "d.m.Y"
DATETIME_FORMAT = "d.m.Y, H:i"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
THOUSAND_SEPARATOR = "."
DECIMAL_SEPARATOR = ","
NUMBER_GROUPING = 3

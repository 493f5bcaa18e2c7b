"""Formats: how an event is run, in one place (pure Python, beside ``pairing`` and ``ranking``).

``formats.get(event.format)`` is the spec (:class:`formats.spec.Format`) every layer asks: its
entrants, the word for a sitting, its settings, stages, builder, placements and capabilities.
The registry (``formats.registry``) lists them; nothing outside this package names a format.
"""

from __future__ import annotations

from .registry import DEFAULT, FORMATS, REGISTERED, choices, get, names
from .spec import (
    STAGE_LABELS,
    Finish,
    Format,
    FormatError,
    Meeting,
    Placed,
    PlanChange,
    Situation,
    Stage,
)

__all__ = [
    "DEFAULT", "FORMATS", "REGISTERED", "STAGE_LABELS", "Finish", "Format", "FormatError",
    "Meeting", "Placed", "PlanChange", "Situation", "Stage", "choices", "get", "names",
]

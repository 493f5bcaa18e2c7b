"""Signals the tournaments app sends, for apps above it that keep something in step.

``hands_version_moved`` (kwargs ``event_id``, ``hands_version``): the event's ``hands_version``
was just written by :func:`tournaments.services.hands_version_bump`, inside the writer's
transaction. Received by ``standings.signals`` (the standings status the pages poll, put into
the cache on commit).

``standings_wanted`` and ``correction_made``: a correction of a result
(:mod:`tournaments.corrections`), below.
"""

from __future__ import annotations

from django.dispatch import Signal

hands_version_moved = Signal()

# --- corrections (``tournaments.corrections``) -------------------------------------------------
# ``standings_wanted`` (kwargs ``event``): a correction is about to change (or has just changed)
# a result and wants the event's standings as they stand inside the writer's transaction. A
# receiver answers ``{key: {"name", "points", "rank"}}`` (``key``: ``entry:<id>`` or
# ``pair:<id>``). Answered by ``standings.signals`` (the standings sit above every writer).
standings_wanted = Signal()
# ``correction_made`` (kwarg ``draft``, a ``tournaments.corrections.CorrectionDraft``): a result
# the players had seen was changed, inside the writer's transaction. Received by
# ``conduct.signals``, which writes the event's public ``conduct.Correction`` row.
correction_made = Signal()

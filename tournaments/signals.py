"""Signals the tournaments app sends, for apps above it that keep something in step.

``hands_version_moved`` (kwargs ``event_id``, ``hands_version``): the event's ``hands_version``
was just written by :func:`tournaments.services.hands_version_bump`, inside the writer's
transaction. Received by ``standings.signals`` (the standings status the pages poll, put into
the cache on commit).
"""

from __future__ import annotations

from django.dispatch import Signal

hands_version_moved = Signal()

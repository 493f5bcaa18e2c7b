"""The event's public list of corrections kept by its writers in the layers below and above
(``tournaments.corrections``): a correction made anywhere (a hand of a confirmed game, an
adjusted result, a forfeit, a penalty, a reopen) arrives here as
``tournaments.signals.correction_made`` and is written as a ``Correction`` row in the writer's
transaction."""

from __future__ import annotations

from django.dispatch import receiver

from clubs.permissions import club_role
from common.types import actor_user
from tournaments.corrections import CorrectionDraft
from tournaments.signals import correction_made

from .models import CORRECTION_TEXT_MAX, Correction


def _short(text: str) -> str:
    return text if len(text) <= CORRECTION_TEXT_MAX else text[:CORRECTION_TEXT_MAX - 1] + "…"


@receiver(correction_made, dispatch_uid="conduct-correction-made")
def _correction_made(draft: CorrectionDraft, **_: object) -> None:
    actor = actor_user(draft.actor)
    role = club_role(user=actor, club=draft.event.club) if actor is not None else None
    Correction.objects.create(
        event=draft.event, kind=draft.kind, actor=actor,
        role=role if role in Correction.Role.values else "",
        reason=draft.reason[:500], round_number=draft.round_number,
        table_number=draft.table_number, was=_short(draft.was or "—"),
        became=_short(draft.became or "—"), before=draft.before, after=draft.after,
        standings_moved=draft.moved())

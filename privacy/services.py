"""Erasing an account at its owner's request, and the club's record of a director's export.

**The rule of erasure.** The account goes: the user, its e-mail addresses, API token, club
roles, sessions and the sign-in history django-axes keeps for its user name (and, where
installed, anything else that cascades from the user, such as social accounts). The player
rows stay, because the clubs' results are made of them, but they no longer say who played:
the name becomes :data:`ERASED_NAME` ("Withdrawn player"), the e-mail address is cleared and
the link to the account is cut. Nothing that ranks changes: entries, seats, hands, penalties,
ratings and placements keep their numbers; only the name in them differs. Where the name was
copied into stored text it is replaced as well: the standings snapshot (rebuilt from the
rows), the stored final places, a pair's name, the event logs' lines about the player, and the
conduct records' reasons (the rows are the club's record; the name is not). One
:class:`~privacy.models.PrivacyLog` row per club that knew the player records the erasure,
naming nobody.

A club's last owner cannot erase their account (a club always keeps an owner): they hand the
club on first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.db import transaction
from django.db.models import Q

from clubs.models import Club, ClubPlayer, Membership, Player
from common.errors import DomainError
from conduct.models import Appeal, Penalty
from following.models import Follower
from registrations.models import Registration
from standings.models import StandingsSnapshot
from standings.services import placements_store, standings_rebuild
from tournaments.models import Arrival, Entry, EventLog, Pair

from .models import PrivacyLog
from .selectors import player_export, user_sessions

ERASED_NAME = "Withdrawn player"
PAIR_JOINER = " & "
# Keys of an event log line that name a player, beside the key of the id they name.
LOG_NAMES = {"name": ("player", "entry", "pair"), "a_name": ("a",), "b_name": ("b",)}


@dataclass
class Erased:
    username: str
    player_id: int | None
    clubs: list[int]
    events: list[int]


def _swap_name(text: str, old: str) -> str:
    """``text`` with ``old`` replaced by the erased name: the whole text, a member of a pair's
    "A & B", or inside a sentence."""
    if not old or not text:
        return text
    if text == old:
        return ERASED_NAME
    parts = text.split(PAIR_JOINER)
    if old in parts:
        return PAIR_JOINER.join(ERASED_NAME if p == old else p for p in parts)
    # a whole word or words only: "Al" is not erased from "Always"
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", ERASED_NAME, text)


def _log_details(details: dict[str, Any], old: str, ids: dict[str, set[int]], *,
                 in_text: bool) -> dict[str, Any]:
    """An event log line's details with the player's name replaced where the line names them
    by id (``player``, ``entry``, ``pair``, a swap's ``a``/``b``, the alternates' lists); with
    ``in_text`` (nobody else in the event bears the name) also inside every other text of the
    line (a penalty's reason, an appeal's words)."""
    changed = dict(details)
    for name_key, id_keys in LOG_NAMES.items():
        if not isinstance(changed.get(name_key), str):
            continue
        for id_key in id_keys:
            kind = "player" if id_key == "player" else "pair" if id_key == "pair" else "entry"
            if changed.get(id_key) in ids[kind]:
                changed[name_key] = _swap_name(changed[name_key], old)
    entries, names = changed.get("entries"), changed.get("names")
    if isinstance(entries, list) and isinstance(names, list) and len(entries) == len(names):
        changed["names"] = [ERASED_NAME if e in ids["entry"] else n
                            for e, n in zip(entries, names, strict=True)]
    if in_text:
        changed = {k: _swap_name(v, old) if isinstance(v, str) and k not in LOG_NAMES else v
                   for k, v in changed.items()}
    return changed


def _namesakes(event_ids: list[int], player: Player, name: str) -> set[int]:
    """The events where someone else bears the same name: there a text is left as it is (it
    may speak of them)."""
    return set(Entry.objects.filter(event_id__in=event_ids, player__name=name)
               .exclude(player=player).values_list("event_id", flat=True))


def _anonymise_player(player: Player) -> list[int]:
    """Replace the player's name everywhere it was stored; returns the events touched."""
    old = player.name
    entries = list(Entry.objects.filter(player=player).values_list("pk", "event_id", "pair_id"))
    ids = {"player": {player.pk}, "entry": {e for e, _, _ in entries},
           "pair": {p for _, _, p in entries if p}}
    events = sorted({event for _, event, _ in entries}
                    | set(Arrival.objects.filter(player=player).values_list("event_id", flat=True)))
    namesakes = _namesakes(events, player, old)
    Player.objects.filter(pk=player.pk).update(name=ERASED_NAME, email="", user=None)
    for pair in Pair.objects.filter(pk__in=ids["pair"]).exclude(name=""):
        Pair.objects.filter(pk=pair.pk).update(name=_swap_name(pair.name, old))
    for log in EventLog.objects.filter(event_id__in=events):
        details = _log_details(log.details or {}, old, ids,
                               in_text=log.event_id not in namesakes)
        if details != log.details:
            EventLog.objects.filter(pk=log.pk).update(details=details)
    # Conduct records: the player's own, and the texts of the same events that may speak of
    # them (unless someone else there bears the name).
    spoken = [e for e in events if e not in namesakes]
    for penalty in Penalty.objects.filter(Q(entry_id__in=ids["entry"]) | Q(pair_id__in=ids["pair"])
                                          | Q(event_id__in=spoken)):
        Penalty.objects.filter(pk=penalty.pk).update(
            reason=_swap_name(penalty.reason, old),
            withdrawn_reason=_swap_name(penalty.withdrawn_reason, old))
    for appeal in Appeal.objects.filter(Q(entry_id__in=ids["entry"])
                                        | Q(penalty__entry_id__in=ids["entry"])
                                        | Q(penalty__pair_id__in=ids["pair"])
                                        | Q(event_id__in=spoken)):
        Appeal.objects.filter(pk=appeal.pk).update(contested=_swap_name(appeal.contested, old),
                                                   note=_swap_name(appeal.note, old))
    for event_id in {event for _, event, _ in entries}:
        snapshot = StandingsSnapshot.objects.filter(event_id=event_id).first()
        if snapshot is None:
            continue
        # The rows are rebuilt from the renamed entries (numbers unchanged, the name new);
        # the stored places keep their order and prizes.
        standings_rebuild(event_id=event_id)
        if snapshot.placements:
            placements_store(event_id=event_id, placements=[
                {**p, "name": ERASED_NAME} if (p.get("pair_id") in ids["pair"] if "pair_id" in p
                                               else p.get("entry_id") in ids["entry"])
                else p
                for p in snapshot.placements])
    return events


def _check_confirmation(user: Any, confirm: Any) -> None:
    if not isinstance(confirm, str) or not confirm.strip():
        raise DomainError("Type your user name to confirm the erasure.", field="confirm",
                          code="required")
    if confirm.strip() != user.get_username():
        raise DomainError("That is not your user name: nothing was erased.", field="confirm",
                          code="mismatch")


def _check_owners(user: Any) -> None:
    for membership in Membership.objects.filter(user=user, role=Membership.Role.OWNER):
        others = Membership.objects.filter(club_id=membership.club_id,
                                           role=Membership.Role.OWNER).exclude(user=user)
        if not others.exists():
            club = Club.objects.get(pk=membership.club_id)
            raise DomainError(
                f"You are the only owner of {club.name}: make someone else an owner first.",
                field="account", code="last_owner")


def _forget_contacts(user: Any, player: Player | None) -> None:
    """The ways to reach the person that other apps keep: their phones' follows (push
    subscriptions, a confirmed address) go; their registrations keep their place and history
    with the name replaced and the address cleared, as the player row is."""
    if player is not None:
        Follower.objects.filter(entry__player=player).delete()
        Registration.objects.filter(partner_player=player).update(partner_name=ERASED_NAME,
                                                                  partner_email="")
    own = Q(user=user) | Q(player=player) if player is not None else Q(user=user)
    Registration.objects.filter(own).update(name=ERASED_NAME, email="")


@transaction.atomic
def account_erase(*, user: Any, confirm: Any) -> Erased:
    """Erase ``user``'s account at their request (``confirm``: their user name, typed again);
    anonymise their player rows so that every result stays as it was (module docstring)."""
    _check_confirmation(user, confirm)
    _check_owners(user)
    username = user.get_username()
    player = Player.objects.select_for_update().filter(user=user).first()
    events: list[int] = []
    clubs: list[int] = []
    if player is not None:
        clubs = sorted(set(ClubPlayer.objects.filter(player=player).values_list("club_id", flat=True))
                       | set(Entry.objects.filter(player=player)
                             .values_list("event__club_id", flat=True)))
        events = _anonymise_player(player)
        PrivacyLog.objects.bulk_create(
            PrivacyLog(club_id=club_id, player=player, action=PrivacyLog.Action.ERASURE)
            for club_id in clubs)
    _forget_contacts(user, player)
    for session in user_sessions(user):
        session.delete()
    for model in (AccessAttempt, AccessFailureLog, AccessLog):
        model.objects.filter(username=username).delete()
    user.delete()  # e-mail addresses, token, roles and anything else keyed to it by CASCADE
    return Erased(username=username, player_id=player.pk if player else None, clubs=clubs,
                  events=events)


@transaction.atomic
def club_player_export(*, club: Club, player: Player, actor: Any) -> dict[str, Any]:
    """A director's export of what ``club`` holds about ``player`` (who asked in person),
    recorded in the club's privacy log. The caller has checked the director's role."""
    PrivacyLog.objects.create(club=club, player=player, actor=actor,
                              action=PrivacyLog.Action.EXPORT)
    return player_export(player=player, club=club)

"""A person's data as one JSON document: what the system holds about them.

``account_export(user)`` is what a signed-in person downloads (``/account/data/``,
``GET /api/me/data/``); ``player_export(player, club=...)`` is what a club's director hands a
player who asked in person: the same document limited to that club's rows, without the
account (which is the person's own, not the club's).

The document (``"format": "pinochle-player-data/1"``):

* ``account``: the user name, names and e-mail addresses (allauth's, with their confirmation),
  when the account was made and last used, its roles in clubs, whether it has an API token (the
  key withheld), its signed-in sessions (expiry only) and the sign-in history django-axes keeps
  for its user name (attempts, failures, the access log);
* ``player``: the player row (name, e-mail) and the clubs whose roster it is on;
* ``events``: one line per event entered, oldest first: the entry, the pair, the byes, every
  game sat in (round, stage, table, seat, side, the game's score lines, and each live hand with
  the values of the player's side), the standings line, the final place and prize, the
  director's penalties and appeals, and the self check-ins. Other players appear by seat and
  side, never by name;
* ``ratings``: the current rating and every change, game by game;
* ``records``: every row of every installed model keyed to the player or the account, found by
  :mod:`privacy.walk` (each such model is listed, with ``[]`` when it holds nothing); the
  sections above are the readable view of the main ones;
* ``withheld``: in a club's export, the models not kept by one club (left out).
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from typing import TYPE_CHECKING, TypedDict

from allauth.account.models import EmailAddress
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.core.serializers.json import DjangoJSONEncoder
from django.db.models import Q, QuerySet
from django.utils import timezone
from rest_framework.authtoken.models import Token

from clubs.models import Club, ClubPlayer, Membership, Player
from common.rulesets import event_ruleset
from common.types import JSONValue
from conduct.models import Appeal, Penalty
from league.models import PlayerRating, RatingChange
from league.selectors import Rating, rating_row
from scoring.models import HandRevision, SeatResult
from standings.models import StandingsSnapshot
from tournaments.models import Arrival, Bye, Entry, Seat

from .walk import collect, row_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User

FORMAT = "pinochle-player-data/1"
DB_SESSIONS = {"django.contrib.sessions.backends.db", "django.contrib.sessions.backends.cached_db"}


class EmailRow(TypedDict):
    email: str
    verified: bool
    primary: bool


class MembershipRow(TypedDict):
    club: str
    club_name: str
    role: str
    since: datetime.datetime


class AccountSection(TypedDict):
    """The account: its fields, addresses, roles, token, sessions and sign-in records."""

    id: int
    username: str
    first_name: str
    last_name: str
    email: str
    date_joined: datetime.datetime
    last_login: datetime.datetime | None
    is_active: bool
    email_addresses: list[EmailRow]
    memberships: list[MembershipRow]
    groups: list[str]
    api_token: dict[str, datetime.datetime] | None
    sessions: list[dict[str, datetime.datetime]]
    sign_in: dict[str, list[dict[str, object]]]  # attempts, failures, log: axes's columns


class ClubLink(TypedDict):
    club: str
    club_name: str
    since: datetime.datetime


class PlayerSection(TypedDict):
    id: int
    name: str
    email: str
    created_at: datetime.datetime
    clubs: list[ClubLink]


class HandRow(TypedDict):
    """A hand the person played, their side's values only."""

    number: int
    dealer: str
    bidder: str
    bid: int | None
    trump: str
    outcome: str
    result: str
    made: bool | None
    meld: JSONValue
    counters: JSONValue
    points: JSONValue
    entered_at: datetime.datetime


class GameRow(TypedDict):
    round: int
    stage: str
    table: int
    seat: str
    side: str
    status: str | None
    score: dict[str, int]
    winner: str
    points: int | None
    opponents_points: int | None
    won: bool | None
    hands: list[HandRow]


class ConductRow(TypedDict):
    id: int
    round: int
    kind: str
    points: int
    reason: str
    given_at: datetime.datetime
    withdrawn_at: datetime.datetime | None
    withdrawn_reason: str
    in_force: bool


class EventSection(TypedDict):
    """An event the person was entered in: the entry, its games and hands, standing, place,
    penalties, appeals and arrivals."""

    event: dict[str, object]
    entry: dict[str, object]
    pair: dict[str, object] | None
    byes: list[int]
    games: list[GameRow]
    standing: dict[str, JSONValue] | None
    placing: dict[str, JSONValue] | None
    penalties: list[ConductRow]
    appeals: list[dict[str, object]]
    arrivals: list[dict[str, object]]


class RatingChangeRow(TypedDict):
    event: int
    event_name: str
    game: int | None
    at: datetime.datetime
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


class RatingsSection(TypedDict):
    current: Rating | None
    changes: list[RatingChangeRow]


class Export(TypedDict):
    """A person's data before it is written as JSON (:func:`_plain`)."""

    format: str
    generated_at: datetime.datetime
    scope: str | dict[str, str]
    account: AccountSection | None
    player: PlayerSection | None
    events: list[EventSection]
    ratings: RatingsSection | None
    records: dict[str, list[dict[str, object]]]  # by model label (``privacy.walk``)
    withheld: list[str]


def _plain(document: Export) -> dict[str, JSONValue]:
    """The document as JSON would read it back (dates as ISO text, decimals as text)."""
    result: dict[str, JSONValue] = json.loads(json.dumps(document, cls=DjangoJSONEncoder))
    return result


def user_sessions(user: User) -> list[Session]:
    """The unexpired sessions signed in as ``user``, where sessions are kept in the database
    (the default); an empty list with any other session store, which cannot be searched."""
    if settings.SESSION_ENGINE not in DB_SESSIONS:
        return []
    mine = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get("_auth_user_id", "")) == str(user.pk):
            mine.append(session)
    return mine


def account_addresses(user: User, player: Player | None) -> list[str]:
    """Every e-mail address the person is known by: the account's, its e-mail addresses and
    the player's."""
    found = [user.email, *EmailAddress.objects.filter(user=user).values_list("email", flat=True)]
    if player is not None:
        found.append(player.email)
    return sorted({a.strip().lower() for a in found if a and a.strip()})


def _access(rows: QuerySet[AccessAttempt] | QuerySet[AccessFailureLog] | QuerySet[AccessLog],
            *extra: str) -> list[dict[str, object]]:
    fields = ("attempt_time", "ip_address", "user_agent", "path_info", *extra)
    return [{f: getattr(row, f) for f in fields} for row in rows.order_by("attempt_time", "pk")]


def _account(user: User) -> AccountSection:
    username = user.get_username()
    token = Token.objects.filter(user=user).first()
    return {
        "id": user.pk, "username": username, "first_name": user.first_name,
        "last_name": user.last_name, "email": user.email, "date_joined": user.date_joined,
        "last_login": user.last_login, "is_active": user.is_active,
        "email_addresses": [
            {"email": a.email, "verified": a.verified, "primary": a.primary}
            for a in EmailAddress.objects.filter(user=user).order_by("pk")],
        "memberships": [
            {"club": m.club.slug, "club_name": m.club.name, "role": m.role,
             "since": m.created_at}
            for m in Membership.objects.filter(user=user).select_related("club").order_by("pk")],
        "groups": sorted(user.groups.values_list("name", flat=True)),
        "api_token": {"created": token.created} if token else None,
        "sessions": [{"expires": s.expire_date} for s in user_sessions(user)],
        "sign_in": {
            "attempts": _access(AccessAttempt.objects.filter(username=username),
                                "failures_since_start"),
            "failures": _access(AccessFailureLog.objects.filter(username=username), "locked_out"),
            "log": _access(AccessLog.objects.filter(username=username), "logout_time"),
        },
    }


def _player(player: Player, club: Club | None) -> PlayerSection:
    links = ClubPlayer.objects.filter(player=player).select_related("club").order_by("pk")
    if club is not None:
        links = links.filter(club=club)
    return {
        "id": player.pk, "name": player.name, "email": player.email,
        "created_at": player.created_at,
        "clubs": [{"club": link.club.slug, "club_name": link.club.name, "since": link.added_at}
                  for link in links],
    }


def _side(seat: Seat, result: SeatResult | None) -> str:
    if result is not None:
        return result.side
    return event_ruleset(seat.round.event).side_of(seat.position)


def _hands(game_ids: list[int]) -> dict[int, list[HandRevision]]:
    by_game: dict[int, list[HandRevision]] = defaultdict(list)
    for revision in (HandRevision.objects
                     .filter(hand__game_id__in=game_ids, is_live=True,
                             hand__deleted_at__isnull=True)
                     .select_related("hand").order_by("hand__game_id", "hand__number")):
        by_game[revision.hand.game_id].append(revision)
    return by_game


def _hand(revision: HandRevision, side: str) -> HandRow:
    def of(values: object) -> JSONValue:
        return values.get(side) if isinstance(values, dict) else None

    return {
        "number": revision.hand.number, "dealer": revision.dealer, "bidder": revision.bidder,
        "bid": revision.bid, "trump": revision.trump, "outcome": revision.outcome,
        "result": revision.result, "made": revision.made, "meld": of(revision.meld),
        "counters": of(revision.counters), "points": of(revision.points),
        "entered_at": revision.created_at,
    }


def _conduct(penalty: Penalty) -> ConductRow:
    return {
        "id": penalty.pk, "round": penalty.round_number, "kind": penalty.kind,
        "points": penalty.points, "reason": penalty.reason, "given_at": penalty.created_at,
        "withdrawn_at": penalty.withdrawn_at, "withdrawn_reason": penalty.withdrawn_reason,
        "in_force": penalty.withdrawn_at is None,
    }


def _events(player: Player, club: Club | None) -> list[EventSection]:
    entries = list(Entry.objects.filter(player=player).select_related("event__club", "pair")
                   .order_by("event__date", "event_id"))
    if club is not None:
        entries = [e for e in entries if e.event.club_id == club.pk]
    entry_ids = [e.pk for e in entries]
    event_ids = [e.event_id for e in entries]
    pair_ids = [e.pair_id for e in entries if e.pair_id]
    seats = list(Seat.objects.filter(entry_id__in=entry_ids)
                 .select_related("round", "table__game").order_by("round__number"))
    results = {(r.game_id, r.entry_id): r
               for r in SeatResult.objects.filter(entry_id__in=entry_ids)}
    game_ids = [s.table.game.pk for s in seats if hasattr(s.table, "game")]
    hands = _hands(game_ids)
    byes: dict[int, list[int]] = defaultdict(list)
    for bye in Bye.objects.filter(entry_id__in=entry_ids).select_related("round"):
        byes[bye.entry_id].append(bye.round.number)
    snapshots = {s.event_id: s for s in StandingsSnapshot.objects.filter(event_id__in=event_ids)}
    penalties: dict[int, list[Penalty]] = defaultdict(list)
    for penalty in Penalty.objects.filter(
            Q(entry_id__in=entry_ids) | Q(pair_id__in=pair_ids)).order_by("created_at", "pk"):
        penalties[penalty.event_id].append(penalty)
    appeals: dict[int, list[Appeal]] = defaultdict(list)
    for appeal in Appeal.objects.filter(
            Q(entry_id__in=entry_ids) | Q(penalty__entry_id__in=entry_ids)
            | Q(penalty__pair_id__in=pair_ids)).order_by("decided_at", "pk"):
        appeals[appeal.event_id].append(appeal)
    arrivals: dict[int, list[Arrival]] = defaultdict(list)
    for arrival in Arrival.objects.filter(player=player).order_by("created_at", "pk"):
        arrivals[arrival.event_id].append(arrival)

    out: list[EventSection] = []
    for entry in entries:
        event = entry.event
        games: list[GameRow] = []
        for seat in (s for s in seats if s.entry_id == entry.pk):
            game = getattr(seat.table, "game", None)
            result = results.get((game.pk, entry.pk)) if game is not None else None
            side = _side(seat, result)
            games.append({
                "round": seat.round.number, "stage": seat.round.stage,
                "table": seat.table.number, "seat": seat.position, "side": side,
                "status": game.status if game else None,
                "score": game.totals if game else {}, "winner": game.winner if game else "",
                "points": result.points if result else None,
                "opponents_points": result.opponents_points if result else None,
                "won": result.won if result else None,
                "hands": [_hand(h, side) for h in hands.get(game.pk, [])] if game else [],
            })
        snapshot = snapshots.get(event.pk)
        standing = placing = None
        if snapshot is not None:
            key, value = ("pair_id", entry.pair_id) if entry.pair_id else ("entry_id", entry.pk)
            standing = next((dict(r) for r in snapshot.rows if r.get(key) == value), None)
            placed = next((p for p in snapshot.placements if p.get(key) == value), None)
            if placed is not None:
                placing = {"place": placed.get("place"), "stage": placed.get("stage"),
                           "prize": placed.get("prize")}
        out.append({
            "event": {"id": event.pk, "name": event.name, "date": event.date,
                      "club": event.club.slug, "club_name": event.club.name,
                      "format": event.spec.label, "status": event.status},
            "entry": {"id": entry.pk, "status": entry.status,
                      "checked_in_at": entry.checked_in_at, "joined_round": entry.joined_round,
                      "left_after_round": entry.left_after_round,
                      "alternate": entry.alternate, "fixed_table": entry.fixed_table},
            "pair": ({"id": entry.pair.pk, "name": str(entry.pair), "seed": entry.pair.seed}
                     if entry.pair else None),
            "byes": sorted(byes.get(entry.pk, [])),
            "games": games,
            "standing": standing,
            "placing": placing,
            "penalties": [_conduct(p) for p in penalties.get(event.pk, [])],
            "appeals": [{"id": a.pk, "penalty": a.penalty_id, "contested": a.contested,
                         "decision": a.decision, "note": a.note, "decided_at": a.decided_at}
                        for a in appeals.get(event.pk, [])],
            "arrivals": [{"status": a.status, "at": a.created_at, "decided_at": a.decided_at}
                         for a in arrivals.get(event.pk, [])],
        })
    return out


def _ratings(player: Player, club: Club | None) -> RatingsSection | None:
    changes = RatingChange.objects.filter(player=player).select_related("event")
    if club is not None:
        changes = changes.filter(event__club=club)
    current = PlayerRating.objects.filter(player=player).first() if club is None else None
    listed: list[RatingChangeRow] = [
        {"event": c.event_id, "event_name": c.event.name, "game": c.game_id, "at": c.at,
         "mu_before": c.mu_before, "sigma_before": c.sigma_before,
         "mu_after": c.mu_after, "sigma_after": c.sigma_after}
        for c in changes.order_by("order_key", "pk")]
    if current is None and not listed:
        return None
    return {"current": rating_row(current.mu, current.sigma, current.games) if current else None,
            "changes": listed}


def account_export(*, user: User) -> dict[str, JSONValue]:
    """Everything held about the signed-in ``user``: the account and, when it is linked to a
    player, the player's data in every club."""
    player = Player.objects.filter(user=user).first()
    records, withheld = collect([user, player], addresses=account_addresses(user, player))
    records[get_user_model()._meta.label] = [row_of(user)]
    if player is not None:
        records[Player._meta.label] = [row_of(player)]
    return _plain({
        "format": FORMAT, "generated_at": timezone.now(), "scope": "account",
        "account": _account(user),
        "player": _player(player, None) if player else None,
        "events": _events(player, None) if player else [],
        "ratings": _ratings(player, None) if player else None,
        "records": records, "withheld": withheld,
    })


def player_export(*, player: Player, club: Club) -> dict[str, JSONValue]:
    """What ``club`` holds about ``player``: the player row, its roster line and the club's
    events, ratings changes and records; the account and other clubs' rows are not in it."""
    records, withheld = collect([player], club=club, addresses=[player.email])
    records[Player._meta.label] = [row_of(player)]
    return _plain({
        "format": FORMAT, "generated_at": timezone.now(),
        "scope": {"club": club.slug, "club_name": club.name},
        "account": None,
        "player": _player(player, club),
        "events": _events(player, club),
        "ratings": _ratings(player, club),
        "records": records, "withheld": withheld,
    })


def player_known_to_club(*, player: Player, club: Club) -> bool:
    """Whether ``club`` knows ``player``: on its roster, or entered in one of its events."""
    return (ClubPlayer.objects.filter(club=club, player=player).exists()
            or Entry.objects.filter(event__club=club, player=player).exists())

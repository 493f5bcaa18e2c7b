"""A player's world for the privacy tests, played through the real services: an account with
e-mail addresses, a token and sign-in history; a finished progressive day of eight (two
qualifying games); a finished club night of four with a self check-in, a penalty and its
appeal; a club night in another club; and other players and a director who are not the
subject. The subject's tables enter known hands (:data:`HAND`: NS 51, EW 55), so every figure
the export shows is known here without reading it back."""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from allauth.account.models import EmailAddress
from axes.models import AccessAttempt, AccessLog
from django.db import transaction
from rest_framework.authtoken.models import Token

from clubs.models import Club, ClubPlayer, Membership, Player
from conduct.services import appeal_record, penalty_record
from draw.services import event_status_set, round_create, round_set_status
from league.ratings import ratings_rebuild
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.scoring.factories import values
from tournaments.models import Entry, Event, Round
from tournaments.services import entry_check_in, event_create, self_check_in

HAND = values()  # NS bid 51 and made: NS 24 + 27 = 51, EW 32 + 23 = 55
SIDE_POINTS = {"NS": 51, "EW": 55}
DEALS = 2
PASSWORD = "sam-pass-word-123"


@dataclass
class World:
    club: Club
    director: Any
    other_club: Club
    other_director: Any
    user: Any
    subject: Player
    others: list[Player]
    progressive: Event
    night: Event
    away: Event  # the other club's night


def _other_hand(rng: random.Random, number: int) -> dict[str, Any]:
    ns = rng.choice([20, 30, 40])
    return values(dealer="NESW"[(number - 1) % 4], bidder=rng.choice("NESW"),
                  bid=rng.choice([50, 51, 52]), meld={"NS": 2 * rng.randint(10, 30),
                                                      "EW": 2 * rng.randint(10, 30)},
                  counters={"NS": ns, "EW": 50 - ns})


def play_round(event: Event, number: int, subject: Player, rng: random.Random) -> Round:
    """Seat round ``number`` and play every table out: the subject's table with :data:`HAND`,
    the others with random legal hands; then close the round."""
    round_ = round_create(event=event, number=number)
    round_set_status(round_=round_, status=Round.Status.PLAYING)
    for game in Game.objects.filter(table__round=round_).order_by("table__number"):
        mine = game.table.seats.filter(entry__player=subject).exists()
        for deal in range(1, DEALS + 1):
            hand_submit(game=game, number=deal,
                        values=HAND if mine else _other_hand(rng, deal))
        game_confirm(game=game, position="N")
    round_set_status(round_=round_, status=Round.Status.CLOSED, close_unfinished=True)
    return round_


def build_world() -> World:
    """The world, built in one transaction: the tasks queued on commit (the automatic advance
    after a confirmed game) find every event finished, as in a test that never commits."""
    with transaction.atomic():
        return _build_world()


def _build_world() -> World:
    rng = random.Random(2511)
    club, director = club_with_director(slug="riverside")
    other_club, other_director = club_with_director(slug="hilltop")
    user = UserFactory(username="sam", password=PASSWORD)
    user.email = "sam@example.org"
    user.save(update_fields=["email"])
    EmailAddress.objects.create(user=user, email="sam@example.org", verified=True, primary=True)
    EmailAddress.objects.create(user=user, email="sam.work@example.org", verified=False)
    Token.objects.create(user=user)
    Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
    AccessAttempt.objects.create(username="sam", ip_address="10.0.0.7", user_agent="Phone",
                                 http_accept="*/*", path_info="/accounts/login/", get_data="",
                                 post_data="login=sam", failures_since_start=2)
    AccessLog.objects.create(username="sam", ip_address="10.0.0.8", user_agent="Laptop",
                             http_accept="*/*", path_info="/accounts/login/")
    subject = PlayerFactory(club=club, name="Samantha Quill", email="sam@example.org")
    Player.objects.filter(pk=subject.pk).update(user=user)
    subject.refresh_from_db()
    others = [PlayerFactory(club=club, name=f"Riverside {c}") for c in "ABCDEFG"]

    progressive = event_create(club=club, name="Riverside NPA day",
                               date=datetime.date(2026, 3, 14),
                               format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=2,
                               deals_per_round=DEALS, actor=director)
    for player in [subject, *others]:
        entry_check_in(event=progressive, player=player, actor=director)
    event_status_set(event=progressive, status=Event.Status.RUNNING)
    for number in (1, 2):
        play_round(progressive, number, subject, rng)
    event_status_set(event=progressive, status=Event.Status.FINISHED)

    night = event_create(club=club, name="Riverside club night", date=datetime.date(2026, 3, 19),
                         rounds_planned=1, deals_per_round=DEALS, actor=director)
    Event.objects.filter(pk=night.pk).update(self_check_in=Event.SelfCheckIn.OPEN)
    night.refresh_from_db()
    self_check_in(event=night, player=subject)
    for player in others[:3]:
        entry_check_in(event=night, player=player, actor=director)
    event_status_set(event=night, status=Event.Status.RUNNING)
    play_round(night, 1, subject, rng)
    mine = Entry.objects.get(event=night, player=subject)
    penalty = penalty_record(event=night, round_number=1, kind="slow_play", points=10,
                             reason="Samantha Quill played out of turn", entry_id=mine.pk,
                             actor=director)
    appeal_record(event=night, contested="Samantha Quill says it was her turn",
                  decision="upheld", penalty_id=penalty.pk, actor=director)
    event_status_set(event=night, status=Event.Status.FINISHED)

    # Another club's night: the subject plays there too (another club's roster).
    away_players = [PlayerFactory(club=other_club, name=f"Hilltop {c}") for c in "XYZ"]
    ClubPlayer.objects.create(club=other_club, player=subject)
    away = event_create(club=other_club, name="Hilltop night", date=datetime.date(2026, 3, 21),
                        rounds_planned=1, deals_per_round=DEALS, actor=other_director)
    for player in [subject, *away_players]:
        entry_check_in(event=away, player=player, actor=other_director)
    event_status_set(event=away, status=Event.Status.RUNNING)
    play_round(away, 1, subject, rng)
    event_status_set(event=away, status=Event.Status.FINISHED)
    ratings_rebuild()
    return World(club, director, other_club, other_director, user, subject, others,
                 progressive, night, away)

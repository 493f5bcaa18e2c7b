"""Factories shared by the whole suite."""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubPlayer, Membership, Player
from tournaments.models import Event


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")

    @factory.post_generation
    def password(self, create: bool, extracted: str | None, **kwargs: object) -> None:
        self.set_password(extracted or "pass-word-123")
        if create:
            self.save(update_fields=["password"])


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    ruleset_preset = "pagat_double_deck"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    club = factory.SubFactory(ClubFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.DIRECTOR


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player on the roster of ``club`` (pass club=...; a new club when omitted)."""

    class Meta:
        model = Player
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Player {n:03d}")

    @factory.post_generation
    def club(self, create: bool, extracted: Club | None, **kwargs: object) -> None:
        if not create:
            return
        ClubPlayer.objects.create(club=extracted or ClubFactory(), player=self)


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Club night {n}")
    date = factory.LazyFunction(lambda: datetime.date(2026, 11, 20))
    ruleset_preset = "pagat_double_deck"
    rounds_planned = 4
    deals_per_round = 4
    tie_breaks = ["points", "wins", "head_to_head", "highest_game"]


def club_with_director(*, slug: str = "club-a", is_public: bool = True) -> tuple[Club, object]:
    club = ClubFactory(slug=slug, name=slug.replace("-", " ").title(), is_public=is_public)
    director = UserFactory(username=f"director-{slug}")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club, director


def event_with_players(*, club: Club | None = None, players: int = 8, **event_kwargs: object) -> Event:
    """An event of ``club`` with ``players`` players checked in (through the service)."""
    from tournaments.services import entry_check_in

    club = club or ClubFactory()
    event = EventFactory(club=club, **event_kwargs)
    for _ in range(players):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    return event


# --- standings: games and derived results without the rules engine (appended) ------------------
class EntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "tournaments.Entry"

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)


def game_with_results(
    *, event: Event, round_number: int, table_number: int, seats: list[object],
    ns: int, ew: int, finished: bool = True, declared: dict[str, tuple[int, int, int]] | None = None,
    round_status: str = "closed",
) -> object:
    """A game of ``event`` with seats N, E, S, W and its SeatResults as ``game_recompute`` would
    write them (``declared``: position -> hands declared, made, set). Rounds are created closed."""
    from scoring.models import Game, SeatResult
    from tournaments.models import Round, Seat, Table

    round_, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": round_status}
    )
    table = Table.objects.create(round=round_, number=table_number)
    winner = ("NS" if ns > ew else "EW" if ew > ns else "") if finished else ""
    game = Game.objects.create(
        table=table, totals={"NS": ns, "EW": ew}, winner=winner, hands_count=4,
        status="finished" if finished else "playing",
    )
    for position, entry in zip("NESW", seats, strict=True):
        side = "NS" if position in "NS" else "EW"
        Seat.objects.create(table=table, round=round_, position=position, entry=entry)
        d, m, s = (declared or {}).get(position, (0, 0, 0))
        SeatResult.objects.create(
            game=game, event=event, entry=entry, round_number=round_number, position=position,
            side=side, points=ns if side == "NS" else ew, opponents_points=ew if side == "NS" else ns,
            won=finished and winner == side, finished=finished,
            hands_declared=d, hands_made=m, hands_set=s,
        )
    return game


def bye_for(*, event: Event, round_number: int, entry: object) -> object:
    from tournaments.models import Bye, Round

    round_, _ = Round.objects.get_or_create(
        event=event, number=round_number, defaults={"status": "closed"}
    )
    return Bye.objects.create(round=round_, entry=entry)

"""Factories for clubs, members and players."""

from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, ClubPlayer, Membership, Player


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


def club_with_director(*, slug: str = "club-a", is_public: bool = True) -> tuple[Club, object]:
    club = ClubFactory(slug=slug, name=slug.replace("-", " ").title(), is_public=is_public)
    director = UserFactory(username=f"director-{slug}")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    return club, director

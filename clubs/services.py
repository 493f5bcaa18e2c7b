"""Writes on clubs, memberships and players. Keyword-only, one transaction each."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from common.errors import DomainError
from common.rulesets import check_ruleset

from .models import Club, ClubPlayer, Membership, Player, validate_time_zone


@transaction.atomic
def club_create(
    *,
    name: str,
    owner: Any,
    slug: str = "",
    time_zone: str = "UTC",
    ruleset_preset: str = "pagat_double_deck",
    ruleset_overrides: dict[str, Any] | None = None,
    is_public: bool = True,
) -> Club:
    name = name.strip()
    if not name:
        raise DomainError("Give the club a name.", field="name")
    slug = slugify(slug or name)[:60]
    if not slug:
        raise DomainError("The club needs a web address made of letters or digits.", field="slug")
    if Club.objects.filter(slug=slug).exists():
        raise DomainError(f"The address {slug!r} is taken; pick another.", field="slug")
    try:
        validate_time_zone(time_zone)
    except Exception:
        raise DomainError(f"{time_zone!r} is not a known time zone.", field="time_zone") from None
    check_ruleset(preset=ruleset_preset, overrides=ruleset_overrides)
    club = Club.objects.create(
        name=name, slug=slug, time_zone=time_zone, ruleset_preset=ruleset_preset,
        ruleset_overrides=ruleset_overrides or {}, is_public=is_public,
    )
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    return club


# One answer for every user name that cannot be given a role, whether or not an account of
# that name exists: the club's owner learns nothing about other people's accounts from it.
MEMBER_REFUSED = ("No user with that name can be added. Check the spelling; the person needs an "
                  "active account of their own first.")


@transaction.atomic
def membership_set(*, club: Club, username: str, role: str, actor: Any = None) -> Membership:
    """Give a user a role in the club (or change it). The last owner cannot be demoted.

    Only active accounts can be given a role; any other name (no such account, or a
    deactivated one) gets the same refusal, :data:`MEMBER_REFUSED`, which does not repeat it.
    """
    if role not in Membership.Role.values:
        raise DomainError(
            f"Role must be one of {', '.join(Membership.Role.values)}.", field="role"
        )
    user = get_user_model().objects.filter(username=username.strip(), is_active=True).first()
    if user is None:
        raise DomainError(MEMBER_REFUSED, field="username")
    membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
    if membership is not None and membership.role == Membership.Role.OWNER and role != "owner":
        _keep_an_owner(club, excluding=membership)
    if membership is None:
        membership = Membership.objects.create(club=club, user=user, role=role)
    else:
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def _keep_an_owner(club: Club, *, excluding: Membership) -> None:
    others = Membership.objects.filter(club=club, role=Membership.Role.OWNER).exclude(pk=excluding.pk)
    if not others.exists():
        raise DomainError("A club needs at least one owner.", field="role")


@transaction.atomic
def player_create(*, club: Club, name: str, email: str = "") -> Player:
    """Add a new player to the club's roster (directors do this on the spot at check-in)."""
    name = " ".join(name.split())
    if not name:
        raise DomainError("Enter the player's name.", field="name")
    if len(name) > 120:
        raise DomainError("Names are at most 120 characters.", field="name")
    if ClubPlayer.objects.filter(club=club, player__name__iexact=name).exists():
        raise DomainError(
            f"{name} is already on the roster. Pick them from the list, or add a distinguishing "
            "initial.",
            field="name",
        )
    player = Player.objects.create(name=name, email=email.strip())
    ClubPlayer.objects.create(club=club, player=player)
    return player


@transaction.atomic
def player_merge(*, club: Club, keep: Player, duplicate: Player) -> Player:
    """Fold a duplicate player into ``keep``: every row that points at the duplicate (event
    entries, rosters) moves over, and so does its login.

    The rows are found through the player's reverse relations, so this module needs to know
    nothing of the apps that point at players. Where a row cannot move because ``keep`` already
    has one like it (both played in the same event), the two are different people and the merge
    is refused, with nothing changed.
    """
    if keep.pk == duplicate.pk:
        raise DomainError("Pick two different players to merge.", field="duplicate")
    for field, player in (("keep", keep), ("duplicate", duplicate)):
        if not ClubPlayer.objects.filter(club=club, player=player).exists():
            raise DomainError(f"{player.name} is not on this club's roster.", field=field)
    for link in ClubPlayer.objects.filter(player=duplicate):
        ClubPlayer.objects.get_or_create(club_id=link.club_id, player=keep)
    ClubPlayer.objects.filter(player=duplicate).delete()
    for relation in Player._meta.related_objects:
        model = relation.related_model
        if not relation.one_to_many or model is ClubPlayer or isinstance(model, str):
            continue
        rows = model._default_manager.filter(**{relation.field.name: duplicate})
        try:
            with transaction.atomic():
                rows.update(**{relation.field.name: keep})
        except IntegrityError:
            raise DomainError(
                f"{keep.name} and {duplicate.name} both appear in the same "
                f"{model._meta.verbose_name} (the same event); they are two "
                "people, not a duplicate.",
                field="duplicate",
            ) from None
    if duplicate.user_id and not keep.user_id:
        keep.user_id = duplicate.user_id
        duplicate.user = None
        duplicate.save(update_fields=["user"])
        keep.save(update_fields=["user"])
    if not keep.email and duplicate.email:
        keep.email = duplicate.email
        keep.save(update_fields=["email"])
    duplicate.delete()
    return keep

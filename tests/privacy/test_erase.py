"""Erasing an account at its owner's request: the account is gone and cannot sign in; the
player rows stay as "Withdrawn player" and nothing that ranks moves (standings, placings,
seasons, ratings, the event archives: equal before and after, but for the name and e-mail
address); conduct
records stay without the name; the clubs' log records the erasure without a name. A wrong or
missing confirmation erases nothing and answers 400 naming ``confirm``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from axes.models import AccessAttempt, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from archive.selectors import event_archive
from clubs.models import ClubPlayer, Membership, Player
from conduct.models import Appeal, Penalty
from league.models import RatingChange
from league.selectors import club_ratings, season_leaderboard
from league.services import season_create
from privacy.models import PrivacyLog
from privacy.services import ERASED_NAME
from standings.models import StandingsSnapshot
from tests.privacy.world import PASSWORD, World, build_world
from tournaments.models import Arrival, Entry, EventLog

pytestmark = pytest.mark.django_db
OLD_NAME = "Samantha Quill"


@pytest.fixture
def world() -> World:
    return build_world()


def _sign_in(login: str, password: str = PASSWORD) -> Client:
    """Sign in through the sign-in page (as a browser does; django-axes counts the attempt)."""
    client = Client()
    client.post(reverse("account_login"), {"login": login, "password": password})
    return client


def _signed_in(world: World) -> Client:
    client = _sign_in("sam")
    assert client.session.get("_auth_user_id") == str(world.user.pk)
    return client


def _without_names(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_names(v) for k, v in value.items() if k not in ("name", "players")}
    if isinstance(value, list):
        return [_without_names(v) for v in value]
    return value


def _results(world: World) -> dict[str, Any]:
    """Everything that ranks, for the subject's events and clubs, without the names."""
    events = [world.progressive, world.night, world.away]
    snapshots = {s.event_id: s for s in StandingsSnapshot.objects.filter(event__in=events)}
    seasons = {}
    for club in (world.club, world.other_club):
        season = season_create(club=club, name=f"Whole year {club.slug}",
                               starts_on=world.progressive.date.replace(month=1, day=1),
                               ends_on=world.progressive.date.replace(month=12, day=31),
                               counting="total", events="all") if not club.seasons.exists() \
            else club.seasons.first()
        seasons[club.slug] = _without_names(
            {k: v for k, v in season_leaderboard(season=season).items() if k != "season"})
    return {
        "standings": {e: _without_names(s.rows) for e, s in snapshots.items()},
        "placings": {e: _without_names(s.placements) for e, s in snapshots.items()},
        "seasons": seasons,
        "ratings": {c.slug: _without_names(club_ratings(club=c))
                    for c in (world.club, world.other_club)},
        "rating_changes": list(RatingChange.objects.order_by("pk").values(
            "player_id", "game_id", "mu_before", "sigma_before", "mu_after", "sigma_after")),
        "archives": {e.pk: json.dumps(event_archive(event=e), sort_keys=True, default=str)
                     .replace(OLD_NAME, ERASED_NAME)  # the player's name and e-mail address
                     .replace('"email": "sam@example.org"', '"email": ""') for e in events},
    }


def test_erasure_keeps_every_result_and_only_the_name_changes(world: World) -> None:
    before = _results(world)
    assert before["seasons"]["riverside"]["ranked"]  # the season counts the subject's events
    client = _signed_in(world)
    answer = client.post(reverse("api-me-erase"), {"confirm": "sam"},
                         content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["player_id"] == world.subject.pk
    after = _results(world)
    for key in before:
        assert after[key] == before[key], key
    # the name is gone from everything stored, the rows stay
    subject = Player.objects.get(pk=world.subject.pk)
    assert (subject.name, subject.email, subject.user_id) == (ERASED_NAME, "", None)
    assert Entry.objects.filter(player=subject).count() == 3
    assert ClubPlayer.objects.filter(player=subject).count() == 2
    assert Arrival.objects.filter(player=subject).count() == 1
    for snapshot in StandingsSnapshot.objects.all():
        assert OLD_NAME not in json.dumps([snapshot.rows, snapshot.placements])
    mine = set(Entry.objects.filter(player=subject).values_list("pk", flat=True))
    rows = [r for s in StandingsSnapshot.objects.all() for r in s.rows if r["entry_id"] in mine]
    assert [r["name"] for r in rows] == [ERASED_NAME] * 3
    assert not [log.details for log in EventLog.objects.all() if OLD_NAME in json.dumps(log.details)]
    assert EventLog.objects.filter(action="checked_in", details__name=ERASED_NAME).count() == 3
    # the conduct record stays, without the name
    penalty = Penalty.objects.get(entry__player=subject)
    assert (penalty.kind, penalty.points, penalty.reason) == (
        "slow_play", 10, f"{ERASED_NAME} played out of turn")
    assert Appeal.objects.get(penalty=penalty).contested == f"{ERASED_NAME} says it was her turn"
    # the clubs' log: one line per club, naming nobody
    logs = PrivacyLog.objects.filter(action="erasure").order_by("club_id")
    assert [(log.club_id, log.player_id, log.actor_id) for log in logs] == [
        (world.club.pk, subject.pk, None), (world.other_club.pk, subject.pk, None)]


def test_the_erased_account_is_gone_and_cannot_sign_in(world: World) -> None:
    client = _signed_in(world)
    other_session = _signed_in(world)  # a second browser
    user_id = world.user.pk
    assert AccessLog.objects.filter(username="sam").count() == 3  # the world's and these two
    answer = client.post(reverse("api-me-erase"), {"confirm": "sam"},
                         content_type="application/json")
    assert answer.status_code == 200
    assert not get_user_model().objects.filter(pk=user_id).exists()
    assert not EmailAddress.objects.filter(user_id=user_id).exists()
    assert not Token.objects.filter(user_id=user_id).exists()
    assert not Membership.objects.filter(user_id=user_id).exists()
    assert not AccessAttempt.objects.filter(username="sam").exists()
    assert not AccessLog.objects.filter(username="sam").exists()
    assert Session.objects.filter(session_key__in=[client.session.session_key,
                                                   other_session.session.session_key]).count() == 0
    assert other_session.get(reverse("api-me-data")).status_code in (401, 403)
    for login in ("sam", "sam@example.org"):
        assert "_auth_user_id" not in _sign_in(login).session


@pytest.mark.parametrize("body", [{}, {"confirm": ""}, {"confirm": "Sam"}, {"confirm": "sam2"}])
def test_a_wrong_confirmation_erases_nothing(world: World, body: dict[str, str]) -> None:
    client = _signed_in(world)
    answer = client.post(reverse("api-me-erase"), body, content_type="application/json")
    assert answer.status_code == 400
    assert [e["field"] for e in answer.json()["errors"]] == ["confirm"]
    assert get_user_model().objects.filter(pk=world.user.pk).exists()
    assert Player.objects.get(pk=world.subject.pk).name == OLD_NAME
    assert not PrivacyLog.objects.exists()


def test_the_erase_page_asks_for_the_user_name_then_erases(world: World) -> None:
    client = _signed_in(world)
    page = client.get(reverse("privacy-erase"))
    assert page.status_code == 200 and b'name="confirm"' in page.content
    wrong = client.post(reverse("privacy-erase"), {"confirm": "someone"})
    assert wrong.status_code == 400
    assert b"That is not your user name" in wrong.content
    assert get_user_model().objects.filter(pk=world.user.pk).exists()
    done = client.post(reverse("privacy-erase"), {"confirm": "sam"}, follow=True)
    assert done.redirect_chain[-1][0] == reverse("home")
    assert ERASED_NAME.encode() in done.content
    assert "_auth_user_id" not in client.session
    assert not get_user_model().objects.filter(pk=world.user.pk).exists()


def test_a_clubs_last_owner_cannot_erase_their_account(world: World) -> None:
    Membership.objects.filter(user=world.user).update(role=Membership.Role.OWNER)
    Membership.objects.filter(club=world.club).exclude(user=world.user).delete()
    answer = _signed_in(world).post(reverse("api-me-erase"), {"confirm": "sam"},
                                    content_type="application/json")
    assert answer.status_code == 400
    assert [(e["field"], e["code"]) for e in answer.json()["errors"]] == [
        ("account", "last_owner")]
    assert get_user_model().objects.filter(pk=world.user.pk).exists()


def test_erasure_forgets_the_followed_phones_and_the_registrations_contacts(world: World) -> None:
    from following.models import Follower
    from registrations.models import Registration

    entry = Entry.objects.get(event=world.night, player=world.subject)
    Follower.objects.create(event=world.night, entry=entry, token_digest="d" * 64,
                            email="sam@example.org", push_subscription={"endpoint": "x"})
    own = Registration.objects.create(event=world.progressive, name=OLD_NAME,
                                      email="sam@example.org", user=world.user,
                                      player=world.subject)
    partnered = Registration.objects.create(event=world.progressive, name="Ada Other",
                                            email="ada@example.org", partner_name=OLD_NAME,
                                            partner_email="sam@example.org",
                                            partner_player=world.subject)
    client = _signed_in(world)
    answer = client.post(reverse("api-me-erase"), {"confirm": "sam"},
                         content_type="application/json")
    assert answer.status_code == 200
    assert not Follower.objects.filter(entry=entry).exists()
    own.refresh_from_db()
    partnered.refresh_from_db()
    assert (own.name, own.email, own.status) == (ERASED_NAME, "", Registration.Status.UNCONFIRMED)
    assert (partnered.name, partnered.email) == ("Ada Other", "ada@example.org")
    assert (partnered.partner_name, partnered.partner_email) == (ERASED_NAME, "")

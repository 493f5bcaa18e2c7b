"""Which players a registration stands for, and who sees them: a partner's address is looked up
on the event's club's roster only (naming someone's address never brings their player, from a
private club or any other, into the registrant's club), the players found are never shown to
the registrant, and a signed-in registrant whose address is on the roster is linked to that
player (one player per account) and sees its results on "Your data". Through the services,
the API and the pages."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Player
from privacy.selectors import account_export, player_export
from registrations.models import Registration
from registrations.services import registration_confirm, registration_create
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.league.builders import club_night, play, seat
from tests.registrations.test_api import Desk
from tournaments.models import Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair_desk(django_capture_on_commit_callbacks: Any) -> Desk:
    return Desk(django_capture_on_commit_callbacks, pairs=True, slug="attacker")


def _victim() -> Player:
    """A player of a private club, with an address."""
    private, _ = club_with_director(slug="private-club", is_public=False)
    return PlayerFactory(club=private, name="Vera Secret", email="vera@example.org")


def test_a_partners_address_never_brings_a_player_from_another_club(pair_desk: Desk) -> None:
    desk = pair_desk
    victim = _victim()
    desk.open()
    row = desk.confirmed("Ann Smith", partner_name="Pat Partner",
                         partner_email="VERA@example.org")
    assert row["status"] == "registered"
    registration = Registration.objects.get(pk=row["id"])
    partner = registration.partner_player
    assert partner is not None and partner.pk != victim.pk
    assert partner.name == "Pat Partner"
    # the victim stays on their own club's roster alone
    assert list(victim.club_links.values_list("club__slug", flat=True)) == ["private-club"]
    assert not desk.club.players.filter(name="Vera Secret").exists()
    # the registrant never sees which player the partner's name stands for
    token = desk.token_for("ann@example.org")
    seen = desk.send(desk.anon, "get", f"{row['id']}/?token={token}").json()
    assert seen["partner_player"] is None and seen["player"] == registration.player_id
    # the director does
    assert desk.send(desk.boss, "get", f"{row['id']}/").json()["partner_player"] == partner.pk
    # checked in, the pair is the new player: nothing of the victim's in the attacker's club
    assert desk.send(desk.boss, "post", "check-in/", {}).status_code == 200
    assert not Entry.objects.filter(player=victim).exists()
    export = player_export(player=partner, club=desk.club)
    assert "Vera Secret" not in str(export)


def test_a_partner_on_the_events_own_roster_is_found_there(pair_desk: Desk) -> None:
    desk = pair_desk
    known = PlayerFactory(club=desk.club, name="Bob Jones", email="bob@example.org")
    desk.open()
    row = desk.confirmed("Ann Smith", partner_name="Bobby J", partner_email="bob@example.org")
    assert Registration.objects.get(pk=row["id"]).partner_player_id == known.pk


def test_the_registrants_own_confirmed_address_still_finds_their_player_elsewhere(
        django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="open-club")
    victim = _victim()
    desk.open()
    # Vera confirms her own address by its link: she is who she says
    row = desk.confirmed("Vera S", email="vera@example.org")
    assert Registration.objects.get(pk=row["id"]).player_id == victim.pk
    assert desk.club.players.filter(pk=victim.pk).exists()


def test_the_partner_page_and_the_personal_page_name_no_one_found(
        client: Client, django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, pairs=True, slug="pages-pairs")
    _victim()
    desk.open()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/events/{desk.event.pk}/register/", {
            "name": "Ann Smith", "email": "ann@example.org", "partner_name": "Pat Partner",
            "partner_email": "vera@example.org"})
    assert answer.status_code == 200  # "check your mail"
    link = f"/registrations/{desk.token_for('ann@example.org')}/"
    with django_capture_on_commit_callbacks(execute=True):
        client.post(link, {"action": "confirm"})
    page = client.get(link).content.decode()
    assert "You are registered." in page and "Vera Secret" not in page
    assert not desk.club.players.filter(name="Vera Secret").exists()
    assert all("Vera Secret" not in m.body for m in mail.outbox)


# --- a signed-in registrant already on the roster --------------------------------------------
def _roster_player_with_results(club: Any) -> tuple[Player, Any]:
    """Rita, on the club's roster with her address and no account, with a game played."""
    rita = PlayerFactory(club=club, name="Rita Roster", email="rita@example.org")
    others = [PlayerFactory(club=club) for _ in range(3)]
    night = club_night(club, date=datetime.date(2026, 3, 5), name="March night")
    play(seat(night, [rita, *others]), ns_wins=True)
    return rita, night


def test_a_signed_in_registrant_on_the_roster_is_linked_and_sees_their_results(
        django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="rita-club")
    rita, night = _roster_player_with_results(desk.club)
    desk.open()
    user = UserFactory(username="rita", email="rita@example.org")
    browser = Client()
    browser.force_login(user)
    form = browser.get(f"/events/{desk.event.pk}/register/").content.decode()
    assert "Registering as <strong>Rita Roster</strong>" in form
    assert "one player per account" in form
    assert 'name="name"' not in form  # the roster has her name
    with django_capture_on_commit_callbacks(execute=True):
        answer = browser.post(f"/events/{desk.event.pk}/register/", {}, follow=True)
    assert answer.status_code == 200
    assert "Your account is now linked to Rita Roster" in answer.content.decode()
    rita.refresh_from_db()
    assert rita.user_id == user.pk
    registration = Registration.objects.get(event=desk.event)
    assert registration.player_id == rita.pk and registration.status == "registered"
    assert Player.objects.filter(user=user).count() == 1
    # "Your data": the player and their results
    document = account_export(user=user)
    assert document["player"] is not None and document["player"]["name"] == "Rita Roster"
    assert len(document["events"]) == 1 and night.name in str(document["events"][0])
    page = browser.get("/account/data/").content.decode()
    assert "Rita Roster" in page and "not linked" not in page
    api = APIClient()
    api.force_authenticate(user)
    assert api.get("/api/me/data/").json()["player"]["name"] == "Rita Roster"


def test_the_api_links_the_account_too_and_only_a_confirmed_address(
        django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="link-api")
    rita, _ = _roster_player_with_results(desk.club)
    desk.open()
    # an account whose address is not confirmed is not linked to anyone
    doubtful = UserFactory(username="fake-rita", email="rita@example.org")
    EmailAddress.objects.create(user=doubtful, email="rita@example.org", verified=False,
                                primary=True)
    client = APIClient()
    client.force_authenticate(doubtful)
    refused = desk.send(client, "post", "", {})
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "name"
    rita.refresh_from_db()
    assert rita.user_id is None
    # confirmed: linked, registered as Rita
    EmailAddress.objects.filter(user=doubtful).update(verified=True)
    done = desk.send(client, "post", "", {})
    assert done.status_code == 201 and done.json()["name"] == "Rita Roster"
    rita.refresh_from_db()
    assert rita.user_id == doubtful.pk
    assert done.json()["player"] == rita.pk


def test_a_roster_player_of_another_account_is_not_taken(
        django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="taken")
    owner = UserFactory(username="owner", email="other@example.org")
    PlayerFactory(club=desk.club, name="Owned Player", email="sam@example.org", user=owner)
    desk.open()
    sam = UserFactory(username="sam", email="sam@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        registration = registration_create(event=desk.event, user=sam, name="Sam New")
    assert registration.player is not None and registration.player.name == "Sam New"
    assert registration.player.user_id == sam.pk
    assert Player.objects.get(name="Owned Player").user_id == owner.pk


def test_an_anonymous_registration_confirmed_links_no_account(
        django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="anon-link")
    rita, _ = _roster_player_with_results(desk.club)
    desk.open()
    with django_capture_on_commit_callbacks(execute=True):
        registration = registration_create(event=desk.event, name="Rita R",
                                           email="rita@example.org")
        registration_confirm(registration=registration)
    registration.refresh_from_db()
    assert registration.player_id == rita.pk
    rita.refresh_from_db()
    assert rita.user_id is None

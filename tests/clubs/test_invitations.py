"""Invitation links and who may give which role, on the pages and through the API: directors
invite and manage members and scorers, owners also directors; accepting never lowers a role;
expired, revoked and used-up links say so; a club always keeps an owner."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Club, Invitation, Membership
from clubs.services import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    membership_remove,
    membership_set,
)
from common.errors import DomainError
from tests.clubs.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


def _member(club: Club, role: str, username: str) -> Any:
    user = UserFactory(username=username)
    Membership.objects.create(club=club, user=user, role=role)
    return user


@pytest.fixture
def club() -> Club:
    return ClubFactory(name="Riverside", slug="riverside")


@pytest.fixture
def owner(club: Club) -> Any:
    return _member(club, "owner", "olive")


@pytest.fixture
def director(club: Club) -> Any:
    return _member(club, "director", "dana")


def _role(club: Club, user: Any) -> str | None:
    return Membership.objects.filter(club=club, user=user).values_list("role", flat=True).first()


def _api(user: Any = None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def _fields(response: Any) -> list[str]:
    return [e["field"] for e in response.json()["errors"]]


# --- the service --------------------------------------------------------------------------------
def test_a_members_link_is_reusable_for_a_week_and_counts_its_uses(club, director) -> None:
    before = timezone.now()
    invitation = invitation_create(club=club, role="member", actor=director, note="Club night QR")
    assert invitation.max_uses is None and invitation.uses == 0 and invitation.created_by == director
    assert len(invitation.token) >= 32
    assert before + datetime.timedelta(days=7) <= invitation.expires_at <= (
        timezone.now() + datetime.timedelta(days=7))
    people = [UserFactory(username=f"guest{n}") for n in range(3)]
    for person in people:
        membership, changed = invitation_accept(token=invitation.token, user=person)
        assert changed and membership.role == "member"
    invitation.refresh_from_db()
    assert invitation.uses == 3 and invitation.is_active


def test_tokens_are_unguessable_and_distinct(club, director) -> None:
    tokens = {invitation_create(club=club, role="member", actor=director).token
              for _ in range(20)}
    assert len(tokens) == 20


def test_a_director_link_works_once(club, owner) -> None:
    invitation = invitation_create(club=club, role="director", actor=owner)
    assert invitation.max_uses == 1
    first, second = UserFactory(username="first"), UserFactory(username="second")
    assert invitation_accept(token=invitation.token, user=first)[0].role == "director"
    with pytest.raises(DomainError) as refused:
        invitation_accept(token=invitation.token, user=second)
    assert refused.value.field == "token" and refused.value.code == "used_up"
    assert _role(club, second) is None
    with pytest.raises(DomainError) as many:
        invitation_create(club=club, role="director", actor=owner, max_uses=3)
    assert many.value.field == "max_uses"


@pytest.mark.parametrize(("kwargs", "field"), [
    ({"role": "owner"}, "role"),
    ({"role": "king"}, "role"),
    ({"role": "member", "days": 0}, "days"),
    ({"role": "member", "days": 91}, "days"),
    ({"role": "member", "max_uses": 0}, "max_uses"),
    ({"role": "member", "max_uses": 392_362_722_753}, "max_uses"),  # past the column's range
    ({"role": "member", "note": "x" * 81}, "note"),
])
def test_bad_invitations_name_their_field(club, owner, kwargs, field) -> None:
    with pytest.raises(DomainError) as refused:
        invitation_create(club=club, actor=owner, **kwargs)
    assert refused.value.field == field
    assert not Invitation.objects.exists()


def test_uses_run_out(club, director) -> None:
    invitation = invitation_create(club=club, role="scorer", actor=director, max_uses=2)
    for n in range(2):
        invitation_accept(token=invitation.token, user=UserFactory(username=f"s{n}"))
    late = UserFactory(username="late")
    with pytest.raises(DomainError) as refused:
        invitation_accept(token=invitation.token, user=late)
    assert refused.value.code == "used_up" and _role(club, late) is None


def test_accepting_never_lowers_a_role_and_does_not_use_the_link_up(club, owner, director) -> None:
    scorer_link = invitation_create(club=club, role="scorer", actor=owner, max_uses=1)
    membership, changed = invitation_accept(token=scorer_link.token, user=director)
    assert not changed and membership.role == "director"
    scorer_link.refresh_from_db()
    assert scorer_link.uses == 0  # still there for the scorer it was meant for
    scorer = UserFactory(username="sid")
    assert invitation_accept(token=scorer_link.token, user=scorer)[0].role == "scorer"
    # A higher role is an upgrade.
    director_link = invitation_create(club=club, role="director", actor=owner)
    membership, changed = invitation_accept(token=director_link.token, user=scorer)
    assert changed and membership.role == "director"
    assert Membership.objects.filter(club=club, user=scorer).count() == 1


def test_expired_revoked_and_unknown_links_are_refused(club, director) -> None:
    expired = invitation_create(club=club, role="member", actor=director)
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now())
    revoked = invitation_revoke(invitation=invitation_create(club=club, role="member",
                                                             actor=director), actor=director)
    assert revoked.revoked_at is not None
    person = UserFactory(username="pat")
    for token, code in [(expired.token, "expired"), (revoked.token, "revoked"),
                        ("no-such-token", "not_found")]:
        with pytest.raises(DomainError) as refused:
            invitation_accept(token=token, user=person)
        assert refused.value.code == code and refused.value.field == "token"
    assert _role(club, person) is None


def test_directors_invite_members_and_scorers_only(club, director) -> None:
    for role in ("member", "scorer"):
        invitation_create(club=club, role=role, actor=director)
    with pytest.raises(PermissionDenied):
        invitation_create(club=club, role="director", actor=director)
    scorer = _member(club, "scorer", "sid")
    with pytest.raises(PermissionDenied):
        invitation_create(club=club, role="member", actor=scorer)


def test_the_database_keeps_director_links_single_use_and_uses_within_the_limit(club) -> None:
    expires = timezone.now() + datetime.timedelta(days=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(club=club, role="director", max_uses=2, expires_at=expires)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(club=club, role="member", max_uses=1, uses=2,
                                  expires_at=expires)
    with pytest.raises(IntegrityError), transaction.atomic():
        Invitation.objects.create(club=club, role="owner", expires_at=expires)


# --- roles by name: who may change what --------------------------------------------------------
def test_directors_move_people_between_member_and_scorer(club, director) -> None:
    _member(club, "member", "mo")
    assert membership_set(club=club, username="mo", role="scorer", actor=director).role == "scorer"
    assert membership_set(club=club, username="mo", role="member", actor=director).role == "member"
    UserFactory(username="newcomer")
    assert membership_set(club=club, username="newcomer", role="scorer",
                          actor=director).role == "scorer"
    assert membership_remove(club=club, username="newcomer", actor=director) == "newcomer"
    assert not Membership.objects.filter(club=club, user__username="newcomer").exists()


def test_directors_cannot_touch_directors_or_owners(club, owner, director) -> None:
    other = _member(club, "director", "dee")
    _member(club, "member", "mo")
    with pytest.raises(PermissionDenied):
        membership_set(club=club, username="mo", role="director", actor=director)
    with pytest.raises(PermissionDenied):
        membership_set(club=club, username="dee", role="member", actor=director)
    with pytest.raises(PermissionDenied):
        membership_remove(club=club, username="olive", actor=director)
    assert _role(club, other) == "director" and _role(club, owner) == "owner"


def test_owners_manage_everyone_but_never_the_last_owner(club, owner, director) -> None:
    assert membership_set(club=club, username="dana", role="owner", actor=owner).role == "owner"
    assert membership_remove(club=club, username="dana", actor=owner) == "dana"
    with pytest.raises(DomainError) as last:
        membership_remove(club=club, username="olive", actor=owner)
    assert last.value.field == "role"
    with pytest.raises(DomainError) as demoted:
        membership_set(club=club, username="olive", role="director", actor=owner)
    assert demoted.value.field == "role"
    with pytest.raises(DomainError) as nobody:
        membership_remove(club=club, username="ghost", actor=owner)
    assert nobody.value.field == "username"
    assert _role(club, owner) == "owner"


# --- the pages ----------------------------------------------------------------------------------
def test_a_director_makes_a_link_sees_its_qr_code_and_revokes_it(client: Client, club,
                                                                director, settings) -> None:
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    client.force_login(director)
    manage = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert 'id="invitation-form"' in manage
    assert '<option value="director"' not in manage  # a director cannot invite one
    response = client.post(reverse("invitation-create", args=[club.slug]),
                           {"role": "member", "days": "7", "max_uses": "", "note": "Tuesday"})
    invitation = Invitation.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("invitation-detail", args=[club.slug, invitation.pk])
    detail = client.get(response["Location"]).content.decode()
    link = f"http://192.168.1.20:8000/invite/{invitation.token}/"
    assert f'value="{link}"' in detail and "<svg" in detail
    manage = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert link in manage and "Tuesday" in manage
    revoked = client.post(reverse("invitation-revoke", args=[club.slug, invitation.pk]))
    assert revoked.status_code == 302
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert link not in client.get(reverse("club-manage", args=[club.slug])).content.decode()


def test_a_director_cannot_make_a_director_link_on_the_page(client: Client, club,
                                                           director) -> None:
    client.force_login(director)
    response = client.post(reverse("invitation-create", args=[club.slug]),
                           {"role": "director", "days": "7"})
    assert response.status_code == 400  # not a choice offered to a director
    assert "role" in response.context["invitation_form"].errors
    assert not Invitation.objects.exists()


def test_bad_invitation_form_input_is_shown_next_to_its_field(client: Client, club,
                                                             owner) -> None:
    client.force_login(owner)
    response = client.post(reverse("invitation-create", args=[club.slug]),
                           {"role": "director", "days": "7", "max_uses": "4"})
    assert response.status_code == 400
    assert "max_uses" in response.context["invitation_form"].errors
    assert not Invitation.objects.exists()


def test_a_director_of_another_club_cannot_invite_here(client: Client, club) -> None:
    elsewhere = ClubFactory(slug="elsewhere")
    outsider = _member(elsewhere, "director", "otto")
    private = ClubFactory(slug="private", is_public=False)
    client.force_login(outsider)
    data = {"role": "member", "days": "7"}
    assert client.post(reverse("invitation-create", args=[club.slug]), data).status_code == 403
    assert client.post(reverse("invitation-create", args=[private.slug]), data).status_code == 404
    assert not Invitation.objects.exists()
    api = _api(outsider)
    assert api.post(f"/api/clubs/{club.slug}/invitations/", {"role": "member"},
                    format="json").status_code == 403
    assert api.post(f"/api/clubs/{private.slug}/invitations/", {"role": "member"},
                    format="json").status_code == 404
    assert not Invitation.objects.exists()


def test_a_director_never_sees_or_revokes_a_director_link(client: Client, club, owner,
                                                          director) -> None:
    link = invitation_create(club=club, role="director", actor=owner)
    client.force_login(director)
    manage = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert link.token not in manage
    assert client.get(reverse("invitation-detail", args=[club.slug, link.pk])).status_code == 404
    assert client.post(reverse("invitation-revoke", args=[club.slug, link.pk])).status_code == 404
    link.refresh_from_db()
    assert link.revoked_at is None
    client.force_login(owner)
    assert link.token in client.get(reverse("club-manage", args=[club.slug])).content.decode()


def test_a_visitor_is_sent_to_sign_in_or_up_and_back(client: Client, club, director) -> None:
    invitation = invitation_create(club=club, role="scorer", actor=director)
    here = reverse("invitation-accept", args=[invitation.token])
    page = client.get(here)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Riverside" in text and "scorer" in text
    assert f'href="/accounts/signup/?next=%2Finvite%2F{invitation.token}%2F"' in text
    assert f'href="/accounts/login/?next=%2Finvite%2F{invitation.token}%2F"' in text
    posted = client.post(here)
    assert posted.status_code == 302
    assert posted["Location"] == f"/accounts/login/?next=%2Finvite%2F{invitation.token}%2F"
    assert not Membership.objects.filter(club=club, role="scorer").exists()
    # Signing in from there comes back to the invitation.
    UserFactory(username="sid", password="sid-pass-123")
    back = client.post(posted["Location"], {"login": "sid", "password": "sid-pass-123",
                                            "next": here})
    assert back.status_code == 302 and back["Location"] == here


def test_signed_in_people_accept_on_the_page(client: Client, club, director) -> None:
    invitation = invitation_create(club=club, role="scorer", actor=director)
    person = UserFactory(username="sid")
    client.force_login(person)
    here = reverse("invitation-accept", args=[invitation.token])
    assert b'id="accept-form"' in client.get(here).content
    response = client.post(here)
    assert response.status_code == 302
    assert response["Location"] == reverse("club-detail", args=[club.slug])
    assert _role(club, person) == "scorer"
    again = client.get(here).content.decode()
    assert 'id="already-member"' in again and 'id="accept-form"' not in again


def test_a_director_link_lands_on_the_manage_page(client: Client, club, owner) -> None:
    invitation = invitation_create(club=club, role="director", actor=owner)
    person = UserFactory(username="newdir")
    client.force_login(person)
    response = client.post(reverse("invitation-accept", args=[invitation.token]))
    assert response["Location"] == reverse("club-manage", args=[club.slug])
    assert _role(club, person) == "director"


@pytest.mark.parametrize("state", ["expired", "revoked", "used_up"])
def test_links_that_no_longer_work_answer_410_with_a_sentence(client: Client, club, director,
                                                             state) -> None:
    invitation = invitation_create(club=club, role="member", actor=director, max_uses=1)
    if state == "expired":
        Invitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - datetime.timedelta(minutes=1))
    elif state == "revoked":
        invitation_revoke(invitation=invitation, actor=director)
    else:
        invitation_accept(token=invitation.token, user=UserFactory(username="first"))
    person = UserFactory(username="late")
    for who in (None, person):
        if who is not None:
            client.force_login(who)
        for method in (client.get, client.post):
            response = method(reverse("invitation-accept", args=[invitation.token]))
            assert response.status_code == 410
            text = response.content.decode()
            assert 'id="invitation-gone"' in text and "Ask whoever sent it for a new link" in text
    assert _role(club, person) is None
    api = _api(person).post(f"/api/invitations/{invitation.token}/accept/")
    assert api.status_code == 410
    assert api.json()["errors"][0]["code"] == state and _fields(api) == ["token"]


def test_an_unknown_link_is_a_404_page_with_a_sentence(client: Client) -> None:
    response = client.get("/invite/not-a-token/")
    assert response.status_code == 404
    assert b"No such invitation" in response.content
    api = _api(UserFactory(username="pat")).post("/api/invitations/not-a-token/accept/")
    assert api.status_code == 404


def test_directors_give_and_remove_scorers_on_the_page(client: Client, club, director) -> None:
    _member(club, "member", "mo")
    client.force_login(director)
    page = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert 'id="member-form"' in page  # the role form is no longer owners-only
    response = client.post(reverse("club-member-set", args=[club.slug]),
                           {"username": "mo", "role": "scorer"})
    assert response.status_code == 302 and _role(club, UserFactory(username="mo")) == "scorer"
    refused = client.post(reverse("club-member-set", args=[club.slug]),
                          {"username": "mo", "role": "director"})
    assert refused.status_code == 400 and "role" in refused.context["member_form"].errors
    removed = client.post(reverse("club-member-remove", args=[club.slug]), {"username": "mo"})
    assert removed.status_code == 302
    assert not Membership.objects.filter(club=club, user__username="mo").exists()


def test_a_director_cannot_demote_or_remove_an_owner_on_the_page(client: Client, club, owner,
                                                                 director) -> None:
    client.force_login(director)
    # The owner's row has no remove button for a director...
    page = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    row = page.split('id="member-olive"', 1)[1].split("</tr>", 1)[0]
    assert "Remove" not in row
    # ... and posting anyway is refused.
    assert client.post(reverse("club-member-remove", args=[club.slug]),
                       {"username": "olive"}).status_code == 403
    assert client.post(reverse("club-member-set", args=[club.slug]),
                       {"username": "olive", "role": "member"}).status_code == 403
    assert _role(club, owner) == "owner"


def test_the_last_owner_cannot_be_removed_on_the_page(client: Client, club, owner) -> None:
    client.force_login(owner)
    page = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    row = page.split('id="member-olive"', 1)[1].split("</tr>", 1)[0]
    assert "Remove" not in row  # no button for the only owner...
    second = _member(club, "owner", "otto")
    page = client.get(reverse("club-manage", args=[club.slug])).content.decode()
    assert "Remove" in page.split('id="member-olive"', 1)[1].split("</tr>", 1)[0]
    Membership.objects.filter(pk=second.memberships.get().pk).delete()
    # ... and posting anyway is refused with the reason.
    response = client.post(reverse("club-member-remove", args=[club.slug]), {"username": "olive"})
    assert response.status_code == 400
    assert b"A club needs at least one owner." in response.content
    assert _role(club, owner) == "owner"


# --- the API ------------------------------------------------------------------------------------
def test_api_create_list_revoke(club, owner, director, settings) -> None:
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    api = _api(director)
    created = api.post(f"/api/clubs/{club.slug}/invitations/",
                       {"role": "scorer", "max_uses": 5, "days": 2, "note": "scorers"},
                       format="json")
    assert created.status_code == 201
    body = created.json()
    assert body["role"] == "scorer" and body["max_uses"] == 5 and body["uses"] == 0
    assert body["state"] == "active" and body["created_by"] == "dana"
    assert body["url"] == f"http://192.168.1.20:8000/invite/{body['token']}/"
    _api(owner).post(f"/api/clubs/{club.slug}/invitations/", {"role": "director"}, format="json")
    listed = api.get(f"/api/clubs/{club.slug}/invitations/").json()
    assert [i["role"] for i in listed] == ["scorer"]  # the owner's director link is not shown
    assert {i["role"] for i in _api(owner).get(
        f"/api/clubs/{club.slug}/invitations/").json()} == {"scorer", "director"}
    revoked = api.post(f"/api/clubs/{club.slug}/invitations/{body['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["state"] == "revoked"
    assert api.get(f"/api/clubs/{club.slug}/invitations/").json() == []
    everything = api.get(f"/api/clubs/{club.slug}/invitations/?all=1").json()
    assert [i["state"] for i in everything] == ["revoked"]


def test_api_errors_name_the_field(club, owner, director) -> None:
    api = _api(director)
    director_link = api.post(f"/api/clubs/{club.slug}/invitations/", {"role": "director"},
                             format="json")
    assert director_link.status_code == 403
    for body, field in [({"role": "king"}, "role"), ({}, "role"),
                        ({"role": "member", "days": 0}, "days"),
                        ({"role": "member", "max_uses": 0}, "max_uses")]:
        response = api.post(f"/api/clubs/{club.slug}/invitations/", body, format="json")
        assert response.status_code == 400 and _fields(response) == [field], body
    too_many = _api(owner).post(f"/api/clubs/{club.slug}/invitations/",
                                {"role": "director", "max_uses": 2}, format="json")
    assert too_many.status_code == 400 and _fields(too_many) == ["max_uses"]
    assert not Invitation.objects.exists()


def test_api_accept(club, director) -> None:
    invitation = invitation_create(club=club, role="member", actor=director)
    url = f"/api/invitations/{invitation.token}/accept/"
    assert APIClient().post(url).status_code == 401  # signed in first (no credential: 401)
    person = UserFactory(username="mo")
    accepted = _api(person).post(url)
    assert accepted.status_code == 200
    assert accepted.json() == {"club": "riverside", "role": "member", "changed": True}
    assert _api(person).post(url).json()["changed"] is False
    assert _api(director).post(url).json() == {"club": "riverside", "role": "director",
                                               "changed": False}


def test_api_member_rules(club, owner, director) -> None:
    _member(club, "member", "mo")
    api = _api(director)
    url = f"/api/clubs/{club.slug}/members/"
    assert api.post(url, {"username": "mo", "role": "scorer"}, format="json").status_code == 200
    assert api.post(url, {"username": "mo", "role": "director"},
                    format="json").status_code == 403
    assert api.post(url, {"username": "olive", "role": "member"},
                    format="json").status_code == 403
    removed = api.post(f"{url}remove/", {"username": "mo"}, format="json")
    assert removed.status_code == 200
    assert {m["username"] for m in removed.json()} == {"olive", "dana"}
    assert api.post(f"{url}remove/", {"username": "olive"}, format="json").status_code == 403
    missing = api.post(f"{url}remove/", {"username": "mo"}, format="json")
    assert missing.status_code == 400 and _fields(missing) == ["username"]
    last = _api(owner).post(f"{url}remove/", {"username": "olive"}, format="json")
    assert last.status_code == 400 and _fields(last) == ["role"]
    assert _role(club, owner) == "owner"

"""Giving a role by user name tells the owner nothing about accounts that cannot be given one:
no account of that name, or a deactivated one, get the very same answer, which does not repeat
the name; on the page and in the API alike."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import Club, Membership
from clubs.services import MEMBER_REFUSED
from tests.clubs.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_and_owner() -> tuple[Club, Any]:
    owner = UserFactory(username="owner")
    club = Club.objects.create(name="Roles", slug="roles")
    Membership.objects.create(club=club, user=owner, role="owner")
    # An account that exists but cannot be added (deactivated), and a member of another club.
    UserFactory(username="dormant", is_active=False)
    elsewhere = Club.objects.create(name="Hidden", slug="hidden", is_public=False)
    Membership.objects.create(club=elsewhere, user=UserFactory(username="hidden-member"),
                              role="director")
    return club, owner


def test_the_api_answers_alike_for_a_missing_and_an_unaddable_account(club_and_owner) -> None:
    club, owner = club_and_owner
    api = APIClient()
    api.force_authenticate(owner)
    bodies = []
    for name in ("ghost", "dormant"):
        response = api.post(f"/api/clubs/{club.slug}/members/", {"username": name,
                                                                  "role": "scorer"}, format="json")
        assert response.status_code == 400
        text = response.content.decode()
        assert name not in text
        bodies.append(response.json())
    assert bodies[0] == bodies[1] == {"errors": [{"field": "username", "code": "invalid",
                                                  "message": MEMBER_REFUSED}]}
    assert set(Membership.objects.filter(club=club).values_list("user__username", flat=True)) \
        == {"owner"}
    # An active account (here: a member of another, private club) can be given a role, and
    # nothing of its other club is said.
    added = api.post(f"/api/clubs/{club.slug}/members/", {"username": "hidden-member",
                                                           "role": "scorer"}, format="json")
    assert added.status_code == 200 and added.json() == {"username": "hidden-member",
                                                          "role": "scorer"}
    assert "Hidden" not in added.content.decode()


def test_the_page_answers_alike_for_a_missing_and_an_unaddable_account(client,
                                                                       club_and_owner) -> None:
    club, owner = club_and_owner
    client.force_login(owner)
    errors = []
    for name in ("ghost", "dormant"):
        response = client.post(reverse("club-member-set", args=[club.slug]),
                               {"username": name, "role": "scorer"})
        assert response.status_code == 400
        form = response.context["member_form"]
        errors.append(form.errors.get_json_data())
    assert errors[0] == errors[1] == {"username": [{"message": MEMBER_REFUSED, "code": ""}]}
    assert Membership.objects.filter(club=club).count() == 1

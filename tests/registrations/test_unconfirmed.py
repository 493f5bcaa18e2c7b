"""A registration whose address was never confirmed can be withdrawn by its link and withdrawn or
refused by the director (it never counted: nobody moves up, nobody is mailed), through the
services, the API and the pages; and a registrant of a private club's event uses the API with
their own link's token while strangers still get nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from rest_framework.test import APIClient

from registrations.models import Registration
from registrations.services import (
    registration_create,
    registration_refuse,
    registration_withdraw,
)
from tests.clubs.factories import UserFactory
from tests.registrations.test_api import Desk

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(django_capture_on_commit_callbacks: Any) -> Desk:
    return Desk(django_capture_on_commit_callbacks, slug="unconfirmed")


def test_the_services_end_an_unconfirmed_registration(desk: Desk) -> None:
    desk.open(capacity=1)
    held = desk.confirmed("Hal Held")
    ann = desk.register("Ann Smith")
    bob = desk.register("Bob Jones")
    before = len(mail.outbox)
    with desk.capture(execute=True):
        gone = registration_withdraw(registration=Registration.objects.get(pk=ann["id"]),
                                     by_player=True)
        refused = registration_refuse(registration=Registration.objects.get(pk=bob["id"]),
                                      actor=desk.director)
    assert (gone.status, refused.status) == ("withdrawn", "refused")
    assert gone.confirmed_at is None and refused.confirmed_at is None
    assert len(mail.outbox) == before  # an address never confirmed is not mailed again
    assert desk.status(held["id"]) == "registered"
    # the database still refuses a registration that holds a place without a confirmation
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.filter(pk=ann["id"]).update(status="registered")


def test_withdrawn_by_link_through_the_api_and_the_page(desk: Desk, client: Client) -> None:
    desk.open()
    ann = desk.register("Ann Smith")
    token = desk.token_for("ann@example.org")
    answer = desk.send(desk.anon, "post", f"{ann['id']}/withdraw/", {"token": token})
    assert answer.status_code == 200 and answer.json()["status"] == "withdrawn"
    again = desk.send(desk.anon, "post", f"{ann['id']}/withdraw/", {"token": token})
    assert again.status_code == 400 and again.json()["errors"][0]["field"] == "status"
    bob = desk.register("Bob Jones")
    link = f"/registrations/{desk.token_for('bob@example.org')}/"
    page = client.post(link, {"action": "withdraw"}, follow=True)
    assert page.status_code == 200
    assert "Your registration is withdrawn." in page.content.decode()
    assert desk.status(bob["id"]) == "withdrawn"


def test_withdrawn_or_refused_by_the_director_through_the_api_and_the_page(desk: Desk) -> None:
    desk.open()
    rows = [desk.register(name) for name in ("Ann Smith", "Bob Jones", "Cleo Park", "Dev Patel")]
    assert desk.send(desk.boss, "post", f"{rows[0]['id']}/withdraw/").json()["status"] == (
        "withdrawn")
    assert desk.send(desk.boss, "post", f"{rows[1]['id']}/refuse/").json()["status"] == (
        "refused")
    boss = Client()
    boss.force_login(desk.director)
    for row, action, status in ((rows[2], "withdraw", "withdrawn"),
                                (rows[3], "refuse", "refused")):
        with desk.capture(execute=True):
            answer = boss.post(f"/events/{desk.event.pk}/registrations/{row['id']}/{action}/",
                               follow=True)
        assert answer.status_code == 200, action
        assert f"{row['name']}: {status}." in answer.content.decode()
        assert desk.status(row["id"]) == status


def test_a_private_clubs_registrant_uses_their_own_token(
        django_capture_on_commit_callbacks: Any) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="closed-club", is_public=False)
    desk.open()
    with desk.capture(execute=True):
        ann = registration_create(event=desk.event, name="Ann Smith", email="ann@example.org",
                                  site="http://testserver")
        registration_create(event=desk.event, name="Bob Jones", email="bob@example.org")
    bob = Registration.objects.get(email="bob@example.org")
    token = desk.token_for("ann@example.org")
    seen = desk.send(desk.anon, "get", f"{ann.pk}/?token={token}")
    assert seen.status_code == 200 and seen.json()["name"] == "Ann Smith"
    confirmed = desk.send(desk.anon, "post", f"{ann.pk}/confirm/", {"token": token})
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "registered"
    # strangers get nothing: no token, a forged one, another's, a signed-in outsider
    outsider = APIClient()
    outsider.force_authenticate(UserFactory(username="outsider"))
    assert desk.send(desk.anon, "get", f"{ann.pk}/").status_code == 404
    assert desk.send(desk.anon, "get", f"{ann.pk}/?token=forged").status_code == 404
    assert desk.send(desk.anon, "get", f"{bob.pk}/?token={token}").status_code == 404
    assert desk.send(desk.anon, "post", f"{bob.pk}/withdraw/", {"token": token}
                     ).status_code == 404
    assert desk.send(outsider, "get", f"{ann.pk}/").status_code == 404
    assert desk.send(outsider, "get", "settings/").status_code == 404
    # the registrant's token reaches only their registration through this event
    assert desk.send(desk.anon, "get", "").status_code == 401
    withdrawn = desk.send(desk.anon, "post", f"{ann.pk}/withdraw/", {"token": token})
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert desk.send(desk.boss, "get", f"{bob.pk}/").json()["status"] == "unconfirmed"

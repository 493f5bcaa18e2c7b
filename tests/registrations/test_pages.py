"""The registration pages: the public form (anonymous and signed in), the personal link's page
(confirm, I'm here, withdraw; GET never changes anything), the door page from the self
check-in QR, the director's list with its actions and settings, and who may open what."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from clubs.models import Membership, Player
from registrations.models import Registration
from registrations.services import registration_settings_set
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.scoring.factories import member
from tournaments.models import Entry, Event
from tournaments.services import event_create

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver(/registrations/[^/\s]+/)")


@pytest.fixture
def room(client: Client, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    club, director = club_with_director(slug="pages")
    event = event_create(club=club, name="Autumn open", date=datetime.date(2026, 11, 22),
                         format=Event.Format.CLUB_NIGHT)
    Event.objects.filter(pk=event.pk).update(self_check_in=Event.SelfCheckIn.OPEN)
    event.refresh_from_db()
    boss = Client()
    boss.force_login(director)

    def post(who: Client, url: str, data: dict[str, Any] | None = None) -> Any:
        with django_capture_on_commit_callbacks(execute=True):
            return who.post(url, data or {}, follow=True)

    return {"club": club, "director": director, "event": event, "anon": client, "boss": boss,
            "post": post, "form": f"/events/{event.pk}/register/",
            "list": f"/events/{event.pk}/registrations/"}


def _open(room: dict[str, Any], **terms: Any) -> None:
    registration_settings_set(event=room["event"], is_open=True, **terms)


def _link(address: str) -> str:
    found = [LINK.search(m.body) for m in mail.outbox if address in m.to]
    return [f.group(1) for f in found if f][-1]


def test_the_public_form_a_mailed_link_confirm_im_here_and_withdraw(room: dict[str, Any]
                                                                      ) -> None:
    closed = room["anon"].get(room["form"]).content.decode()
    assert "Registration for this event is closed." in closed and "register-form" not in closed
    _open(room, capacity=3, fee=20)
    page = room["anon"].get(room["form"]).content.decode()
    assert "3 places left" in page and "Entry fee: <strong>20.00</strong>" in page
    assert 'name="partner_name"' not in page  # a singles event
    event_page = room["anon"].get(f"/events/{room['event'].pk}/").content.decode()
    assert f'href="/events/{room["event"].pk}/register/"' in event_page
    bad = room["post"](room["anon"], room["form"], {"name": "Ann Smith", "email": "nope"})
    assert "is not an e-mail address" in bad.content.decode() and not Registration.objects.exists()
    sent = room["post"](room["anon"], room["form"], {"name": "Ann Smith",
                                                     "email": "ann@example.org"})
    assert "Check your mail" in sent.content.decode()
    link = _link("ann@example.org")
    # opening the link (a mail scanner does too) changes nothing
    shown = room["anon"].get(link).content.decode()
    assert "Confirm my address" in shown
    assert Registration.objects.get().status == "unconfirmed"
    confirmed = room["post"](room["anon"], link, {"action": "confirm"}).content.decode()
    assert "your address is confirmed" in confirmed and "You are registered." in confirmed
    assert 'id="im-here"' in confirmed
    here = room["post"](room["anon"], link, {"action": "here"}).content.decode()
    assert "you are checked in" in here
    assert room["event"].entries.filter(player__name="Ann Smith", status="active").exists()
    assert "Withdraw my registration" not in here  # checked in: the desk withdraws


def test_a_player_withdraws_by_the_link_and_the_waitlist_moves_up(room: dict[str, Any]) -> None:
    _open(room, capacity=1)
    for name in ("Ann Smith", "Bob Jones"):
        address = f"{name.split()[0].lower()}@example.org"
        room["post"](room["anon"], room["form"], {"name": name, "email": address})
        room["post"](room["anon"], _link(address), {"action": "confirm"})
    waiting = room["anon"].get(_link("bob@example.org")).content.decode()
    assert "you are number 1 on the waitlist" in waiting
    full = room["anon"].get(room["form"]).content.decode()
    assert "The event is full:" in full
    gone = room["post"](room["anon"], _link("ann@example.org"), {"action": "withdraw"})
    assert "Your registration is withdrawn." in gone.content.decode()
    assert Registration.objects.get(name="Bob Jones").status == "registered"
    assert mail.outbox[-1].to == ["bob@example.org"]
    assert mail.outbox[-1].subject.startswith("A place for you")


def test_a_bad_link_is_a_404(room: dict[str, Any]) -> None:
    assert room["anon"].get("/registrations/1:forged:sig/").status_code == 404


def test_a_signed_in_player_registers_without_confirming(room: dict[str, Any]) -> None:
    _open(room)
    user = UserFactory(username="gus", email="gus@example.org")
    player = PlayerFactory(club=room["club"], name="Gus Hale")
    player.user = user
    player.save(update_fields=["user"])
    gus = Client()
    gus.force_login(user)
    form = gus.get(room["form"]).content.decode()
    assert "Registering as <strong>Gus Hale</strong>" in form and 'name="email"' not in form
    done = room["post"](gus, room["form"], {})
    assert "You are registered." in done.content.decode()
    assert Registration.objects.get().player == player
    # the door (from the check-in QR page) offers their registration
    door = gus.get(f"/events/{room['event'].pk}/registered/").content.decode()
    assert "Gus Hale: your registration" in door
    assert "/registered/" in room["anon"].get(f"/events/{room['event'].pk}/here/").content.decode()


def test_the_door_mails_the_link_again_to_a_registered_address_only(room: dict[str, Any]
                                                                    ) -> None:
    _open(room)
    room["post"](room["anon"], room["form"], {"name": "Ann Smith", "email": "ann@example.org"})
    before = len(mail.outbox)
    door = f"/events/{room['event'].pk}/registered/"
    for address in ("ann@example.org", "nobody@example.org"):
        answer = room["post"](room["anon"], door, {"email": address})
        assert "its link is on its way" in answer.content.decode()
    assert [m.to for m in mail.outbox[before:]] == [["ann@example.org"]]


def test_the_directors_list_actions_and_check_in(room: dict[str, Any]) -> None:
    page = room["boss"].get(room["list"]).content.decode()
    assert "Nobody has registered yet." in page
    saved = room["post"](room["boss"], room["list"], {
        "is_open": "on", "capacity": "2", "fee": "15", "approval_required": "on",
        "deadline": "2030-01-01T12:00"})
    assert "Registration settings saved." in saved.content.decode()
    for name in ("Ann Smith", "Bob Jones", "Cleo Park"):
        address = f"{name.split()[0].lower()}@example.org"
        room["post"](room["anon"], room["form"], {"name": name, "email": address})
        room["post"](room["anon"], _link(address), {"action": "confirm"})
    room["post"](room["anon"], room["form"], {"name": "Dev Patel", "email": "dev@example.org"})
    page = room["boss"].get(room["list"]).content.decode()
    for group in ("group-pending", "group-waitlisted", "group-unconfirmed"):
        assert f'id="{group}"' in page
    ann, bob, cleo = (Registration.objects.get(name=n) for n in ("Ann Smith", "Bob Jones",
                                                                 "Cleo Park"))
    act = f"{room['list']}{{}}/{{}}/"
    assert "approved" in room["post"](room["boss"], act.format(ann.pk, "approve")).content.decode()
    room["post"](room["boss"], act.format(ann.pk, "paid"))
    room["post"](room["boss"], act.format(bob.pk, "refuse"))
    ann.refresh_from_db()
    cleo.refresh_from_db()
    assert ann.status == "registered" and ann.paid
    assert cleo.status == "pending"  # moved up into Bob's place
    room["post"](room["boss"], act.format(cleo.pk, "approve"))
    # lowering the capacity below the places held is refused beside the field
    low = room["post"](room["boss"], room["list"], {"is_open": "on", "capacity": "1"})
    assert "2 places are held already" in low.content.decode()
    # turn one into a check-in, then all the others
    room["post"](room["boss"], act.format(ann.pk, "check-in"))
    assert room["event"].entries.filter(player__name="Ann Smith").exists()
    page = room["boss"].get(room["list"]).content.decode()
    assert "checked in" in page and "Check in everyone registered (1)" in page
    done = room["post"](room["boss"], f"{room['list']}check-in/").content.decode()
    assert "Checked in (1): Cleo Park." in done
    assert set(room["event"].entries.filter(status=Entry.Status.ACTIVE)
               .values_list("player__name", flat=True)) == {"Ann Smith", "Cleo Park"}
    assert Player.objects.filter(club_links__club=room["club"], name="Cleo Park").count() == 1
    # an action not offered is a 404
    assert room["boss"].post(act.format(ann.pk, "delete")).status_code == 404


def test_only_the_clubs_directors_open_the_list_and_act(room: dict[str, Any]) -> None:
    _open(room)
    room["post"](room["anon"], room["form"], {"name": "Ann Smith", "email": "ann@example.org"})
    ann = Registration.objects.get()
    anon = room["anon"].get(room["list"])
    assert anon.status_code == 302 and "/accounts/login/" in anon["Location"]
    scorer = Client()
    scorer.force_login(member(room["club"], Membership.Role.SCORER, "scorer-pages"))
    _, other = club_with_director(slug="other-pages")
    outsider = Client()
    outsider.force_login(other)
    for who in (scorer, outsider):
        assert who.get(room["list"]).status_code == 403
        assert who.post(f"{room['list']}{ann.pk}/refuse/").status_code == 403
        assert who.post(f"{room['list']}check-in/").status_code == 403
    ann.refresh_from_db()
    assert ann.status == "unconfirmed"

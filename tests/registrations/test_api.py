"""Registration through the API alone: the director's settings, anonymous registrants who
confirm their address by the mailed link, a waitlist beyond the capacity that moves up (with a
mail) as players withdraw by their link or the director withdraws or refuses them, approvals,
fee marks, registrations turned into check-ins for a singles and a pair event, the self
check-in by the mail's link, bad input naming its field, permissions on every path and the
rate limit on registering."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Membership, Player
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.scoring.factories import member
from tournaments.models import Arrival, Entry, Event
from tournaments.services import arrival_decide, event_create

pytestmark = pytest.mark.django_db

LINK = re.compile(r"http://testserver/registrations/([^/\s]+)/")


class Desk:
    """An event's registrations driven through the API, with the mails they send."""

    def __init__(self, capture: Any, *, pairs: bool = False, slug: str = "reg",
                 is_public: bool = True) -> None:
        self.capture = capture
        self.club, self.director = club_with_director(slug=slug, is_public=is_public)
        self.event = event_create(
            club=self.club, name="Spring open", date=datetime.date(2026, 11, 22),
            format=Event.Format.SWISS if pairs else Event.Format.CLUB_NIGHT)
        self.boss = APIClient()
        self.boss.force_authenticate(self.director)
        self.anon = APIClient()

    def url(self, tail: str = "") -> str:
        return f"/api/events/{self.event.pk}/registrations/{tail}"

    def send(self, client: APIClient, method: str, tail: str, body: Any = None) -> Any:
        """One request; the mails it queued on commit are sent before it returns."""
        with self.capture(execute=True):
            return getattr(client, method)(self.url(tail), body, format="json")

    def open(self, **terms: Any) -> Any:
        answer = self.send(self.boss, "put", "settings/", {"is_open": True, **terms})
        assert answer.status_code == 200, answer.json()
        return answer.json()

    def register(self, name: str, client: APIClient | None = None, **extra: Any) -> dict[str, Any]:
        email = extra.pop("email", f"{name.split()[0].lower()}@example.org")
        answer = self.send(client or self.anon, "post", "", {"name": name, "email": email,
                                                              **extra})
        assert answer.status_code == 201, answer.json()
        return dict(answer.json())

    def token_for(self, address: str) -> str:
        """The personal link's token in the last mail with a link sent to ``address``."""
        found = [LINK.search(m.body) for m in mail.outbox if address in m.to]
        links = [f.group(1) for f in found if f]
        assert links, f"no link mailed to {address}"
        return links[-1]

    def confirmed(self, name: str, **extra: Any) -> dict[str, Any]:
        row = self.register(name, **extra)
        answer = self.send(self.anon, "post", f"{row['id']}/confirm/",
                           {"token": self.token_for(row["email"])})
        assert answer.status_code == 200, answer.json()
        return dict(answer.json())

    def status(self, rid: int) -> str:
        return str(self.send(self.boss, "get", f"{rid}/").json()["status"])


def _subjects(address: str) -> list[str]:
    return [m.subject.split(" · ")[0] for m in mail.outbox if address in m.to]


def _fields(answer: Any) -> list[str]:
    return [e["field"] for e in answer.json()["errors"]]


@pytest.fixture
def desk(django_capture_on_commit_callbacks: Any) -> Desk:
    return Desk(django_capture_on_commit_callbacks)


@pytest.fixture
def pair_desk(django_capture_on_commit_callbacks: Any) -> Desk:
    return Desk(django_capture_on_commit_callbacks, pairs=True, slug="pairs")


def test_beyond_the_capacity_a_waitlist_moves_up_in_order_as_players_withdraw(
        desk: Desk) -> None:
    terms = desk.open(capacity=2, fee="50.00")
    assert terms["places_left"] == 2 and terms["entrants"] == "players"
    ann = desk.register("Ann Smith")
    assert ann["status"] == "unconfirmed"
    assert _subjects("ann@example.org") == ["Confirm your registration"]
    # the address not confirmed yet: no place held
    assert desk.send(desk.anon, "get", "settings/").json()["places_left"] == 2
    token = desk.token_for("ann@example.org")
    assert desk.send(desk.anon, "get", f"{ann['id']}/").status_code == 404  # no token
    seen = desk.send(desk.anon, "get", f"{ann['id']}/?token={token}")
    assert seen.status_code == 200 and seen.json()["status"] == "unconfirmed"
    ann = dict(desk.send(desk.anon, "post", f"{ann['id']}/confirm/", {"token": token}).json())
    assert ann["status"] == "registered"
    assert _subjects("ann@example.org")[-1] == "You are registered"
    assert "Entry fee: 50.00, not paid yet." in mail.outbox[-1].body
    bob = desk.confirmed("Bob Jones")
    cleo = desk.confirmed("Cleo Park")
    dev = desk.confirmed("Dev Patel")
    assert (bob["status"], cleo["status"], dev["status"]) == ("registered", "waitlisted",
                                                              "waitlisted")
    assert (cleo["position"], dev["position"]) == (1, 2)
    assert "number 2 on the waitlist" in [m for m in mail.outbox if "dev@example.org" in m.to][-1].body
    assert desk.send(desk.anon, "get", "settings/").json()["places_left"] == 0

    listed = desk.send(desk.boss, "get", "").json()
    assert [(r["name"], r["status"]) for r in listed] == [
        ("Ann Smith", "registered"), ("Bob Jones", "registered"), ("Cleo Park", "waitlisted"),
        ("Dev Patel", "waitlisted")]

    # Ann withdraws by her link: Cleo, first on the waitlist, moves up and is told
    before = len(mail.outbox)
    gone = desk.send(desk.anon, "post", f"{ann['id']}/withdraw/",
                     {"token": desk.token_for("ann@example.org")})
    assert gone.status_code == 200 and gone.json()["status"] == "withdrawn"
    sent = {(m.to[0], m.subject.split(" · ")[0]) for m in mail.outbox[before:]}
    assert sent == {("ann@example.org", "Registration withdrawn"),
                    ("cleo@example.org", "A place for you")}
    assert desk.status(cleo["id"]) == "registered"
    assert desk.send(desk.boss, "get", f"{dev['id']}/").json()["position"] == 1
    # withdrawing again is refused, naming the status
    again = desk.send(desk.anon, "post", f"{ann['id']}/withdraw/",
                      {"token": desk.token_for("ann@example.org")})
    assert again.status_code == 400 and _fields(again) == ["status"]

    # the director withdraws Bob: Dev moves up
    assert desk.send(desk.boss, "post", f"{bob['id']}/withdraw/").status_code == 200
    assert desk.status(dev["id"]) == "registered"
    assert _subjects("dev@example.org")[-1] == "A place for you"
    assert _subjects("bob@example.org")[-1] == "Registration withdrawn"

    # fees: marked paid, then not
    paid = desk.send(desk.boss, "post", f"{dev['id']}/paid/", {"paid": True})
    assert paid.json()["paid"] is True
    assert desk.send(desk.boss, "post", f"{cleo['id']}/paid/", {"paid": "maybe"}).status_code == 400
    assert desk.send(desk.boss, "post", f"{dev['id']}/paid/", {"paid": False}).json()["paid"] is False

    # the day: everyone registered becomes an entry
    done = desk.send(desk.boss, "post", "check-in/", {})
    assert done.status_code == 200
    assert sorted(r["name"] for r in done.json()) == ["Cleo Park", "Dev Patel"]
    assert all(r["checked_in"] for r in done.json())
    here = set(desk.event.entries.filter(status=Entry.Status.ACTIVE)
               .values_list("player__name", flat=True))
    assert here == {"Cleo Park", "Dev Patel"}
    # they were put on the club's roster with their addresses
    assert Player.objects.get(name="Cleo Park", club_links__club=desk.club).email == (
        "cleo@example.org")
    # a checked-in registration cannot be withdrawn here (the entry is withdrawn at the event)
    late = desk.send(desk.boss, "post", f"{dev['id']}/withdraw/")
    assert late.status_code == 400 and late.json()["errors"][0]["code"] == "checked_in"
    assert desk.send(desk.boss, "post", "check-in/", {}).json() == []


def test_approval_refusal_and_the_waitlist_moving_up_to_approval(desk: Desk) -> None:
    desk.open(capacity=1, approval_required=True)
    ann = desk.confirmed("Ann Smith")
    assert ann["status"] == "pending"
    assert _subjects("ann@example.org")[-1] == "Registration awaiting approval"
    bob = desk.confirmed("Bob Jones")
    assert bob["status"] == "waitlisted"  # the pending registration holds the place
    # only a registration awaiting approval is approved
    wrong = desk.send(desk.boss, "post", f"{bob['id']}/approve/")
    assert wrong.status_code == 400 and wrong.json()["errors"][0]["code"] == "not_pending"
    refused = desk.send(desk.boss, "post", f"{ann['id']}/refuse/")
    assert refused.json()["status"] == "refused"
    assert _subjects("ann@example.org")[-1] == "Registration refused"
    assert desk.status(bob["id"]) == "pending"
    assert _subjects("bob@example.org")[-1] == "A place for you"
    assert "waits for the director's approval" in mail.outbox[-1].body
    approved = desk.send(desk.boss, "post", f"{bob['id']}/approve/")
    assert approved.json()["status"] == "registered"
    assert _subjects("bob@example.org")[-1] == "Registration approved"
    # approving again changes nothing and mails nobody
    count = len(mail.outbox)
    assert desk.send(desk.boss, "post", f"{bob['id']}/approve/").json()["status"] == "registered"
    assert len(mail.outbox) == count
    # a larger capacity moves the waitlist up at once
    cleo = desk.confirmed("Cleo Park")
    assert cleo["status"] == "waitlisted"
    desk.open(capacity=2, approval_required=True)
    assert desk.status(cleo["id"]) == "pending"
    # a capacity below the places held is refused, naming it
    low = desk.send(desk.boss, "put", "settings/", {"is_open": True, "capacity": 1})
    assert low.status_code == 400 and _fields(low) == ["capacity"]


def test_a_pair_event_registers_pairs_and_turns_them_into_pairs(pair_desk: Desk) -> None:
    desk = pair_desk
    terms = desk.open(capacity=2)
    assert terms["entrants"] == "pairs"
    missing = desk.send(desk.anon, "post", "", {"name": "Ann Smith", "email": "ann@example.org",
                                                "partner_name": "Bob Jones"})
    assert missing.status_code == 400 and _fields(missing) == ["partner_email"]
    same = desk.send(desk.anon, "post", "", {"name": "Ann Smith", "email": "ann@example.org",
                                             "partner_name": "Bob Jones",
                                             "partner_email": "ANN@example.org"})
    assert same.status_code == 400 and _fields(same) == ["partner_email"]
    ab = desk.confirmed("Ann Smith", partner_name="Bob Jones", partner_email="bob@example.org")
    assert ab["status"] == "registered"
    # the partner gets the steps' mails too, but not the confirmation (not theirs to give)
    assert _subjects("bob@example.org") == ["You are registered"]
    taken = desk.send(desk.anon, "post", "", {"name": "Cleo Park", "email": "cleo@example.org",
                                              "partner_name": "Bob Jones",
                                              "partner_email": "bob@example.org"})
    assert taken.status_code == 400 and _fields(taken) == ["partner_email"]
    cd = desk.confirmed("Cleo Park", partner_name="Dev Patel", partner_email="dev@example.org")
    ef = desk.confirmed("Eve Stone", partner_name="Finn Gray", partner_email="finn@example.org")
    assert (cd["status"], ef["status"], ef["position"]) == ("registered", "waitlisted", 1)
    done = desk.send(desk.boss, "post", "check-in/", {"ids": [ab["id"]]})
    assert done.status_code == 200 and done.json()[0]["checked_in"] is True
    pair = desk.event.pairs.get()
    assert pair.name == "Ann Smith & Bob Jones"
    assert sorted(pair.members.values_list("player__name", flat=True)) == ["Ann Smith",
                                                                           "Bob Jones"]
    # the waitlisted pair is not checked in; naming it is refused with its id
    refused = desk.send(desk.boss, "post", "check-in/", {"ids": [ef["id"]]})
    assert refused.status_code == 400 and _fields(refused) == [f"registrations.{ef['id']}"]
    unknown = desk.send(desk.boss, "post", "check-in/", {"ids": [999999]})
    assert unknown.status_code == 400 and _fields(unknown) == ["registrations.999999"]
    rest = desk.send(desk.boss, "post", "check-in/", {})
    assert [r["name"] for r in rest.json()] == ["Cleo Park"]
    assert desk.event.pairs.count() == 2
    assert desk.event.entries.filter(status=Entry.Status.ACTIVE).count() == 4


def test_a_signed_in_player_registers_at_once_and_sees_only_their_own(desk: Desk) -> None:
    desk.open(capacity=5)
    user = UserFactory(username="gus", email="gus@example.org")
    player = PlayerFactory(club=desk.club, name="Gus Hale")
    player.user = user
    player.save(update_fields=["user"])
    gus = APIClient()
    gus.force_authenticate(user)
    mine = desk.register("ignored name", client=gus, email="")
    assert mine["status"] == "registered" and mine["name"] == "Gus Hale"
    assert mine["email"] == "gus@example.org"
    assert _subjects("gus@example.org") == ["You are registered"]
    assert desk.send(gus, "get", f"{mine['id']}/").status_code == 200
    twice = desk.send(gus, "post", "", {})
    assert twice.status_code == 400 and _fields(twice) == ["email"]
    # someone else's registration is not theirs to see or withdraw, by account or token
    ann = desk.register("Ann Smith")
    assert desk.send(gus, "get", f"{ann['id']}/").status_code == 404
    stolen = desk.send(desk.anon, "post", f"{ann['id']}/withdraw/",
                       {"token": desk.token_for("gus@example.org")})
    assert stolen.status_code == 404
    forged = desk.send(desk.anon, "get", f"{ann['id']}/?token={ann['id']}:forged")
    assert forged.status_code == 404
    assert desk.send(gus, "post", f"{mine['id']}/withdraw/").json()["status"] == "withdrawn"


def test_bad_input_names_the_field(desk: Desk) -> None:
    closed = desk.send(desk.anon, "post", "", {"name": "Ann", "email": "ann@example.org"})
    assert closed.status_code == 400 and _fields(closed) == ["event"]
    past = timezone.now() - datetime.timedelta(hours=1)
    desk.open(deadline=past.isoformat())
    late = desk.send(desk.anon, "post", "", {"name": "Ann", "email": "ann@example.org"})
    assert late.status_code == 400 and _fields(late) == ["deadline"]
    assert "deadline" in late.json()["errors"][0]["message"]
    desk.open(capacity=3)
    cases = [
        ({"name": "", "email": "ann@example.org"}, "name"),
        ({"name": "Ann", "email": "not-an-address"}, "email"),
        ({"name": "Ann"}, "email"),
        ({"name": "A" * 121, "email": "ann@example.org"}, "name"),
        ({"name": "Ann", "email": "ann@example.org", "partner_name": "Bob"}, "partner_name"),
    ]
    for body, field in cases:
        answer = desk.send(desk.anon, "post", "", body)
        assert answer.status_code == 400 and _fields(answer) == [field], (body, answer.json())
    desk.register("Ann Smith")
    dup = desk.send(desk.anon, "post", "", {"name": "Ann Two", "email": "ANN@example.org"})
    assert dup.status_code == 400 and _fields(dup) == ["email"]
    for terms, field in [({"capacity": 0}, "capacity"), ({"fee": "-1"}, "fee"),
                         ({"fee": "1.234"}, "fee"), ({"capacity": "many"}, "capacity"),
                         ({"deadline": "soon"}, "deadline")]:
        answer = desk.send(desk.boss, "put", "settings/", {"is_open": True, **terms})
        assert answer.status_code == 400 and _fields(answer) == [field], (terms, answer.json())
    # nothing of the refused requests was stored
    assert desk.send(desk.boss, "get", "").json()[0]["name"] == "Ann Smith"
    assert len(desk.send(desk.boss, "get", "").json()) == 1


def test_permissions_on_every_path(desk: Desk) -> None:
    desk.open(capacity=3)
    ann = desk.confirmed("Ann Smith")
    rid = ann["id"]
    token = desk.token_for("ann@example.org")
    for method, tail, body in [("get", "", None), ("post", f"{rid}/approve/", {}),
                               ("post", f"{rid}/refuse/", {}), ("post", f"{rid}/paid/",
                                                                 {"paid": True}),
                               ("post", "check-in/", {}), ("put", "settings/",
                                                           {"is_open": False})]:
        assert desk.send(desk.anon, method, tail, body).status_code == 401, tail
    scorer = APIClient()
    scorer.force_authenticate(member(desk.club, Membership.Role.SCORER, "scorer-reg"))
    other_club, other_director = club_with_director(slug="elsewhere")
    outsider = APIClient()
    outsider.force_authenticate(other_director)
    for client in (scorer, outsider):
        assert desk.send(client, "get", "").status_code == 403
        assert desk.send(client, "post", f"{rid}/approve/").status_code == 403
        assert desk.send(client, "post", "check-in/", {}).status_code == 403
        assert desk.send(client, "put", "settings/", {"is_open": False}).status_code == 403
        # a registration is the registrant's and the directors' only
        assert desk.send(client, "get", f"{rid}/").status_code == 404
        assert desk.send(client, "post", f"{rid}/withdraw/").status_code == 404
    # the token opens its own registration, in the query or the body, and nothing else
    assert desk.send(desk.anon, "get", f"{rid}/?token={token}").status_code == 200
    bob = desk.confirmed("Bob Jones")
    assert desk.send(desk.anon, "get", f"{bob['id']}/?token={token}").status_code == 404
    assert desk.send(desk.anon, "post", f"{bob['id']}/here/", {"token": token}).status_code == 404
    # a registration of another event is not reached through this one
    other = event_create(club=desk.club, name="Other", date=datetime.date(2026, 12, 1),
                         format=Event.Format.CLUB_NIGHT)
    with desk.capture(execute=True):
        assert desk.boss.get(f"/api/events/{other.pk}/registrations/{rid}/").status_code == 404
    assert desk.status(rid) == "registered"


def test_a_private_clubs_event_is_hidden_from_outsiders(django_capture_on_commit_callbacks: Any
                                                        ) -> None:
    desk = Desk(django_capture_on_commit_callbacks, slug="private", is_public=False)
    desk.open()
    assert desk.send(desk.anon, "get", "settings/").status_code == 404
    assert desk.send(desk.anon, "post", "", {"name": "Ann", "email": "a@example.org"}
                     ).status_code == 404


def test_self_check_in_by_the_mails_link(desk: Desk) -> None:
    desk.open(capacity=1)
    ann = desk.confirmed("Ann Smith")
    bob = desk.confirmed("Bob Jones")
    assert bob["status"] == "waitlisted"
    ann_token, bob_token = desk.token_for("ann@example.org"), desk.token_for("bob@example.org")
    # the event's default: the director approves each arrival
    waiting = desk.send(desk.anon, "post", f"{ann['id']}/here/", {"token": ann_token})
    assert waiting.status_code == 200 and waiting.json() == {"state": "waiting"}
    arrival = Arrival.objects.get(event=desk.event, status=Arrival.Status.WAITING)
    assert arrival.player.name == "Ann Smith"
    # asking again is the same arrival
    desk.send(desk.anon, "post", f"{ann['id']}/here/", {"token": ann_token})
    assert Arrival.objects.filter(event=desk.event).count() == 1
    arrival_decide(arrival=arrival, approve=True, actor=desk.director)
    assert desk.send(desk.anon, "get", f"{ann['id']}/?token={ann_token}").json()["checked_in"]
    assert desk.send(desk.anon, "post", f"{ann['id']}/here/", {"token": ann_token}
                     ).json() == {"state": "here"}
    # a waitlisted registration has no place to check into
    no = desk.send(desk.anon, "post", f"{bob['id']}/here/", {"token": bob_token})
    assert no.status_code == 400 and _fields(no) == ["registration"]
    # without approval the player is checked in at once
    desk.event.self_check_in = Event.SelfCheckIn.OPEN
    desk.event.save(update_fields=["self_check_in"])
    desk.open(capacity=2)
    assert desk.status(bob["id"]) == "registered"
    done = desk.send(desk.anon, "post", f"{bob['id']}/here/", {"token": bob_token})
    assert done.json() == {"state": "here"}
    assert desk.event.entries.filter(player__name="Bob Jones", status="active").exists()
    # with self check-in off, the desk does it
    desk.event.self_check_in = Event.SelfCheckIn.OFF
    desk.event.save(update_fields=["self_check_in"])
    desk.open(capacity=3)
    cleo = desk.confirmed("Cleo Park")
    off = desk.send(desk.anon, "post", f"{cleo['id']}/here/",
                    {"token": desk.token_for("cleo@example.org")})
    assert off.status_code == 400 and _fields(off) == ["event"]
    assert "desk" in off.json()["errors"][0]["message"]


def test_a_registered_pair_checks_in_by_its_link(pair_desk: Desk) -> None:
    desk = pair_desk
    desk.open()
    ab = desk.confirmed("Ann Smith", partner_name="Bob Jones", partner_email="bob@example.org")
    # the partner's copy of the link works as well as the registrant's
    token = desk.token_for("bob@example.org")
    waiting = desk.send(desk.anon, "post", f"{ab['id']}/here/", {"token": token})
    assert waiting.json() == {"state": "waiting"}
    seen = desk.send(desk.boss, "get", f"{ab['id']}/").json()
    assert seen["at_door"] is True and seen["checked_in"] is False
    desk.send(desk.boss, "post", "check-in/", {"ids": [ab["id"]]})
    assert desk.send(desk.boss, "get", f"{ab['id']}/").json()["checked_in"] is True
    desk.event.self_check_in = Event.SelfCheckIn.OPEN
    desk.event.save(update_fields=["self_check_in"])
    cd = desk.confirmed("Cleo Park", partner_name="Dev Patel", partner_email="dev@example.org")
    here = desk.send(desk.anon, "post", f"{cd['id']}/here/",
                     {"token": desk.token_for("dev@example.org")})
    assert here.json() == {"state": "here"}
    assert desk.event.pairs.count() == 2


def test_the_link_is_mailed_again_to_a_registered_address_only(desk: Desk) -> None:
    desk.open()
    desk.confirmed("Ann Smith")
    before = len(mail.outbox)
    for address in ("ann@example.org", "nobody@example.org"):
        answer = desk.send(desk.anon, "post", "link/", {"email": address})
        assert answer.status_code == 202
    assert [m.to for m in mail.outbox[before:]] == [["ann@example.org"]]
    assert desk.send(desk.anon, "post", "link/", {"email": "nope"}).status_code == 400


def test_registering_is_rate_limited_per_address(desk: Desk, settings: Any) -> None:
    desk.open()
    rates = dict(settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], registration="2/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    answers = [desk.send(desk.anon, "post", "", {"name": f"P {n}", "email": f"p{n}@example.org"})
               .status_code for n in range(3)]
    assert answers == [201, 201, 429]

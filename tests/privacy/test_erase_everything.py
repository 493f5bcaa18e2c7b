"""Erasing people who did everything the product allows, then looking for them everywhere.

Alice (an account) registered for a pairs Swiss with Carmen as partner, paid, was approved,
played, was penalised, appealed, had a game adjusted "because Alice Newcomb fouled the deck",
called the director, followed another pair's seat with her own address, had a friend follow
hers, was named as partner by a stranger, directed a club night and imported archives (the
Swiss's and that night's copies in another club). Bella registered without an account for the
same Swiss with Dmitri, and later made an account; a stranger named Alice as partner for
another event. Both are erased; then every table of the database (as PostgreSQL prints its
rows) and every export (event archives, standings and hands CSV, results sheet, the public and
the director's event pages, the API's event) must name neither of them, by name, address or
user name, while their partners Carmen and Dmitri keep theirs everywhere. Exports before the
erasure hold only the person's own data; an erased player is never entered again; an event
still running refuses the erasure, naming it."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from allauth.account.models import EmailAddress
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from archive.selectors import event_archive, event_archive_bytes
from archive.services import event_import
from clubs.models import ClubPlayer, Membership, Player
from common.errors import DomainError
from conduct.models import DirectorCall
from conduct.services import appeal_record, director_call_raise, penalty_record
from draw.services import event_status_set, round_create, round_set_status
from following.services import follower_email_request, follower_start, follower_subscribe
from privacy.selectors import account_export, player_export
from privacy.services import ERASED_NAME, account_erase
from registrations.models import Registration
from registrations.services import (
    registration_approve,
    registration_confirm,
    registration_create,
    registration_mark_paid,
    registration_settings_set,
    registrations_check_in,
)
from scoring.models import Game
from scoring.services import game_adjust, game_confirm, game_set_scorer, hand_submit
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.e2e.walls import hand_won_by, play_round
from tournaments.models import Entry, Event, Pair, Round
from tournaments.services import entry_check_in, event_create, pair_register

pytestmark = pytest.mark.django_db(transaction=False)

ALICE = {"name": "Alice Newcomb", "email": "alice.newcomb@example.org", "username": "anewcomb77"}
BELLA = {"name": "Bella Stroud", "email": "bella.stroud@example.org", "username": "bstroud42"}
PARTNERS = ["Carmen Ruiz", "Dmitri Volkov"]
FRIEND = {"email": "friend.of.alice@example.org", "endpoint": "https://8.8.4.4/push/abc123",
          "p256dh": "BFriendKeyP256dh", "auth": "FriendAuthSecret"}
STRANGER = {"name": "Greta Vogel", "email": "greta.vogel@example.org"}
DAY = datetime.date(2026, 5, 9)


def _account(person: dict[str, str], club: Any) -> tuple[Any, Player]:
    user = UserFactory(username=person["username"])
    user.email = person["email"]
    user.save(update_fields=["email"])
    EmailAddress.objects.create(user=user, email=person["email"], verified=True, primary=True)
    Membership.objects.create(club=club, user=user, role=Membership.Role.MEMBER)
    player = Player.objects.filter(email=person["email"]).first() or PlayerFactory(
        club=club, name=person["name"], email=person["email"])
    Player.objects.filter(pk=player.pk).update(user=user)
    return user, player


def _world() -> dict[str, Any]:
    club, director = club_with_director(slug="riverside")
    other_club, other_director = club_with_director(slug="hilltop")
    alice_user, alice = _account(ALICE, club)
    Membership.objects.filter(user=alice_user).update(role=Membership.Role.DIRECTOR)
    carmen = PlayerFactory(club=club, name=PARTNERS[0], email="carmen.ruiz@example.org")
    dmitri = PlayerFactory(club=club, name=PARTNERS[1], email="dmitri.volkov@example.org")
    bella = PlayerFactory(club=club, name=BELLA["name"], email=BELLA["email"])
    others = [PlayerFactory(club=club, name=f"Riverside {c}") for c in "ABCD"]

    swiss = event_create(club=club, name="Spring pairs", date=DAY, format=Event.Format.SWISS,
                         rounds_planned=2, deals_per_round=1, actor=director)
    registration_settings_set(event=swiss, is_open=True, fee=10, approval_required=True,
                              actor=director)
    own = registration_create(event=swiss, partner_name=PARTNERS[0],
                              partner_email="carmen.ruiz@example.org", user=alice_user)
    anonymous = registration_create(event=swiss, name=BELLA["name"], email=BELLA["email"],
                                    partner_name=PARTNERS[1],
                                    partner_email="dmitri.volkov@example.org")
    anonymous = registration_confirm(registration=anonymous)
    for registration in (own, anonymous):
        registration_mark_paid(registration=registration, paid=True, actor=director)
        registration_approve(registration=registration, actor=director)
    registrations_check_in(event=swiss, actor=director)
    pair_register(event=swiss, players=others[:2], actor=director)
    pair_register(event=swiss, players=others[2:], actor=director)
    event_status_set(event=swiss, status=Event.Status.RUNNING)
    alice_entry = Entry.objects.get(event=swiss, player=alice)
    bella_entry = Entry.objects.get(event=swiss, player=bella)
    # a friend follows Alice's seat; Alice follows Bella's with her own address
    friend, _ = follower_start(event=swiss, entry=alice_entry)
    follower_subscribe(follower=friend, subscription={
        "endpoint": FRIEND["endpoint"], "keys": {"p256dh": FRIEND["p256dh"], "auth": FRIEND["auth"]}})
    follower_email_request(follower=friend, email=FRIEND["email"])
    mine, _ = follower_start(event=swiss, entry=bella_entry)
    follower_email_request(follower=mine, email=ALICE["email"])

    first = round_create(event=swiss, actor=director)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    alices = Game.objects.get(table__round=first, table__seats__entry=alice_entry)
    director_call_raise(table=alices.table, reason="other",
                        words="Alice Newcomb asks about the deal", actor=None)
    game_adjust(game=alices, kind="points", points={"NS": 40, "EW": 30},
                reason="Alice Newcomb fouled the deck", actor=director)
    for table in first.tables.exclude(pk=alices.table_id):
        play_one(table)
    penalty = penalty_record(event=swiss, round_number=1, kind="slow_play", points=5,
                             reason="Alice Newcomb and Bella Stroud were slow",
                             pair_id=alice_entry.pair_id, actor=director)
    appeal_record(event=swiss, contested="Alice Newcomb says the clock was wrong",
                  decision="upheld", penalty_id=penalty.pk, actor=director)
    round_set_status(round_=first, status=Round.Status.CLOSED, close_unfinished=True)
    second = round_create(event=swiss, actor=director)
    round_set_status(round_=second, status=Round.Status.PLAYING)
    play_round(second)
    round_set_status(round_=second, status=Round.Status.CLOSED, close_unfinished=True)
    event_status_set(event=swiss, status=Event.Status.FINISHED, actor=director)

    # Alice directs a club night (her user name is in its archive) ...
    night = event_create(club=club, name="Alice's club night", date=DAY.replace(day=16),
                         rounds_planned=1, deals_per_round=1, actor=alice_user)
    for player in [alice, carmen, dmitri, others[0]]:
        entry_check_in(event=night, player=player, actor=alice_user)
    event_status_set(event=night, status=Event.Status.RUNNING, actor=alice_user)
    night_round = round_create(event=night, actor=alice_user)
    round_set_status(round_=night_round, status=Round.Status.PLAYING)
    play_round(night_round)
    round_set_status(round_=night_round, status=Round.Status.CLOSED, close_unfinished=True)
    event_status_set(event=night, status=Event.Status.FINISHED, actor=alice_user)
    # ... and imports its archive into another club (player copies there)
    copies = [event_import(archive=event_archive(event=night), club_slug=other_club.slug,
                           actor=alice_user).event]

    # a stranger names Alice as partner for the next event
    later = event_create(club=club, name="Summer pairs", date=DAY.replace(month=7),
                         format=Event.Format.SWISS, rounds_planned=2, deals_per_round=1,
                         actor=director)
    registration_settings_set(event=later, is_open=True, actor=director)
    stranger = registration_create(event=later, name=STRANGER["name"], email=STRANGER["email"],
                                   partner_name=ALICE["name"], partner_email=ALICE["email"])
    registration_confirm(registration=stranger)
    # Bella makes an account afterwards: her registration stays one made without it
    bella_user, _ = _account(BELLA, club)
    return {"club": club, "director": director, "other_club": other_club, "alice": alice,
            "alice_user": alice_user, "bella": bella, "bella_user": bella_user,
            "carmen": carmen, "dmitri": dmitri, "swiss": swiss, "night": night,
            "copies": copies, "later": later, "other_director": other_director}


def play_one(table: Any) -> None:
    game_set_scorer(game=table.game, position="N")
    hand_submit(game=table.game, number=1, values=hand_won_by("NS", table.number))
    game_confirm(game=table.game, position="E")


@pytest.fixture
def world() -> dict[str, Any]:
    with transaction.atomic():
        return _world()


def _needles(person: dict[str, str]) -> list[str]:
    return [person["name"].lower(), person["email"].lower(), person["username"].lower()]


def _database_text() -> dict[str, str]:
    """Every table of the database as PostgreSQL prints its rows, lower case."""
    tables = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names():
            cursor.execute(f'SELECT t::text FROM "{table}" AS t')  # noqa: S608 - introspected names
            tables[table] = "\n".join(row[0] for row in cursor.fetchall()).lower()
    return tables


def _exports(world: dict[str, Any]) -> dict[str, str]:
    """Every export and page of the erased people's events, lower case."""
    director = Client()
    director.force_login(world["director"])
    other = Client()
    other.force_login(world["other_director"])
    api = APIClient()
    api.force_authenticate(world["director"])
    found = {}
    for event in [world["swiss"], world["night"], *world["copies"]]:
        client = director if event.club_id == world["club"].pk else other
        found[f"archive {event.pk}"] = event_archive_bytes(event=event).decode()
        for name, url in [("standings.csv", reverse("event-standings-csv", args=[event.pk])),
                          ("hands.csv", reverse("event-hands-csv", args=[event.pk])),
                          ("results", reverse("event-results", args=[event.pk])),
                          ("event page", reverse("event-detail", args=[event.pk]))]:
            answer = client.get(url)
            assert answer.status_code == 200, (name, answer.status_code)
            found[f"{name} {event.pk}"] = b"".join(answer).decode() if answer.streaming \
                else answer.content.decode()
        answer = Client().get(reverse("event-detail", args=[event.pk]))  # signed out
        assert answer.status_code == 200
        found[f"public {event.pk}"] = answer.content.decode()
        detail = api.get(reverse("api-event", args=[event.pk])) if client is director else None
        if detail is not None:
            assert detail.status_code == 200
            found[f"api {event.pk}"] = json.dumps(detail.json())
    return {k: v.lower() for k, v in found.items()}


def test_erasing_two_people_of_one_event_leaves_them_nowhere_and_their_partners_everywhere(
        world: dict[str, Any]) -> None:
    before = _database_text()
    for needle in _needles(ALICE) + _needles(BELLA):
        assert any(needle in text for text in before.values()), needle  # the search can fail
    assert any("fouled the deck" in t for t in before.values())

    for person, user in ((ALICE, world["alice_user"]), (BELLA, world["bella_user"])):
        client = APIClient()
        client.force_authenticate(user)
        answer = client.post(reverse("api-me-erase"), {"confirm": person["username"]},
                             format="json")
        assert answer.status_code == 200, answer.content

    tables = _database_text()
    for needle in _needles(ALICE) + _needles(BELLA):
        holding = [name for name, text in tables.items() if needle in text]
        assert holding == [], f"{needle!r} is still in {holding}"
    exports = _exports(world)
    for needle in _needles(ALICE) + _needles(BELLA):
        holding = [name for name, text in exports.items() if needle in text]
        assert holding == [], f"{needle!r} is still in {holding}"
    # only the names changed: the rest of each text stays, and the partners keep theirs
    assert any(f"{ERASED_NAME} fouled the deck".lower() in t for t in tables.values())
    assert DirectorCall.objects.get().words == f"{ERASED_NAME} asks about the deal"
    swiss = world["swiss"].pk
    for partner in PARTNERS:
        for kind in ("standings.csv", "results", "api", "archive"):
            assert partner.lower() in exports[f"{kind} {swiss}"], (partner, kind)
    pairs = set(Pair.objects.filter(event=world["swiss"]).values_list("name", flat=True))
    assert {f"{ERASED_NAME} & {PARTNERS[0]}", f"{ERASED_NAME} & {PARTNERS[1]}"} <= pairs
    placements = json.loads(exports[f"api {swiss}"])["placements"]
    assert f"{ERASED_NAME} & {PARTNERS[0]}".lower() in [p["name"] for p in placements]
    # the imported copies' players are erased too; the partners' copies stay
    copies = Player.objects.filter(club_links__club=world["other_club"])
    assert {PARTNERS[0], PARTNERS[1], ERASED_NAME} <= set(copies.values_list("name", flat=True))
    assert copies.filter(name=ERASED_NAME, erased_at__isnull=False).count() >= 1
    # the registrations keep their places, without the names or addresses
    assert Registration.objects.filter(event=world["swiss"], name=ERASED_NAME,
                                       email="").count() == 2


def test_an_export_holds_the_persons_own_data_and_not_other_peoples(world: dict[str, Any]) -> None:
    forbidden = [FRIEND["email"], FRIEND["endpoint"], FRIEND["p256dh"], FRIEND["auth"],
                 STRANGER["email"], STRANGER["name"], "carmen.ruiz@example.org",
                 "dmitri.volkov@example.org", BELLA["email"]]
    own = json.dumps(account_export(user=world["alice_user"]))
    directors = json.dumps(player_export(player=world["alice"], club=world["club"]))
    for document in (own, directors):
        for value in forbidden:
            assert value not in document, value
        assert ALICE["email"] in document  # her own address, her own registration
    records = account_export(user=world["alice_user"])["records"]
    # the friend's follow of her seat exists, and that is all it says
    followers = {r["pk"]: r for r in records["following.Follower"]}
    assert any(r == {"pk": r["pk"], "exists": True} for r in followers.values())
    # her own follow of Bella's seat (found by her address) is hers, its push keys withheld
    assert any(r.get("email") == ALICE["email"] for r in followers.values())
    registrations = records["registrations.Registration"]
    named = next(r for r in registrations if r.get("partner_email") == ALICE["email"])
    assert named["name"] == named["email"] == "(another person's)"
    mine = next(r for r in registrations if r.get("email") == ALICE["email"])
    assert mine["partner_email"] == "(another person's)"


def test_an_erased_player_is_never_entered_again(world: dict[str, Any]) -> None:
    account_erase(user=world["bella_user"], confirm=BELLA["username"])
    bella = Player.objects.get(pk=world["bella"].pk)
    assert bella.name == ERASED_NAME and bella.erased_at is not None
    assert ClubPlayer.objects.filter(player=bella, club=world["club"]).exists()  # still listed
    night = event_create(club=world["club"], name="Next night", date=DAY.replace(month=8),
                         rounds_planned=1, deals_per_round=1, actor=world["director"])
    with pytest.raises(DomainError) as refused:
        entry_check_in(event=night, player=bella, actor=world["director"])
    assert (refused.value.field, refused.value.code) == ("player", "erased")
    api = APIClient()
    api.force_authenticate(world["director"])
    for url, body, field in [
            (reverse("api-event-entries", args=[night.pk]), {"player_id": bella.pk}, "player"),
            (reverse("api-event-entries-bulk", args=[night.pk]), {"player_ids": [bella.pk]},
             f"player_ids.{bella.pk}"),
            (reverse("api-event-entries", args=[world["later"].pk]),
             {"player_ids": [bella.pk, world["carmen"].pk]}, "player_ids")]:
        answer = api.post(url, body, format="json")
        assert answer.status_code == 400, answer.content
        assert [(e["field"], e["code"]) for e in answer.json()["errors"]] == [(field, "erased")]
    # the desk's pages offer the erased player nowhere; ticking them anyway is refused, naming
    # the field; "check in everyone" checks in the others
    desk = Client()
    desk.force_login(world["director"])
    page = desk.get(reverse("event-checkin", args=[night.pk]))
    assert page.status_code == 200 and f'value="{bella.pk}"'.encode() not in page.content
    ticked = desk.post(reverse("event-checkin", args=[night.pk]),
                       {"action": "checkin", "players": [bella.pk]})
    assert ticked.status_code in (200, 400) and ticked.context["form"].errors["players"]
    desk.post(reverse("event-checkin", args=[night.pk]), {"action": "everyone"})
    assert night.entries.count() == ClubPlayer.objects.filter(club=world["club"]).count() - 1
    assert not Entry.objects.filter(player=bella, event__in=[night, world["later"]]).exists()


def test_erasure_waits_for_an_event_that_is_not_over(world: dict[str, Any]) -> None:
    night = event_create(club=world["club"], name="Tonight", date=DAY.replace(month=8),
                         rounds_planned=1, deals_per_round=1, actor=world["director"])
    entry_check_in(event=night, player=world["alice"], actor=world["director"])
    event_status_set(event=night, status=Event.Status.RUNNING)
    client = APIClient()
    client.force_authenticate(world["alice_user"])
    answer = client.post(reverse("api-me-erase"), {"confirm": ALICE["username"]}, format="json")
    assert answer.status_code == 400
    (error,) = answer.json()["errors"]
    assert (error["field"], error["code"]) == ("account", "event_not_over")
    assert "Tonight" in error["message"]
    assert Player.objects.get(pk=world["alice"].pk).name == ALICE["name"]
    page = Client()
    page.force_login(world["alice_user"])
    shown = page.post(reverse("privacy-erase"), {"confirm": ALICE["username"]})
    assert shown.status_code == 400 and b"Tonight" in shown.content
    event_status_set(event=night, status=Event.Status.FINISHED)
    answer = client.post(reverse("api-me-erase"), {"confirm": ALICE["username"]}, format="json")
    assert answer.status_code == 200, answer.content

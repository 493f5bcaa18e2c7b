"""What each follower is told when a round is seated, started, or the cut is made: received by
a push service of our own on 127.0.0.1 (the project's encrypted Web Push, decrypted with the
subscription's keys) and by e-mail (locmem). Expectations are read from the seats the services
wrote and, for the places after the cut, from the placements of the finished event."""

from __future__ import annotations

import datetime

import pytest
from django.core import mail

from draw.selectors import event_placements
from draw.services import entry_withdraw, round_advance, round_create, round_set_status
from following import services
from following.models import Follower, Notice
from following.tasks import round_notify
from following.texts import ordinal
from following.vapid import public_key
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.e2e import walls
from tests.following import push_receiver
from tests.tournaments.factories import event_with_players
from tournaments.models import Bye, Entry, Event, Round, Seat
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db

ACROSS = {"N": "S", "S": "N", "E": "W", "W": "E"}




def _seats(round_: Round) -> dict[int, tuple[int, str, str]]:
    """entry id -> (table, seat, the name across the table)."""
    seats = list(Seat.objects.filter(round=round_).select_related("table", "entry__player"))
    at = {(s.table.number, s.position): s.entry.player.name for s in seats}
    return {s.entry_id: (s.table.number, s.position, at[(s.table.number, ACROSS[s.position])])
            for s in seats}


def _follow(entry: Entry, receiver: push_receiver.PushReceiver, *, email: str = "",
            gone: bool = False) -> Follower:
    follower, _ = services.follower_start(event=entry.event, entry=entry)
    services.follower_subscribe(follower=follower,
                                subscription=receiver.subscription(str(entry.pk), gone=gone))
    if email:
        follower.email = email
        follower.email_confirmed_at = datetime.datetime.now(tz=datetime.UTC)
        follower.save()
    return follower


def test_a_seated_round_tells_each_follower_their_table_seat_and_partner_once(
        receiver, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=9)
    entries = list(event.entries.order_by("pk"))
    gone = entries[8]
    for entry in entries[:8]:
        _follow(entry, receiver, email=f"p{entry.pk}@example.org" if entry == entries[0] else "")
    dead = _follow(gone, receiver, gone=True)
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    seats = _seats(first)
    (bye,) = Bye.objects.filter(round=first).values_list("entry_id", flat=True)
    for entry in entries:
        got = receiver.messages(str(entry.pk))
        if entry.pk == bye:
            assert got == (["Round 1: bye — you sit this round out"] if entry != gone else [])
            continue
        if entry == gone:
            assert got == []
            continue
        table, seat, partner = seats[entry.pk]
        assert got == [f"Round 1: table {table}, seat {seat}, partner {partner}"]
    # signed with our VAPID key, for the push service's own origin
    assert {r.vapid_key for r in receiver.received} == {public_key()}
    assert {r.audience for r in receiver.received} == {receiver.base}
    assert not receiver.refused
    # the follower who asked for mails got one, with the stop link
    (sent,) = mail.outbox
    assert sent.to == [f"p{entries[0].pk}@example.org"]
    assert f"Stop notifications: {services.stop_path(Follower.objects.get(entry=entries[0]))}" \
        in sent.body
    # the push service said the subscription is gone: it is dropped
    dead.refresh_from_db()
    assert dead.push_subscription is None
    # asked again (a retried task), nobody is told twice
    assert round_notify(first.pk)["kinds"] == []
    assert sum(len(receiver.messages(str(e.pk))) for e in entries) == 8


def test_starting_the_round_calls_the_seated_players_to_their_tables(
        receiver, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=5)
    entries = list(event.entries.order_by("pk"))
    for entry in entries:
        _follow(entry, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        round_set_status(round_=first, status=Round.Status.PLAYING)
    seats = _seats(first)
    for entry in entries:
        got = receiver.messages(str(entry.pk))
        if entry.pk in seats:
            table, seat, partner = seats[entry.pk]
            assert got == [f"Round 1: table {table}, seat {seat}, partner {partner}",
                           f"Round 1: come to your tables — table {table}, seat {seat}"]
        else:
            assert got == ["Round 1: bye — you sit this round out"]
    assert set(Notice.objects.filter(round=first).values_list("kind", flat=True)) == {
        "seated", "called"}


def test_seated_and_started_in_one_step_is_one_message_and_a_withdrawn_player_hears_nothing(
        receiver, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=9)
    entries = list(event.entries.order_by("pk"))
    first = round_create(event=event)
    round_set_status(round_=first, status=Round.Status.PLAYING)
    walls.play_round(first)
    for entry in entries:
        _follow(entry, receiver)
    leaver = next(e for e in entries if e.pk in _seats(first))
    entry_withdraw(entry=leaver)
    with django_capture_on_commit_callbacks(execute=True):
        second = round_advance(event=Event.objects.get(pk=event.pk), number=1)
    assert second is not None and second.status == Round.Status.PLAYING
    seats = _seats(second)
    byes = set(Bye.objects.filter(round=second).values_list("entry_id", flat=True))
    assert leaver.pk not in seats and leaver.pk not in byes
    assert receiver.messages(str(leaver.pk)) == []
    for entry in entries:
        if entry.pk in seats:
            table, seat, partner = seats[entry.pk]
            assert receiver.messages(str(entry.pk)) == [
                f"Round 2: table {table}, seat {seat}, partner {partner} — come to your tables"]
        elif entry.pk in byes:
            assert receiver.messages(str(entry.pk)) == ["Round 2: bye — you sit this round out"]


def test_a_pair_event_names_the_partner_of_the_pair(
        receiver, django_capture_on_commit_callbacks) -> None:
    club = ClubFactory()
    event = event_create(club=club, name="Pairs night", date=datetime.date(2026, 11, 27),
                         format=Event.Format.SWISS, rounds_planned=3, deals_per_round=1)
    people = [PlayerFactory(club=club, name=f"Player {n:02d}") for n in range(10)]
    for n in range(5):
        pair_register(event=event, players=[people[2 * n], people[2 * n + 1]], seed=n + 1)
    entries = list(event.entries.select_related("player", "pair").order_by("pk"))
    for entry in entries:
        _follow(entry, receiver)
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    seats = _seats(first)
    mate = {e.pk: next(o.player.name for o in entries if o.pair_id == e.pair_id and o != e)
            for e in entries}
    told_byes = 0
    for entry in entries:
        got = receiver.messages(str(entry.pk))
        if entry.pk in seats:
            table, seat, partner = seats[entry.pk]
            assert partner == mate[entry.pk]  # a pair sits across the table
            assert got == [f"Round 1: table {table}, seat {seat}, partner {partner}"]
        else:
            told_byes += 1
            assert got == ["Round 1: bye — you sit this round out"]
    assert told_byes == 2  # five pairs: one pair sits out


@pytest.mark.django_db(transaction=True)
def test_the_cut_tells_the_semi_finalists_their_table_and_the_rest_their_place(
        receiver) -> None:
    day = walls.progressive_day(16, cut=8, qualifying=2)
    entries = list(day.entries.order_by("pk"))
    for entry in entries:
        _follow(entry, receiver)
    semi = walls.play_until(day, Round.Stage.SEMIFINAL)
    seats = _seats(semi)
    assert len(seats) == 8
    walls.play_until(Event.objects.get(pk=day.pk), Round.Stage.FINAL, finish=True)
    places = {p["entry_id"]: p["place"] for p in event_placements(Event.objects.get(pk=day.pk))}
    for entry in entries:
        got = receiver.messages(str(entry.pk))
        cut_message = next(m for m in got if m.startswith("The cut is made"))
        if entry.pk in seats:
            table, seat, partner = seats[entry.pk]
            assert cut_message == (f"The cut is made: you play semi-final table {table}, "
                                   f"seat {seat}, partner {partner}")
        else:
            assert cut_message == ("The cut is made: your day is over — "
                                   f"{ordinal(places[entry.pk])}")
        assert got[0].startswith("Game 1: table ")  # the word the format uses for a sitting


def test_a_push_service_out_of_reach_never_fails_the_seating(
        django_capture_on_commit_callbacks, settings) -> None:
    settings.FOLLOW_SEND_TIMEOUT_SECONDS = 1
    settings.FOLLOW_PUSH_ALLOW_LOCAL = True
    event = event_with_players(players=4)
    entry = event.entries.first()
    follower, _ = services.follower_start(event=event, entry=entry)
    closed = push_receiver.start()
    subscription = closed.subscription("away")
    closed.server.shutdown()
    closed.server.server_close()
    services.follower_subscribe(follower=follower, subscription=subscription)
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    assert first.tables.count() == 1
    follower.refresh_from_db()
    assert follower.push_subscription is not None  # unreachable is not "gone"
    assert Notice.objects.filter(round=first, kind="seated").exists()


def test_a_stopped_follower_is_told_nothing(receiver, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=4)
    entry = event.entries.first()
    follower = _follow(entry, receiver, email="me@example.org")
    services.follower_stop(follower=follower)
    with django_capture_on_commit_callbacks(execute=True):
        round_create(event=event)
    assert receiver.messages(str(entry.pk)) == []
    assert mail.outbox == []


@pytest.mark.parametrize("players", [8, 40])
def test_a_round_nobody_can_be_told_of_is_finished_without_building_the_notices(
        players: int, django_assert_max_num_queries) -> None:
    """An event whose followers have neither a confirmed address nor a push subscription (or
    have stopped): the round's notices are finished with nothing sent, in a few queries
    whatever the field (no seating board, places or texts are built for nobody)."""
    event = event_with_players(players=players)
    entries = list(event.entries.order_by("pk"))
    services.follower_start(event=event, entry=entries[0])  # never confirmed nor subscribed
    stopped, _ = services.follower_start(event=event, entry=entries[1])
    stopped.email, stopped.email_confirmed_at = "me@example.org", datetime.datetime.now(tz=datetime.UTC)
    stopped.save()
    services.follower_stop(follower=stopped)
    round_ = round_create(event=event)
    with django_assert_max_num_queries(11):
        told = services.round_notify(round_id=round_.pk)
    assert told["kinds"] == ["seated"] and told["pushed"] == told["mailed"] == 0
    assert not Notice.objects.filter(round=round_, finished__isnull=True).exists()
    assert mail.outbox == []


@pytest.mark.parametrize(("n", "text"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th"),
                                         (11, "11th"), (12, "12th"), (13, "13th"), (21, "21st"),
                                         (22, "22nd"), (23, "23rd"), (101, "101st"),
                                         (111, "111th")])
def test_ordinals(n: int, text: str) -> None:
    assert ordinal(n) == text

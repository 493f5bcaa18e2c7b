"""Building rounds through the format registry, round status, seat swaps."""

from __future__ import annotations

import itertools

import pytest
from django.db import IntegrityError, transaction

from common.errors import DomainError
from draw.services import entry_withdraw, round_create, round_set_status
from draw.swaps import seat_swap
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.tournaments.factories import event_with_players
from tournaments.models import Bye, EventLog, Round, Seat
from tournaments.services import entry_check_in

pytestmark = pytest.mark.django_db


def _partners(round_: Round) -> set[frozenset[int]]:
    pairs = set()
    for table in round_.tables.all():
        by_pos = {s.position: s.entry_id for s in table.seats.all()}
        pairs.add(frozenset((by_pos["N"], by_pos["S"])))
        pairs.add(frozenset((by_pos["E"], by_pos["W"])))
    return pairs


def test_thirteen_players_sit_at_three_tables_with_one_bye() -> None:
    event = event_with_players(players=13)
    round_ = round_create(event=event)
    assert round_.tables.count() == 3
    assert Seat.objects.filter(round=round_).count() == 12
    assert Bye.objects.filter(round=round_).count() == 1
    seated = set(Seat.objects.filter(round=round_).values_list("entry_id", flat=True))
    resting = set(Bye.objects.filter(round=round_).values_list("entry_id", flat=True))
    assert seated | resting == set(event.entries.values_list("pk", flat=True))
    assert event.log.filter(action="round_seated").exists()


def test_four_rounds_of_sixteen_repeat_no_partner_and_spread_byes() -> None:
    event = event_with_players(players=17)
    seen: set[frozenset[int]] = set()
    for _ in range(4):
        round_ = round_create(event=event)
        pairs = _partners(round_)
        assert not (pairs & seen), "a partnership repeated"
        seen |= pairs
        round_set_status(round_=round_, status="playing")
        round_set_status(round_=round_, status="closed", close_unfinished=True)
    byes = list(Bye.objects.filter(round__event=event).values_list("entry_id", flat=True))
    assert len(byes) == len(set(byes)) == 4


def test_the_next_round_waits_for_the_open_one_to_close() -> None:
    event = event_with_players(players=8)
    round_create(event=event)
    with pytest.raises(DomainError) as info:
        round_create(event=event)
    assert info.value.field == "round"
    assert event.rounds.count() == 1


def test_asking_for_an_existing_round_number_returns_it_unchanged() -> None:
    event = event_with_players(players=8)
    first = round_create(event=event, number=1)
    seats = list(Seat.objects.filter(round=first).values_list("position", "entry_id", "table_id"))
    again = round_create(event=event, number=1)
    assert again.pk == first.pk
    assert list(Seat.objects.filter(round=first).values_list("position", "entry_id", "table_id")) == seats


def test_the_database_allows_one_open_round_per_event() -> None:
    event = event_with_players(players=8)
    round_create(event=event)
    with pytest.raises(IntegrityError), transaction.atomic():
        Round.objects.create(event=event, number=2)


def test_round_status_only_moves_forward() -> None:
    event = event_with_players(players=8)
    round_ = round_create(event=event)
    with pytest.raises(DomainError):
        round_set_status(round_=round_, status="closed", close_unfinished=True)  # must start first
    round_set_status(round_=round_, status="playing")
    round_set_status(round_=round_, status="closed", close_unfinished=True)
    with pytest.raises(DomainError):
        round_set_status(round_=round_, status="playing")


def test_swap_two_seated_players_before_play() -> None:
    event = event_with_players(players=8)
    round_ = round_create(event=event)
    a, b = itertools.islice(Seat.objects.filter(round=round_).order_by("table", "position"), 0, 5, 4)
    seat_swap(round_=round_, entry_a=a.entry, entry_b=b.entry)
    assert Seat.objects.get(round=round_, entry=a.entry).table_id == b.table_id
    assert Seat.objects.get(round=round_, entry=b.entry).position == a.position
    assert EventLog.objects.filter(event=event, action="seat_swap").count() == 1


def test_swap_a_seated_player_with_a_bye() -> None:
    event = event_with_players(players=9)
    round_ = round_create(event=event)
    resting = Bye.objects.get(round=round_).entry
    seat = Seat.objects.filter(round=round_).first()
    seated = seat.entry
    seat_swap(round_=round_, entry_a=seated, entry_b=resting)
    assert Bye.objects.get(round=round_).entry == seated
    assert Seat.objects.get(pk=seat.pk).entry == resting


def test_swap_is_refused_once_play_started() -> None:
    event = event_with_players(players=8)
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    a, b = Seat.objects.filter(round=round_)[:2]
    with pytest.raises(DomainError):
        seat_swap(round_=round_, entry_a=a.entry, entry_b=b.entry)


def test_late_arrival_and_early_leaver_between_rounds() -> None:
    club = ClubFactory()
    event = event_with_players(club=club, players=8)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    round_set_status(round_=first, status="closed", close_unfinished=True)
    leaver = event.entries.first()
    entry_withdraw(entry=leaver)
    late = entry_check_in(event=event, player=PlayerFactory(club=club))
    assert late.joined_round == 2
    second = round_create(event=event)
    in_round = set(Seat.objects.filter(round=second).values_list("entry_id", flat=True)) | set(
        Bye.objects.filter(round=second).values_list("entry_id", flat=True)
    )
    assert late.pk in in_round
    assert leaver.pk not in in_round


def test_reseat_replaces_an_unplayed_round() -> None:
    event = event_with_players(players=8)
    first = round_create(event=event)
    again = round_create(event=event, reseat=True, reason="a late arrival")
    assert again.number == 1
    assert not Round.objects.filter(pk=first.pk).exists()


def test_a_late_arrival_is_not_the_first_to_sit_out() -> None:
    club = ClubFactory()
    event = event_with_players(club=club, players=8)
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    round_set_status(round_=first, status="closed", close_unfinished=True)
    late = entry_check_in(event=event, player=PlayerFactory(club=club))
    second = round_create(event=event)
    assert Bye.objects.get(round=second).entry_id != late.pk
    assert Seat.objects.filter(round=second, entry=late).exists()

"""A progressive tournament day's director actions: timed games and calling time, level games
settled by a cut (system or table), holding the advance, alternates and withdrawals, changing
the stages, and the final places with their prizes."""

from __future__ import annotations

import datetime
from decimal import ROUND_DOWN, Decimal
from typing import Any

import pytest

from common.errors import DomainError
from draw.selectors import final_results
from draw.services import entry_withdraw, event_status_set, round_create
from scoring.models import Game, SeatResult
from scoring.services import (
    event_settings_update,
    game_confirm,
    game_settle_tie,
    hand_submit,
    round_call_time,
)
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Entry, Event, EventLog
from tournaments.services import entry_check_in, event_create, event_hold_advance

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 22)
LEVEL = {"bidder": "N", "bid": 50, "meld": {"NS": 20, "EW": 30},
         "counters": {"NS": 30, "EW": 20}}  # NS 50, EW 50


def _finish_round(round_: Any, capture: Any, *, level_tables: tuple[int, ...] = ()) -> None:
    with capture(execute=True):
        for table in round_.tables.order_by("number"):
            game = table.game
            for n in range(1, (round_.event.deals_per_round or 1) + 1):
                over = LEVEL if table.number in level_tables else {}
                hand_submit(game=game, number=n, values=values(**over))
            game_confirm(game=game, position="E" if table.number in level_tables else "N")


def test_time_ends_the_games_still_playing_after_the_deals_entered(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_event(8, format_settings={"game_minutes": 55})
    first = round_create(event=event)
    t1, t2 = (t.game for t in first.tables.order_by("number"))
    hand_submit(game=t1, number=1, values=values())  # EW 55, NS 51
    # Table 2 has no hand: calling time would end it 0-0, so the director is asked first.
    with pytest.raises(DomainError) as asked:
        round_call_time(round_=first)
    assert (asked.value.field, asked.value.code) == ("confirm", "no_hands")
    assert "table 2" in asked.value.message
    ended = round_call_time(round_=first, confirm_empty=True)
    assert ended == [1, 2]
    t1.refresh_from_db()
    t2.refresh_from_db()
    assert (t1.status, t1.winner, t1.finish_reason) == ("finished", "EW", "time")
    assert (t2.status, t2.winner, t2.totals) == ("finished", "", {"NS": 0, "EW": 0})
    with pytest.raises(DomainError):
        hand_submit(game=t1, number=2, values=values())
    # the level game is cut by the system when the next game is seated
    with django_capture_on_commit_callbacks(execute=True):
        game_confirm(game=t1, position="N")
        game_confirm(game=t2, position="N")
    assert event.rounds.filter(number=2).exists()
    t2.refresh_from_db()
    assert t2.cut_winner in ("NS", "EW")
    assert EventLog.objects.filter(event=event, action="tie_cut").count() == 1


def test_a_table_cut_holds_the_advance_until_the_table_enters_it(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_event(8, deals_per_round=1, format_settings={"ties": "table_cut", "cut": 4})
    first = round_create(event=event)
    _finish_round(first, django_capture_on_commit_callbacks, level_tables=(2,))
    assert not event.rounds.filter(number=2).exists()
    with pytest.raises(DomainError) as info:
        round_create(event=event)
    assert info.value.field == "cut_winner" and "table 2" in info.value.message
    level = Game.objects.get(table__round=first, table__number=2)
    winning = Game.objects.get(table__round=first, table__number=1)
    with pytest.raises(DomainError) as not_level:
        game_settle_tie(game=winning, winner="NS")
    assert not_level.value.code == "not_level"
    with pytest.raises(DomainError):
        game_settle_tie(game=level, winner="XY")
    with django_capture_on_commit_callbacks(execute=True):
        game_settle_tie(game=level, winner="EW")
    second = event.rounds.get(number=2)
    # table 2's EW won the cut: they moved to table 1, NS stayed
    seats = {s.position: s.entry_id for s in level.table.seats.all()}
    now_at_1 = set(second.tables.get(number=1).seats.values_list("entry_id", flat=True))
    now_at_2 = set(second.tables.get(number=2).seats.values_list("entry_id", flat=True))
    assert {seats["E"], seats["W"]} <= now_at_1 and {seats["N"], seats["S"]} <= now_at_2


def test_holding_the_advance_leaves_the_next_game_to_the_director(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_event(8, deals_per_round=1)
    first = round_create(event=event)
    event_hold_advance(event=event, held=True)
    _finish_round(first, django_capture_on_commit_callbacks)
    first.refresh_from_db()
    assert first.status == "closed" and not event.rounds.filter(number=2).exists()
    assert round_create(event=event).number == 2
    assert EventLog.objects.filter(event=event, action="advance_held").exists()


def test_alternates_wait_then_take_a_withdrawn_players_seat(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_event(8, deals_per_round=1, format_settings={"cut": 4})
    club = event.club
    waiting = entry_check_in(event=event, player=PlayerFactory(club=club), alternate=True)
    first = round_create(event=event)
    assert not first.tables.filter(seats__entry=waiting).exists()
    _finish_round(first, django_capture_on_commit_callbacks)
    second = event.rounds.get(number=2)
    leaver = second.tables.get(number=2).seats.get(position="S").entry
    entry_withdraw(entry=leaver)
    leaver.refresh_from_db()
    assert leaver.status == Entry.Status.LEFT
    seat = second.tables.get(number=2).seats.get(position="S")
    assert seat.entry_id == waiting.pk
    # playing now: a second withdrawal from a game in play is refused, nothing changes
    hand_submit(game=second.tables.get(number=1).game, number=1, values=values())
    player = second.tables.get(number=1).seats.get(position="N").entry
    with pytest.raises(DomainError) as info:
        entry_withdraw(entry=player)
    assert info.value.code == "seated"
    player.refresh_from_db()
    assert player.status == Entry.Status.ACTIVE
    # alternates only in progressive events
    night = event_create(club=club, name="Club night", date=DAY)
    with pytest.raises(DomainError) as info:
        entry_check_in(event=night, player=PlayerFactory(club=club), alternate=True)
    assert info.value.field == "alternate"


def test_a_late_arrival_waits_as_an_alternate_and_a_leaver_without_one_is_refused(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_event(8, deals_per_round=1, format_settings={"cut": 4})
    event_hold_advance(event=event, held=True)
    first = round_create(event=event)
    _finish_round(first, django_capture_on_commit_callbacks)
    late = entry_check_in(event=event, player=PlayerFactory(club=event.club))
    second = round_create(event=event)
    late.refresh_from_db()
    assert late.alternate and not second.tables.filter(seats__entry=late).exists()
    _finish_round(second, django_capture_on_commit_callbacks)
    # two withdraw between games, one alternate waits: the next game is refused, nothing seated
    leavers = list(second.tables.get(number=1).seats.values_list("entry_id", flat=True)[:2])
    for pk in leavers:
        entry_withdraw(entry=Entry.objects.get(pk=pk))
    with pytest.raises(DomainError) as info:
        round_create(event=event)
    assert info.value.field == "entries" and "alternate" in info.value.message
    assert event.rounds.count() == 2
    entry_check_in(event=event, player=PlayerFactory(club=event.club), alternate=True)
    third = round_create(event=event)
    seated = set(third.tables.values_list("seats__entry_id", flat=True))
    assert late.pk in seated and seated.isdisjoint(leavers)


def test_a_one_table_day_goes_on_when_an_alternate_takes_a_leavers_seat(
        django_capture_on_commit_callbacks: Any) -> None:
    """Four players at the one table and one alternate: a player who leaves between games leaves
    three players, too few for a table on their own, but the alternate waiting makes four, and
    the next game seats them (it was refused, as if nobody waited)."""
    event = progressive_event(5, deals_per_round=1, format_settings={"cut": 0})
    event_hold_advance(event=event, held=True)
    first = round_create(event=event)
    waiting = event.entries.get(alternate=True)
    _finish_round(first, django_capture_on_commit_callbacks)
    leaver = first.tables.get().seats.get(position="N").entry
    entry_withdraw(entry=leaver)
    second = round_create(event=event)
    seated = set(second.tables.get().seats.values_list("entry_id", flat=True))
    assert waiting.pk in seated and leaver.pk not in seated and len(seated) == 4
    # a second leaver with nobody waiting: the next game is refused, naming the field
    _finish_round(second, django_capture_on_commit_callbacks)
    entry_withdraw(entry=second.tables.get().seats.get(position="E").entry)
    with pytest.raises(DomainError) as info:
        round_create(event=event)
    assert info.value.field == "entries"
    assert event.rounds.count() == 2


def test_stages_change_until_the_cut_and_finished_events_place_with_prizes(
        django_capture_on_commit_callbacks: Any) -> None:
    prizes = {"currency": "$", "payouts": [{"place": 1, "amount": "100"},
                                           {"place": 2, "amount": "50.50"}],
              "side": [{"kind": "high_game", "amount": "10"}]}
    event = progressive_event(8, deals_per_round=1, rounds_planned=2, prizes=prizes,
                   format_settings={"cut": 4, "final_rule": "single_game"})
    with pytest.raises(DomainError) as info:
        event_create(club=event.club, name="x", date=DAY, format="individual_progressive",
                     prizes={"payouts": [{"place": 1, "amount": "lots"}]})
    assert info.value.field == "prizes.payouts[0].amount"
    for number in (1, 2):
        _finish_round(event.rounds.get(number=number) if number > 1 else round_create(event=event),
                      django_capture_on_commit_callbacks)
    final = event.rounds.get(number=3)
    assert final.stage == "final" and final.tables.count() == 1
    settings = {"name": event.name, "date": event.date, "ruleset_preset": event.ruleset_preset,
                "rounds_planned": 2, "deals_per_round": 1, "bye_scoring": event.bye_scoring}
    with pytest.raises(DomainError) as info:
        event_settings_update(event=event, format_settings={"cut": 8}, **settings)
    assert info.value.field == "format_settings"
    _finish_round(final, django_capture_on_commit_callbacks)
    event_status_set(event=event, status=Event.Status.FINISHED)
    results = final_results(Event.objects.get(pk=event.pk))
    places = results["placements"]
    assert [p["place"] for p in places[:4]] == [1, 2, 3, 4] and len(places) == 8
    rest = [p["place"] for p in places[4:]]
    assert rest == sorted(rest) and rest[0] == 5  # qualifying ties share a place
    game = final.tables.get().game
    winners = {s.entry_id for s in game.table.seats.all() if s.position in game.winner}
    assert {places[0]["entry_id"], places[1]["entry_id"]} == winners
    assert [p["prize"] for p in places[:3]] == ["100.00", "50.50", None]
    high = results["side_prizes"][0]
    best = max(SeatResult.objects.filter(event=event, finished=True).values_list("points",
                                                                                flat=True))
    holders = set(SeatResult.objects.filter(event=event, finished=True, points=best)
                  .values_list("entry__player__name", flat=True))
    assert high["score"] == best and set(high["names"]) == holders
    share = Decimal("10") / len(holders)
    assert Decimal(high["amount"]) == share.quantize(Decimal("0.01"), rounding=ROUND_DOWN)


def test_the_director_screen_calls_time(client: Any) -> None:
    from django.urls import reverse

    from tests.clubs.factories import club_with_director

    club, director = club_with_director(slug="timed")
    event = event_create(club=club, name="Timed", date=DAY, format="individual_progressive",
                         format_settings={"game_minutes": 30, "cut": 4})
    for _ in range(8):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    first = round_create(event=event)
    hand_submit(game=first.tables.get(number=1).game, number=1, values=values())
    client.force_login(director)
    page = client.get(reverse("event-director", args=[event.pk]))
    assert b'id="call-time"' in page.content
    # Table 2 has no hand: the director is asked first, then confirms.
    assert client.post(reverse("event-director-time", args=[event.pk])).status_code == 409
    client.post(reverse("event-director-time", args=[event.pk]), {"confirm": "1"})
    assert set(Game.objects.filter(table__round=first).values_list("status", flat=True)) == {
        "finished"}
    assert EventLog.objects.filter(event=event, action="time_called").exists()
    other_club, stranger = club_with_director(slug="elsewhere")
    client.force_login(stranger)
    assert client.post(reverse("event-director-time", args=[event.pk])).status_code in (403, 404)


def test_a_seat_handed_over_before_play_is_not_counted_as_a_game_played(
        django_capture_on_commit_callbacks: Any) -> None:
    event = progressive_event(8, deals_per_round=1, format_settings={"cut": 4})
    waiting = entry_check_in(event=event, player=PlayerFactory(club=event.club), alternate=True)
    first = round_create(event=event)
    leaver = first.tables.get(number=1).seats.get(position="N").entry
    entry_withdraw(entry=leaver)
    leaver.refresh_from_db()
    assert leaver.left_after_round == 0
    assert first.tables.get(number=1).seats.get(position="N").entry_id == waiting.pk


def test_the_standings_page_shows_one_stage_or_all_games(
        client: Any, django_capture_on_commit_callbacks: Any) -> None:
    from django.urls import reverse

    event = progressive_event(8, deals_per_round=1, rounds_planned=1,
                   format_settings={"cut": 4, "final_rule": "single_game"})
    _finish_round(round_create(event=event), django_capture_on_commit_callbacks)
    final = event.rounds.get(number=2)
    assert final.stage == "final"
    url = reverse("event-standings", args=[event.pk])
    page = client.get(url).content.decode()
    assert 'id="stage-tabs"' in page and "?stage=final" in page
    finalists = set(final.tables.get().seats.values_list("entry__player__name", flat=True))
    only_final = client.get(url + "?stage=final").content.decode()
    qualifying = client.get(url + "?stage=qualifying").content.decode()
    everyone = set(event.entries.values_list("player__name", flat=True))
    # the final's standings list the finalists' games only: the others have no points there
    assert all(name in only_final for name in finalists)
    assert all(name in qualifying for name in everyone)
    assert client.get(url + "?stage=nonsense").status_code == 200

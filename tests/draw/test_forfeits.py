"""Forfeits (walkovers) in pair events, played through the services and the advance as the
tables and the director would: a Swiss pair forfeits round 2 (its opponent has the win, round 3
is paired by it, the standings score it as a bye, the places follow); a single-elimination pair
forfeits its semi-final and withdraws (its opponent goes on, the final is seated by itself, the
withdrawn pair's third-place match is a walkover); the API, the round page and their refusals
(formats without forfeits, confirmed games, bad input, scorers and other clubs' directors)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs.models import Membership
from common.errors import DomainError
from draw.selectors import event_bracket
from draw.services import event_status_set, round_create, round_set_status
from scoring.models import Game, SeatResult
from scoring.services import game_confirm, game_forfeit, hand_submit
from standings.models import StandingsSnapshot
from standings.services import standings_rebuild
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players
from tournaments.models import Entry, Event, EventLog, Pair, Round, Seat
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 22)
# One deal decides a game (deals_per_round=1): N-S 67 to 33, or E-W 55 to 51.
WINS = {"NS": values(meld={"NS": 40, "EW": 10}), "EW": values()}


def _pair_event(fmt: str, pairs: int, **settings: Any) -> tuple[Event, Any, list[Pair]]:
    club, director = club_with_director(slug=f"club-{fmt.replace('_', '-')}")
    event = event_create(club=club, name=f"Pairs {fmt}", date=DAY, format=fmt,
                         deals_per_round=1, actor=director, **settings)
    made = [pair_register(event=event, players=[PlayerFactory(club=club),
                                                PlayerFactory(club=club)],
                          seed=n + 1, actor=director) for n in range(pairs)]
    return event, director, made


def _sides(table: Any) -> dict[str, int]:
    """The table's pairs by side."""
    seats = {s.position: s.entry.pair_id for s in table.seats.select_related("entry")}
    return {"NS": seats["N"], "EW": seats["E"]}


def _win(game: Game, side: str) -> None:
    hand_submit(game=game, number=1, values=WINS[side])


def _wins(event: Event) -> dict[int, int]:
    rows = StandingsSnapshot.objects.get(event=event).rows
    return {int(r["pair_id"]): int(r["wins"]) for r in rows}


def test_a_swiss_forfeit_is_the_opponents_win_pairs_round_3_and_is_scored_as_a_bye(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director, _ = _pair_event("swiss", 6, rounds_planned=3,
                                     bye_scoring="average_winning")
    first = round_create(event=event, actor=director)
    with django_capture_on_commit_callbacks(execute=True):
        for table in first.tables.all():
            _win(table.game, "NS")
            game_confirm(game=table.game, position="E")
    second = event.rounds.get(number=2)  # seated by the advance
    won_1 = {_sides(t)["NS"] for t in first.tables.all()}
    tables = {frozenset(_sides(t).values()): t for t in second.tables.all()}
    both_won = next(t for pairs, t in tables.items() if pairs <= won_1)
    floated = next(t for pairs, t in tables.items() if len(pairs & won_1) == 1)
    both_lost = next(t for pairs, t in tables.items() if not pairs & won_1)
    forfeiting, walkover = "NS", "EW"
    ready = _sides(both_won)[walkover]
    gone = _sides(both_won)[forfeiting]
    # a hand was entered before the N-S pair had to stop: kept, not counted
    hand_submit(game=both_won.game, number=1, values={"dealer": "S", "outcome": "misdeal"})
    with django_capture_on_commit_callbacks(execute=True):
        game = game_forfeit(game=both_won.game, side=forfeiting, reason="A player was taken ill",
                            actor=director)
    assert (game.status, game.forfeit, game.winner, game.finish_reason) == (
        "confirmed", "NS", "EW", "forfeit")
    assert game.hands_count == 1 and game.totals == {"NS": 0, "EW": 0}
    assert not event.rounds.filter(number=3).exists()  # the round's other games are playing
    assert {(r.entry.pair_id, r.won) for r in SeatResult.objects.filter(
        game=game).select_related("entry")} == {(ready, True), (gone, False)}
    log = EventLog.objects.get(event=event, action="game_forfeited")
    assert log.details["reason"] == "A player was taken ill" and log.details["pair"] == gone
    assert log.actor == director
    # asking again changes nothing; the other side cannot forfeit it too
    assert game_forfeit(game=game, side="NS", reason="again", actor=director).pk == game.pk
    with pytest.raises(DomainError) as refused:
        game_forfeit(game=game, side="EW", reason="both gone", actor=director)
    assert refused.value.field == "side"
    with pytest.raises(DomainError) as refused:
        hand_submit(game=game, number=2, values=WINS["NS"], as_director=True, note="late")
    assert refused.value.code == "forfeited"
    # the floater wins its game, the low table's N-S pair wins
    high = next(side for side, pair in _sides(floated).items() if pair in won_1)
    with django_capture_on_commit_callbacks(execute=True):
        _win(floated.game, high)
        _win(both_lost.game, "NS")
        for table in (floated, both_lost):
            game_confirm(game=table.game, position="N" if high == "EW" else "E")
    third = event.rounds.get(number=3)
    wins = _wins(event)
    top = _sides(floated)[high]
    assert wins[ready] == 2 and wins[top] == 2 and wins[gone] == 1
    # Swiss pairs by wins: the two pairs on 2 wins (one by the walkover) meet in round 3
    assert frozenset((ready, top)) in {frozenset(_sides(t).values()) for t in third.tables.all()}
    # the standings: the walkover scores what a bye would (the average winning score of the
    # round's games played out), the forfeiting pair nothing
    played = [t.game for t in (floated, both_lost)]
    for g in played:
        g.refresh_from_db()
    average = round(sum(g.totals[g.winner] for g in played) / 2)
    rows = {int(r["pair_id"]): r for r in standings_rebuild(event_id=event.pk).rows}
    assert rows[ready]["per_round"]["2"] == average
    assert rows[gone]["per_round"]["2"] == 0 and rows[gone]["losses"] == 1
    assert rows[ready]["highest_game"] == 67  # a walkover is no one's highest game
    with django_capture_on_commit_callbacks(execute=True):
        for table in third.tables.all():
            sides = _sides(table)
            _win(table.game, "NS" if sides["NS"] == ready else "EW" if sides["EW"] == ready
                 else "NS")
            game_confirm(game=table.game, position="E" if sides["EW"] != ready else "N")
    finished = event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    places = StandingsSnapshot.objects.get(event=finished).placements
    assert places[0]["pair_id"] == ready  # three wins, one of them the walkover
    rows = {int(r["pair_id"]): r for r in StandingsSnapshot.objects.get(event=finished).rows}
    assert [p["pair_id"] for p in places] == sorted(rows, key=lambda p: rows[p]["rank"])


def test_a_forfeiting_swiss_pair_that_withdraws_is_left_out_of_the_later_rounds(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director, _ = _pair_event("swiss", 4, rounds_planned=2, bye_scoring="fixed",
                                     bye_points=40)
    first = round_create(event=event, actor=director)
    one, two = first.tables.order_by("number")
    gone = _sides(one)["EW"]
    with django_capture_on_commit_callbacks(execute=True):
        game_forfeit(game=one.game, side="EW", reason="Left for the airport", actor=director,
                     withdraw=True)
        _win(two.game, "EW")
        game_confirm(game=two.game, position="N")
    assert set(Entry.objects.filter(pair_id=gone).values_list("status", "left_after_round")) \
        == {("left", 1)}
    second = event.rounds.get(number=2)
    seated = {e for t in second.tables.all() for e in _sides(t).values()}
    assert gone not in seated and len(seated) == 2
    assert second.byes.count() == 2  # three pairs: one sits out (both its players)
    rows = {int(r["pair_id"]): r for r in standings_rebuild(event_id=event.pk).rows}
    assert rows[_sides(one)["NS"]]["per_round"]["1"] == 40  # the bye's fixed points
    assert rows[gone]["active"] is False


def test_a_bracket_pair_forfeits_its_semi_final_and_withdraws(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director, made = _pair_event("single_elimination", 4,
                                        format_settings={"third_place": True})
    semis = round_create(event=event, actor=director)
    fourth = made[3].pk
    at = next(t for t in semis.tables.all() if fourth in _sides(t).values())
    other = next(t for t in semis.tables.all() if t.pk != at.pk)
    side = next(s for s, p in _sides(at).items() if p == fourth)
    opponent = _sides(at)["EW" if side == "NS" else "NS"]
    with django_capture_on_commit_callbacks(execute=True):
        game_forfeit(game=at.game, side=side, reason="Flight home moved", actor=director,
                     withdraw=True)
    assert not event.rounds.filter(number=2).exists()  # the other semi-final is playing
    with django_capture_on_commit_callbacks(execute=True):
        _win(other.game, "NS")
        game_confirm(game=other.game, position="E")
    semis.refresh_from_db()
    assert semis.status == Round.Status.CLOSED
    final_round = event.rounds.get(number=2)  # seated by itself
    matches = {t.match: t for t in final_round.tables.all()}
    assert len(matches) == 2
    final = matches.pop("W2-1")
    (third,) = matches.values()
    assert set(_sides(final).values()) == {opponent, _sides(other)["NS"]}
    # the withdrawn pair's third-place match is a walkover for the other semi-final's loser
    third_game = Game.objects.get(table=third)
    assert third_game.status == "confirmed" and third_game.forfeit
    assert _sides(third)[third_game.winner] == _sides(other)["EW"]
    assert _sides(third)[third_game.forfeit] == fourth
    assert EventLog.objects.filter(event=event, action="game_forfeited").count() == 2
    bracket = event_bracket(event)
    assert bracket is not None
    by_code = {m["code"]: m for part in bracket["brackets"] for col in part["rounds"]
               for m in col["matches"]}
    semi = by_code[at.match]
    assert (semi["status"], semi["winner"], semi["forfeit"]) == ("finished", opponent, fourth)
    assert by_code[third.match]["forfeit"] == fourth
    assert by_code["W2-1"]["forfeit"] is None
    # a walkover shows what the standings credit (a bye's score to the winner), never 0-0
    from standings.services import standings_rebuild

    rows = {r["pair_id"]: r for r in standings_rebuild(event_id=event.pk).rows}
    walkover = by_code[semi["code"]]
    credited = dict(zip([s["pair"] for s in walkover["sides"]], walkover["points"], strict=True))
    assert credited[fourth] == 0 and credited[opponent] > 0
    assert credited[opponent] == rows[opponent]["points"]  # its only game so far
    page = Client()
    page.force_login(director)
    html = page.get(f"/events/{event.pk}/bracket/").content.decode()
    assert html.count('class="bracket-walkover') == 2
    with django_capture_on_commit_callbacks(execute=True):
        _win(final.game, "EW")
        game_confirm(game=final.game, position="N")
    finished = event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    places = [p["pair_id"] for p in StandingsSnapshot.objects.get(event=finished).placements]
    assert places == [_sides(final)["EW"], _sides(final)["NS"], _sides(other)["EW"], fourth]


def _token_client(user: Any) -> APIClient:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return api


def test_the_api_forfeits_a_semi_final_and_the_final_is_seated_by_itself(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director, made = _pair_event("single_elimination", 4)
    semis = round_create(event=event, actor=director)
    one, two = semis.tables.order_by("number")
    api = _token_client(director)
    url = f"/api/events/{event.pk}/rounds/1/tables/{one.number}/forfeit/"
    for body, field in (({"reason": "ill"}, "side"), ({"side": "N", "reason": "ill"}, "side"),
                        ({"side": "NS"}, "reason"), ({"side": "NS", "reason": " "}, "reason")):
        refused = api.post(url, body, format="json")
        assert refused.status_code == 400, body
        assert refused.json()["errors"][0]["field"] == field, (body, refused.json())
    assert Game.objects.get(table=one).forfeit == ""
    assert api.post(f"/api/events/{event.pk}/rounds/1/tables/9/forfeit/",
                    {"side": "NS", "reason": "ill"}, format="json").status_code == 404
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(url, {"side": "EW", "reason": "Car trouble"}, format="json")
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert {k: body[k] for k in ("round", "table", "status", "forfeit", "winner",
                                 "finish_reason")} == {
        "round": 1, "table": one.number, "status": "confirmed", "forfeit": "EW",
        "winner": "NS", "finish_reason": "forfeit"}
    assert body["match"] == one.match
    state = api.get(f"/api/events/{event.pk}/rounds/1/").json()
    assert [t["game"]["forfeit"] for t in state["tables"]] == ["EW", None]
    with django_capture_on_commit_callbacks(execute=True):
        _win(two.game, "EW")
        game_confirm(game=two.game, position="N")
    final = event.rounds.get(number=2).tables.get()
    assert set(_sides(final).values()) == {_sides(one)["NS"], _sides(two)["EW"]}
    # a game confirmed at its table was played out: it is not forfeited afterwards
    refused = api.post(f"/api/events/{event.pk}/rounds/1/tables/{two.number}/forfeit/",
                       {"side": "NS", "reason": "late"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] in ("round", "game")
    assert made  # every pair registered


def test_formats_without_forfeits_refuse_naming_the_format() -> None:
    club, director = club_with_director(slug="night-club")
    night = event_with_players(club=club, players=8, status="running", deals_per_round=2)
    table = round_create(event=night).tables.order_by("number").first()
    assert table is not None
    api = _token_client(director)
    refused = api.post(f"/api/events/{night.pk}/rounds/1/tables/{table.number}/forfeit/",
                       {"side": "NS", "reason": "Gone home"}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "format"
    assert refused.json()["errors"][0]["code"] == "no_forfeits"
    assert Game.objects.get(table=table).forfeit == ""
    assert not EventLog.objects.filter(event=night, action="game_forfeited").exists()


def test_scorers_and_other_clubs_directors_cannot_forfeit() -> None:
    event, director, _ = _pair_event("swiss", 4, rounds_planned=2)
    round_create(event=event, actor=director)
    path = f"/api/events/{event.pk}/rounds/1/tables/1/forfeit/"
    body = {"side": "NS", "reason": "No"}
    scorer = UserFactory(username="phone")
    Membership.objects.create(club=event.club, user=scorer, role="scorer")
    _, stranger = club_with_director(slug="elsewhere")
    assert _token_client(scorer).post(path, body, format="json").status_code == 403
    assert _token_client(stranger).post(path, body, format="json").status_code == 403
    event.club.is_public = False
    event.club.save(update_fields=["is_public"])
    assert _token_client(stranger).post(path, body, format="json").status_code == 404
    page = Client()
    page.force_login(scorer)
    assert page.post(f"/events/{event.pk}/rounds/1/tables/1/forfeit/", body).status_code == 403
    page.force_login(stranger)
    assert page.post(f"/events/{event.pk}/rounds/1/tables/1/forfeit/", body).status_code == 404
    assert not Game.objects.filter(table__round__event=event).exclude(forfeit="").exists()


def test_the_round_page_offers_the_forfeit_and_shows_the_walkover(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director, _ = _pair_event("swiss", 4, rounds_planned=2)
    first = round_create(event=event, actor=director)
    page = Client()
    page.force_login(director)
    url = f"/events/{event.pk}/rounds/1/"
    html = page.get(url).content.decode()
    assert html.count("Forfeit the game</button>") == 2
    assert 'data-confirm="Forfeit the game at table 1?' in html
    scorer = UserFactory(username="phone")
    Membership.objects.create(club=event.club, user=scorer, role="scorer")
    watcher = Client()
    watcher.force_login(scorer)
    assert "Forfeit the game</button>" not in watcher.get(url).content.decode()
    # without a reason: refused, nothing changes
    answer = page.post(f"/events/{event.pk}/rounds/1/tables/1/forfeit/", {"side": "NS"})
    assert answer.status_code == 302
    assert Game.objects.get(table__round=first, table__number=1).forfeit == ""
    with django_capture_on_commit_callbacks(execute=True):
        answer = page.post(f"/events/{event.pk}/rounds/1/tables/1/forfeit/",
                           {"side": "NS", "reason": "Babysitter called", "withdraw": "1"})
    assert answer.status_code == 302 and answer["Location"] == url
    game = Game.objects.get(table__round=first, table__number=1)
    assert (game.forfeit, game.winner) == ("NS", "EW")
    gone = Seat.objects.get(table=game.table, position="N").entry.pair_id
    assert set(Entry.objects.filter(pair_id=gone).values_list("status", flat=True)) == {"left"}
    html = page.get(url).content.decode()
    assert 'data-forfeit="NS"' in html and "Walkover" in html
    assert html.count("Forfeit the game</button>") == 1  # the other table only
    token = game.table.token
    phone = Client().get(f"/t/{token}/").content.decode()
    assert 'data-forfeit="NS"' in phone and "EW win" in phone
    card = page.get(f"/events/{event.pk}/pairs/{gone}/").content.decode()
    assert 'data-forfeit="NS"' in card and "forfeited" in card


def test_a_playoff_pair_that_forfeits_and_withdraws_keeps_its_seed(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director, _ = _pair_event("swiss", 4, rounds_planned=1, format_settings={
        "playoff": {"kind": "single", "cut": 4, "third_place": True}})
    qualifying = round_create(event=event, actor=director)
    with django_capture_on_commit_callbacks(execute=True):
        for table in qualifying.tables.all():
            _win(table.game, "NS")
            game_confirm(game=table.game, position="E")
    semis = event.rounds.get(number=2)
    assert semis.stage == Round.Stage.BRACKET
    one, two = semis.tables.order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        game_forfeit(game=one.game, side="EW", reason="Went home", actor=director,
                     withdraw=True)
        _win(two.game, "NS")
        game_confirm(game=two.game, position="E")
    # the seeds stay as drawn: the final and the withdrawn pair's third-place walkover
    last = event.rounds.get(number=3)
    matches = {t.match: t for t in last.tables.all()}
    final = matches.pop("W2-1")
    (third,) = matches.values()
    assert set(_sides(final).values()) == {_sides(one)["NS"], _sides(two)["NS"]}
    assert Game.objects.get(table=third).forfeit
    assert _sides(third)[Game.objects.get(table=third).forfeit] == _sides(one)["EW"]
    with django_capture_on_commit_callbacks(execute=True):
        _win(final.game, "NS")
        game_confirm(game=final.game, position="E")
    finished = event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    places = [p["pair_id"] for p in StandingsSnapshot.objects.get(event=finished).placements]
    assert places == [_sides(final)["NS"], _sides(final)["EW"], _sides(two)["EW"],
                      _sides(one)["EW"]]


@pytest.mark.parametrize(("preset", "size", "side"), [
    ("six_handed_triple_deck", 3, "NSESW"), ("two_handed", 1, "S")])
def test_a_side_of_any_two_sided_game_forfeits(preset: str, size: int, side: str) -> None:
    """Found by the conformance corpus: a team of three (six-handed) could not forfeit (the
    database took N-S and E-W only), nor a player head to head (refused as individual play)."""
    club, director = club_with_director(slug=f"forfeit-{preset[:10]}")
    event = event_create(club=club, name="Teams", date=DAY, format="swiss", deals_per_round=1,
                         rounds_planned=2, ruleset_preset=preset, actor=director)
    for _ in range(2):
        pair_register(event=event, players=[PlayerFactory(club=club) for _ in range(size)],
                      actor=director)
    game = round_create(event=event, actor=director).tables.get().game
    game_forfeit(game=game, side=side, actor=director, reason="could not go on")
    game.refresh_from_db()
    assert game.forfeit == side and game.status == Game.Status.CONFIRMED
    assert game.winner and game.winner != side


@pytest.mark.parametrize("ties", ["system_cut", "table_cut"])
def test_a_level_final_is_settled_when_the_bracket_finishes(ties: str) -> None:
    """Found by the corpus: a bracket whose last match ended level (an adjusted result of equal
    points) could not finish: the bracket had no winner and nothing asked for the cut. Finishing
    settles it as seating the next wave does: the system cuts, or the table is asked."""
    from scoring.services import game_adjust, game_settle_tie

    event, director, pairs = _pair_event("single_elimination", 2, format_settings={"ties": ties})
    final = round_create(event=event, actor=director)
    round_set_status(round_=final, status=Round.Status.PLAYING, actor=director)
    round_set = final.tables.get().game
    game_adjust(game=round_set, kind="points", points={"NS": 50, "EW": 50},
                reason="the room closed", actor=director)
    round_set_status(round_=final, status=Round.Status.CLOSED, actor=director)
    if ties == "table_cut":
        with pytest.raises(DomainError) as refused:
            event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
        assert refused.value.field == "cut_winner" and refused.value.code == "tie"
        game_settle_tie(game=round_set, winner="EW", actor=director)
    event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    event.refresh_from_db()
    round_set.refresh_from_db()
    assert event.status == Event.Status.FINISHED and round_set.cut_winner in ("NS", "EW")
    champion = _sides(round_set.table)[round_set.cut_winner]
    places = StandingsSnapshot.objects.get(event=event).placements
    assert min(places, key=lambda p: p["place"])["pair_id"] == champion


def test_the_database_takes_a_forfeit_by_a_side_of_a_two_sided_game_only() -> None:
    """The integrity path of ``game_forfeit_valid``: the two-sided games' sides pass, a side of
    no two-sided game (a three-handed player, a made-up name) is refused by the database."""
    from django.db import IntegrityError, transaction

    from scoring.models import FORFEIT_SIDES

    assert FORFEIT_SIDES == ["EW", "N", "NESNW", "NS", "NSESW", "S"]
    event, director, _ = _pair_event("swiss", 2, rounds_planned=1)
    game = round_create(event=event, actor=director).tables.get().game
    for bad in ("E", "XX"):
        with pytest.raises(IntegrityError), transaction.atomic():
            Game.objects.filter(pk=game.pk).update(forfeit=bad, status=Game.Status.CONFIRMED)

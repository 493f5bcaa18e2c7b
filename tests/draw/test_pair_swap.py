"""Swaps in a pair event move whole pairs: partners stay together, so the standings and the
pairing credit each table's N-S and E-W results to the pairs registered there. Swapping two
players of a pair event (which would split two pairs) is refused, naming the field; an event of
single players keeps its player swap."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from common.errors import DomainError
from draw.services import event_results, round_create, round_set_status
from draw.swaps import seat_swap
from formats import Finish
from formats.pairs import pair_results
from scoring.models import Game
from scoring.services import game_confirm, hand_submit
from standings.services import standings_rebuild
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.events.test_api_pairs import PairEvent, roster
from tests.events.test_api_progressive import _ok, _refused, director_api
from tests.tournaments.factories import event_with_players
from tournaments.models import Bye, Event, EventLog, Pair, Round, Seat
from tournaments.selectors import pairs_in_seed_order
from tournaments.services import event_create, pair_register

pytestmark = pytest.mark.django_db
__all__ = ["director_api", "roster"]  # fixtures


def _winning_hand(side: str, number: int, dealer: str) -> dict[str, Any]:
    """A deal the given side makes by a wide margin (it bids, melds and takes every counter)."""
    other = "EW" if side == "NS" else "NS"
    return {"outcome": "played", "bidder": side[0], "bid": 50, "trump": "H",
            "meld": {side: 40, other: 0}, "counters": {side: 50, other: 0},
            "number": number, "dealer": dealer}


def _sides(round_: dict[str, Any], pair_of: dict[int, int]) -> dict[int, tuple[int, int]]:
    """table number -> (N-S pair, E-W pair), checking that partners sit together."""
    out = {}
    for table in round_["tables"]:
        seats = {s["position"]: pair_of[s["entry_id"]] for s in table["seats"]}
        assert seats["N"] == seats["S"] and seats["E"] == seats["W"], seats
        assert table["pairs"] == [seats["N"], seats["E"]]
        out[table["number"]] = (seats["N"], seats["E"])
    return out


def _finish(event: Event) -> Finish:
    pairs = pairs_in_seed_order(event)
    return Finish(rounds_planned=event.rounds_planned, settings=dict(event.format_settings),
                  ranking=(), results=tuple(event_results(event)),
                  pairs={pk: members for pk, members, _ in pairs})


def test_a_swiss_pair_swap_through_the_api_moves_whole_pairs_and_credits_them(
        director_api: APIClient, roster: tuple[str, list[int]],
        django_capture_on_commit_callbacks: Any) -> None:
    slug, players = roster
    t = PairEvent(director_api, slug, django_capture_on_commit_callbacks, 5,
                  format="swiss", rounds_planned=3)
    ids = [t.register(players[2 * i:2 * i + 2]) for i in range(5)]
    pair_of = {p["entry_id"]: pair["id"] for pair in _ok(director_api.get(t.url("pairs/")))
               for p in pair["players"]}
    first = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    swap = t.url("rounds/1/swap/")
    (a, b), (c, d) = _sides(first, pair_of)[1], _sides(first, pair_of)[2]
    [e] = sorted({pair_of[entry] for entry in first["byes"]})
    assert sorted([a, b, c, d, e]) == sorted(ids)

    # Two players of different pairs: that would split both pairs.
    seats_1 = {s["position"]: s["entry_id"] for s in first["tables"][0]["seats"]}
    seats_2 = {s["position"]: s["entry_id"] for s in first["tables"][1]["seats"]}
    error = _refused(director_api.post(swap, {"entry_a": seats_1["N"], "entry_b": seats_2["E"]},
                                       format="json"), "entry_a")
    assert error["code"] == "pair_event" and "pairs" in error["message"]
    _refused(director_api.post(swap, {"pair_a": a, "pair_b": a}, format="json"), "pair_b")
    _refused(director_api.post(swap, {"pair_a": 999_999_999, "pair_b": a}, format="json"),
             "pair_a")
    _refused(director_api.post(swap, {"pair_a": a}, format="json"), "pair_b")
    assert t.round(1) == first, "a refused swap changes nothing"

    # A (table 1, N-S) and D (table 2, E-W) exchange places, partners together.
    moved = _ok(director_api.post(swap, {"pair_a": a, "pair_b": d}, format="json"))
    assert _sides(moved, pair_of) == {1: (d, b), 2: (c, a)}
    # A pair with the pair on the bye: A sits out, E plays.
    moved = _ok(director_api.post(swap, {"pair_a": e, "pair_b": a}, format="json"))
    assert _sides(moved, pair_of) == {1: (d, b), 2: (c, e)}
    assert sorted(moved["byes"]) == sorted(e_ for e_, p in pair_of.items() if p == a)
    # The two pairs of one table change direction: D now plays E-W, B N-S.
    moved = _ok(director_api.post(swap, {"pair_a": d, "pair_b": b}, format="json"))
    assert _sides(moved, pair_of) == {1: (b, d), 2: (c, e)}
    assert EventLog.objects.filter(event_id=t.id, action="pair_swap").count() == 3

    # Table 1: the E-W pair (D) wins; table 2: the N-S pair (C) wins. The advance is held, so
    # the standings read round 1 alone (round 2's bye would count as seated).
    _ok(director_api.post(t.url("advance/"), {"held": True}, format="json"))
    points: dict[int, tuple[int, int]] = {}
    for table, winner in zip(moved["tables"], ("EW", "NS"), strict=True):
        token = table["token"]
        _ok(t.tables_api.post(f"/api/tables/{token}/scorer/", {"position": "N"}, format="json"))
        totals = {"NS": 0, "EW": 0}
        for _ in range(2):
            state = _ok(t.tables_api.get(f"/api/tables/{token}/"))
            stored = _ok(t.tables_api.post(
                f"/api/tables/{token}/hands/",
                _winning_hand(winner, state["next_number"], state["next_dealer"]),
                format="json"), 201)
            totals = {s: totals[s] + stored["points"][s] for s in totals}
        assert totals[winner] > totals["EW" if winner == "NS" else "NS"]
        with django_capture_on_commit_callbacks(execute=True):
            _ok(t.tables_api.post(f"/api/tables/{token}/confirm/", {"position": "E"},
                                  format="json"))
        ns, ew = _sides(moved, pair_of)[table["number"]]
        points[ns] = (totals["NS"], totals["EW"])
        points[ew] = (totals["EW"], totals["NS"])

    standings = _ok(director_api.get(t.url("standings/")))
    rows = {r["pair_id"]: r for r in standings["rows"]}
    assert {p: rows[p]["wins"] for p in ids} == {a: 1, b: 0, c: 1, d: 1, e: 0}  # A: its bye
    for pair, (won, lost) in points.items():
        assert (rows[pair]["points"], rows[pair]["against"]) == (won, lost), pair
    # The pairing's own reading of the games (the next Swiss round is paired from it).
    event = Event.objects.get(pk=t.id)
    games = {(r.round_number, r.table_number): (r.pairs, r.winner)
             for r in pair_results(_finish(event))}
    assert games == {(1, 1): ((b, d), d), (1, 2): ((c, e), c)}
    second = _ok(director_api.post(t.url("rounds/"), {}, format="json"), 201)
    assert {p for table in _sides(second, pair_of).values() for p in table} | {
        pair_of[entry] for entry in second["byes"]} == set(ids)


def _pair_event(format: str = "swiss", pairs: int = 4, **kwargs: Any) -> tuple[Event, Any]:
    club, director = club_with_director(slug="partners")
    event = event_create(club=club, name="Partners", date=datetime.date(2026, 11, 22),
                         format=format, deals_per_round=2, **kwargs)
    for n in range(pairs):
        pair_register(event=event, players=[PlayerFactory(club=club), PlayerFactory(club=club)],
                      name=f"Team {n + 1}", seed=n + 1)
    return event, director


def _table_pairs(round_: Round) -> dict[int, tuple[int | None, int | None]]:
    out = {}
    for table in round_.tables.order_by("number"):
        seats = {s.position: s.entry.pair_id for s in table.seats.select_related("entry")}
        assert seats["N"] == seats["S"] and seats["E"] == seats["W"], seats
        out[table.number] = (seats["N"], seats["E"])
    return out


def test_the_round_page_swaps_pairs_and_refuses_to_split_them(client: Client) -> None:
    event, director = _pair_event()
    round_ = round_create(event=event, actor=director)
    client.force_login(director)
    url = reverse("round-swap", args=[event.pk, 1])
    page = client.get(reverse("round-detail", args=[event.pk, 1])).content.decode()
    assert "Swap pairs" in page and 'name="pair_a"' in page and "Team 1" in page
    assert 'name="entry_a"' not in page
    before = _table_pairs(round_)
    (a, b), (c, d) = before[1], before[2]
    assert None not in (a, b, c, d)

    # Two players: refused on the page, with the error at the pair field; nothing moves.
    n_1 = Seat.objects.get(table__round=round_, table__number=1, position="N").entry_id
    e_2 = Seat.objects.get(table__round=round_, table__number=2, position="E").entry_id
    refused = client.post(url, {"entry_a": n_1, "entry_b": e_2})
    assert refused.status_code == 400
    assert refused.context["swap_form"].errors["pair_a"] == [
        "In a pair event partners stay together: pick two pairs to swap, not two players."]
    assert _table_pairs(round_) == before
    same = client.post(url, {"pair_a": a, "pair_b": a})
    assert same.status_code == 400 and "pair_b" in same.context["swap_form"].errors

    swapped = client.post(url, {"pair_a": b, "pair_b": c})
    assert swapped.status_code == 302
    assert _table_pairs(round_) == {1: (a, c), 2: (b, d)}  # C plays E-W now, B N-S

    # Table 2's N-S pair (B, moved from E-W) wins: the win is B's, not D's.
    round_set_status(round_=round_, status="playing", actor=director)
    for number, winner in ((1, "NS"), (2, "NS")):
        game = Game.objects.get(table__round=round_, table__number=number)
        for deal, dealer in ((1, "N"), (2, "E")):
            hand_submit(game=game, number=deal, values=_winning_hand(winner, deal, dealer))
        game_confirm(game=Game.objects.get(pk=game.pk), position="E")
    rows = {r["pair_id"]: r for r in standings_rebuild(event_id=event.pk).rows}
    assert {p: rows[p]["wins"] for p in (a, b, c, d)} == {a: 1, b: 1, c: 0, d: 0}
    ns_points = Game.objects.get(table__round=round_, table__number=2).totals["NS"]
    assert rows[b]["points"] == ns_points and rows[d]["against"] == ns_points


def test_a_pair_on_a_bye_swaps_with_a_seated_pair_and_single_players_are_refused() -> None:
    event, director = _pair_event(pairs=3)
    round_ = round_create(event=event, actor=director)
    resting = Bye.objects.filter(round=round_).select_related("entry")
    [sitting_out] = {bye.entry.pair_id for bye in resting}
    ns, ew = _table_pairs(round_)[1]
    pairs = Pair.objects.in_bulk()
    seat_swap(round_=round_, pair_a=pairs[sitting_out], pair_b=pairs[ew], actor=director)
    assert _table_pairs(round_) == {1: (ns, sitting_out)}
    assert {b.entry.pair_id for b in Bye.objects.filter(round=round_).select_related("entry")} \
        == {ew}
    n_entry = Seat.objects.get(round=round_, position="N").entry
    bye_entry = Bye.objects.filter(round=round_).first()
    assert bye_entry is not None
    with pytest.raises(DomainError) as split:
        seat_swap(round_=round_, entry_a=n_entry, entry_b=bye_entry.entry, actor=director)
    assert (split.value.field, split.value.code) == ("entry_a", "pair_event")
    assert _table_pairs(round_) == {1: (ns, sitting_out)}


def test_a_bracket_pair_changes_sides_only_with_its_opponent() -> None:
    event, director = _pair_event(format="single_elimination", pairs=4)
    round_ = round_create(event=event, actor=director)
    (a, b), (c, d) = _table_pairs(round_)[1], _table_pairs(round_)[2]
    pairs = Pair.objects.in_bulk()
    with pytest.raises(DomainError) as across:
        seat_swap(round_=round_, pair_a=pairs[a], pair_b=pairs[c], actor=director)
    assert (across.value.field, across.value.code) == ("pair_b", "bracket_match")
    seat_swap(round_=round_, pair_a=pairs[a], pair_b=pairs[b], actor=director)
    assert _table_pairs(round_) == {1: (b, a), 2: (c, d)}


def test_an_event_of_single_players_keeps_its_player_swap(client: Client) -> None:
    club, director = club_with_director(slug="singles")
    event = event_with_players(club=club, players=9)
    round_ = round_create(event=event, actor=director)
    seat = Seat.objects.filter(round=round_).order_by("table__number", "position").first()
    bye = Bye.objects.get(round=round_)
    assert seat is not None
    client.force_login(director)
    page = client.get(reverse("round-detail", args=[event.pk, 1])).content.decode()
    assert "Swap players" in page and 'name="entry_a"' in page
    response = client.post(reverse("round-swap", args=[event.pk, 1]),
                           {"entry_a": seat.entry_id, "entry_b": bye.entry_id})
    assert response.status_code == 302
    assert Seat.objects.get(table_id=seat.table_id, position=seat.position).entry_id \
        == bye.entry_id
    assert Bye.objects.get(round=round_).entry_id == seat.entry_id
    api = APIClient()
    api.force_authenticate(director)
    refused = api.post(f"/api/events/{event.pk}/rounds/1/swap/",
                       {"pair_a": 1, "pair_b": 2}, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["field"] == "pair_a"

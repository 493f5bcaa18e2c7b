"""The export of a player's data: real values for a player who played a progressive day and a
club night (known hands, so every figure is known here), every model keyed to a player or an
account present (the generic walk), secrets withheld, other people's data left out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from clubs.models import Player
from privacy.selectors import account_export
from privacy.walk import WITHHELD, club_path, collect
from standings.models import StandingsSnapshot
from tests.privacy.world import DEALS, SIDE_POINTS, World, build_world
from tests.shared import module_data
from tournaments.models import Entry, Seat

pytestmark = pytest.mark.django_db


@module_data
def world() -> World:
    """Built once for the module: its tests only read it."""
    return build_world()


def _event(document: dict[str, Any], name: str) -> dict[str, Any]:
    (found,) = [e for e in document["events"] if e["event"]["name"] == name]
    return found


def test_the_export_holds_the_account_with_its_sign_in_history(world: World) -> None:
    document = account_export(user=world.user)
    account = document["account"]
    assert account["username"] == "sam"
    assert account["email"] == "sam@example.org"
    assert [(a["email"], a["verified"], a["primary"]) for a in account["email_addresses"]] == [
        ("sam@example.org", True, True), ("sam.work@example.org", False, False)]
    assert [(m["club"], m["role"]) for m in account["memberships"]] == [("riverside", "member")]
    assert [(a["ip_address"], a["user_agent"], a["failures_since_start"])
            for a in account["sign_in"]["attempts"]] == [("10.0.0.7", "Phone", 2)]
    assert [(a["ip_address"], a["user_agent"]) for a in account["sign_in"]["log"]] == [
        ("10.0.0.8", "Laptop")]
    assert account["api_token"] is not None
    # secrets: neither the token's key nor the password's hash are in the file
    text = json.dumps(document)
    assert Token.objects.get(user=world.user).key not in text
    assert world.user.password not in text
    (user_row,) = document["records"]["auth.User"]
    assert user_row["password"] == WITHHELD
    (token_row,) = document["records"]["authtoken.Token"]
    assert token_row["key"] == WITHHELD
    assert document["player"]["name"] == "Samantha Quill"
    assert [c["club"] for c in document["player"]["clubs"]] == ["riverside", "hilltop"]


def test_the_progressive_day_shows_each_game_and_hand_of_the_players_side(world: World) -> None:
    document = account_export(user=world.user)
    day = _event(document, "Riverside NPA day")
    entry = Entry.objects.get(event=world.progressive, player=world.subject)
    assert day["entry"]["id"] == entry.pk
    assert day["event"]["status"] == "finished"
    seats = {s.round.number: s for s in Seat.objects.filter(entry=entry).select_related(
        "round", "table")}
    assert [g["round"] for g in day["games"]] == [1, 2]
    for game in day["games"]:
        seat = seats[game["round"]]
        side = "NS" if seat.position in "NS" else "EW"
        other = "EW" if side == "NS" else "NS"
        assert (game["table"], game["seat"], game["side"]) == (seat.table.number, seat.position,
                                                               side)
        # every hand at the subject's table was NS 51, EW 55
        assert [h["points"] for h in game["hands"]] == [SIDE_POINTS[side]] * DEALS
        assert [h["number"] for h in game["hands"]] == list(range(1, DEALS + 1))
        assert [(h["bid"], h["bidder"], h["result"]) for h in game["hands"]] == [
            (51, "N", "made")] * DEALS
        assert game["score"] == {"NS": 51 * DEALS, "EW": 55 * DEALS}
        assert game["points"] == SIDE_POINTS[side] * DEALS
        assert game["opponents_points"] == SIDE_POINTS[other] * DEALS
        assert game["won"] is (side == "EW")
    total = sum(g["points"] for g in day["games"])
    assert day["standing"]["points"] == total
    assert day["standing"]["entry_id"] == entry.pk
    placements = StandingsSnapshot.objects.get(event=world.progressive).placements
    (placed,) = [p for p in placements if p["entry_id"] == entry.pk]
    assert day["placing"] == {"place": placed["place"], "stage": "qualifying",
                              "prize": placed["prize"]}
    # better placed players have at least as many points
    above = {p["entry_id"] for p in placements if p["place"] < placed["place"]}
    rows = StandingsSnapshot.objects.get(event=world.progressive).rows
    assert all(r["points"] >= total for r in rows if r["entry_id"] in above)


def test_the_club_night_shows_the_penalty_the_appeal_and_the_self_check_in(world: World) -> None:
    document = account_export(user=world.user)
    night = _event(document, "Riverside club night")
    (game,) = night["games"]
    side = game["side"]
    assert [h["points"] for h in game["hands"]] == [SIDE_POINTS[side]] * DEALS
    # the standings line: the game's points less the 10-point penalty
    assert night["standing"]["points"] == SIDE_POINTS[side] * DEALS - 10
    assert night["standing"]["penalty_points"] == 10
    assert [(p["kind"], p["points"], p["reason"], p["in_force"]) for p in night["penalties"]] == [
        ("slow_play", 10, "Samantha Quill played out of turn", True)]
    assert [(a["decision"], a["contested"]) for a in night["appeals"]] == [
        ("upheld", "Samantha Quill says it was her turn")]
    assert [a["status"] for a in night["arrivals"]] == ["approved"]
    assert night["placing"]["place"] >= 1
    away = _event(document, "Hilltop night")
    assert away["event"]["club"] == "hilltop"
    ratings = document["ratings"]
    assert ratings["current"]["games"] == 4 == len(ratings["changes"])  # four rated games
    assert {c["event_name"] for c in ratings["changes"]} == {
        "Riverside NPA day", "Riverside club night", "Hilltop night"}


def _keyed_to_a_person() -> set[str]:
    """Computed here from the installed models, not from the walk: every model with a column
    pointing at a player or an account."""
    people = (Player, get_user_model())
    return {model._meta.label for model in apps.get_models()
            if not model._meta.proxy
            for field in model._meta.concrete_fields
            if field.is_relation and field.related_model in people}


def test_every_model_keyed_to_a_player_or_an_account_is_in_the_export(world: World) -> None:
    document = account_export(user=world.user)
    expected = _keyed_to_a_person()
    assert {"tournaments.Entry", "tournaments.Arrival", "league.RatingChange",
            "clubs.Membership", "account.EmailAddress", "privacy.PrivacyLog"} <= expected
    missing = expected - set(document["records"])
    assert missing == set(), f"models keyed to a person but not exported: {missing}"
    records = document["records"]
    # rows keyed to the subject, and rows keyed to those (an entry's seats, results, penalty,
    # the penalty's appeal) are there, by their real ids
    entries = set(Entry.objects.filter(player=world.subject).values_list("pk", flat=True))
    assert {r["pk"] for r in records["tournaments.Entry"]} == entries
    assert {r["entry_id"] for r in records["tournaments.Seat"]} == entries
    assert len(records["tournaments.Seat"]) == 4
    assert {r["entry_id"] for r in records["scoring.SeatResult"]} == entries
    assert len(records["conduct.Penalty"]) == 1 and len(records["conduct.Appeal"]) == 1
    assert records["conduct.Appeal"][0]["penalty_id"] == records["conduct.Penalty"][0]["pk"]
    assert len(records["account.EmailAddress"]) == 2
    assert len(records["tournaments.Arrival"]) == 1


def test_the_export_names_no_other_player(world: World) -> None:
    text = json.dumps(account_export(user=world.user))
    for other in [*world.others, *Player.objects.filter(name__startswith="Hilltop ")]:
        assert other.name not in text
    assert "director-riverside" not in text


def test_a_club_scope_keeps_only_that_clubs_rows(world: World) -> None:
    """The walk's club filter, on the model graph: a seat reaches its club through its round's
    event, a roster line directly; a rating kept across clubs has no club."""
    assert club_path(Seat) in ("round__event__club", "table__round__event__club")
    assert club_path(apps.get_model("clubs", "ClubPlayer")) == "club"
    assert club_path(apps.get_model("league", "PlayerRating")) is None
    records, withheld = collect([world.subject], club=world.other_club)
    assert [r["event_id"] for r in records["tournaments.Entry"]] == [world.away.pk]
    assert [r["club_id"] for r in records["clubs.ClubPlayer"]] == [world.other_club.pk]
    assert "league.PlayerRating" in withheld and "league.PlayerRating" not in records

"""The player profile, checked figure by figure against numbers recomputed here from the hands
the tests entered through the real scoring services (a corrected hand counts with its last
values, a deleted hand not at all), and its visibility across public and private clubs."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import random
import re
import statistics
import zoneinfo
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pytest
from django.urls import reverse

from clubs.models import Membership, Player
from draw.services import event_status_set, round_set_status
from league.ratings import ratings_rebuild
from league.selectors import ratings_for
from scoring.models import Game, Hand, HandRevision
from scoring.services import game_confirm
from tests.clubs.factories import ClubFactory, PlayerFactory, UserFactory
from tests.profiles.builders import (
    SINGLE_DECK,
    Ledger,
    correct,
    delete_last,
    enter,
    entries_for,
    new_event,
    play_out,
    rebuild,
    seat_round,
)
from tests.shared import module_data
from tournaments.models import Event, Round

pytestmark = pytest.mark.django_db


@dataclass
class World:
    subject: Player
    ledger: Ledger
    public_events: list[Event]
    private_event: Event
    members_club: Any
    corrected: Hand
    deleted: Hand


def build_world() -> World:
    rng = random.Random(20260305)
    riverside = ClubFactory(name="Riverside <Pinochle>", slug="riverside",
                            time_zone="America/Chicago")
    hilltop = ClubFactory(name="Hilltop", slug="hilltop", is_public=False, time_zone="Europe/Paris")
    subject = PlayerFactory(club=riverside, name="Sam O'Subject")
    others = [PlayerFactory(club=riverside, name=f"River {c}") for c in "ABCDEFG"]
    a, b, c, d, e, f, g = others
    ledger = Ledger()

    # Event 1: a club night, two rounds of two tables; finished (final places written).
    night = new_event(riverside, "March night", datetime.date(2026, 3, 5))
    entries = entries_for(night, [subject, *others])
    first = seat_round(ledger, night, 1, entries, [[subject, a, b, c], [d, e, f, g]])
    # The subject (N) declares a board set, then a hand that is corrected to E's bid later.
    enter(ledger, first[0], rng, bidder="N", outcome="no_marriage", bid=55)
    enter(ledger, first[0], rng, bidder="N", outcome="played", bid=52,
          meld={"NS": 30, "EW": 20}, counters={"NS": 30, "EW": 20})
    enter(ledger, first[0], rng, bidder="N", outcome="surrender", bid=60)
    correct(ledger, first[0], 2, {"dealer": "E", "bidder": "E", "bid": 51, "trump": "S",
                                  "outcome": "played", "meld": {"NS": 20, "EW": 24},
                                  "counters": {"NS": 20, "EW": 30}})
    enter(ledger, first[0], rng, outcome="misdeal")
    play_out(ledger, first[0], rng)
    play_out(ledger, first[1], rng)
    round_set_status(round_=first[0].table.round, status=Round.Status.CLOSED,
                     close_unfinished=True)
    second = seat_round(ledger, night, 2, entries, [[a, subject, d, e], [b, f, c, g]])
    for _ in range(3):
        enter(ledger, second[0], rng)
    # The fourth hand (the subject, E, bids 70 and makes it) is entered twice by mistake: the
    # second copy is deleted, then the real fourth hand is entered.
    enter(ledger, second[0], rng, bidder="E", outcome="played", bid=70,
          meld={"NS": 20, "EW": 40}, counters={"NS": 10, "EW": 40})
    deleted_game = second[0]
    delete_last(ledger, deleted_game)
    deleted = Hand.objects.get(game=deleted_game, deleted_at__isnull=False)
    # The subject's bid of 65 with 20 meld and 10 counters is set.
    enter(ledger, second[0], rng, bidder="E", outcome="played", bid=65,
          meld={"NS": 30, "EW": 20}, counters={"NS": 40, "EW": 10})
    play_out(ledger, second[0], rng)
    play_out(ledger, second[1], rng)
    round_set_status(round_=second[0].table.round, status=Round.Status.CLOSED,
                     close_unfinished=True)
    event_status_set(event=night, status=Event.Status.FINISHED)

    # Event 2: a Swiss pairs event, the subject partnering A; still running.
    swiss = new_event(riverside, "April pairs", datetime.date(2026, 4, 9), pairs=True)
    entries = entries_for(swiss, [subject, *others], pairs=[(0, 1), (2, 3), (4, 5), (6, 7)])
    games = seat_round(ledger, swiss, 1, entries, [[subject, b, a, c], [d, f, e, g]])
    # The subject (N) makes a bid of 51, reneges on their own bid, then as a defender.
    enter(ledger, games[0], rng, bidder="N", outcome="played", bid=51,
          meld={"NS": 30, "EW": 20}, counters={"NS": 30, "EW": 20})
    enter(ledger, games[0], rng, bidder="N", outcome="renege", renege_seat="N", bid=57)
    enter(ledger, games[0], rng, bidder="W", outcome="renege", renege_seat="N", bid=53)
    for game in games:
        play_out(ledger, game, rng)
    rebuild(swiss)

    # Event 3: a private club's night (the subject and three of its players): one finished
    # game and one still being played.
    locals_ = [PlayerFactory(club=hilltop, name=f"Hill {c}") for c in "XYZ"]
    x, y, z = locals_
    private = new_event(hilltop, "Hilltop May", datetime.date(2026, 5, 14))
    entries = entries_for(private, [subject, *locals_])
    (game,) = seat_round(ledger, private, 1, entries, [[x, subject, y, z]])
    play_out(ledger, game, rng)
    Round.objects.filter(event=private, number=1).update(status=Round.Status.CLOSED)
    (game,) = seat_round(ledger, private, 2, entries, [[subject, x, z, y]])
    enter(ledger, game, rng, bidder="N", outcome="played")
    enter(ledger, game, rng)
    rebuild(private)

    corrected = Hand.objects.get(game=first[0], number=2)
    return World(subject, ledger, [night, swiss], private, hilltop, corrected, deleted)


@module_data
def world() -> World:
    """Built once for the module: its tests only read it."""
    return build_world()


# --- figures recomputed from the ledger ---------------------------------------------------------

def side_of(position: str) -> str:
    return "NS" if position in "NS" else "EW"


def seen_games(world: World, event_ids: set[int]) -> list[tuple[Any, str]]:
    """(ledger game, the subject's position) of every game the subject sat in."""
    out = []
    for game in world.ledger.games.values():
        if game.event_id not in event_ids:
            continue
        for position, player_id in game.seats.items():
            if player_id == world.subject.pk:
                out.append((game, position))
    return out


def pagat_bucket(bid: int) -> str:
    if bid < 60:
        low = 50 if bid < 55 else 55
        return f"{low}–{low + 4}"
    return str(bid)


def single_deck_bucket(bid: int) -> str:
    low = 150 + (bid - 150) // 50 * 50
    return f"{low}–{low + 40}"


def expected(world: World, event_ids: set[int], bucket: Any = pagat_bucket) -> dict[str, Any]:
    hands = declared = 0
    endings: Counter[str] = Counter()
    buckets: dict[str, Counter[str]] = {}
    melds: list[int] = []
    own_melds: list[int] = []
    reneges = misdeals = 0
    game_points: dict[int, list[int]] = {}
    partners: dict[int, list[int]] = {}
    opponents: dict[int, list[int]] = {}
    for game, position in seen_games(world, event_ids):
        side = side_of(position)
        points = 0
        for hand in game.hands:
            values = hand.values
            if values["outcome"] == "misdeal":
                misdeals += 1
                continue
            hands += 1
            points += hand.points[side]
            melds.append(values["meld"][side])
            reneges += values.get("renege_seat") == position
            if values["bidder"] != position:
                continue
            declared += 1
            own_melds.append(values["meld"][side])
            how = ("board_set" if hand.result == "board_set" else "surrendered"
                   if hand.result == "surrendered" else "made" if hand.made else "set")
            endings[how] += 1
            buckets.setdefault(bucket(values["bid"]), Counter())[how] += 1
        if game.finished:
            game_points.setdefault(game.event_id, []).append(points)
            outcome = (1, 0) if game.winner == side else (0, 1) if game.winner else (0, 0)
            for other, player_id in game.seats.items():
                if other == position:
                    continue
                book = partners if side_of(other) == side else opponents
                row = book.setdefault(player_id, [0, 0, 0])
                row[0] += 1
                row[1] += outcome[0]
                row[2] += outcome[1]
    all_points = [p for ps in game_points.values() for p in ps]
    return {
        "hands": hands, "declared": declared, "misdeals": misdeals, "reneges": reneges,
        "made": endings["made"], "set": endings["set"], "board_set": endings["board_set"],
        "surrendered": endings["surrendered"],
        "declared_share": declared / hands,
        "made_share": endings["made"] / declared if declared else None,
        "meld_per_hand": statistics.fmean(melds),
        "meld_on_own_bids": statistics.fmean(own_melds) if own_melds else None,
        "games": len(all_points), "points": sum(all_points),
        "points_per_game": statistics.fmean(all_points),
        "bids": {label: dict(c) for label, c in buckets.items()},
        "per_event": {event_id: (len(ps), sum(ps), statistics.fmean(ps),
                                 statistics.stdev(ps) / len(ps) ** 0.5 if len(ps) > 1 else None)
                      for event_id, ps in game_points.items()},
        "partners": {pid: tuple(v) for pid, v in partners.items()},
        "opponents": {pid: tuple(v) for pid, v in opponents.items()},
    }


def api(client: Any, player: Player) -> Any:
    return client.get(reverse("api-player-profile", args=[player.pk]))


def close(value: float | None, wanted: float | None) -> bool:
    if value is None or wanted is None:
        return value is wanted
    return abs(value - wanted) < 0.006


# --- the figures ------------------------------------------------------------------------------

def test_hand_figures_match_the_entered_hands(client, world: World) -> None:
    data = api(client, world.subject).json()
    want = expected(world, {e.pk for e in world.public_events})
    (group,) = data["analytics"]
    assert group["ruleset"] == "pagat_double_deck" and group["events"] == 2
    for key in ("hands", "declared", "misdeals", "reneges", "made", "set", "board_set",
                "surrendered", "games", "points"):
        assert group[key] == want[key], key
    for key in ("declared_share", "made_share", "meld_per_hand", "meld_on_own_bids",
                "points_per_game"):
        assert close(group[key], want[key]), (key, group[key], want[key])
    # the outcomes this world was built to contain
    assert want["board_set"] >= 1 and want["surrendered"] >= 1 and want["misdeals"] >= 1
    assert want["set"] >= 2 and want["reneges"] >= 2 and want["made"] >= 1
    got = {b["label"]: {k: b[k] for k in ("made", "set", "board_set", "surrendered") if b[k]}
           for b in group["bids"]}
    assert got == want["bids"]
    for b in group["bids"]:
        assert b["bids"] == b["made"] + b["set"] + b["board_set"] + b["surrendered"]
    assert [b["low"] for b in group["bids"]] == sorted(b["low"] for b in group["bids"])
    per_event = {row["event_id"]: row for row in group["per_event"]}
    assert set(per_event) == set(want["per_event"])
    for event_id, (games, points, mean, stderr) in want["per_event"].items():
        row = per_event[event_id]
        assert (row["games"], row["points"]) == (games, points)
        assert close(row["points_per_game"], mean) and close(row["stderr"], stderr)
    assert [row["event_id"] for row in group["per_event"]] == [e.pk for e in world.public_events]


def test_a_corrected_hand_counts_with_its_live_values_and_a_deleted_hand_not_at_all(
    client, world: World
) -> None:
    # The corrected hand was first the subject's bid of 52 (N); its live values are E's 51.
    first, live = world.corrected.revisions.order_by("revision")
    assert (first.bidder, first.bid, first.is_live) == ("N", 52, False)
    assert (live.bidder, live.bid, live.is_live) == ("E", 51, True)
    deletion = world.deleted.revisions.order_by("revision").last()
    assert deletion.is_deletion and deletion.bid == 70
    data = api(client, world.subject).json()
    (group,) = data["analytics"]
    want = expected(world, {e.pk for e in world.public_events})
    stored = HandRevision.objects.filter(
        hand__game__table__round__event__in=world.public_events,
        hand__game__table__seats__entry__player=world.subject).count()
    # every revision ever stored (the corrected one, the deleted hand's two) is more than counted
    assert stored > want["hands"] + want["misdeals"]
    assert group["hands"] == want["hands"]
    # the subject's bid of 52 is gone from the 50–54 bucket unless another hand put one there
    fifty = next((b for b in group["bids"] if b["label"] == "50–54"), None)
    assert (fifty["bids"] if fifty else 0) == sum(want["bids"].get("50–54", {}).values())
    seventy = next((b for b in group["bids"] if b["label"] == "70"), None)
    assert (seventy["bids"] if seventy else 0) == sum(want["bids"].get("70", {}).values())


def test_partners_and_opponents(client, world: World) -> None:
    data = api(client, world.subject).json()
    want = expected(world, {e.pk for e in world.public_events})
    partners = {p["player_id"]: (p["games"], p["wins"], p["losses"]) for p in data["partners"]}
    opponents = {p["player_id"]: (p["games"], p["wins"], p["losses"]) for p in data["opponents"]}
    assert partners == want["partners"]
    assert opponents == want["opponents"]
    games = [p["games"] for p in data["partners"]]
    assert games == sorted(games, reverse=True)
    # the pairs event's fixed partner and the club night's partner of round 1 both count
    assert sum(g for g, _, _ in partners.values()) == want["games"]


def test_events_list_places_points_and_local_start(client, world: World) -> None:
    data = api(client, world.subject).json()
    night, swiss = world.public_events
    assert [e["event_id"] for e in data["events"]] == [swiss.pk, night.pk]  # newest first
    by_id = {e["event_id"]: e for e in data["events"]}

    # The club night: points and wins per player from the ledger's games; the final place.
    totals: dict[int, list[int]] = {}
    for game in world.ledger.games.values():
        if game.event_id != night.pk:
            continue
        for position, player_id in game.seats.items():
            side = side_of(position)
            row = totals.setdefault(player_id, [0, 0])
            row[0] += game.totals()[side]
            row[1] += game.winner == side
    mine = totals[world.subject.pk]
    row = by_id[night.pk]
    assert (row["points"], row["wins"]) == tuple(mine)
    better = sum(1 for v in totals.values() if tuple(v) > tuple(mine))
    assert row["place"] == better + 1 and row["of"] == 8
    assert row["status"] == "finished" and row["format"] == "club_night"
    assert row["club"] == {"slug": "riverside", "name": "Riverside <Pinochle>"}
    started = Round.objects.filter(event=night).order_by("started_at").first().started_at
    local = started.astimezone(zoneinfo.ZoneInfo("America/Chicago"))
    assert row["started_at"] == local.isoformat()  # with the club's UTC offset
    assert row["time_zone"] == "America/Chicago" and row["date"] == "2026-03-05"

    # The pairs event: the pair's points and wins, its rank by wins then points.
    pair_totals: dict[frozenset[int], list[int]] = {}
    for game in world.ledger.games.values():
        if game.event_id != swiss.pk:
            continue
        for side, positions in (("NS", "NS"), ("EW", "EW")):
            pair = frozenset(game.seats[p] for p in positions)
            row_ = pair_totals.setdefault(pair, [0, 0])
            row_[0] += game.winner == side
            row_[1] += game.totals()[side]
    ours = next(v for k, v in pair_totals.items() if world.subject.pk in k)
    row = by_id[swiss.pk]
    assert (row["wins"], row["points"]) == tuple(ours)
    assert row["place"] == 1 + sum(1 for v in pair_totals.values() if tuple(v) > tuple(ours))
    assert row["of"] == 4 and row["is_pairs"] and row["status"] == "running"
    assert row["pair_id"] is not None


def test_each_ruleset_is_a_group_of_its_own(client, world: World) -> None:
    """Scales differ (single deck bids 150 and more, meld ten times pagat's): a single-deck
    night is counted apart, and the pagat figures stay what they were."""
    world = dataclasses.replace(world, ledger=copy.deepcopy(world.ledger))  # shared: not ours
    rng = random.Random(5)
    riverside = world.public_events[0].club
    others = list(Player.objects.filter(name__in=["River A", "River B", "River C"]))
    night = new_event(riverside, "Single deck June", datetime.date(2026, 6, 4), deals=2,
                      preset=SINGLE_DECK)
    entries = entries_for(night, [world.subject, *others])
    (game,) = seat_round(world.ledger, night, 1, entries, [[world.subject, *others]])
    enter(world.ledger, game, rng, bidder="N", outcome="played")
    enter(world.ledger, game, rng, bidder="N", outcome="surrender")
    rebuild(night)
    data = api(client, world.subject).json()
    groups = {g["ruleset"]: g for g in data["analytics"]}
    assert set(groups) == {"pagat_double_deck", SINGLE_DECK}
    assert data["analytics"][0]["ruleset"] == "pagat_double_deck"  # most hands first
    pagat = expected(world, {e.pk for e in world.public_events})
    single = expected(world, {night.pk}, single_deck_bucket)
    for group, want in ((groups["pagat_double_deck"], pagat), (groups[SINGLE_DECK], single)):
        for key in ("hands", "declared", "games", "points", "made", "set", "surrendered"):
            assert group[key] == want[key], key
        assert close(group["meld_per_hand"], want["meld_per_hand"])
        got = {b["label"]: {k: b[k] for k in ("made", "set", "board_set", "surrendered") if b[k]}
               for b in group["bids"]}
        assert got == want["bids"]
    assert groups[SINGLE_DECK]["events"] == 1 and groups[SINGLE_DECK]["meld_per_hand"] >= 40
    assert all(b["low"] >= 150 for b in groups[SINGLE_DECK]["bids"])
    html = client.get(reverse("player-profile", args=[world.subject.pk])).content.decode()
    assert html.count('class="card profile-group"') == 2
    assert "Double-deck partnership pinochle (pagat)" in html


# --- visibility -------------------------------------------------------------------------------

def test_private_club_events_are_hidden_from_outsiders_and_shown_to_members(
    client, world: World
) -> None:
    outsider = api(client, world.subject).json()
    assert world.private_event.pk not in {e["event_id"] for e in outsider["events"]}
    assert {c["slug"] for c in outsider["clubs"]} == {"riverside"}
    hill_names = {"Hill X", "Hill Y", "Hill Z"}
    assert not hill_names & {p["name"] for p in outsider["partners"] + outsider["opponents"]}
    page = client.get(reverse("player-profile", args=[world.subject.pk])).content.decode()
    assert "Hilltop" not in page and "Hill X" not in page

    member = UserFactory(username="hill-member")
    Membership.objects.create(club=world.members_club, user=member, role=Membership.Role.MEMBER)
    client.force_login(member)
    inside = api(client, world.subject).json()
    assert world.private_event.pk in {e["event_id"] for e in inside["events"]}
    want = expected(world, {e.pk for e in [*world.public_events, world.private_event]})
    (group,) = inside["analytics"]
    assert (group["hands"], group["games"], group["declared"]) == (
        want["hands"], want["games"], want["declared"])
    assert close(group["points_per_game"], want["points_per_game"])
    assert hill_names <= {p["name"] for p in inside["partners"] + inside["opponents"]}
    page = client.get(reverse("player-profile", args=[world.subject.pk])).content.decode()
    assert "Hilltop May" in page


def test_a_player_with_nothing_visible_is_404_and_unknown_players_too(client, world: World) -> None:
    hill_x = Player.objects.get(name="Hill X")
    assert client.get(reverse("player-profile", args=[hill_x.pk])).status_code == 404
    assert api(client, hill_x).status_code == 404
    assert api(client, hill_x).json()["errors"]
    assert client.get(reverse("player-profile", args=[999999])).status_code == 404
    nobody = PlayerFactory(name="Never played")
    assert client.get(reverse("player-profile", args=[nobody.pk])).status_code == 404
    # a member of the private club sees Hill X's profile
    member = UserFactory(username="hill-member-2")
    Membership.objects.create(club=world.members_club, user=member, role=Membership.Role.MEMBER)
    client.force_login(member)
    assert client.get(reverse("player-profile", args=[hill_x.pk])).status_code == 200


def test_a_private_event_of_a_public_club_is_hidden_from_the_public(client, world: World) -> None:
    night, swiss = world.public_events
    Event.objects.filter(pk=swiss.pk).update(is_public=False)
    data = api(client, world.subject).json()
    assert [e["event_id"] for e in data["events"]] == [night.pk]
    assert data["analytics"][0]["events"] == 1


# --- the page ---------------------------------------------------------------------------------

def test_page_shows_figures_charts_tables_and_escapes_names(client, world: World) -> None:
    response = client.get(reverse("player-profile", args=[world.subject.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    want = expected(world, {e.pk for e in world.public_events})
    assert "Sam O&#x27;Subject" in html and "Sam O'Subject" not in html
    assert "Riverside &lt;Pinochle&gt;" in html and "Riverside <Pinochle>" not in html
    assert html.count('role="img"') >= 2 and "<svg" in html
    assert 'data-chart="bids"' in html and 'data-chart="points-per-game"' in html
    figure = re.search(r'data-figure="points_per_game">([^<]+)<', html)
    assert figure and float(figure.group(1)) == pytest.approx(want["points_per_game"], abs=0.051)
    share = re.search(r'data-figure="declared_share">(\d+)%<', html)
    assert share and int(share.group(1)) == round(100 * want["declared_share"])
    for label, counts in want["bids"].items():
        row = re.search(rf'<tr data-bucket="{label}">(.*?)</tr>', html)
        assert row, label
        numbers = [int(n) for n in re.findall(r'class="num">(\d+)<', row.group(1))]
        assert numbers == [sum(counts.values()), counts.get("made", 0), counts.get("set", 0),
                           counts.get("board_set", 0), counts.get("surrendered", 0)]
    for partner_id in want["partners"]:
        assert reverse("player-profile", args=[partner_id]) in html
    night = world.public_events[0]
    assert reverse("event-player", args=[night.pk, night.entries.get(
        player=world.subject).pk]) in html
    assert "css/profiles.css" in html


def test_event_player_and_pair_pages_link_to_the_profile(client, world: World) -> None:
    night, swiss = world.public_events
    entry = night.entries.get(player=world.subject)
    html = client.get(reverse("event-player", args=[night.pk, entry.pk])).content.decode()
    assert reverse("player-profile", args=[world.subject.pk]) in html
    pair = swiss.entries.get(player=world.subject).pair
    html = client.get(reverse("event-pair", args=[swiss.pk, pair.pk])).content.decode()
    assert reverse("player-profile", args=[world.subject.pk]) in html


def test_game_states_the_profile_relies_on(world: World) -> None:
    """The world has finished games and one being played (its hands count, its points not)."""
    statuses = Counter(Game.objects.filter(
        table__round__event__in=[*world.public_events, world.private_event]
    ).values_list("status", flat=True))
    assert statuses["playing"] == 1 and statuses["finished"] + statuses["confirmed"] == 7


# --- the rating -------------------------------------------------------------------------------

def test_rating_and_its_history_over_the_visible_events(client, world: World) -> None:
    assert api(client, world.subject).json()["rating"] is None  # nothing confirmed yet
    # The world's events were finished with their games unconfirmed; a finished event's results
    # are final, so the games are confirmed as before the finish, and the events finished again.
    finished = list(Event.objects.filter(status=Event.Status.FINISHED).values_list("pk", flat=True))
    Event.objects.filter(pk__in=finished).update(status=Event.Status.RUNNING)
    for game_id, game in world.ledger.games.items():
        if game.finished:
            game_confirm(game=Game.objects.get(pk=game_id), position="E")
    Event.objects.filter(pk__in=finished).update(status=Event.Status.FINISHED)
    ratings_rebuild()
    current = ratings_for(player_ids=[world.subject.pk])[world.subject.pk]

    def rated(event_ids: set[int]) -> list[int]:
        return [g.game_id for g, _ in seen_games(world, event_ids) if g.finished]

    public = {e.pk for e in world.public_events}
    data = api(client, world.subject).json()["rating"]
    # a rating is public: it counts only the games anyone may see (league.ratings)
    assert data["current"]["games"] == current["games"] == len(rated(public))
    assert data["current"]["ordinal"] == pytest.approx(current["ordinal"])
    assert sorted(step["game_id"] for step in data["history"]) == sorted(rated(public))
    assert [step["event_id"] for step in data["history"]] == sorted(
        step["event_id"] for step in data["history"])  # playing order: the March night first
    last = data["history"][-1]
    assert last["ordinal"] == pytest.approx(last["mu"] - 3 * last["sigma"])
    html = client.get(reverse("player-profile", args=[world.subject.pk])).content.decode()
    assert 'data-chart="rating"' in html and 'class="band"' in html
    assert f'{current["ordinal"]:.1f}' in html

    member = UserFactory(username="hill-rated")
    Membership.objects.create(club=world.members_club, user=member, role=Membership.Role.MEMBER)
    client.force_login(member)
    data = api(client, world.subject).json()["rating"]
    # a member of the private event's club sees the same: the private games are not rated
    assert sorted(step["game_id"] for step in data["history"]) == sorted(rated(public))

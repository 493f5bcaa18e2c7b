"""Events played to the end through the services, as the tables and the director would: every
table enters its deals (a misdeal now and then), some hands are deleted and entered again, some
corrected, a confirmed game is corrected by the director (which clears and logs the
confirmation), players withdraw, byes and alternates happen. Then the helpers to empty the
database and to compare what is stored."""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player
from conduct.services import appeal_record, penalty_record, penalty_withdraw
from draw.services import entry_withdraw, event_status_set, round_create, round_set_status
from scoring.models import Game, Hand
from scoring.services import (
    game_adjust,
    game_confirm,
    game_forfeit,
    hand_correct,
    hand_delete_last,
    hand_submit,
)
from standings.models import StandingsSnapshot
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.events.test_api_progressive import _random_hand
from tournaments.models import Bye, Entry, Event, Round, Seat
from tournaments.services import entries_create_many, event_create, pair_register, pair_withdraw

DAY = datetime.date(2026, 11, 20)
PROJECT_APPS = ("clubs", "tournaments", "scoring", "standings", "draw", "league", "archive",
                "profiles", "conduct", "authtoken", "auth")
Capture = Callable[..., Any]


def director_of(club: Club, username: str) -> Any:
    user = UserFactory(username=username)
    Membership.objects.create(club=club, user=user, role=Membership.Role.DIRECTOR)
    return user


def play_game(game: Game, rng: random.Random, *, director: Any, scorer: Any,
              tweak: bool = False) -> None:
    """Enter hands until the game is over. With ``tweak``: a misdeal first, the last hand
    deleted (with a reason) and entered again, then corrected."""
    number = 1
    while Game.objects.get(pk=game.pk).status == Game.Status.PLAYING:
        dealer = "NESW"[(number - 1) % 4]
        if tweak and number == 1:
            values: dict[str, Any] = {"outcome": "misdeal", "dealer": dealer}
        else:
            values = {**_random_hand(rng), "dealer": dealer}
        hand_submit(game=game, number=number, values=values, author=scorer)
        number += 1
    if not tweak:
        return
    last = number - 1
    hand_delete_last(game=game, number=last, expected_revision=1, author=director,
                     as_director=True, note="entered at the wrong table")
    hand_submit(game=game, number=last, values={**_random_hand(rng), "dealer": "NESW"[
        (last - 1) % 4]}, author=scorer)
    again = Hand.objects.get(game=game, number=last, deleted_at__isnull=True)
    hand_correct(hand=again, values={**_random_hand(rng), "dealer": "N"}, expected_revision=1,
                 author=director, as_director=True, note="meld miscounted")


def play_round(round_: Round, rng: random.Random, capture: Capture, *, director: Any,
               scorer: Any, tweak_tables: tuple[int, ...] = (1,)) -> None:
    """Every table of the round plays and confirms (the advance runs on commit)."""
    for table in round_.tables.order_by("number"):
        play_game(table.game, rng, director=director, scorer=scorer,
                  tweak=table.number in tweak_tables)
    with capture(execute=True):
        for table in round_.tables.order_by("number"):
            game_confirm(game=table.game, position="E")


def director_decides(round_: Round, capture: Capture, *, director: Any) -> None:
    """The director's decisions beyond the hands in a played round of two tables (or more):
    table 1's game given adjusted points, table 2's the round's average; a penalty in force
    against a player of table 1, one withdrawn, one overturned on appeal, an appeal upheld."""
    event = round_.event
    first, second = (round_.tables.get(number=n) for n in (1, 2))
    with capture(execute=True):
        game_adjust(game=first.game, kind="points", points={"NS": 150, "EW": 90},
                    reason="a fouled deck", actor=director)
        game_adjust(game=second.game, kind="average", reason="the table ran out of time",
                    actor=director)
    target = first.seats.get(position="N").entry
    other = second.seats.get(position="E").entry
    kept = penalty_record(event=event, round_number=round_.number, kind="slow_play",
                          reason="slow play after a warning", points=25, entry_id=target.pk,
                          table=1, actor=director)
    withdrawn = penalty_record(event=event, round_number=round_.number, kind="table_talk",
                               reason="table talk", points=10, entry_id=other.pk,
                               actor=director)
    penalty_withdraw(penalty=withdrawn, reason="a misunderstanding", actor=director)
    overturned = penalty_record(event=event, round_number=round_.number, kind="misconduct",
                                reason="a raised voice", points=40, entry_id=other.pk, table=2,
                                actor=director)
    appeal_record(event=event, contested="the slow play penalty", decision="upheld",
                  penalty_id=kept.pk, entry_id=target.pk, actor=director)
    appeal_record(event=event, contested="the misconduct penalty", decision="overturned",
                  note="the opponents agree it was not meant", penalty_id=overturned.pk,
                  actor=director)


def club_night(capture: Capture, *, players: int = 9, rounds: int = 3,
               deals: int = 2, decisions: bool = False) -> Event:
    """Nine players, three rounds of two deals: a bye each round, a withdrawal after round 1,
    a confirmed game of a closed round corrected by the director, finished with placements.
    (Smaller with fewer players, rounds or deals; round 1 needs two tables.) With
    ``decisions``: round 2 has adjusted results, penalties and appeals
    (:func:`director_decides`)."""
    rng = random.Random(2026_11_20)
    club = Club.objects.create(name="Riverside Pinochle", slug="riverside", time_zone="America/Chicago",
                               ruleset_overrides={}, is_public=True)
    director = director_of(club, "night-director")
    scorer = UserFactory(username="table-phone")
    event = event_create(club=club, name="Friday night", date=DAY, actor=director,
                         rounds_planned=rounds, deals_per_round=deals, bye_scoring="fixed",
                         bye_points=30)
    people = [PlayerFactory(club=club, name=f"Player {n}", email=f"p{n}@example.org"
                            if n % 2 else "") for n in range(1, players + 1)]
    entries_create_many(event=event, players=people, actor=director)
    for number in range(1, rounds + 1):
        round_ = round_create(event=event, actor=director)
        play_round(round_, rng, capture, director=director, scorer=scorer)
        if decisions and number == 2:
            director_decides(round_, capture, director=director)
        round_set_status(round_=round_, status=Round.Status.CLOSED, actor=director)
        if number == 1:
            seated = round_.tables.get(number=1).seats.get(position="W").entry
            entry_withdraw(entry=seated, actor=director)
            confirmed = round_.tables.get(number=2).game
            hand = Hand.objects.get(game=confirmed, number=deals, deleted_at__isnull=True)
            hand_correct(hand=hand, values={**_random_hand(rng), "dealer": "E"},
                         expected_revision=1, author=director, as_director=True,
                         note="the table read the score sheet wrong")
            game_confirm(game=confirmed, position="S")
    event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    return event


def progressive_day(capture: Capture) -> Event:
    """Ten players (two alternates), three qualifying games of one deal cut to the final
    table; a player withdraws after game 1 and an alternate takes the seat."""
    rng = random.Random(2026_11_22)
    club = Club.objects.create(name="Lakeside", slug="lakeside", time_zone="Europe/Berlin",
                               ruleset_preset="pagat_double_deck", is_public=False)
    director = director_of(club, "td")
    scorer = UserFactory(username="phones")
    prizes = {"currency": "$", "payouts": [{"place": 1, "amount": "100"},
                                           {"place": 2, "amount": "50.50"}],
              "side": [{"kind": "high_game", "amount": "10"}]}
    event = event_create(club=club, name="NPA day", date=DAY, actor=director,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, rounds_planned=3,
                         deals_per_round=1, prizes=prizes,
                         format_settings={"cut": 4, "final_rule": "single_game"})
    players = [PlayerFactory(club=club, name=f"Entrant {n:02d}", email=f"e{n}@example.org")
               for n in range(1, 11)]
    entries_create_many(event=event, players=players, actor=director)
    first = round_create(event=event, actor=director)
    assert Entry.objects.filter(event=event, alternate=True).count() == 2
    play_round(first, rng, capture, director=director, scorer=scorer)
    second = event.rounds.get(number=2)
    leaver = second.tables.get(number=1).seats.get(position="S").entry
    entry_withdraw(entry=leaver, actor=director)
    for number in (2, 3, 4):
        play_round(event.rounds.get(number=number), rng, capture, director=director,
                   scorer=scorer)
    assert event.rounds.get(number=4).stage == Round.Stage.FINAL
    event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    return event


def pair_event(capture: Capture, fmt: str, pairs: int, *, withdraw: bool = False,
               forfeit: int = 0, **settings: Any) -> Event:
    """A pair event (seeded pairs, the first one named) seated round by round, wave by wave, by
    the advance until it is over; with ``withdraw`` the last pair withdraws before the start;
    with ``forfeit`` the N-S pair of table 1 of that round forfeits after a hand and withdraws
    (a bracket then gives its later opponents walkovers)."""
    rng = random.Random(pairs)
    club = Club.objects.create(name="Partners Club", slug="partners", time_zone="UTC")
    director = director_of(club, "pairs-director")
    scorer = UserFactory(username="pair-phones")
    event = event_create(club=club, name=f"Pairs {fmt}", date=DAY, actor=director, format=fmt,
                         deals_per_round=2, **settings)
    made = []
    for n in range(pairs):
        a, b = (PlayerFactory(club=club, name=f"Partner {n:02d}{x}") for x in "ab")
        made.append(pair_register(event=event, players=[a, b], actor=director,
                                  name="The Aces" if n == 0 else "", seed=n + 1))
    if withdraw:
        pair_withdraw(pair=made[-1], actor=director)
    current = round_create(event=event, actor=director)
    while True:
        if current.number == forfeit:
            game = current.tables.get(number=1).game
            hand_submit(game=game, number=1, values={**_random_hand(rng), "dealer": "N"},
                        author=scorer)
            with capture(execute=True):
                game_forfeit(game=game, side="NS", reason="Taken ill", actor=director,
                             withdraw=True)
        play_round(current, rng, capture, director=director, scorer=scorer,
                   tweak_tables=(1,) if current.number % 2 and current.number != forfeit
                   else (2,))
        following = event.rounds.filter(number=current.number + 1).first()
        if following is None:
            break
        current = following
    event_status_set(event=event, status=Event.Status.FINISHED, actor=director)
    return event


# --- the database ------------------------------------------------------------------------------
def _models() -> list[Any]:
    return [m for m in apps.get_models() if m._meta.app_label in PROJECT_APPS]


def row_counts() -> dict[str, int]:
    """Rows per model of the project's apps (and users, tokens)."""
    return {m._meta.label: m._default_manager.count() for m in _models()}


def empty_database() -> None:
    """Delete every event, club, player and user: the state of a database that never saw them.
    Fails if any row of the project's apps is left."""
    Seat.objects.all().delete()  # seats and byes protect their entries
    Bye.objects.all().delete()
    Event.objects.all().delete()
    Club.objects.all().delete()
    Player.objects.all().delete()
    get_user_model().objects.all().delete()
    left = {label: n for label, n in row_counts().items()
            if n and label not in ("auth.Permission", "auth.Group")}
    assert left == {}, left


def standings_by_name(event: Event) -> list[tuple[Any, ...]]:
    """The stored standings snapshot and places, by player (or pair) name, not by id."""
    snapshot = StandingsSnapshot.objects.get(event=event)
    rows = [(r["rank"], r["name"], r["points"], r.get("penalty_points"), r.get("wins"),
             r.get("byes"),
             r.get("highest_game"), tuple(sorted(r["per_round"].items())))
            for r in snapshot.rows]
    places = [(p["place"], p["name"], p.get("stage"), p.get("prize"))
              for p in snapshot.placements]
    return [tuple(rows), tuple(places), tuple(x["name"] for x in snapshot.tie_breaks)]

"""Ratings are public numbers, so they count only what the public may see: games of public
events of public clubs. A player who played only in hidden events is on no ratings list and has
no rating; a hidden game moves nobody's rating; an event whose visibility changes is rated again;
an event imported into a second club counts once."""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from archive.selectors import event_archive
from clubs.models import Membership
from league.models import PlayerRating, RatingChange
from league.ratings import ratings_rebuild
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.league.builders import club_night, play, seat

pytestmark = pytest.mark.django_db

D = datetime.date


def _clients() -> dict[str, Any]:
    """The anonymous caller and a director of another club, as page and API clients."""
    _other, other_director = club_with_director(slug="elsewhere")
    page, api = Client(), APIClient()
    page.force_login(other_director)
    api.force_authenticate(other_director)
    return {"anonymous": (Client(), APIClient()), "other director": (page, api)}


def _seen(page: Client, api: APIClient, slug: str, player: Any) -> list[bool]:
    """Where ``player`` shows: the ratings page, the ratings API, a rating of their own."""
    html = page.get(f"/clubs/{slug}/ratings/")
    listed = api.get(f"/api/clubs/{slug}/ratings/")
    own = api.get(f"/api/players/{player.pk}/ratings/")
    assert html.status_code == listed.status_code == 200
    assert own.status_code in (200, 404)
    return [player.name in html.content.decode(),
            player.pk in [r["player_id"] for r in listed.json()],
            own.status_code == 200 and (own.json()["rating"] is not None
                                        or bool(own.json()["history"]))]


def test_a_player_of_hidden_events_only_is_on_no_public_ratings_list(
        django_capture_on_commit_callbacks: Any) -> None:
    club, _ = club_with_director(slug="open")
    private, _ = club_with_director(slug="closed", is_public=False)
    public_four = [PlayerFactory(club=club) for _ in range(4)]
    hidden_four = [PlayerFactory(club=club, name=f"Hidden Player {n}") for n in range(4)]
    for player in hidden_four:
        private.roster.create(player=player)
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club, date=D(2026, 3, 5)), public_four), ns_wins=True)
        play(seat(club_night(club, date=D(2026, 3, 6), is_public=False), hidden_four),
             ns_wins=True)
        play(seat(club_night(private, date=D(2026, 3, 7)), hidden_four), ns_wins=False)
    for who, (page, api) in _clients().items():
        assert _seen(page, api, club.slug, public_four[0]) == [True, True, True], who
        assert _seen(page, api, club.slug, hidden_four[0]) == [False, False, False], who
    assert not PlayerRating.objects.filter(player__in=hidden_four).exists()
    assert ratings_rebuild() == 1


def test_a_player_seen_only_in_private_events_is_not_named_to_outsiders(
        django_capture_on_commit_callbacks: Any) -> None:
    club, _ = club_with_director(slug="open")
    private, private_director = club_with_director(slug="closed", is_public=False)
    public_four = [PlayerFactory(club=club) for _ in range(4)]
    hidden_four = [PlayerFactory(club=club, name=f"Hidden Player {n}") for n in range(4)]
    never_played = PlayerFactory(club=club, name="Roster Only")
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club, date=D(2026, 3, 5)), public_four), ns_wins=True)
        # on the public club's roster, but seen only in the private club's night
        play(seat(club_night(private, date=D(2026, 3, 7)), hidden_four), ns_wins=False)
    insider = APIClient()
    insider.force_authenticate(private_director)
    for who, (_page, api) in _clients().items():
        assert api.get(f"/api/players/{hidden_four[0].pk}/ratings/").status_code == 404, who
        assert api.get(f"/api/players/{public_four[0].pk}/ratings/").status_code == 200, who
        named = api.get(f"/api/players/{never_played.pk}/ratings/")
        assert named.status_code == 200 and named.json()["name"] == "Roster Only", who
    seen = insider.get(f"/api/players/{hidden_four[0].pk}/ratings/")
    assert seen.status_code == 200 and seen.json()["name"] == "Hidden Player 0"
    assert seen.json()["rating"] is None


def test_a_hidden_game_moves_no_public_rating(django_capture_on_commit_callbacks: Any) -> None:
    club, _ = club_with_director(slug="open")
    four = [PlayerFactory(club=club) for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club, date=D(2026, 3, 5)), four), ns_wins=True)
    shown = APIClient().get(f"/api/players/{four[0].pk}/ratings/").json()
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(club, date=D(2026, 3, 6), is_public=False), four), ns_wins=False)
    assert APIClient().get(f"/api/players/{four[0].pk}/ratings/").json() == shown
    assert shown["rating"]["games"] == 1


def test_an_event_made_hidden_or_public_is_rated_again(
        django_capture_on_commit_callbacks: Any) -> None:
    club, director = club_with_director(slug="open")
    four = [PlayerFactory(club=club) for _ in range(4)]
    with django_capture_on_commit_callbacks(execute=True):
        first = club_night(club, date=D(2026, 3, 5))
        play(seat(first, four), ns_wins=True)
        play(seat(club_night(club, date=D(2026, 3, 6)), four), ns_wins=False)
    api = APIClient()
    api.force_authenticate(director)
    assert PlayerRating.objects.get(player=four[0]).games == 2
    with django_capture_on_commit_callbacks(execute=True):
        assert api.patch(f"/api/events/{first.pk}/", {"is_public": False},
                         format="json").status_code == 200
    assert PlayerRating.objects.get(player=four[0]).games == 1
    assert not RatingChange.objects.filter(event=first).exists()
    hidden = sorted(RatingChange.objects.values_list("player_id", "game_id", "mu_after"))
    with django_capture_on_commit_callbacks(execute=True):
        assert api.patch(f"/api/events/{first.pk}/", {"is_public": True},
                         format="json").status_code == 200
    assert PlayerRating.objects.get(player=four[0]).games == 2
    again = sorted(RatingChange.objects.values_list("player_id", "game_id", "mu_after"))
    ratings_rebuild()
    assert again == sorted(RatingChange.objects.values_list("player_id", "game_id", "mu_after"))
    assert hidden != again


def test_an_event_imported_into_a_second_club_counts_once(
        django_capture_on_commit_callbacks: Any) -> None:
    club, _ = club_with_director(slug="open")
    second, second_director = club_with_director(slug="second")
    four = [PlayerFactory(club=club, name=f"Player {n}") for n in range(4)]
    for player in four:  # the same people are on the second club's roster: the copy names them
        second.roster.create(player=player)
    with django_capture_on_commit_callbacks(execute=True):
        event = club_night(club, date=D(2026, 3, 5))
        play(seat(event, four), ns_wins=True)
    event.status = "finished"
    event.save(update_fields=["status"])
    before = sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games"))
    archive = event_archive(event=event)
    api = APIClient()
    api.force_authenticate(second_director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/clubs/{second.slug}/events/import/", archive, format="json")
    assert answer.status_code == 201, answer.content
    # the copy's games are the same games of the same players: rated once, not twice
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games")) == before
    assert not RatingChange.objects.filter(event_id=answer.json()["id"]).exists()
    ratings_rebuild()
    assert sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "games")) == before
    # a third club: the first import of an archive from elsewhere counts, the next does not
    third, third_director = club_with_director(slug="third")
    Membership.objects.create(club=third, user=UserFactory(username="x"), role="member")
    other = copy.deepcopy(archive)
    other["event"]["created_at"] = "2026-03-05T18:00:00.000000Z"
    api.force_authenticate(third_director)
    with django_capture_on_commit_callbacks(execute=True):
        first_copy = api.post(f"/api/clubs/{third.slug}/events/import/", other, format="json")
    api.force_authenticate(second_director)
    with django_capture_on_commit_callbacks(execute=True):
        second_copy = api.post(f"/api/clubs/{second.slug}/events/import/", other, format="json")
    assert first_copy.status_code == second_copy.status_code == 201
    assert RatingChange.objects.filter(event_id=first_copy.json()["id"]).count() == 4
    assert not RatingChange.objects.filter(event_id=second_copy.json()["id"]).exists()


def test_a_game_of_another_club_moves_nothing_in_a_private_clubs_ratings(
        django_capture_on_commit_callbacks: Any) -> None:
    """The week's finding: a player of a private club put on another club's roster and
    seated in one game there was first in the private club's own ratings."""
    private, private_director = club_with_director(slug="closed", is_public=False)
    victim = PlayerFactory(club=private, name="Vera Secret")
    elsewhere, _ = club_with_director(slug="elsewhere-open")
    elsewhere.roster.create(player=victim)
    others = [PlayerFactory(club=elsewhere) for _ in range(3)]
    with django_capture_on_commit_callbacks(execute=True):
        play(seat(club_night(elsewhere, date=D(2026, 3, 5)), [victim, *others]), ns_wins=True)
    page, api = Client(), APIClient()
    page.force_login(private_director)
    api.force_authenticate(private_director)
    assert api.get("/api/clubs/closed/ratings/").json() == []
    html = page.get("/clubs/closed/ratings/").content.decode()
    assert "Vera Secret" not in html and "a private club's games are not rated" in html
    # the public club's list, whose game it was, shows it
    assert victim.pk in [r["player_id"] for r in APIClient().get(
        "/api/clubs/elsewhere-open/ratings/").json()]

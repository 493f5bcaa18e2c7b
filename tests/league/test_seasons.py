"""Seasons: the services' refusals name their field (services, pages and API alike), who may
manage seasons and who may read them, the club page's season and its selector."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from clubs.models import Club, Membership
from common.errors import DomainError
from league.models import Season
from league.selectors import club_today, current_season
from league.services import season_create, season_delete, season_update
from tests.clubs.factories import UserFactory, club_with_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

D = datetime.date


YEAR_START, YEAR_END = D(2026, 1, 1), D(2026, 12, 31)


def _season(club: Any, name: str = "2026", starts: D = YEAR_START, ends: D = YEAR_END,
            **kwargs: Any) -> Season:
    return season_create(club=club, name=name, starts_on=starts, ends_on=ends, **kwargs)


def _field(call: Any) -> str:
    with pytest.raises(DomainError) as caught:
        call()
    return caught.value.field


# --- validation -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("changes", "field"), [
    ({"ends_on": D(2025, 12, 31)}, "ends_on"),                      # ends before it starts
    ({"ends_on": D(2028, 6, 1)}, "ends_on"),                        # longer than two years
    ({"name": "  "}, "name"),
    ({"name": "x" * 81}, "name"),
    ({"starts_on": "1 March"}, "starts_on"),
    ({"ends_on": None}, "ends_on"),
    ({"counting": "median"}, "counting"),
    ({"counting": "best_n"}, "best_n"),                             # N missing
    ({"counting": "best_n", "best_n": 0}, "best_n"),                # N out of range
    ({"counting": "best_n", "best_n": 101}, "best_n"),
    ({"counting": "best_n", "best_n": 2.5}, "best_n"),
    ({"min_nights": -1}, "min_nights"),
    ({"min_nights": 1000}, "min_nights"),
    ({"min_nights": "some"}, "min_nights"),
    ({"events": "tournaments"}, "events"),
])
def test_bad_input_is_refused_naming_the_field(changes: dict[str, Any], field: str) -> None:
    club, _ = club_with_director()
    values = {"name": "2026", "starts_on": D(2026, 1, 1), "ends_on": D(2026, 12, 31)} | changes
    assert _field(lambda: season_create(club=club, **values)) == field
    assert not Season.objects.exists()


def test_seasons_of_a_club_do_not_overlap_but_other_clubs_do_not_matter() -> None:
    club, _ = club_with_director()
    other, _ = club_with_director(slug="other")
    first = _season(club, "2026")
    # a start inside the other season names starts_on; a season that swallows it, ends_on
    assert _field(lambda: _season(club, "Late", D(2026, 12, 1), D(2027, 3, 1))) == "starts_on"
    assert _field(lambda: _season(club, "Wide", D(2025, 6, 1), D(2027, 1, 1))) == "ends_on"
    assert _field(lambda: _season(club, "2026", D(2027, 1, 1), D(2027, 12, 31))) == "name"
    _season(other, "2026")  # another club's season may share the dates and the name
    second = _season(club, "2027", D(2027, 1, 1), D(2027, 12, 31))  # the next day: fine
    # moving a season onto another is refused and changes nothing
    assert _field(lambda: season_update(season=second, starts_on=D(2026, 12, 31))) == "starts_on"
    second.refresh_from_db()
    assert second.starts_on == D(2027, 1, 1)
    # a season may be changed without tripping over itself
    changed = season_update(season=first, name="Year 2026", counting="best_n", best_n=10)
    assert (changed.name, changed.counting, changed.best_n) == ("Year 2026", "best_n", 10)
    # best_n goes with best_n counting only
    assert season_update(season=first, counting="total").best_n is None
    assert _field(lambda: season_update(season=first, colour="red")) == "colour"


def test_deleting_a_season_keeps_the_events() -> None:
    club, _ = club_with_director()
    season = _season(club)
    event = EventFactory(club=club, date=D(2026, 3, 1), status="finished")
    season_delete(season=season)
    assert not Season.objects.exists()
    assert type(event).objects.filter(pk=event.pk).exists()


# --- the current season ---------------------------------------------------------------------------
def test_the_current_season_contains_today_else_the_latest_past_one() -> None:
    club, _ = club_with_director()
    assert current_season(club=club, today=D(2026, 5, 1)) is None
    autumn = _season(club, "Autumn", D(2025, 9, 1), D(2025, 12, 20))
    spring = _season(club, "Spring", D(2026, 2, 1), D(2026, 6, 30))
    nxt = _season(club, "Next", D(2027, 1, 1), D(2027, 6, 30))
    assert current_season(club=club, today=D(2026, 5, 1)) == spring
    assert current_season(club=club, today=D(2026, 1, 15)) == autumn  # between two seasons
    assert current_season(club=club, today=D(2026, 8, 1)) == spring
    assert current_season(club=club, today=D(2027, 1, 1)) == nxt
    assert current_season(club=club, today=D(2025, 1, 1)) == autumn  # before all: the next


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"])
def test_today_is_the_club_s_own_date(zone: str) -> None:
    import zoneinfo

    from django.utils import timezone

    club, _ = club_with_director()
    club.time_zone = zone
    club.save()
    expected = timezone.now().astimezone(zoneinfo.ZoneInfo(zone)).date()
    assert club_today(club) == expected
    season = _season(club, "Today", expected, expected)
    _season(club, "Tomorrow", expected + datetime.timedelta(days=1),
            expected + datetime.timedelta(days=1))
    assert current_season(club=club) == season


# --- the club page ---------------------------------------------------------------------------------
def test_the_club_page_offers_only_the_club_s_seasons(client) -> None:
    club, _ = club_with_director()
    other, _ = club_with_director(slug="other")
    today = club_today(club)
    past = _season(club, "Last year", today.replace(year=today.year - 1, month=1, day=1),
                   today.replace(year=today.year - 1, month=12, day=31))
    now = _season(club, "This year", today.replace(month=1, day=1),
                  today.replace(month=12, day=31))
    foreign = _season(other, "Theirs", D(2020, 1, 1), D(2020, 12, 31))
    page = client.get(reverse("club-detail", args=[club.slug]))
    assert page.status_code == 200 and page.context["season"] == now
    assert page.context["season_choices"] == [(str(now.pk), now.name), (str(past.pk), past.name)]
    chosen = client.get(reverse("club-detail", args=[club.slug]), {"season": past.pk})
    assert chosen.context["season"] == past
    # another club's season, or anything else, shows the current one
    for asked in (foreign.pk, "2019", "abc", "9" * 400):
        assert client.get(reverse("club-detail", args=[club.slug]),
                          {"season": asked}).context["season"] == now


def test_without_seasons_the_club_page_offers_the_years_that_have_events(client) -> None:
    club, _ = club_with_director()
    EventFactory(club=club, date=D(2019, 5, 1), status="finished")
    EventFactory(club=club, date=D(2022, 5, 1), status="finished")
    EventFactory(club=club, date=D(2023, 5, 1), status="running")  # not finished: no year
    EventFactory(club=club, date=D(2024, 5, 1), status="finished", is_public=False)  # hidden
    page = client.get(reverse("club-detail", args=[club.slug]))
    assert page.context["season"].name == "2022"
    assert page.context["season_choices"] == [("2022", "2022"), ("2019", "2019")]
    assert client.get(reverse("club-detail", args=[club.slug]),
                      {"season": "2019"}).context["season"].name == "2019"
    # a year without events is not offered, and asking for it shows the latest
    assert client.get(reverse("club-detail", args=[club.slug]),
                      {"season": "2020"}).context["season"].name == "2022"
    assert b"?season=2023" not in page.content and b"?season=2021" not in page.content


# --- permissions: pages -----------------------------------------------------------------------------
FORM = {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-06-30",
        "counting": "best_n", "best_n": "8", "min_nights": "3", "events": "club_nights"}


def test_a_director_manages_seasons_through_the_pages(client) -> None:
    club, director = club_with_director()
    client.force_login(director)
    assert client.get(reverse("season-create", args=[club.slug])).status_code == 200
    created = client.post(reverse("season-create", args=[club.slug]), FORM)
    season = Season.objects.get()
    assert created.status_code == 302
    assert created["Location"] == reverse("season-detail", args=[club.slug, season.pk])
    assert (season.counting, season.best_n, season.min_nights) == ("best_n", 8, 3)
    bad = client.post(reverse("season-edit", args=[club.slug, season.pk]),
                      FORM | {"ends_on": "2026-02-01"})
    assert bad.status_code == 400 and "ends_on" in bad.context["form"].errors
    edited = client.post(reverse("season-edit", args=[club.slug, season.pk]),
                         FORM | {"name": "Spring 2026"})
    assert edited.status_code == 302
    season.refresh_from_db()
    assert season.name == "Spring 2026"
    listing = client.get(reverse("season-list", args=[club.slug]))
    assert b"Spring 2026" in listing.content and b"New season" in listing.content
    assert client.post(reverse("season-delete", args=[club.slug, season.pk])).status_code == 302
    assert not Season.objects.exists()


def test_only_the_club_s_directors_manage_its_seasons(client) -> None:
    club, _ = club_with_director()
    _other, other_director = club_with_director(slug="other")
    scorer = UserFactory(username="scorer")
    Membership.objects.create(club=club, user=scorer, role=Membership.Role.SCORER)
    season = _season(club)
    urls = [reverse("season-create", args=[club.slug]),
            reverse("season-edit", args=[club.slug, season.pk])]
    for url in urls:  # anonymous: to the login page
        assert client.get(url).status_code == 302
        assert client.post(url, FORM).status_code == 302
    for user in (scorer, other_director):
        client.force_login(user)
        for url in urls:
            assert client.post(url, FORM).status_code == 403
        assert client.post(reverse("season-delete", args=[club.slug, season.pk])).status_code == 403
    assert Season.objects.get() == season and season.name == "2026"
    # anyone may read a public club's seasons
    client.logout()
    assert client.get(reverse("season-list", args=[club.slug])).status_code == 200
    assert client.get(reverse("season-detail", args=[club.slug, season.pk])).status_code == 200


def test_a_season_is_found_only_under_its_own_club(client) -> None:
    club, director = club_with_director()
    other, _ = club_with_director(slug="other")
    theirs = _season(other)
    client.force_login(director)
    for name in ("season-detail", "season-edit"):
        assert client.get(reverse(name, args=[club.slug, theirs.pk])).status_code == 404
    assert client.post(reverse("season-delete", args=[club.slug, theirs.pk])).status_code == 404
    assert Season.objects.filter(pk=theirs.pk).exists()


def test_a_private_club_s_season_pages_are_404_for_outsiders(client) -> None:
    club, director = club_with_director(slug="private", is_public=False)
    _other, other_director = club_with_director(slug="other")
    season = _season(club)
    urls = [reverse("season-list", args=[club.slug]),
            reverse("season-detail", args=[club.slug, season.pk]),
            reverse("club-ratings", args=[club.slug])]
    for url in urls:
        assert client.get(url).status_code == 404
    client.force_login(other_director)
    for url in urls + [reverse("season-create", args=[club.slug]),
                       reverse("season-edit", args=[club.slug, season.pk])]:
        assert client.get(url).status_code == 404
    assert client.post(reverse("season-delete", args=[club.slug, season.pk])).status_code == 404
    client.force_login(director)
    for url in urls:
        assert client.get(url).status_code == 200


# --- permissions and errors: API ------------------------------------------------------------------
BODY = {"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-06-30",
        "counting": "average", "min_nights": 2}


def _api(user: Any = None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


def test_the_api_creates_changes_lists_and_deletes_seasons() -> None:
    club, director = club_with_director()
    api = _api(director)
    created = api.post(f"/api/clubs/{club.slug}/seasons/", BODY, format="json")
    assert created.status_code == 201, created.json()
    body = created.json()
    assert body | {"id": 0} == BODY | {"id": 0, "best_n": None, "events": "club_nights"}
    pk = body["id"]
    changed = api.patch(f"/api/clubs/{club.slug}/seasons/{pk}/",
                        {"counting": "best_n", "best_n": 4}, format="json")
    assert changed.status_code == 200
    assert (changed.json()["counting"], changed.json()["best_n"], changed.json()["name"]) == (
        "best_n", 4, "Spring")
    listed = _api().get(f"/api/clubs/{club.slug}/seasons/")
    assert [s["id"] for s in listed.json()] == [pk]
    board = _api().get(f"/api/clubs/{club.slug}/seasons/{pk}/leaderboard/")
    assert board.status_code == 200
    assert board.json() | {"season": None} == {"season": None, "events": 0, "ranked": [],
                                                "unqualified": []}
    assert api.delete(f"/api/clubs/{club.slug}/seasons/{pk}/").status_code == 204
    assert not Season.objects.exists()


@pytest.mark.parametrize(("body", "field"), [
    (BODY | {"ends_on": "2026-01-01"}, "ends_on"),
    (BODY | {"counting": "best_n"}, "best_n"),
    (BODY | {"counting": "best_n", "best_n": 0}, "best_n"),
    (BODY | {"starts_on": "March"}, "starts_on"),
    (BODY | {"min_nights": 101}, "min_nights"),
    (BODY | {"counting": "mode"}, "counting"),
    ({k: v for k, v in BODY.items() if k != "name"}, "name"),
])
def test_api_errors_name_the_field(body: dict[str, Any], field: str) -> None:
    club, director = club_with_director()
    response = _api(director).post(f"/api/clubs/{club.slug}/seasons/", body, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]
    assert not Season.objects.exists()


def test_api_overlap_is_refused_naming_the_field() -> None:
    club, director = club_with_director()
    _season(club, "Spring", D(2026, 3, 1), D(2026, 6, 30))
    response = _api(director).post(f"/api/clubs/{club.slug}/seasons/",
                                   BODY | {"name": "Other", "starts_on": "2026-06-30",
                                           "ends_on": "2026-09-30"}, format="json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "starts_on"


def test_api_permissions() -> None:
    club, _ = club_with_director()
    private, private_director = club_with_director(slug="private", is_public=False)
    _other, other_director = club_with_director(slug="other")
    member = UserFactory(username="member")
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    season = _season(club)
    hidden = _season(private)
    path = f"/api/clubs/{club.slug}/seasons/"
    assert _api().post(path, BODY, format="json").status_code == 401  # no credential
    assert _api(member).post(path, BODY, format="json").status_code == 403
    assert _api(other_director).post(path, BODY, format="json").status_code == 403
    assert _api(other_director).patch(f"{path}{season.pk}/", {"name": "X"},
                                      format="json").status_code == 403
    assert _api(other_director).delete(f"{path}{season.pk}/").status_code == 403
    # a private club: 404 for outsiders, whatever they ask
    private_path = f"/api/clubs/{private.slug}/seasons/"
    for api in (_api(), _api(other_director)):
        assert api.get(private_path).status_code == 404
        assert api.get(f"{private_path}{hidden.pk}/").status_code == 404
        assert api.get(f"{private_path}{hidden.pk}/leaderboard/").status_code == 404
        assert api.get(f"/api/clubs/{private.slug}/ratings/").status_code == 404
    assert _api(other_director).post(private_path, BODY, format="json").status_code == 404
    assert _api(other_director).delete(f"{private_path}{hidden.pk}/").status_code == 404
    # another club's season id under this club's path
    assert _api(private_director).delete(f"{private_path}{season.pk}/").status_code == 404
    assert _api(private_director).get(f"{private_path}{hidden.pk}/leaderboard/").status_code == 200
    assert Season.objects.count() == 2
    assert Season.objects.get(pk=season.pk).name == "2026"


def test_leaderboard_and_ratings_names_link_to_the_players_profiles(
        client, django_capture_on_commit_callbacks) -> None:
    from demo.services import load_demo

    with django_capture_on_commit_callbacks(execute=True):
        load_demo()
    club = Club.objects.get(slug="riverside")
    for url in (reverse("club-detail", args=[club.slug]), reverse("club-ratings", args=[club.slug])):
        html = client.get(url).content.decode()
        linked = set(re.findall(r'href="/players/(\d+)/"', html))
        assert linked and all(client.get(f"/players/{pk}/").status_code == 200 for pk in linked)

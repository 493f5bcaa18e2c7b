"""Who may create, change and read a series (API and pages), refusals naming the field, private
events kept out of what others see, and the series pages: the club's list, the series page, the
wall and its poll, the CSV, the directors' form."""

from __future__ import annotations

import csv
import datetime
import io
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from clubs.models import Membership
from draw.services import event_status_set
from series.models import Series
from series.services import series_create
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.series.builders import one_table_night

pytestmark = pytest.mark.django_db

D = datetime.date


def _api(user: Any = None) -> APIClient:
    api = APIClient()
    if user is not None:
        api.force_authenticate(user)
    return api


@pytest.fixture
def week() -> dict[str, Any]:
    club, director = club_with_director(slug="harbour")
    other, other_director = club_with_director(slug="lakeside")
    people = [PlayerFactory(club=club, name=n) for n in ("Ann", "Bob", "Cy", "Di")]
    nights = [one_table_night(club, people, ns_wins=n == 0, date=D(2026, 6, 1 + n))
              for n in range(2)]
    theirs = one_table_night(other, people, date=D(2026, 6, 3))
    return {"club": club, "director": director, "other": other,
            "other_director": other_director, "nights": nights, "theirs": theirs,
            "people": people}


def _body(week: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {"name": "Harbour week", "club": "harbour",
            "events": [e.pk for e in week["nights"]], "points": [10, 6, 4]} | changes


def _errors(response: Any) -> list[str]:
    assert response.status_code == 400, (response.status_code, response.content[:400])
    return [e["field"] for e in response.json()["errors"]]


def test_only_a_director_of_the_club_creates_a_series(week: dict[str, Any]) -> None:
    assert _api().post("/api/series/", _body(week), format="json").status_code == 401
    member = UserFactory()
    Membership.objects.create(club=week["club"], user=member, role=Membership.Role.MEMBER)
    assert _api(member).post("/api/series/", _body(week), format="json").status_code == 403
    # a director of another club may not create a series of this one
    assert _api(week["other_director"]).post("/api/series/", _body(week),
                                             format="json").status_code == 403
    assert not Series.objects.exists()
    created = _api(week["director"]).post("/api/series/", _body(week), format="json")
    assert created.status_code == 201, created.content
    series = Series.objects.get()
    assert (series.club, series.points) == (week["club"], [10, 6, 4])
    # ... nor change it
    patch = _api(week["other_director"]).patch(f"/api/series/{series.pk}/", {"best_of": 1},
                                               format="json")
    assert patch.status_code == 403
    assert _api(week["director"]).patch(f"/api/series/{series.pk}/", {"best_of": 1},
                                        format="json").json()["best_of"] == 1


def test_events_of_another_club_are_refused_unless_it_is_a_partner(
        week: dict[str, Any]) -> None:
    api = _api(week["director"])
    events = [*(e.pk for e in week["nights"]), week["theirs"].pk]
    assert _errors(api.post("/api/series/", _body(week, events=events), format="json")) == [
        "events.2"]
    # with Lakeside as a partner club, its event may be in the series ...
    created = api.post("/api/series/", _body(week, events=events, partner_clubs=["lakeside"]),
                       format="json")
    assert created.status_code == 201, created.content
    series_id = created.json()["id"]
    # ... and Lakeside's directors manage it too, but only Harbour's change the partners
    theirs = _api(week["other_director"])
    assert theirs.patch(f"/api/series/{series_id}/", {"min_events": 2},
                        format="json").status_code == 200
    assert theirs.patch(f"/api/series/{series_id}/", {"partner_clubs": []},
                        format="json").status_code == 403
    board = _api().get(f"/api/series/{series_id}/standings/").json()
    assert [e["id"] for e in board["events"]] == events
    assert {ln["player"]["name"]: ln["played"] for ln in board["lines"]} == {
        "Ann": 3, "Bob": 3, "Cy": 3, "Di": 3}


@pytest.mark.parametrize(("changes", "field"), [
    ({"name": "  "}, "name"),
    ({"name": "x" * 121}, "name"),
    ({"points": []}, "points"),
    ({"points": "many"}, "points.0"),
    ({"points": [10, 6, 8]}, "points.2"),
    ({"points": [10, -1]}, "points.1"),
    ({"points": [10, 6.5]}, "points.1"),
    ({"points_rule": "average"}, "points_rule"),
    ({"points_rule": "field", "points": [100, 50]}, "points"),
    ({"best_of": 0}, "best_of"),
    ({"best_of": "two"}, "best_of"),
    ({"min_events": 1000}, "min_events"),
    ({"events": "all"}, "events.0"),
    ({"events": [None]}, "events.0"),
    ({"events": [999999]}, "events.0"),
    ({"partner_clubs": ["nowhere"]}, "partner_clubs.0"),
    ({"partner_clubs": ["harbour"]}, "partner_clubs.0"),
    ({"prizes": {"payouts": [{"place": 1, "amount": "ten"}]}}, "prizes.payouts[0].amount"),
    ({"prizes": {"side": [{"kind": "low_game", "amount": "5"}]}}, "prizes.side[0].kind"),
    ({"prizes": {"side": [{"kind": "high_game", "amount": "-5"}]}}, "prizes.side[0].amount"),
    ({"colour": "red"}, "colour"),
])
def test_bad_input_is_refused_naming_the_field(week: dict[str, Any], changes: dict[str, Any],
                                               field: str) -> None:
    response = _api(week["director"]).post("/api/series/", _body(week, **changes),
                                           format="json")
    assert _errors(response) == [field]
    assert not Series.objects.exists()


def test_a_name_once_per_club_and_an_event_once(week: dict[str, Any]) -> None:
    api = _api(week["director"])
    night = week["nights"][0].pk
    assert _errors(api.post("/api/series/", _body(week, events=[night, night]),
                            format="json")) == ["events.1"]
    assert api.post("/api/series/", _body(week), format="json").status_code == 201
    assert _errors(api.post("/api/series/", _body(week), format="json")) == ["name"]
    series_id = Series.objects.get().pk
    assert _errors(api.patch(f"/api/series/{series_id}/", {"points": [5, 9]},
                             format="json")) == ["points.1"]
    assert _errors(api.patch(f"/api/series/{series_id}/", {"club": "lakeside"},
                             format="json")) == ["club"]


def test_a_private_event_never_shows_through_a_public_series(week: dict[str, Any]) -> None:
    club = week["club"]
    private = one_table_night(club, week["people"], ns_wins=False, date=D(2026, 6, 4),
                              is_public=False)
    series = series_create(club=club, name="Week", events=[*week["nights"], private],
                           points=[10, 6, 4], actor=week["director"])
    anonymous = _api().get(f"/api/series/{series.pk}/standings/").json()
    assert private.pk not in [e["id"] for e in anonymous["events"]]
    assert anonymous["hidden"] == 1
    assert {ln["played"] for ln in anonymous["lines"]} == {2}
    assert _api().get(f"/api/series/{series.pk}/").json()["events"] == [
        e.pk for e in week["nights"]]
    page = Client().get(f"/series/{series.pk}/").content.decode()
    assert f"/events/{private.pk}/" not in page
    assert "1 event of this series is not public" in page
    # the same line-up every night: Ann and Cy, Bob and Di partner again, on the public nights
    assert "Partnerships repeated: 2 of 4 (best achievable ≈0)" in page
    csv_text = Client().get(f"/series/{series.pk}/standings.csv").content.decode()
    assert len(next(csv.reader(io.StringIO(csv_text)))) == 6 + 2 * 2
    # the club's members see it, and it counts for them
    member = _api(week["director"]).get(f"/api/series/{series.pk}/standings/").json()
    assert member["hidden"] == 0 and {ln["played"] for ln in member["lines"]} == {3}
    browser = Client()
    browser.force_login(week["director"])
    members_page = browser.get(f"/series/{series.pk}/").content.decode()
    assert "Partnerships repeated: 4 of 6 (best achievable ≈0)" in members_page


def test_a_private_clubs_series_is_not_found_by_outsiders(week: dict[str, Any]) -> None:
    club, director = club_with_director(slug="hidden", is_public=False)
    series = series_create(club=club, name="Secret", points=[10], actor=director)
    for path in (f"/api/series/{series.pk}/", f"/api/series/{series.pk}/standings/"):
        assert _api().get(path).status_code == 404
        assert _api(week["director"]).get(path).status_code == 404
        assert _api(director).get(path).status_code == 200
    assert Client().get(f"/series/{series.pk}/").status_code == 404


def test_anyone_reads_a_public_series_pages(week: dict[str, Any]) -> None:
    first, second = week["nights"]
    series = series_create(club=week["club"], name="Harbour week", events=[first, second],
                           points=[10, 6, 4], best_of=1, actor=week["director"],
                           prizes={"payouts": [{"place": 1, "amount": "40"}],
                                   "side": [{"kind": "high_game", "amount": "10"}]})
    anonymous = Client()
    club_page = anonymous.get("/clubs/harbour/").content.decode()
    assert f'href="/series/{series.pk}/"' in club_page and "2 events" in club_page
    page = anonymous.get(f"/series/{series.pk}/").content.decode()
    assert 'id="series-standings"' in page
    assert f'href="/events/{first.pk}/standings/"' in page  # each event's results
    assert f"/events/{first.pk}/players/" in page  # each line's results in the event
    assert page.count('class="num cell dropped"') == 4  # best 1 of 2: one dropped each
    assert "High game" in page and "59 points" in page and "Change this series" not in page
    wall = anonymous.get(f"/series/{series.pk}/wall/").content.decode()
    assert "wall-screen" in wall and "series-row" in wall
    version = anonymous.get(f"/series/{series.pk}/wall/version/").json()["version"]
    assert anonymous.get(f"/series/{series.pk}/wall/fragment/").status_code == 200
    event_status_set(event=second, status="running", reason="a wrong hand")
    assert anonymous.get(f"/series/{series.pk}/wall/version/").json()["version"] != version
    rows = list(csv.reader(io.StringIO(
        anonymous.get(f"/series/{series.pk}/standings.csv").content.decode())))
    assert rows[0][:6] == ["rank", "player", "total", "events", "firsts", "prize"]
    assert {r[1]: r[2] for r in rows[1:]} == {"Ann": "10", "Cy": "10", "Bob": "4", "Di": "4"}
    assert {r[1]: r[5] for r in rows[1:]}["Ann"] == "20.00"  # 1st shared: 40 split


def test_a_director_creates_and_changes_a_series_through_the_form(
        week: dict[str, Any]) -> None:
    browser = Client()
    browser.force_login(week["director"])
    first, second = week["nights"]
    assert browser.get("/clubs/harbour/series/new/").status_code == 200
    bad = browser.post("/clubs/harbour/series/new/", {
        "name": "Week", "events": [first.pk], "points_rule": "table", "points": "10, 12"})
    assert bad.status_code == 400 and "cannot earn more than place 1" in bad.content.decode()
    made = browser.post("/clubs/harbour/series/new/", {
        "name": "Week", "events": [first.pk, second.pk], "points_rule": "table",
        "points": "10, 6, 4", "best_of": "1", "currency": "$", "payouts": "30, 10",
        "high_hand": "5"})
    series = Series.objects.get()
    assert made.status_code == 302 and made["Location"] == f"/series/{series.pk}/"
    assert (series.best_of, series.prizes["payouts"][1]["amount"],
            series.prizes["side"][0]["kind"]) == (1, "10.00", "high_hand")
    edit = browser.post(f"/series/{series.pk}/edit/", {
        "name": "Week", "events": [second.pk], "points_rule": "field", "points": "50"})
    assert edit.status_code == 302
    series.refresh_from_db()
    assert (series.points_rule, series.points, [e.pk for e in series.events.all()]) == (
        "field", [50], [second.pk])
    # another club's director: refused
    outsider = Client()
    outsider.force_login(week["other_director"])
    assert outsider.get(f"/series/{series.pk}/edit/").status_code == 403
    assert outsider.get("/clubs/harbour/series/new/").status_code == 403
    assert outsider.post(f"/series/{series.pk}/delete/").status_code == 403
    assert browser.post(f"/series/{series.pk}/delete/").status_code == 302
    assert not Series.objects.exists()


def test_only_the_owning_club_renames_or_deletes_a_series(week: dict[str, Any]) -> None:
    events = [*(e.pk for e in week["nights"]), week["theirs"].pk]
    series = series_create(club=week["club"], name="Harbour week", events=events,
                           points=[10, 6, 4], partner_clubs=["lakeside"],
                           actor=week["director"])
    url = f"/api/series/{series.pk}/"
    theirs = _api(week["other_director"])
    # a partner's director: the rest yes, a new name no (API), and no deleting
    assert theirs.patch(url, {"best_of": 2}, format="json").status_code == 200
    assert theirs.patch(url, {"name": "Lakeside week"}, format="json").status_code == 403
    assert theirs.patch(url, {"name": "Harbour week", "min_events": 1},
                        format="json").status_code == 200  # the same name is no rename
    assert theirs.delete(url).status_code == 403
    # an owner of the owning club (above a director) may
    owner = UserFactory()
    Membership.objects.create(club=week["club"], user=owner, role=Membership.Role.OWNER)
    # the pages: the form keeps the name fixed for the partner and hides the delete button
    partner = Client()
    partner.force_login(week["other_director"])
    form = partner.get(f"/series/{series.pk}/edit/").content.decode()
    assert "Only a director of" in form and "Delete this series" not in form
    posted = partner.post(f"/series/{series.pk}/edit/", {
        "name": "Lakeside week", "events": events, "points_rule": "table",
        "points": "10, 6, 4", "partner_clubs": "lakeside", "best_of": "1"})
    assert posted.status_code == 302
    series.refresh_from_db()
    assert (series.name, series.best_of) == ("Harbour week", 1)  # the name stayed
    assert partner.post(f"/series/{series.pk}/delete/").status_code == 403
    assert Series.objects.filter(pk=series.pk).exists()
    # the owning club's people rename it and delete it
    assert _api(owner).patch(url, {"name": "Harbour cup"}, format="json").json()["name"] == (
        "Harbour cup")
    mine = Client()
    mine.force_login(week["director"])
    assert "Delete this series" in mine.get(f"/series/{series.pk}/edit/").content.decode()
    assert _api(owner).delete(url).status_code == 204
    assert not Series.objects.filter(pk=series.pk).exists()

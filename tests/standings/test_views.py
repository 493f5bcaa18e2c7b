"""Standings pages, the poll endpoints and the API: content, permissions, live behaviour."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.core.cache import cache
from django.db.models import F
from django.urls import reverse

from clubs.models import Membership
from standings.services import standings_rebuild
from tests.clubs.factories import ClubFactory, UserFactory
from tests.scoring.factories import game_with_results
from tests.tournaments.factories import EntryFactory, EventFactory, bye_for
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def played_event(**kwargs: object) -> Event:
    event = EventFactory(name="Friday club night", **kwargs)
    e = [EntryFactory(event=event, player__name=f"Player {c}") for c in "ABCDEFGHI"]
    game_with_results(event=event, round_number=1, table_number=1, seats=e[0:4], ns=520, ew=300)
    game_with_results(event=event, round_number=1, table_number=2, seats=e[4:8], ns=410, ew=505)
    bye_for(event=event, round_number=1, entry=e[8])
    game_with_results(event=event, round_number=2, table_number=1, seats=[e[8], e[0], e[5], e[2]],
                      ns=330, ew=510)
    standings_rebuild(event_id=event.pk)
    return event


def test_public_page_shows_ranked_rows_tie_breaks_and_chart(client) -> None:
    event = played_event()
    response = client.get(reverse("event-standings", args=[event.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Friday club night" in html
    assert "Ranked by total points, then games won, then wins against the other tied players, " \
           "then highest single game." in html
    for name in ("points", "wins", "head_to_head", "highest_game"):
        assert f'data-tie-break="{name}"' in html
    assert "average of the round&#x27;s winning scores" in html
    assert "<svg" in html and "polyline" in html  # the score progression chart
    assert html.index("Player A") < html.index("Player I")  # A: 1030, I (bye 513 + 330)
    assert "1=" in html  # partners share their rank
    assert 'data-standings-updating role="status" hidden' in html
    assert 'id="standings-live"' in html and "js/standings.js" in html


def test_wall_screen_has_wall_body_and_no_chrome(client) -> None:
    event = played_event()
    response = client.get(reverse("event-standings-wall", args=[event.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<body class="wall wall-screen">' in html
    assert "wall-row" in html and "Player A" in html


def test_version_endpoint_and_behind_note(client) -> None:
    event = played_event()
    url = reverse("event-standings-version", args=[event.pk])
    status = client.get(url).json()
    assert status["version"] == 1 and status["behind"] is False
    # Hands entered but the worker has not run: the page keeps the last rows and says so.
    Event.objects.filter(pk=event.pk).update(hands_version=F("hands_version") + 2)
    cache.clear()  # written behind the services' back: the poll's cached status expires
    assert client.get(url).json()["behind"] is True
    html = client.get(reverse("event-standings", args=[event.pk])).content.decode()
    assert 'data-standings-updating role="status">' in html  # not hidden
    assert "Player A" in html


def test_fragment_follows_the_snapshot_version(client) -> None:
    event = played_event()
    url = reverse("event-standings-fragment", args=[event.pk])
    first = client.get(url)
    assert first["X-Standings-Version"] == "1"
    assert "Player A" in first.content.decode()
    entry = event.entries.get(player__name="Player I")
    game_with_results(event=event, round_number=3, table_number=1,
                      seats=[entry, *event.entries.exclude(pk=entry.pk)[:3]], ns=900, ew=0)
    standings_rebuild(event_id=event.pk)
    second = client.get(url)
    assert second["X-Standings-Version"] == "2"
    body = second.content.decode()
    assert body.index("Player I") < body.index("Player B")
    wall = client.get(url + "?view=wall").content.decode()
    assert "wall-row" in wall


def test_pages_work_without_the_cache(client) -> None:
    event = played_event()
    with mock.patch.object(cache, "get", side_effect=ConnectionError("redis down")), \
            mock.patch.object(cache, "set", side_effect=ConnectionError("redis down")):
        response = client.get(reverse("event-standings", args=[event.pk]))
    assert response.status_code == 200
    assert "Player A" in response.content.decode()


def test_event_without_results_shows_an_empty_state(client) -> None:
    event = EventFactory()
    response = client.get(reverse("event-standings", args=[event.pk]))
    assert response.status_code == 200
    assert "No results yet" in response.content.decode()
    assert client.get(reverse("event-standings-version", args=[event.pk])).json()["version"] == 0


@pytest.mark.parametrize("name", ["event-standings", "event-standings-wall",
                                  "event-standings-version", "event-standings-fragment"])
def test_private_event_is_hidden_from_outsiders(client, name: str) -> None:
    club = ClubFactory(is_public=True)
    event = played_event(club=club, is_public=False)
    url = reverse(name, args=[event.pk])
    assert client.get(url).status_code == 404
    outsider = UserFactory()
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    member = UserFactory()
    Membership.objects.create(club=club, user=member, role=Membership.Role.MEMBER)
    client.force_login(member)
    assert client.get(url).status_code == 200


def test_unknown_event_is_404(client) -> None:
    assert client.get(reverse("event-standings", args=[987654])).status_code == 404


def test_api_standings(client) -> None:
    event = played_event(tie_breaks=["points", "wins"])
    response = client.get(f"/api/events/{event.pk}/standings/")
    assert response.status_code == 200
    data = response.json()
    assert data["event"] == event.pk and data["version"] == 1 and data["behind"] is False
    assert [t["name"] for t in data["tie_breaks"]] == ["points", "wins"]
    first = data["rows"][0]
    assert first["name"] == "Player A" and first["points"] == 1030 and first["rank"] == 1
    assert set(first) == {"rank", "tied", "entry_id", "name", "active", "points", "games", "wins",
                          "byes", "bye_points", "hands_declared", "hands_made", "hands_set",
                          "highest_game", "per_round", "alternate", "penalty_points"}
    assert first["per_round"] == {"1": 520, "2": 510}
    version = client.get(f"/api/events/{event.pk}/standings/version/").json()
    assert version["version"] == 1


def test_api_private_event_is_404(client) -> None:
    event = played_event(is_public=False)
    response = client.get(f"/api/events/{event.pk}/standings/")
    assert response.status_code == 404
    assert response.json()["errors"][0]["code"] == "not_found"


def test_openapi_schema_describes_standings(client) -> None:
    schema = client.get("/api/schema/?format=json").json()
    path = schema["paths"]["/api/events/{event_id}/standings/"]
    assert path["get"]["operationId"] == "event_standings"
    assert "StandingsOutput" in str(path["get"]["responses"]["200"])


def test_score_chart_draws_the_leaders_cumulative_points_with_common_charts() -> None:
    from standings.selectors import score_chart, score_series

    rows = [
        {"name": "Ann", "per_round": {"1": 300, "2": 200}},
        {"name": "Bob", "per_round": {"1": 300, "2": 200}},  # Ann's partner both rounds
        {"name": "Cy", "per_round": {"1": 250, "2": 248}},
        {"name": "Di <b>", "per_round": {"1": -50}},  # left after round 1
        {"name": "Ed", "per_round": {"1": 900}},  # below the top four
    ]
    series, steps = score_series(rows, top=4)
    assert steps == ["R1", "R2"]
    assert series == [("Ann", [0, 300, 500]), ("Bob", [0, 300, 500]), ("Cy", [0, 250, 498]),
                      ("Di <b>", [0, -50, -50])]
    chart = str(score_chart(rows, top=4))
    assert chart.startswith('<svg class="chart chart-progress" viewBox="0 0 640 300"')
    assert chart.count("<polyline") == 3  # Ann and Bob share a line
    assert ">Ann &amp; Bob</text>" in chart and "<title>Ann &amp; Bob: 500</title>" in chart
    assert "Di &lt;b&gt;" in chart and "<b>" not in chart
    assert score_chart([{"name": "X", "per_round": {}}], top=3) is None


def test_a_wall_s_chart_has_big_tick_labels_room_for_them_and_no_names() -> None:
    """The wall's stylesheet sets its tick labels' size; the chart keeps room for that size
    (a chart laid out for smaller labels lost their first digit at the wall's left edge)."""
    from pathlib import Path

    from django.conf import settings

    from standings.selectors import WALL_TICK_SIZE, score_chart

    rows = [{"name": "Ann", "per_round": {"1": 1500}}, {"name": "Bob", "per_round": {"1": 150}}]
    wall = str(score_chart(rows, top=2, wall=True))
    assert f'font-size="{WALL_TICK_SIZE}"' in wall and ">Ann</text>" not in wall
    first_tick = re.search(r'<text x="([\d.]+)"[^>]*text-anchor="end"', wall)
    assert first_tick is not None and float(first_tick.group(1)) - 4 * WALL_TICK_SIZE * 0.6 >= 0
    css = (Path(settings.BASE_DIR) / "static/css/site.css").read_text()
    rule = re.search(r"body\.wall \.wall-chart \.score-chart \.grid text \{([^}]*)\}", css)
    assert rule is not None and f"font-size: {WALL_TICK_SIZE}px" in rule.group(1)


def test_standings_download_as_csv(client, django_capture_on_commit_callbacks) -> None:
    import csv
    import io

    from draw.services import round_create, round_set_status
    from scoring.services import hand_submit
    from tests.tournaments.factories import event_with_players

    event = event_with_players(players=8, deals_per_round=1)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status="playing")
        hand_submit(game=round_.tables.get(number=1).game, number=1, values={
            "dealer": "N", "bidder": "N", "bid": 51, "trump": "H", "meld": {"NS": 24, "EW": 32},
            "counters": {"NS": 27, "EW": 23}, "outcome": "played"})
    response = client.get(f"/events/{event.pk}/standings.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 8
    assert sorted(int(r["points"]) for r in rows)[-4:] == [51, 51, 55, 55]
    assert rows[0]["rank"] == "1=" and rows[0]["points"] == "55" and rows[0]["round_1"] == "55"


def test_a_players_night_page(client, django_capture_on_commit_callbacks) -> None:
    from draw.services import round_create, round_set_status
    from scoring.services import hand_submit
    from tests.clubs.factories import club_with_director
    from tests.tournaments.factories import event_with_players
    from tournaments.models import Seat

    event = event_with_players(players=8, deals_per_round=2)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status="playing")
        game = round_.tables.get(number=1).game
        for number, dealer in ((1, "N"), (2, "E")):
            hand_submit(game=game, number=number, values={
                "dealer": dealer, "bidder": "N", "bid": 51, "trump": "H",
                "meld": {"NS": 24, "EW": 32}, "counters": {"NS": 27, "EW": 23},
                "outcome": "played"})
    seats = {s.position: s for s in Seat.objects.filter(table=game.table).select_related("entry__player")}
    north = seats["N"].entry
    page = client.get(f"/events/{event.pk}/players/{north.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert seats["S"].entry.player.name in text  # the partner
    assert seats["E"].entry.player.name in text and seats["W"].entry.player.name in text
    card = page.context["rounds"][0]
    assert (card["points"], card["against"], card["won"]) == (102, 110, False)
    assert [h["running"] for h in card["hands"]] == [51, 102]
    standings = client.get(f"/events/{event.pk}/standings/")
    assert f"/events/{event.pk}/players/{north.pk}/".encode() in standings.content
    assert client.get(f"/events/{event.pk}/players/999999/").status_code == 404

    club, _ = club_with_director(slug="hidden", is_public=False)
    private = event_with_players(club=club, players=4)
    entry = private.entries.first()
    assert client.get(f"/events/{private.pk}/players/{entry.pk}/").status_code == 404

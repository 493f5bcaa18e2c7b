"""The standings poll from the cache (standings.status, standings.middleware), its
conditional answers, the phone fragment and compression.

A public event's poll is answered without a query and without the session once the cache holds
its status; writers (a hand entered, a snapshot stored) publish on commit; private events always
go through the permission check; a change of visibility is seen at once.
"""

from __future__ import annotations

import gzip
import json
import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db.models import F
from django.urls import reverse

from clubs.models import Club, Membership
from scoring import services
from standings import fragments
from standings import status as standings_status
from standings.middleware import VERSION_PATH, _fragment_cached
from standings.models import StandingsSnapshot
from standings.services import standings_rebuild
from standings.status import SNAPSHOT_KEY, status_snapshot_stored
from tests.clubs.factories import ClubFactory, UserFactory, club_with_director
from tests.scoring.factories import seated_table, values
from tests.standings.test_views import played_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


def _version_url(event: Event, query: str = "") -> str:
    return reverse("event-standings-version", args=[event.pk]) + query


def _fragment_url(event: Event, query: str = "") -> str:
    return reverse("event-standings-fragment", args=[event.pk]) + query


def test_the_middleware_matches_the_version_url_and_only_it() -> None:
    assert VERSION_PATH.match(reverse("event-standings-version", args=[12345]))
    assert not VERSION_PATH.match(reverse("event-standings-fragment", args=[12345]))
    assert not VERSION_PATH.match(reverse("event-standings", args=[12345]))
    middleware = settings.MIDDLEWARE
    ours = middleware.index("standings.middleware.StandingsVersionMiddleware")
    assert ours < middleware.index("django.contrib.sessions.middleware.SessionMiddleware")
    assert ours > middleware.index("django.middleware.security.SecurityMiddleware")


def test_a_public_poll_is_answered_from_the_cache_without_a_query_or_the_session(
        client, django_assert_num_queries) -> None:
    event = played_event()
    first = client.get(_version_url(event))  # from the database; fills the cache
    assert first.status_code == 200
    # A signed-in viewer's cookie: the session (a database row) is not even read.
    client.force_login(UserFactory())
    with django_assert_num_queries(0):
        second = client.get(_version_url(event))
    assert second.status_code == 200
    assert second.json() == first.json()
    assert set(second.json()) == {"event", "version", "behind", "source_version",
                                  "hands_version", "computed_at"}
    assert "Cookie" not in second.get("Vary", "")


def test_a_hand_entered_is_published_on_commit(client, django_assert_num_queries,
                                               django_capture_on_commit_callbacks) -> None:
    table = seated_table()
    event = table.round.event
    before = client.get(_version_url(event)).json()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.hand_submit(game=table.game, number=1, values=values())
    for callback in callbacks:  # publish only: the standings task is another test's business
        if getattr(callback, "__qualname__", "").startswith("status_hands_entered"):
            callback()
    with django_assert_num_queries(0):
        after = client.get(_version_url(event)).json()
    assert after["hands_version"] == before["hands_version"] + 1
    assert after["behind"] is True and after["version"] == before["version"]


def test_a_stored_snapshot_is_published_on_commit(client, django_assert_num_queries,
                                                  django_capture_on_commit_callbacks) -> None:
    table = seated_table()
    event = table.round.event
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_submit(game=table.game, number=1, values=values())  # task runs eagerly
    client.get(_version_url(event))  # fills the visibility
    with django_capture_on_commit_callbacks(execute=True):
        services.hand_submit(game=table.game, number=2, values=values(dealer="W"))
    with django_assert_num_queries(0):
        status = client.get(_version_url(event)).json()
    event.refresh_from_db()
    assert status["version"] == event.standings.version >= 2
    assert status["hands_version"] == event.hands_version
    assert status["behind"] is False


def test_an_older_snapshot_committed_late_never_replaces_a_newer_one(
        django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        status_snapshot_stored(event_id=7, version=5, source_version=40, computed_at=None)
        status_snapshot_stored(event_id=7, version=4, source_version=38, computed_at=None)
    assert cache.get(SNAPSHOT_KEY.format(event_id=7))["version"] == 5
    with django_capture_on_commit_callbacks(execute=True):
        status_snapshot_stored(event_id=7, version=5, source_version=41, computed_at=None)
    assert cache.get(SNAPSHOT_KEY.format(event_id=7))["source_version"] == 41


def test_a_private_event_is_never_answered_from_the_cache(client) -> None:
    club, director = club_with_director()
    event = played_event(club=club, is_public=False)
    client.force_login(director)
    assert client.get(_version_url(event)).status_code == 200  # fills the cache
    client.logout()
    assert client.get(_version_url(event)).status_code == 404
    client.force_login(UserFactory())
    assert client.get(_version_url(event)).status_code == 404
    assert client.get(_fragment_url(event)).status_code == 404


@pytest.mark.parametrize("what", ["event", "club"])
def test_an_event_made_private_is_hidden_at_once(client, what: str) -> None:
    event = played_event(club=ClubFactory(is_public=True))
    assert client.get(_version_url(event)).status_code == 200
    assert client.get(_version_url(event)).status_code == 200  # from the cache
    if what == "event":
        event.is_public = False
        event.save(update_fields=["is_public"])
    else:
        club = Club.objects.get(pk=event.club_id)
        club.is_public = False
        club.save()
    assert client.get(_version_url(event)).status_code == 404
    assert client.get(_fragment_url(event)).status_code == 404


def test_the_wall_poll_reads_the_state_of_play_from_the_database(client) -> None:
    event = played_event()
    phone = client.get(_version_url(event)).json()  # fills the cache
    wall = client.get(_version_url(event, "?round=1")).json()
    assert wall["round"]["number"] == 2 and "closed" in wall["round"]["text"]
    assert {k: v for k, v in wall.items() if k != "round"} == phone
    # A table finishing changes the state of play at once, not when a cache entry expires.
    event.rounds.filter(number=2).update(status="playing")
    assert "playing" in client.get(_version_url(event, "?round=1")).json()["round"]["text"]


def test_the_poll_works_with_the_cache_down(client) -> None:
    event = played_event()
    with mock.patch.object(cache, "get_many", side_effect=ConnectionError("redis down")), \
            mock.patch.object(cache, "add", side_effect=ConnectionError("redis down")), \
            mock.patch.object(cache, "set", side_effect=ConnectionError("redis down")):
        response = client.get(_version_url(event))
    assert response.status_code == 200
    assert response.json()["version"] == 1


def test_the_poll_answers_304_while_nothing_changed(client) -> None:
    event = played_event()
    first = client.get(_version_url(event))
    # any cache may keep it for a second (the pages revalidate every time: ETag, 304)
    assert first["Cache-Control"] == "public, max-age=1, stale-while-revalidate=5"
    etag = first["ETag"]
    again = client.get(_version_url(event), HTTP_IF_NONE_MATCH=etag)  # from the cache
    assert again.status_code == 304 and again.content == b""
    assert again["ETag"] == etag


def test_the_fragment_answers_304_for_the_same_version_and_view(client) -> None:
    event = played_event()
    first = client.get(_fragment_url(event, "?view=page"))
    assert first.status_code == 200 and "Player A" in first.content.decode()
    assert first["Cache-Control"] == "public, max-age=1, stale-while-revalidate=5"
    etag = first["ETag"]
    assert client.get(_fragment_url(event, "?view=page"),
                      HTTP_IF_NONE_MATCH=etag).status_code == 304
    # Another view is another body.
    assert client.get(_fragment_url(event, "?view=wall"),
                      HTTP_IF_NONE_MATCH=etag).status_code == 200
    # A new snapshot version: the whole body again.
    from tests.scoring.factories import game_with_results
    entries = list(event.entries.all()[:4])
    game_with_results(event=event, round_number=3, table_number=1, seats=entries, ns=900, ew=0)
    standings_rebuild(event_id=event.pk)
    cache.clear()  # the snapshot was written inside the test's transaction (no commit)
    moved = client.get(_fragment_url(event, "?view=page"), HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert moved["X-Standings-Version"] == "2"


def test_the_fragment_of_a_public_event_needs_no_query_once_cached(
        client, django_assert_num_queries) -> None:
    event = played_event()
    client.get(_version_url(event))  # the status in the cache
    client.get(_fragment_url(event, "?view=phone"))  # the body in the cache
    with django_assert_num_queries(0):
        response = client.get(_fragment_url(event, "?view=phone"))
    assert response.status_code == 200 and "Player A" in response.content.decode()


def _cells(html: str) -> list[int]:
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", html, re.S)
    return [len(re.findall(r"<t[dh]\b", row)) for row in rows]


def test_the_phone_fragment_has_the_five_columns_a_phone_shows(client) -> None:
    event = played_event()
    page = client.get(_fragment_url(event, "?view=page")).content.decode()
    phone = client.get(_fragment_url(event, "?view=phone")).content.decode()
    assert set(_cells(phone)) == {5}
    assert set(_cells(page)) == {12}  # 10 columns and two rounds
    assert 'class="num round"' in page and 'class="num round"' not in phone
    for name in "ABCDEFGHI":
        assert f"Player {name}" in phone
    assert "<svg" in phone  # the chart stays
    assert len(phone) < len(page)


def test_standings_are_compressed_unless_the_page_carries_a_csrf_token(client) -> None:
    event = played_event()
    fragment = client.get(_fragment_url(event), HTTP_ACCEPT_ENCODING="gzip")
    assert fragment["Content-Encoding"] == "gzip"
    assert "Player A" in gzip.decompress(fragment.content).decode()
    page = client.get(reverse("event-standings", args=[event.pk]), HTTP_ACCEPT_ENCODING="gzip")
    assert page["Content-Encoding"] == "gzip"
    # Signed in: the page has the sign-out form and its CSRF token; left uncompressed (BREACH).
    club, director = club_with_director(slug="other")
    Membership.objects.get_or_create(club=event.club, user=director,
                                     defaults={"role": Membership.Role.DIRECTOR})
    client.force_login(director)
    signed_in = client.get(reverse("event-standings", args=[event.pk]),
                           HTTP_ACCEPT_ENCODING="gzip")
    assert signed_in.status_code == 200 and not signed_in.has_header("Content-Encoding")
    assert "csrfmiddlewaretoken" in signed_in.content.decode()
    # The JSON contract of the poll is unchanged by all of this.
    assert json.loads(client.get(_version_url(event)).content)["version"] == 1


def test_a_directors_change_to_seats_or_settings_is_published_like_a_hand(
        django_capture_on_commit_callbacks) -> None:
    from standings.status import HANDS_KEY
    from tests.clubs.factories import club_with_director
    from tests.tournaments.factories import event_with_players
    from tournaments.models import Event
    from tournaments.services import event_results_changed

    club, _ = club_with_director(slug="published")
    event = event_with_players(club=club, players=4)
    with django_capture_on_commit_callbacks(execute=True):
        event_results_changed(event)
    stored = Event.objects.values_list("hands_version", flat=True).get(pk=event.pk)
    assert cache.get(HANDS_KEY.format(event_id=event.pk)) == stored


def test_a_public_fragment_from_the_middleware_is_the_view_s_answer_byte_for_byte(
        client, django_assert_num_queries) -> None:
    event = played_event()
    client.get(_version_url(event))  # the status in the cache
    for view in ("page", "phone", "wall"):
        cache.delete(f"standings:html:{event.pk}:1:{view}:all")
        from_view = client.get(_fragment_url(event, f"?view={view}"))  # renders, caches
        assert from_view.status_code == 200
        with django_assert_num_queries(0):
            plain = client.get(_fragment_url(event, f"?view={view}"))
            packed = client.get(_fragment_url(event, f"?view={view}"),
                                HTTP_ACCEPT_ENCODING="gzip, br")
            again = client.get(_fragment_url(event, f"?view={view}"),
                               HTTP_IF_NONE_MATCH=plain["ETag"])
        assert plain.content == from_view.content
        assert plain["ETag"] == from_view["ETag"] and plain["X-Standings-Version"] == "1"
        assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
        assert gzip.decompress(packed.content) == from_view.content
        assert packed["Cache-Control"] == "public, max-age=1, stale-while-revalidate=5"
        assert again.status_code == 304 and again["ETag"] == plain["ETag"]


def test_a_stage_a_private_event_or_an_unknown_view_go_to_the_view(client, rf) -> None:
    event = played_event()
    client.get(_version_url(event))
    client.get(_fragment_url(event, "?view=page"))

    def served_early(query: str) -> bool:
        return _fragment_cached(rf.get(_fragment_url(event, query)), event.pk) is not None

    assert served_early("?view=page") and served_early("")
    assert not served_early("?view=page&stage=qualifying")  # computed by the view
    assert not served_early("?view=nonsense") and not served_early("?view=page&x=1")
    Club.objects.filter(pk=event.club_id).update(is_public=False)
    cache.clear()
    assert not served_early("?view=page")
    assert client.get(_fragment_url(event, "?view=page")).status_code == 404


def _announce_next_version(event: Event, capture) -> int:
    """What the worker's standings task does: store a snapshot with a new version and commit."""
    StandingsSnapshot.objects.filter(event=event).update(version=F("version") + 1)
    snapshot = StandingsSnapshot.objects.get(event=event)
    with capture(execute=True):
        status_snapshot_stored(event_id=event.pk, version=snapshot.version,
                               source_version=snapshot.source_version, computed_at=None)
    return snapshot.version


def test_a_new_version_is_rendered_before_the_pages_can_see_it(
        settings, django_capture_on_commit_callbacks) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # as in the worker
    event = played_event()
    announced_while_rendering = []
    real = fragments.bodies_warm

    def spy(**kwargs):
        announced_while_rendering.append(cache.get(SNAPSHOT_KEY.format(event_id=event.pk)))
        return real(**kwargs)

    cache.clear()
    with mock.patch.object(fragments, "bodies_warm", spy):
        version = _announce_next_version(event, django_capture_on_commit_callbacks)
    assert announced_while_rendering == [None]  # the pages could not see it yet
    assert cache.get(SNAPSHOT_KEY.format(event_id=event.pk))["version"] == version
    for view in fragments.PUSHED_VIEWS:  # what a room fetches first is ready
        assert fragments.body_cached(event_id=event.pk, version=version, view=view,
                                     gzip=False) is not None


def test_a_private_event_is_not_rendered_ahead_and_a_failure_still_announces(
        settings, django_capture_on_commit_callbacks) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    event = played_event(is_public=False)
    cache.clear()
    version = _announce_next_version(event, django_capture_on_commit_callbacks)
    assert fragments.body_cached(event_id=event.pk, version=version, view="phone",
                                 gzip=False) is None  # each reader's permission is checked

    def broken(event_id: int, version: int) -> None:
        raise RuntimeError("render failed")

    with mock.patch.object(standings_status, "bodies_warm_before_announce", broken):
        version = _announce_next_version(event, django_capture_on_commit_callbacks)
    assert cache.get(SNAPSHOT_KEY.format(event_id=event.pk))["version"] == version

""""12 watching": the count of a running public event's open pages, on where its club asked
for it (real Redis; the time is passed in where it must move)."""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test import Client

from clubs.models import Membership
from standings import watchers
from standings.push import push_client
from tests.clubs.factories import ClubFactory, MembershipFactory
from tests.tournaments.factories import EventFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh(settings):
    cache.clear()
    settings.PUSH_URL = "/push/"  # the polls' and the streams' Redis is the site's
    yield


def running(**club: object) -> Event:
    return EventFactory(club=ClubFactory(**club), status=Event.Status.RUNNING)


def poll(client: Client, event: Event, tab: str | None) -> dict[str, object]:
    headers = {"HTTP_X_WATCH_TAB": tab} if tab else {}
    answer = client.get(f"/events/{event.pk}/standings/version/", **headers)
    assert answer.status_code == 200
    return answer.json()


def test_the_count_rises_with_two_watchers_and_falls_after_they_go(client: Client) -> None:
    event = running(show_watchers=True)
    assert poll(client, event, None)["watching"] == 0
    poll(client, event, "tab-one-aaaa")
    watchers.watchers_seen(event_id=event.pk, tabs=["tab-two-bbbb"])  # a push stream's mark
    poll(client, event, "tab-one-aaaa")  # the same tab again: counted once
    assert watchers.watchers_count(event_id=event.pk) == 2
    cache.delete(watchers.COUNT_KEY.format(event_id=event.pk))  # past the count's 5 s
    assert poll(client, event, None)["watching"] == 2
    api = client.get(f"/api/events/{event.pk}/standings/").json()
    assert api["watching"] == 2
    page = client.get(f"/events/{event.pk}/standings/").content.decode()
    assert 'data-watching="2"' in page and "2 watching" in page
    # They go: 31 s later neither is counted any more.
    later = time.time() + watchers.WATCH_SECONDS + 1
    assert watchers.watchers_count(event_id=event.pk, now=later) == 0
    cache.delete(watchers.COUNT_KEY.format(event_id=event.pk))
    assert poll(client, event, None)["watching"] == 0
    # The set holds anonymous ids and times only.
    assert push_client().zrange(watchers.watch_key(event.pk), 0, -1) == []


def test_off_by_default_and_nothing_kept(client: Client) -> None:
    event = running()
    assert event.club.show_watchers is False
    answer = poll(client, event, "tab-one-aaaa")
    assert "watching" not in answer
    assert client.get(f"/api/events/{event.pk}/standings/").json()["watching"] is None
    assert "data-watching" not in client.get(f"/events/{event.pk}/standings/").content.decode()
    assert not push_client().exists(watchers.watch_key(event.pk))  # the tab was not kept


@pytest.mark.parametrize("private", ["event", "club", "finished"])
def test_a_private_or_finished_event_never_shows_it(client: Client, private: str) -> None:
    event = running(show_watchers=True, is_public=private != "club")
    if private == "event":
        Event.objects.filter(pk=event.pk).update(is_public=False)
    if private == "finished":
        Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    assert watchers.watching_now(event_id=event.pk) is None
    if private == "finished":
        assert "watching" not in poll(client, event, "tab-one-aaaa")
    else:  # a member sees the event; the count stays off all the same
        membership = MembershipFactory(club=event.club, role=Membership.Role.DIRECTOR)
        client.force_login(membership.user)
        assert "watching" not in poll(client, event, "tab-one-aaaa")
        assert "data-watching" not in client.get(
            f"/events/{event.pk}/standings/").content.decode()


def test_a_bad_tab_id_is_ignored() -> None:
    event = running(show_watchers=True)
    watchers.watchers_seen(event_id=event.pk, tabs=["x", "no spaces allowed", "a" * 65])
    assert watchers.watchers_count(event_id=event.pk) == 0


def test_owners_turn_it_on_on_the_page_and_in_the_api(client: Client) -> None:
    club = ClubFactory()
    owner = MembershipFactory(club=club, role=Membership.Role.OWNER).user
    director = MembershipFactory(club=club, role=Membership.Role.DIRECTOR).user
    client.force_login(director)
    refused = client.patch(f"/api/clubs/{club.slug}/", {"show_watchers": True},
                           content_type="application/json")
    assert refused.status_code == 403
    client.force_login(owner)
    assert client.get(f"/api/clubs/{club.slug}/").json()["show_watchers"] is False
    bad = client.patch(f"/api/clubs/{club.slug}/", {"show_watchers": "yes"},
                       content_type="application/json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "show_watchers"
    done = client.patch(f"/api/clubs/{club.slug}/", {"show_watchers": True},
                        content_type="application/json")
    assert done.status_code == 200 and done.json()["show_watchers"] is True
    page = client.post(f"/clubs/{club.slug}/manage/watchers/", {})  # unticked: off
    assert page.status_code == 302
    club.refresh_from_db()
    assert club.show_watchers is False
    assert 'id="watchers-form"' in client.get(f"/clubs/{club.slug}/manage/").content.decode()


def test_the_walls_and_the_bracket_say_it_too(client: Client) -> None:
    event = running(show_watchers=True)
    watchers.watchers_seen(event_id=event.pk, tabs=["tab-one-aaaa", "tab-two-bbbb",
                                                    "tab-three-cc"])
    for url in (f"/events/{event.pk}/standings/wall/", f"/events/{event.pk}/wall/seating/",
                f"/events/{event.pk}/wall/movement/"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert 'data-watching="3"' in page.content.decode(), url

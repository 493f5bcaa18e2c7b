"""What spectators read is cacheable (``public.caching``, ``common.conditional``): each public
kind of page answers 200 with an ETag and ``Cache-Control: public``, then 304 to the same ETag
from one query and no rendering; a new hand changes the ETag; a private event's pages and a
signed-in director's are never ``public`` and never carry a spectator's ETag."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.models import Club
from public import caching
from public.caching import KINDS
from scoring import services
from tests.clubs.factories import club_with_director
from tests.events.test_page_queries import _bracket
from tests.scoring.factories import seated_table, values
from tests.standings.test_views import played_event
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _held_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The clock the ETags step by stands still: a page asked twice in a row keeps its ETag even
    when a slow first answer ends in the next step (two seconds for the movement wall). The
    steps themselves are tested with explicit times (``page_etag(now=…)``)."""
    monkeypatch.setattr(caching, "time", SimpleNamespace(time=lambda: 1_800_000_000.0))


def _pages(event: Event) -> dict[str, str]:
    """Every public kind of one event: its address."""
    pk = event.pk
    entry = event.entries.order_by("pk").first()
    assert entry is not None
    return {
        "event page": f"/events/{pk}/",
        "event page, a search": f"/events/{pk}/?find=Player",
        "round page": f"/events/{pk}/rounds/1/",
        "rules": f"/events/{pk}/rules/",
        "seating wall": f"/events/{pk}/wall/seating/",
        "seating wall's poll": f"/events/{pk}/wall/seating/version/",
        "movement wall": f"/events/{pk}/wall/movement/",
        "standings": f"/events/{pk}/standings/",
        "standings totals": f"/events/{pk}/standings/?view=totals",
        "standings wall": f"/events/{pk}/standings/wall/",
        "player": f"/events/{pk}/players/{entry.pk}/",
        "standings CSV": f"/events/{pk}/standings.csv",
        "standings API": f"/api/events/{pk}/standings/",
        "standings API's poll": f"/api/events/{pk}/standings/version/",
    }


def _is_public(response) -> bool:
    return "public" in response.get("Cache-Control", "")


def _revalidated(client: Client, url: str) -> tuple[object, object, int]:
    first = client.get(url)
    with CaptureQueriesContext(__import__("django.db").db.connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    return first, again, len(queries)


def test_the_middleware_sees_every_cookie_and_runs_before_the_session() -> None:
    middleware = settings.MIDDLEWARE
    ours = middleware.index("public.caching.PublicCacheMiddleware")
    for later in ("csp.middleware.CSPMiddleware",
                  "django.contrib.sessions.middleware.SessionMiddleware",
                  "django.middleware.csrf.CsrfViewMiddleware",
                  "django.contrib.messages.middleware.MessageMiddleware"):
        assert ours < middleware.index(later), later
    assert ours > middleware.index("standings.middleware.StandingsVersionMiddleware")


def test_every_kind_named_is_a_page_of_one_event() -> None:
    from django.urls import get_resolver

    names = set(get_resolver().reverse_dict.keys())
    for name, kind in KINDS.items():
        assert name in names, name
        route = reverse(name, kwargs={kind.event_arg: 7, **(
            {"number": 1} if name == "round-detail" else {}), **(
            {"entry_id": 1} if name == "event-player" else {}), **(
            {"pair_id": 1} if name == "event-pair" else {})})
        assert "/7/" in route, (name, route)


def test_each_public_kind_answers_200_then_304_from_one_query() -> None:
    event = played_event()
    client = Client()
    for name, url in _pages(event).items():
        cache.clear()
        first, again, queries = _revalidated(client, url)
        assert first.status_code == 200, (name, first.status_code)
        assert first["ETag"].startswith('W/"'), name
        control = first["Cache-Control"]
        assert control.startswith("public, max-age=") and "stale-while-revalidate=" in control, (
            name, control)
        assert "Cookie" in first["Vary"], name
        assert again.status_code == 304 and again.content == b"", name
        assert again["ETag"] == first["ETag"] and _is_public(again), name
        assert queries == 1, (name, queries)  # the event's key; no session, no rendering


def test_the_bracket_and_its_region_are_public_and_revalidated() -> None:
    event, _ = _bracket(8)
    client = Client()
    for url in (f"/events/{event.pk}/bracket/", f"/events/{event.pk}/bracket/?fragment=1",
                f"/events/{event.pk}/bracket/?wall=1", f"/events/{event.pk}/standings/",
                f"/events/{event.pk}/pairs/{event.pairs.order_by('pk').first().pk}/"):
        first, again, queries = _revalidated(client, url)
        assert first.status_code == 200 and _is_public(first), url
        assert again.status_code == 304 and queries == 1, url
    # the page and its region are different answers
    page = client.get(f"/events/{event.pk}/bracket/")
    region = client.get(f"/events/{event.pk}/bracket/?fragment=1")
    assert page["ETag"] != region["ETag"]


def test_a_new_hand_changes_the_etag() -> None:
    table = seated_table()
    event = table.round.event
    client = Client()
    urls = [f"/events/{event.pk}/", f"/events/{event.pk}/standings/",
            f"/api/events/{event.pk}/standings/", f"/events/{event.pk}/wall/seating/"]
    before = {url: client.get(url)["ETag"] for url in urls}
    assert all(client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
               for url, etag in before.items())
    services.hand_submit(game=table.game, number=1, values=values())
    for url, etag in before.items():
        moved = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert moved.status_code == 200 and moved["ETag"] != etag, url


def test_a_director_action_and_the_time_step_change_the_etag() -> None:
    from public.caching import PAGE, event_key, page_etag
    from tournaments.models import EventLog

    event = played_event()
    request = __import__("django.test").test.RequestFactory().get(f"/events/{event.pk}/")
    key = event_key(event.pk)
    assert key is not None
    etag = page_etag(request, "event-detail", {"pk": event.pk}, PAGE, key, now=1000.0)
    assert etag == page_etag(request, "event-detail", {"pk": event.pk}, PAGE, key, now=1010.0)
    assert etag != page_etag(request, "event-detail", {"pk": event.pk}, PAGE, key, now=1070.0)
    EventLog.objects.create(event=event, action="checked_in")
    moved = event_key(event.pk)
    assert moved is not None
    assert etag != page_etag(request, "event-detail", {"pk": event.pk}, PAGE, moved, now=1000.0)


def test_a_private_events_pages_are_never_public() -> None:
    club, director = club_with_director(slug="closed", is_public=False)
    event = played_event(club=club)
    member = Client()
    member.force_login(director)
    anonymous = Client()
    for name, url in _pages(event).items():
        hidden = anonymous.get(url)
        assert hidden.status_code == 404 and not _is_public(hidden), name
        seen = member.get(url)
        assert seen.status_code == 200, name
        assert seen["Cache-Control"] == "private, no-store", (name, seen["Cache-Control"])
        assert "ETag" not in seen, name
    # the standings poll and region of a private event: private, with ETags of their own
    for url in (reverse("event-standings-version", args=[event.pk]),
                reverse("event-standings-fragment", args=[event.pk]) + "?view=phone"):
        seen = member.get(url)
        assert seen["Cache-Control"] == "private, no-cache" and seen["ETag"].endswith('-private"')
    # made private after a spectator kept its ETag: no 304, no page
    public_event = played_event()
    url = f"/events/{public_event.pk}/standings/"
    etag = anonymous.get(url)["ETag"]
    Event.objects.filter(pk=public_event.pk).update(is_public=False)
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404
    Event.objects.filter(pk=public_event.pk).update(is_public=True)
    Club.objects.filter(pk=public_event.club_id).update(is_public=False)
    assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 404


def test_a_signed_in_directors_view_is_private_and_never_shares_the_etag() -> None:
    event = played_event()
    club = event.club
    from clubs.models import Membership
    from tests.clubs.factories import UserFactory

    director = UserFactory(username="director-open")
    Membership.objects.create(club=club, user=director, role=Membership.Role.DIRECTOR)
    anonymous, desk = Client(), Client()
    desk.force_login(director)
    for name, url in _pages(event).items():
        public = anonymous.get(url)
        assert _is_public(public), name
        mine = desk.get(url)
        assert mine.status_code == 200, name
        assert mine["Cache-Control"] == "private, no-store", (name, mine["Cache-Control"])
        assert "Cookie" in mine["Vary"], name
        assert mine.get("ETag") != public["ETag"], name
        # the spectator's ETag gets the director no 304
        assert desk.get(url, HTTP_IF_NONE_MATCH=public["ETag"]).status_code == 200, name


def test_an_api_token_is_credentials_too() -> None:
    from rest_framework.authtoken.models import Token

    event = played_event()
    _, director = club_with_director(slug="token-club")
    token = Token.objects.create(user=director)
    url = f"/api/events/{event.pk}/standings/"
    public = Client().get(url)
    answer = Client().get(url, HTTP_AUTHORIZATION=f"Token {token.key}",
                          HTTP_IF_NONE_MATCH=public["ETag"])
    assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"


def test_a_page_that_sets_a_cookie_is_never_shared() -> None:
    event = played_event()
    client = Client()
    client.cookies["messages"] = "x"  # a message waiting: the page may show it
    answer = client.get(f"/events/{event.pk}/standings/")
    assert answer.status_code == 200 and answer["Cache-Control"] == "private, no-store"


def test_other_pages_say_private_unless_they_say_otherwise() -> None:
    table = seated_table()
    client = Client()
    assert "private" in client.get(f"/t/{table.token}/")["Cache-Control"]
    assert client.get("/")["Cache-Control"] == "private"
    assert client.get("/favicon.ico")["Cache-Control"] == "public, max-age=86400"


def test_the_standings_region_asked_by_version_is_kept_only_when_it_is_that_version() -> None:
    event = played_event()
    client = Client()
    client.get(reverse("event-standings-version", args=[event.pk]))  # the status in the cache
    url = reverse("event-standings-fragment", args=[event.pk]) + "?view=phone"
    same = client.get(url + "&v=1")
    assert same.status_code == 200 and same["X-Standings-Version"] == "1"
    assert same["Cache-Control"] == "public, max-age=1, stale-while-revalidate=5"
    ahead = client.get(url + "&v=2")  # announced elsewhere, not here yet: not kept by caches
    assert ahead.status_code == 200 and ahead["Cache-Control"] == "public, no-cache"
    cache.clear()
    from_view = client.get(url + "&v=2")
    assert from_view["Cache-Control"] == "public, no-cache"

"""Search and open data API: ``GET /api/search/?q=&kind=&page=``, the search page's hits as
JSON; ``GET /api/clubs/{slug}/results/?page=``, a public club's finished results
(``search.feed``).

Public data only, the same for everyone (``search.selectors``); paged like DRF's page-number
pagination (``count``, ``next``, ``previous``, ``results``, :data:`PAGE_SIZE` a page). A blank,
too short or too long ``q``, an unknown ``kind`` or a ``page`` that is not a number from 1 to
``search.query.PAGE_MAX`` is a 400 naming that parameter; a page past the last is a 404.
"""

from __future__ import annotations

import datetime
from typing import TypedDict

from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.api import error_responses

from .feed import FeedEvent, feed_club, feed_events, feed_page
from .query import KINDS, PAGE_MAX, Q_MAX, Q_MIN, kind_read, page_read, terms_read
from .selectors import COUNT_MAX, PAGE_SIZE, ClubRef, Hit, SearchHits


class SearchPagination(PageNumberPagination):
    page_size = PAGE_SIZE


class ClubRefOutput(serializers.Serializer[object]):
    slug = serializers.CharField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="The club's public page.")


class HitOutput(serializers.Serializer[object]):
    kind = serializers.ChoiceField(choices=["club", "event", "player"])
    id = serializers.IntegerField()
    name = serializers.CharField()
    url = serializers.CharField(help_text="The public page: the club's, the event's, or the "
                                "player's profile.")
    score = serializers.FloatField(help_text="How well it matches (higher first): the trigram "
                                   "word similarity, plus 1 for a match of whole words or their "
                                   "beginnings (PostgreSQL); a rough order on SQLite.")
    place = serializers.CharField(allow_blank=True,
                                  help_text="Clubs: the city of the club's time zone.")
    date = serializers.DateField(allow_null=True, help_text="Events: the event's date.")
    status = serializers.CharField(allow_blank=True,
                                   help_text="Events: running or finished.")
    club = ClubRefOutput(allow_null=True, help_text="Events: the club that ran it.")
    clubs = ClubRefOutput(many=True, help_text="Players: the public clubs whose results they "
                          "are on.")


class SearchPageOutput(serializers.Serializer[object]):
    count = serializers.IntegerField(
        help_text=f"Hits in all (of the kind asked for), counted up to {COUNT_MAX}: the last "
                  "page served.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = HitOutput(many=True)


class ClubRefPayload(TypedDict):
    slug: str
    name: str
    url: str


class HitPayload(TypedDict):
    """A hit as the API shows it (``HitOutput``)."""

    kind: str
    id: int
    name: str
    url: str
    score: float
    place: str
    date: datetime.date | None
    status: str
    club: ClubRefPayload | None
    clubs: list[ClubRefPayload]


def hit_data(hit: Hit, request: Request) -> HitPayload:
    def club(ref: ClubRef) -> ClubRefPayload:
        return {"slug": ref.slug, "name": ref.name, "url": request.build_absolute_uri(ref.url)}

    return {"kind": hit.kind, "id": hit.id, "name": hit.name,
            "url": request.build_absolute_uri(hit.url), "score": round(hit.score, 4),
            "place": hit.place, "date": hit.date, "status": hit.status,
            "club": club(hit.club) if hit.club else None,
            "clubs": [club(ref) for ref in hit.clubs]}


class SearchApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="search", summary="Search public clubs, events and players",
        description="Every public club, event and player whose name matches `q`, tolerant of "
                    "typos (PostgreSQL: full-text words and their prefixes, and trigram "
                    "similarity), best first. A date in `q` (`2024-05-11`, `2024-05`, "
                    "`May 2024`, `2024`) narrows the events to it. Private clubs, hidden, "
                    "draft and cancelled events, and players who are on no public event's "
                    "results never appear; the answer is the same for everyone.",
        parameters=[
            OpenApiParameter("q", OpenApiTypes.STR, required=True,
                             description=f"What to search for, {Q_MIN} to {Q_MAX} characters."),
            OpenApiParameter("kind", OpenApiTypes.STR, enum=list(KINDS),
                             description="One kind only; empty: all three ranked together."),
            OpenApiParameter("page", OpenApiTypes.INT,
                             description=f"The page, 1 to {PAGE_MAX} ({PAGE_SIZE} hits a page)."),
        ],
        responses={200: SearchPageOutput,
                   404: OpenApiResponse(description="A page past the last one."),
                   **error_responses(400)},
    )
    def get(self, request: Request) -> Response:
        terms = terms_read(request.query_params.get("q"))
        kind = kind_read(request.query_params.get("kind"))
        page_read(request.query_params.get("page"))
        paginator = SearchPagination()
        hits: list[Hit] | None = paginator.paginate_queryset(
            SearchHits(terms, kind), request, view=self)  # type: ignore[arg-type]
        return paginator.get_paginated_response([hit_data(hit, request) for hit in hits or []])


# --- open data: a club's finished results ---------------------------------------------------------
FEED_PAGE_SIZE = 20
FEED_PAGE_MAX = 100_000


class FeedPagination(PageNumberPagination):
    page_size = FEED_PAGE_SIZE


class FeedPlayerOutput(serializers.Serializer[object]):
    player_id = serializers.IntegerField(
        allow_null=True, help_text="The player (their profile: /players/{id}/); null for a "
        "player who erased their account (named 'Withdrawn player').")
    name = serializers.CharField()


class FeedEntrantOutput(FeedPlayerOutput):
    alternate = serializers.BooleanField(help_text="An alternate: scores, is not placed.")


class FeedPlacementOutput(serializers.Serializer[object]):
    place = serializers.IntegerField(help_text="1 is the winner; tied entries share a place.")
    name = serializers.CharField(help_text="The player's name, or the pair's.")
    stage = serializers.CharField(allow_blank=True, help_text="The stage that decided the "
                                  "place: final, semifinal, bracket or qualifying.")
    prize = serializers.CharField(allow_null=True, help_text="The prize the place won (an "
                                  "amount), or null.")
    pair_id = serializers.IntegerField(allow_null=True, help_text="Pair events: the pair.")
    players = FeedPlayerOutput(many=True, help_text="Who holds the place (two in a pair).")


class FeedEventOutput(serializers.Serializer[object]):
    id = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField(help_text="The event's date, in the club's time zone.")
    format = serializers.CharField(help_text="The format's name (formats registry).")
    format_label = serializers.CharField()
    is_pairs = serializers.BooleanField(help_text="Fixed pairs entered and were placed.")
    player_count = serializers.IntegerField()
    players = FeedEntrantOutput(many=True, help_text="Everyone entered, by name.")
    placements = FeedPlacementOutput(many=True, help_text="The final places, best first.")
    url = serializers.CharField(help_text="The event's public page.")
    results_url = serializers.CharField(
        help_text="The event's public standings API (GET /api/events/{id}/standings/): every "
        "row with points, wins and tie-breaks. The complete archive "
        "(GET /api/events/{id}/archive/, format in archive/format.py) is for the club's "
        "directors only, so it is not linked here.")


class FeedPageOutput(serializers.Serializer[object]):
    count = serializers.IntegerField(help_text="Finished public events of the club.")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    club = ClubRefOutput()
    results = FeedEventOutput(many=True)


def feed_event_data(item: FeedEvent, request: Request) -> dict[str, object]:
    event = item.event
    return {
        "id": event.pk, "name": event.name, "date": event.date, "format": event.format,
        "format_label": event.get_format_display(), "is_pairs": event.is_pairs,
        "player_count": len(item.players),
        "players": [{"player_id": p.player_id, "name": p.name, "alternate": p.alternate}
                    for p in item.players],
        "placements": [{**placed, "players": [{"player_id": p.player_id, "name": p.name}
                                               for p in placed["players"]]}
                       for placed in item.placements],
        "url": request.build_absolute_uri(reverse("event-detail", args=[event.pk])),
        "results_url": request.build_absolute_uri(
            reverse("api-event-standings", args=[event.pk])),
    }


class ClubResultsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        operation_id="club_results", summary="A public club's finished results (open data)",
        description="The club's finished public events, the latest first, "
                    f"{FEED_PAGE_SIZE} a page: each with its date, format, players and final "
                    "places, and links to its page and its public standings API. A private "
                    "club answers 404 to everyone. docs/open-data.md describes the feed and "
                    "the event archive format.",
        parameters=[OpenApiParameter("page", OpenApiTypes.INT,
                                     description=f"The page, from 1 ({FEED_PAGE_SIZE} events "
                                                 "a page).")],
        responses={200: FeedPageOutput,
                   **error_responses(400, 404)},
    )
    def get(self, request: Request, slug: str) -> Response:
        club = feed_club(slug=slug)
        page_read(request.query_params.get("page"), maximum=FEED_PAGE_MAX)
        paginator = FeedPagination()
        events = paginator.paginate_queryset(feed_events(club=club), request, view=self)
        response = paginator.get_paginated_response(
            [feed_event_data(item, request) for item in feed_page(events=list(events or []))])
        response.data = {**response.data, "club": {
            "slug": club.slug, "name": club.name,
            "url": request.build_absolute_uri(reverse("club-detail", args=[club.slug]))}}
        return response

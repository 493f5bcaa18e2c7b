"""The search's reads: every public club, event and player matching a query, ranked and paged.

**What is public.** A club that is public; an event of a public club that is public itself and
running or finished (drafts and cancelled events are not results); a player who is on the
results of such an event (a player of private clubs only, or of hidden or draft events only,
is never found) and has not erased their account (``privacy``: erased players read "Withdrawn
player" and are not listed). The search answers the same to everyone: a member of a private
club finds its events on the club's own pages, not here.

**How it matches.** On PostgreSQL, first the names every word of the query begins a word of
(full-text search with the ``simple`` configuration, each word a prefix: ``spr op`` finds
"Spring Open"), then the names each word resembles (``pg_trgm``'s word similarity ``%>``, from
:data:`WORD_SIMILARITY`: "Jonh Smiht" finds "John Smith"); within each, the closest to the
whole query first (its word similarity). Both are served by the GIN indexes of ``search``'s
migration. A club also matches by its place (the city of its time zone: "Chicago" finds a club
on ``America/Chicago``). Elsewhere (the embedded SQLite default) a name matches when it
contains every word of the query, whole names and names that start with the query first. A
date in the query narrows the events to it (``search.query``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.search import SearchQuery, SearchVector, TrigramWordSimilarity
from django.db import connection, transaction
from django.db.models import Case, Exists, FloatField, OuterRef, Q, QuerySet, Value, When
from django.db.models.functions import Lower
from django.urls import reverse

from clubs.models import Club, Player
from tournaments.models import Entry, Event

from .query import KINDS, PAGE_MAX, Terms

# pg_trgm's word similarity each word of a query must reach in a name it does not begin a word
# of. Its default, 0.6, misses a swapped pair of letters ("Smiht" is 0.5 of "Smith", "Jonh" 0.4
# of "John"); at 0.4 "John" also finds "Jones" (two trigrams of five), ranked below.
WORD_SIMILARITY = 0.4
PUBLIC_STATUSES = (Event.Status.RUNNING, Event.Status.FINISHED)
# Hits a page shows, and the most a search counts: the hits of its last page.
PAGE_SIZE = 20
COUNT_MAX = PAGE_MAX * PAGE_SIZE
# The order of the kinds where scores tie, and a hit's kind by the parameter's name.
KIND_ORDER = {kind: n for n, kind in enumerate(KINDS)}
HIT_KIND = {"clubs": "club", "events": "event", "players": "player"}


# --- what is public ----------------------------------------------------------------------------
def public_clubs() -> QuerySet[Club]:
    return Club.objects.filter(is_public=True)


def public_events() -> QuerySet[Event]:
    """Events anyone may find: public, of a public club, running or finished."""
    return Event.objects.filter(is_public=True, club__is_public=True, status__in=PUBLIC_STATUSES)


def public_entries() -> QuerySet[Entry]:
    return Entry.objects.filter(event__is_public=True, event__club__is_public=True,
                                event__status__in=PUBLIC_STATUSES)


def public_players() -> QuerySet[Player]:
    """Players on the results of a public event, their accounts not erased."""
    return Player.objects.filter(erased_at__isnull=True).filter(
        Exists(public_entries().filter(player_id=OuterRef("pk"))))


# --- hits --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClubRef:
    slug: str
    name: str
    url: str


@dataclass(frozen=True)
class Hit:
    """One result: its ``kind`` (club, event or player), name and page, and what tells it apart
    (a club's place, an event's date, club and status, the public clubs a player played in)."""

    kind: str
    id: int
    name: str
    url: str
    score: float
    place: str = ""
    date: datetime.date | None = None
    status: str = ""
    status_label: str = ""
    club: ClubRef | None = None
    clubs: tuple[ClubRef, ...] = field(default_factory=tuple)

    def sort_key(self) -> tuple[float, int, int, str, int]:
        """The order of the merged kinds: each kind's own order (``_ranked``) within it."""
        if self.kind == "event":
            assert self.date is not None
            return (-self.score, KIND_ORDER["events"], -self.date.toordinal(), "", -self.id)
        return (-self.score, KIND_ORDER[f"{self.kind}s"], 0, self.name.lower(), self.id)


def place_of(time_zone: str) -> str:
    """A club's place as its time zone names it: ``America/New_York`` → "New York"."""
    return time_zone.rpartition("/")[2].replace("_", " ") if "/" in time_zone else ""


def _club_ref(club: Club) -> ClubRef:
    return ClubRef(slug=club.slug, name=club.name, url=reverse("club-detail", args=[club.slug]))


# --- matching ----------------------------------------------------------------------------------
def _postgres() -> bool:
    return connection.vendor == "postgresql"


@contextmanager
def _trigram_threshold() -> Iterator[None]:
    """The word similarity ``%>`` asks for, for the queries inside (PostgreSQL only)."""
    if not _postgres():
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT set_config('pg_trgm.word_similarity_threshold', %s, true)",
                       [str(WORD_SIMILARITY)])
        yield


def _name_tiers(queryset: QuerySet[Any], terms: Terms, *,
                also: Q | None = None) -> list[QuerySet[Any]]:
    """``queryset``'s rows whose ``name`` matches the terms' text (or ``also``), in tiers: each
    tier's rows rank above the next one's, each row annotated with its ``score``.

    PostgreSQL: first the names every word of the query begins a word of (and ``also``), then
    the names each word resembles (trigram word similarity), the first tier apart. Splitting
    them keeps a common word cheap: "Tuesday club night" begins thousands of names, and a page
    of them is read from the full-text index alone, never the trigram matches below them."""
    if not _postgres():
        matched = Q()
        for word in terms.text.split():
            matched &= Q(name__icontains=word)
        score: Any = Case(When(name__iexact=terms.text, then=Value(2.0)),
                          When(name__istartswith=terms.text, then=Value(1.0)),
                          default=Value(0.5), output_field=FloatField())
        if also is not None:
            matched |= also
        return [queryset.filter(matched).annotate(score=score)]
    every = SearchQuery(" & ".join(f"{word}:*" for word in terms.words), search_type="raw",
                        config="simple")
    words = Q(search_vector=every)
    if also is not None:
        words |= also
    resembling = Q()
    for word in terms.words:
        resembling &= Q(name__trigram_word_similar=word)
    similarity = TrigramWordSimilarity(terms.text, "name")
    rows = queryset.alias(search_vector=SearchVector("name", config="simple"))  # not selected
    return [rows.filter(words).annotate(score=similarity + Value(1.0)),
            rows.filter(resembling).exclude(words).annotate(score=similarity)]


def _tiers(kind: str, terms: Terms) -> list[QuerySet[Any]]:
    """The matching rows of one kind in tiers (:func:`_name_tiers`), each best first."""
    if kind == "clubs":
        if not terms.text:
            return []
        place = terms.text.replace(" ", "_")
        return [tier.only("id", "name", "slug", "time_zone").order_by("-score", Lower("name"), "id")
                for tier in _name_tiers(public_clubs(), terms,
                                        also=Q(time_zone__icontains=place))]
    if kind == "events":
        events = public_events()
        if terms.has_date:
            events = events.filter(date__range=(terms.date_from, terms.date_to))
        if terms.text:
            tiers = [tier.order_by("-score", "-date", "-id")
                     for tier in _name_tiers(events, terms)]
        else:
            tiers = [events.annotate(score=Value(1.0, output_field=FloatField()))
                     .order_by("-date", "-id")]
        return [tier.select_related("club").only(
            "id", "name", "date", "status", "club__id", "club__name", "club__slug")
            for tier in tiers]
    if not terms.text:
        return []
    return [tier.only("id", "name").order_by("-score", Lower("name"), "id")
            for tier in _name_tiers(public_players(), terms)]


def _hit(kind: str, row: Any) -> Hit:
    if kind == "clubs":
        return Hit(kind="club", id=row.pk, name=row.name, score=float(row.score),
                   url=reverse("club-detail", args=[row.slug]), place=place_of(row.time_zone))
    if kind == "events":
        return Hit(kind="event", id=row.pk, name=row.name, score=float(row.score),
                   url=reverse("event-detail", args=[row.pk]), date=row.date,
                   status=row.status, status_label=row.get_status_display(),
                   club=_club_ref(row.club))
    return Hit(kind="player", id=row.pk, name=row.name, score=float(row.score),
               url=reverse("player-profile", args=[row.pk]))


def _with_clubs(hits: list[Hit]) -> list[Hit]:
    """The players' hits with the public clubs whose results they are on (one query)."""
    ids = [hit.id for hit in hits if hit.kind == "player"]
    if not ids:
        return hits
    found: dict[int, list[ClubRef]] = {}
    rows = (public_entries().filter(player_id__in=ids)
            .values_list("player_id", "event__club__slug", "event__club__name")
            .distinct().order_by("player_id", "event__club__name"))
    for player_id, slug, name in rows:
        found.setdefault(player_id, []).append(
            ClubRef(slug=slug, name=name, url=reverse("club-detail", args=[slug])))
    return [Hit(**{**hit.__dict__, "clubs": tuple(found.get(hit.id, ()))})
            if hit.kind == "player" else hit for hit in hits]


class SearchHits:
    """The hits of a query, of one kind or of all three ranked together, read lazily by the
    page that is shown: ``count()`` and slicing, as Django's and DRF's paginators ask."""

    def __init__(self, terms: Terms, kind: str = "") -> None:
        self.terms = terms
        self.kinds = (kind,) if kind else KINDS
        self._tiers = {kind: _tiers(kind, terms) for kind in self.kinds}
        self._sizes: dict[tuple[str, int], int] = {}
        self._count: int | None = None

    def _size(self, kind: str, n: int) -> int:
        """How many rows tier ``n`` of ``kind`` holds, counted up to :data:`COUNT_MAX`."""
        if (kind, n) not in self._sizes:
            self._sizes[kind, n] = self._tiers[kind][n].order_by()[:COUNT_MAX].count()
        return self._sizes[kind, n]

    def count(self) -> int:
        """The hits, counted up to :data:`COUNT_MAX` (a common word matches thousands of
        names; the pages served never reach further)."""
        if self._count is None:
            with _trigram_threshold():
                found = 0
                for kind in self.kinds:
                    for n in range(len(self._tiers[kind])):
                        if found >= COUNT_MAX:
                            break
                        found += self._size(kind, n)
            self._count = min(found, COUNT_MAX)
        return self._count

    def __len__(self) -> int:
        return self.count()

    def _rows(self, kind: str, start: int, stop: int) -> list[Hit]:
        """Hits ``start`` to ``stop`` of one kind, through its tiers."""
        hits: list[Hit] = []
        offset = 0
        tiers = self._tiers[kind]
        for n, tier in enumerate(tiers):
            last = n == len(tiers) - 1
            size = None if last else self._size(kind, n)
            low, high = max(start - offset, 0), stop - offset
            if size is not None:
                high = min(high, size)
            if low < high:
                hits += [_hit(kind, row) for row in tier[low:high]]
            if size is None:
                break
            offset += size
            if offset >= stop:
                break
        return hits

    def __getitem__(self, index: slice) -> list[Hit]:
        if not isinstance(index, slice) or index.step not in (None, 1):
            raise TypeError("SearchHits are read a page at a time (a slice)")
        start, stop = index.start or 0, index.stop
        if stop is None:
            stop = self.count()
        if stop <= start:
            return []
        with _trigram_threshold():
            if len(self.kinds) == 1:
                hits = self._rows(self.kinds[0], start, stop)
            else:
                # the best ``stop`` of each kind hold the merged list's first ``stop``
                merged = [hit for kind in self.kinds for hit in self._rows(kind, 0, stop)]
                hits = sorted(merged, key=Hit.sort_key)[start:stop]
            return _with_clubs(hits)


@dataclass(frozen=True)
class Group:
    """One kind's first hits on the search page, with how many there are in all."""

    kind: str
    hits: list[Hit]
    count: int


def search_groups(*, terms: Terms, size: int) -> list[Group]:
    """The first ``size`` hits of each kind with their counts (the search page without a kind)."""
    groups = []
    for kind in KINDS:
        hits = SearchHits(terms, kind)
        first = hits[0:size]
        groups.append(Group(kind=kind, hits=first,
                            count=len(first) if len(first) < size else hits.count()))
    return groups

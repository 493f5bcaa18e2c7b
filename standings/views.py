"""Public standings pages: the event's standings, the wall screen, and what they poll.

The pages render the last snapshot; ``static/js/standings.js`` polls the version endpoint every
few seconds and, when the version moves, fetches the fragment and swaps it in (no reload). With
push on (``PUSH_URL``) the page also holds a stream open (``standings.push``) that says when the
version moves, and then polls only seldom. When the snapshot is behind the hands (worker down,
queue lost) the last snapshot stays on screen with an "updating…" note until the worker or the
reconcile task catches up.

The live part of a page is rendered once per snapshot version and kept in the cache
(``standings.fragments``): a room full of phones and wall screens costs one small query each
(the permission check and the version), not a render of 250 rows.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Concatenate, ParamSpec, cast

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.gzip import GZipMiddleware
from django.shortcuts import render
from django.utils.http import parse_etags
from django.views.decorators.http import require_GET

from common.conditional import private_etag
from common.spreadsheets import SafeCsvWriter
from conduct.selectors import corrections_summary
from tournaments.models import Event, Round

from .boards import TOTALS
from .fragments import VIEWS, body_html, fragment_language
from .middleware import region_caching, status_response, with_watching
from .push import fragment_etag, push_stream_url
from .rows import StandingRow
from .selectors import (
    event_public,
    event_standings,
    pair_card,
    player_card,
    round_status,
    standings_header,
)
from .status import status_cached, status_fill
from .watchers import watching_now

logger = logging.getLogger(__name__)

POLL_SECONDS = 3
# With a push stream open the page still polls, this seldom, in case a message was lost.
PUSH_POLL_SECONDS = 30
# The wall screen turns to its next page of rows this often (when they fill more than one).
WALL_PAGE_SECONDS = 10

P = ParamSpec("P")

_gzip = GZipMiddleware(lambda request: HttpResponse())


def compressed(
    view: Callable[Concatenate[HttpRequest, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, P], HttpResponse]:
    """Gzip the view's answer (Django's GZipMiddleware, with its BREACH padding), unless a CSRF
    token was rendered into it (a signed-in viewer's page carries the sign-out form): BREACH
    reads a secret from the compressed size of a page that also reflects the attacker's input,
    and these pages hold no secret but that token. Not site-wide, for the same reason: forms,
    account pages and API tokens stay uncompressed."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if request.META.get("CSRF_COOKIE_NEEDS_UPDATE"):  # set by get_token(): a token is in it
            return response
        return cast(HttpResponse, _gzip.process_response(request, response))

    return wrapped


def _part(request: HttpRequest, *, fragment: bool = False) -> str | None:
    """The part of the standings asked for (``standings.boards.PARTS``), None for the default
    (the event's result): ``?view=totals`` or ``?stage=qualifying`` on the pages and the CSV;
    the fragment, whose ``view`` names the layout, carries either in ``stage``. Anything else
    is the default."""
    stage = request.GET.get("stage") or None
    if stage in Round.Stage.values or (fragment and stage == TOTALS):
        return stage
    if not fragment and request.GET.get("view") == TOTALS:
        return TOTALS
    return None


def _page(request: HttpRequest, event_id: int, view: str, template: str) -> HttpResponse:
    event, status = standings_header(event_id=event_id, user=request.user)
    # order_by(): without it the rounds' default ordering (by number) makes every round distinct
    stages = list(event.rounds.order_by().values_list("stage", flat=True).distinct())
    part = _part(request) if len(stages) > 1 else None
    body = body_html(event_id=event.pk, version=status.version, view=view, part=part,
                     user=request.user)
    finished = event.status == Event.Status.FINISHED
    return render(request, template, {
        "event": event, "status": status, "body_html": body, "view": view,
        "poll_seconds": POLL_SECONDS, "stage": part,
        "push_url": push_stream_url(event.pk), "push_poll_seconds": PUSH_POLL_SECONDS,
        "round_status": round_status(event) if view == "wall" else None,
        # "Last corrected <time>": a result changed after the players were shown it
        "last_corrected": corrections_summary(event)[1] if view == "page" else None,
        "page_seconds": WALL_PAGE_SECONDS,
        "watching": watching_now(event_id=event.pk, event=event),
        # The tabs: the result (the default), each stage seated, the totals over all games.
        "result_label": "Final results" if finished else "Standings",
        "stages": [(s, Round.Stage(s).label) for s in Round.Stage.values if s in stages]
        if len(stages) > 1 else [],
    })


@require_GET
@compressed
def standings_page(request: HttpRequest, event_id: int) -> HttpResponse:
    return _page(request, event_id, "page", "standings/standings.html")


@require_GET
@compressed
def standings_wall(request: HttpRequest, event_id: int) -> HttpResponse:
    return _page(request, event_id, "wall", "standings/standings_wall.html")


@require_GET
@compressed
def standings_fragment(request: HttpRequest, event_id: int) -> HttpResponse:
    """The live part of either page (table, chart, rules), for the poller to swap in.

    Conditional: the ETag names the snapshot version, the view and the stage, so a browser that
    has this version answers 304 with no body. A public event's version comes from the cache (no
    query at all when the body is cached too) and any cache may keep the answer for a second
    (``&v=``, the version the page wants, keeps a cache in front from handing out an older
    one): the region is the same for every viewer. Other events go through the permission
    check and get a private answer with an ETag of its own."""
    view = request.GET.get("view")
    view = view if view in VIEWS else "page"
    stage = _part(request, fragment=True)
    cached = status_cached(event_id=event_id)
    if cached is not None:
        version, public = int(cached["version"]), True
    else:
        event, status = standings_header(event_id=event_id, user=request.user)
        version, public = status.version, event_public(event)
    language = fragment_language(request.GET.get("lang"))
    etag = fragment_etag(event_id, version, view, stage, language=language)
    if not public:
        etag = private_etag(etag)
    if etag in parse_etags(request.headers.get("If-None-Match", "")):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body_html(event_id=event_id, version=version, view=view,
                                          part=stage, user=request.user, language=language))
    response["ETag"] = etag
    response["X-Standings-Version"] = str(version)
    wanted = request.GET.get("v")
    region_caching(response, public=public, exact=wanted is None or wanted == str(version))
    return response


@require_GET
def standings_version(request: HttpRequest, event_id: int) -> HttpResponse:
    """``{"version", "behind", ...}``: polled by the pages; cheap (the rows are not loaded).

    A public event's answer usually comes from the cache before this view
    (``standings.middleware``); here the database answers, with the permission check, and
    fills the cache for the next polls."""
    event, status = standings_header(event_id=event_id, user=request.user)
    answer = status.to_dict()
    public = event_public(event)
    status_fill(event_id=event.pk, version=status.version,
                source_version=status.source_version, hands_version=status.hands_version,
                computed_at=answer["computed_at"], public=public)
    if request.GET.get("round") == "1":  # the wall screen also shows the state of play
        answer["round"] = round_status(event)
    return status_response(request, with_watching(request, event.pk, answer), public=public)


@require_GET
@compressed
def standings_csv(request: HttpRequest, event_id: int) -> HttpResponse:
    """The standings as a spreadsheet: one row per player (pair), one column per round; the
    rows and ranks of the page (the final places once the event has them; ``?view=totals``:
    every game summed), ``section`` naming the board a row is on."""
    standings = event_standings(event_id=event_id, user=request.user, chart_top=0,
                                part=_part(request))
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="event-{standings.event.pk}-standings.csv"'
    )
    writer = SafeCsvWriter(response)  # a name like "=HYPERLINK(...)" stays text
    rounds = standings.round_numbers
    titles = {board.key: board.title or "Standings" for board in standings.boards}
    if standings.event.is_pairs:
        _pair_csv(writer, standings.rows, rounds, titles)
        return response
    writer.writerow(["rank", "player", "points", "games", "wins", "declared", "made", "set",
                     "byes", "best_game", "section", *(f"round_{n}" for n in rounds)])
    for row in standings.rows:
        per_round = row.get("per_round", {})
        writer.writerow([
            _csv_rank(row), row["name"], row["points"],
            row["games"], row["wins"], row["hands_declared"], row["hands_made"],
            row["hands_set"], row["byes"], row["highest_game"] if row["highest_game"] is not None
            else "", titles.get(row.get("board", ""), ""),
            *(per_round.get(str(n), "") for n in rounds),
        ])
    return response


def _csv_rank(row: StandingRow) -> str:
    """The rank column: the place (``=`` when shared), the places still open for a pair in the
    bracket (``1 to 4``: a spreadsheet would read ``1-4`` as a date), empty for an entry not
    placed."""
    if row.get("rank") is not None:
        return f"{row['rank']}{'=' if row.get('tied') else ''}"
    text = str(row.get("rank_text", ""))
    return "" if text in ("", "–") else text.replace("–", " to ")


def _pair_csv(writer: SafeCsvWriter, rows: list[StandingRow], rounds: list[int],
              titles: dict[str, str]) -> None:
    """One row per pair: wins (byes count), losses, points for and against, per round."""
    writer.writerow(["rank", "pair", "players", "wins", "losses", "games", "byes", "points",
                     "against", "best_game", "section", *(f"round_{n}" for n in rounds)])
    for row in rows:
        per_round = row.get("per_round", {})
        writer.writerow([
            _csv_rank(row), row["name"],
            " & ".join(row.get("players", [])), row["wins"], row.get("losses", 0), row["games"],
            row["byes"], row["points"], row.get("against", 0),
            row["highest_game"] if row["highest_game"] is not None else "",
            titles.get(row.get("board", ""), ""),
            *(per_round.get(str(n), "") for n in rounds),
        ])


@require_GET
def pair_page(request: HttpRequest, event_id: int, pair_id: int) -> HttpResponse:
    """One pair's event: each match, the pair met, the game hand by hand."""
    return render(request, "standings/pair.html",
                  pair_card(event_id=event_id, pair_id=pair_id, user=request.user))


@require_GET
def player_page(request: HttpRequest, event_id: int, entry_id: int) -> HttpResponse:
    """One player's night: each round's table, partner, opponents, game and hands."""
    return render(request, "standings/player.html",
                  player_card(event_id=event_id, entry_id=entry_id, user=request.user))

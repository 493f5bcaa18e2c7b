"""Accessibility in a real browser, over every kind of page the product serves.

axe-core (vendored in tests/e2e/vendor, so no network is needed) runs in each page at phone
width (390 px) and desk width (1280 px), the wall screens also at 1920×1080, and must find no
violation of impact "serious" or "critical" (contrast AA, names of buttons and fields,
landmarks, lists, ...). A second check opens each page at 200 % zoom (a 640 px wide CSS viewport
at device scale 2) and asks that the document never scrolls sideways (a wide table may scroll
inside its own box). The pages people read most are also read in German: at 390 px (inside the
screen, and axe), and a few at 1280 and 1920 px (inside the window, no text spilling out of
its own box).

The pages show one seeded club (the demo: a finished and a running club night, a season, a
partners' double-elimination bracket half played), with an individual progressive day, the
other tables (three, five and six hands, check pinochle), an invitation and a short night
finished last (so the home page's latest events show a finished one) added. The data is written once for the module and served by one live server; the
browser contexts (a guest and the club's director, per size) are reused from page to page.
"""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from pytest_django.live_server_helper import LiveServer

from clubs.models import Club
from clubs.services import invitation_create, player_create
from conduct.services import director_call_close, director_call_raise, director_call_take
from demo.services import load_demo
from draw.cards import table_cards_ensure
from draw.services import event_status_set, round_create, round_set_status
from league.models import Season
from scoring.models import Game
from scoring.services import game_confirm, game_set_scorer, hand_submit
from tests.e2e.accounts import sign_in
from tests.scoring.factories import values
from tests.tournaments.factories import progressive_event
from tournaments.models import Event, Pair, Table
from tournaments.services import entry_check_in, event_create

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

# The data is committed once for the module (the ``site`` fixture); each test's own transaction
# (the plain django_db mark, which also asks for the test database) is only rolled back.
pytestmark = [pytest.mark.e2e, pytest.mark.django_db]

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
DIRECTOR = ("director", "director-pass")  # the demo's director of its club
WIDTHS = (390, 1280)
WALL_WIDTHS = (390, 1280, 1920)
SIZES = {  # width → (viewport height, phone?)
    390: (844, True), 640: (450, False), 1280: (800, False), 1920: (1080, False),
}
ZOOM_WIDTH = 640  # 1280 px at 200 %: the same CSS width, drawn at device scale 2


@dataclass(frozen=True)
class Site:
    """What the pages are about: the seeded objects' keys and the server's address."""

    base: str
    club: str
    night: int  # tonight's club night, round 2 playing
    finished: int  # last week's club night
    bracket: int  # the partners' bracket, its second wave playing
    day: int  # an individual progressive day, game 2 playing
    entry: int
    pair: int
    player: int
    season: int
    invitation: str
    invitation_pk: int
    table_keeper: str  # no keeper named yet
    table_playing: str  # keeper named, a hand saved
    table_finished: str  # over, waiting for the other side
    table_confirmed: str
    idle_card: str  # a day card whose number has no table this game
    table_called: str  # a director called and on the way
    table_ruling: str  # the director's ruling shown
    threes: int  # a three-handed club night: round 1 confirmed, round 2 playing
    threes_entry: int
    table_threes: str  # round 2's table of four: the dealer sits each hand out
    day_threes: int  # a cutthroat progressive day at tables of three, game 1 playing
    six: int  # a six-handed triple-deck night (teams of three), round 1 playing
    table_six: str
    table_five: str  # five-handed: a called partner per hand
    checks: int  # a check pinochle night, one hand in
    table_checks: str


@dataclass(frozen=True)
class Kind:
    path: Callable[[Site], str]
    who: str = "director"  # "guest"; "visitor": a guest who signs in on the page itself
    wall: bool = False
    status: int = 200
    act: Callable[[Page], None] | None = None  # brings the loaded page to the state to check


def _failed_sign_in(page: Page) -> None:
    page.fill("#id_login", "nobody-here")
    page.fill("#id_password", "not-the-password")
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#login-form .errorlist, #login-form .field-error, .messages .error")


def _signed_in(page: Page) -> None:
    """Sign in from the page: the next one says so in the messages at its top."""
    page.fill("#id_login", DIRECTOR[0])
    page.fill("#id_password", DIRECTOR[1])
    page.click("#login-form button[type=submit]")
    page.wait_for_selector(".messages li")


def _refused_event_form(page: Page) -> None:
    page.fill("#id_name", "")
    page.eval_on_selector("#id_name", "field => { field.form.noValidate = true; }")
    page.click("button:has-text('Create')")
    page.wait_for_selector(".errorlist, .field-error:not(:empty)")


KINDS: dict[str, Kind] = {
    # --- anyone ---------------------------------------------------------------------------------
    "home": Kind(lambda s: "/", who="guest"),
    "login": Kind(lambda s: "/accounts/login/", who="guest"),
    "login-refused": Kind(lambda s: "/accounts/login/", who="guest", act=_failed_sign_in),
    "signed-in-message": Kind(lambda s: "/accounts/login/", who="visitor", act=_signed_in),
    "signup": Kind(lambda s: "/accounts/signup/", who="guest"),
    "invitation": Kind(lambda s: f"/invite/{s.invitation}/", who="guest"),
    "not-found": Kind(lambda s: "/events/999999/", who="guest", status=404),
    "search": Kind(lambda s: "/search/", who="guest"),
    "search-results": Kind(lambda s: "/search/?q=night", who="guest"),
    "table-keeper": Kind(lambda s: f"/t/{s.table_keeper}/", who="guest"),
    "table-playing": Kind(lambda s: f"/t/{s.table_playing}/", who="guest"),
    "table-finished": Kind(lambda s: f"/t/{s.table_finished}/", who="guest"),
    "table-confirmed": Kind(lambda s: f"/t/{s.table_confirmed}/", who="guest"),
    "table-called": Kind(lambda s: f"/t/{s.table_called}/", who="guest"),
    "table-ruling": Kind(lambda s: f"/t/{s.table_ruling}/", who="guest"),
    "table-card": Kind(lambda s: f"/c/{s.idle_card}/", who="guest"),
    "standings": Kind(lambda s: f"/events/{s.night}/standings/", who="guest"),
    "standings-pairs": Kind(lambda s: f"/events/{s.bracket}/standings/", who="guest"),
    "player": Kind(lambda s: f"/events/{s.night}/players/{s.entry}/", who="guest"),
    "pair": Kind(lambda s: f"/events/{s.bracket}/pairs/{s.pair}/", who="guest"),
    "bracket": Kind(lambda s: f"/events/{s.bracket}/bracket/", who="guest"),
    "rules": Kind(lambda s: f"/events/{s.night}/rules/", who="guest"),
    "profile": Kind(lambda s: f"/players/{s.player}/", who="guest"),
    # --- the walls ------------------------------------------------------------------------------
    "wall-standings": Kind(lambda s: f"/events/{s.night}/standings/wall/", who="guest", wall=True),
    "wall-standings-pairs": Kind(lambda s: f"/events/{s.bracket}/standings/wall/", who="guest",
                                 wall=True),
    "wall-standings-day": Kind(lambda s: f"/events/{s.day}/standings/wall/", who="guest",
                               wall=True),
    "wall-bracket": Kind(lambda s: f"/events/{s.bracket}/bracket/?wall=1", who="guest", wall=True),
    "wall-seating": Kind(lambda s: f"/events/{s.night}/wall/seating/", who="guest", wall=True),
    "wall-seating-day": Kind(lambda s: f"/events/{s.day}/wall/seating/", who="guest", wall=True),
    "wall-movement": Kind(lambda s: f"/events/{s.day}/wall/movement/", who="guest", wall=True),
    # --- the club and its director ---------------------------------------------------------------
    "home-signed-in": Kind(lambda s: "/"),
    "club": Kind(lambda s: f"/clubs/{s.club}/"),
    "club-manage": Kind(lambda s: f"/clubs/{s.club}/manage/"),
    "invitation-detail": Kind(lambda s: f"/clubs/{s.club}/manage/invitations/{s.invitation_pk}/"),
    "event-night": Kind(lambda s: f"/events/{s.night}/"),
    "event-finished": Kind(lambda s: f"/events/{s.finished}/"),
    "event-bracket": Kind(lambda s: f"/events/{s.bracket}/"),
    "event-day": Kind(lambda s: f"/events/{s.day}/"),
    "event-form": Kind(lambda s: f"/clubs/{s.club}/events/new/"),
    "event-form-refused": Kind(lambda s: f"/clubs/{s.club}/events/new/", act=_refused_event_form),
    "event-settings": Kind(lambda s: f"/events/{s.night}/settings/"),
    "checkin": Kind(lambda s: f"/events/{s.night}/checkin/"),
    "pairs": Kind(lambda s: f"/events/{s.bracket}/pairs/"),
    "round": Kind(lambda s: f"/events/{s.night}/rounds/2/"),
    "director-screen": Kind(lambda s: f"/events/{s.night}/director/"),
    "director-screen-day": Kind(lambda s: f"/events/{s.day}/director/"),
    "event-calls": Kind(lambda s: f"/events/{s.day}/calls/"),
    "director-games": Kind(lambda s: f"/events/{s.night}/games/"),
    "director-hands": Kind(lambda s: f"/events/{s.night}/hands/"),
    "results": Kind(lambda s: f"/events/{s.finished}/results/"),
    "results-bracket": Kind(lambda s: f"/events/{s.bracket}/results/"),
    "round-cards": Kind(lambda s: f"/events/{s.night}/rounds/2/cards/"),
    "day-table-cards": Kind(lambda s: f"/events/{s.day}/table-cards/"),
    "score-sheet": Kind(lambda s: f"/events/{s.night}/rounds/2/sheet/"),
    "scorecards": Kind(lambda s: f"/events/{s.night}/scorecards/"),
    "seasons": Kind(lambda s: f"/clubs/{s.club}/seasons/"),
    "season": Kind(lambda s: f"/clubs/{s.club}/seasons/{s.season}/"),
    "season-form": Kind(lambda s: f"/clubs/{s.club}/seasons/new/"),
    "ratings": Kind(lambda s: f"/clubs/{s.club}/ratings/"),
    # --- three-handed: tables of three, and of four with the dealer sitting out ---------------
    "event-threes": Kind(lambda s: f"/events/{s.threes}/"),
    "round-threes": Kind(lambda s: f"/events/{s.threes}/rounds/2/"),
    "director-screen-threes": Kind(lambda s: f"/events/{s.threes}/director/"),
    "director-hands-threes": Kind(lambda s: f"/events/{s.threes}/hands/"),
    "scorecards-threes": Kind(lambda s: f"/events/{s.threes}/scorecards/"),
    "round-cards-threes": Kind(lambda s: f"/events/{s.threes}/rounds/2/cards/"),
    "table-threes": Kind(lambda s: f"/t/{s.table_threes}/", who="guest"),
    "standings-threes": Kind(lambda s: f"/events/{s.threes}/standings/", who="guest"),
    "player-threes": Kind(lambda s: f"/events/{s.threes}/players/{s.threes_entry}/",
                          who="guest"),
    "rules-threes": Kind(lambda s: f"/events/{s.threes}/rules/", who="guest"),
    "wall-seating-threes": Kind(lambda s: f"/events/{s.threes}/wall/seating/", who="guest",
                                wall=True),
    "wall-standings-threes": Kind(lambda s: f"/events/{s.threes}/standings/wall/",
                                  who="guest", wall=True),
    "event-day-threes": Kind(lambda s: f"/events/{s.day_threes}/"),
    "wall-movement-threes": Kind(lambda s: f"/events/{s.day_threes}/wall/movement/",
                                 who="guest", wall=True),
    # --- the other tables of the rule texts: six in two teams, five with a called partner,
    # check pinochle's checks -----------------------------------------------------------------
    "table-six": Kind(lambda s: f"/t/{s.table_six}/", who="guest"),
    "round-six": Kind(lambda s: f"/events/{s.six}/rounds/1/"),
    "rules-six": Kind(lambda s: f"/events/{s.six}/rules/", who="guest"),
    "table-five": Kind(lambda s: f"/t/{s.table_five}/", who="guest"),
    "table-checks": Kind(lambda s: f"/t/{s.table_checks}/", who="guest"),
    "standings-checks": Kind(lambda s: f"/events/{s.checks}/standings/", who="guest"),
}


def _seed_other_tables(club: Club, director: Any) -> dict[str, Any]:
    """A six-handed night of twelve and a five-handed night of five, round 1 seated; a check
    pinochle night of three with a hand that showed a run."""
    keys: dict[str, Any] = {}
    for preset, players, key in (("six_handed_triple_deck", 12, "six"),
                                 ("five_handed", 5, "five"), ("check_pinochle", 3, "checks")):
        night = event_create(club=club, name=f"{preset} night", date=datetime.date(2026, 11, 26),
                             ruleset_preset=preset, rounds_planned=2, deals_per_round=2,
                             actor=director)
        for n in range(players):
            entry_check_in(event=night, player=player_create(club=club, name=f"{key} {n + 1}"))
        first = round_create(event=night, actor=director)
        table = first.tables.order_by("number")[0]
        game_set_scorer(game=table.game, position="N")
        keys[key] = night.pk
        keys[f"table_{key}"] = table.token
        if key == "checks":
            hand_submit(game=table.game, number=1, values={
                "dealer": "N", "outcome": "played", "bidder": "E", "bid": 300, "trump": "H",
                "meld": {"N": 20, "E": 150, "S": 40}, "counters": {"N": 30, "E": 170, "S": 50},
                "tricks": {"N": 2, "E": 10, "S": 3}, "check_melds": {"E": ["run"]}})
    return {"six": keys["six"], "table_six": keys["table_six"],
            "table_five": keys["table_five"], "checks": keys["checks"],
            "table_checks": keys["table_checks"]}


def _three_handed_hand(seats: list[str], dealer: str) -> dict[str, Any]:
    """A made hand at a three-handed table (the dealer sits out at a table of four): the seat
    after the dealer bids 300 in hearts and takes most of the tricks."""
    playing = [s for s in seats[seats.index(dealer) + 1:] + seats[:seats.index(dealer) + 1]
               if not (len(seats) == 4 and s == dealer)]
    first, second, third = playing[:3]
    return {"dealer": dealer, "outcome": "played", "bidder": first, "bid": 300, "trump": "H",
            "meld": {first: 150, second: 40, third: 20},
            "counters": {first: 170, second: 50, third: 30},
            "tricks": {first: 10, second: 3, third: 2}}


def _seed_threes(club: Club, director: Any) -> dict[str, Any]:
    """A three-handed club night of ten (tables of three and one of four) with round 1 played
    and confirmed and round 2 under way, and a cutthroat progressive day of nine."""
    night = event_create(club=club, name="Three-handed Tuesday", date=datetime.date(2026, 11, 24),
                         ruleset_preset="three_handed", rounds_planned=3, deals_per_round=2,
                         actor=director)
    for n in range(10):
        entry_check_in(event=night, player=player_create(club=club, name=f"Trio {n + 1:02d}"))
    first = round_create(event=night, actor=director)
    for table in first.tables.order_by("number"):
        seats = list(table.seats.order_by("id").values_list("position", flat=True))
        seats = [p for p in ("N", "E", "S", "W") if p in seats]
        game_set_scorer(game=table.game, position=seats[0])
        for number, dealer in ((1, seats[0]), (2, seats[1])):
            hand_submit(game=table.game, number=number, values=_three_handed_hand(seats, dealer))
        game_confirm(game=Game.objects.get(table=table), position=seats[1])
    round_set_status(round_=first, status="closed", actor=director)
    second = round_create(event=night, actor=director)
    four = next(t for t in second.tables.all() if t.seats.count() == 4)
    game_set_scorer(game=four.game, position="N")
    hand_submit(game=four.game, number=1, values=_three_handed_hand(["N", "E", "S", "W"], "N"))
    day = event_create(club=club, name="Cutthroat Saturday", date=datetime.date(2026, 11, 28),
                       format=Event.Format.INDIVIDUAL_PROGRESSIVE, ruleset_preset="cutthroat",
                       format_settings={"cut": 3}, deals_per_round=2, actor=director)
    for n in range(9):
        entry_check_in(event=day, player=player_create(club=club, name=f"Throat {n + 1:02d}"))
    round_create(event=day, actor=director)
    return {"threes": night.pk, "threes_entry": night.entries.order_by("pk")[0].pk,
            "table_threes": four.token, "day_threes": day.pk}


def _seed_finished_last(club: Club, director: Any) -> None:
    """A short night of four, played and finished, dated last of the club's events, so the
    home page's five latest show a finished event (its badge is the longest word in German:
    "Abgeschlossen")."""
    latest = max(Event.objects.filter(club=club).order_by("-date")[0].date,
                 datetime.date(2026, 11, 28))
    night = event_create(club=club, name="Quick club night", date=latest, rounds_planned=1,
                         deals_per_round=1, actor=director)
    for n in range(4):
        entry_check_in(event=night, player=player_create(club=club, name=f"Quick {n + 1}"))
    only = round_create(event=night, actor=director)
    table = only.tables.get()
    game_set_scorer(game=table.game, position="N")
    hand_submit(game=table.game, number=1, values=values())
    game_confirm(game=Game.objects.get(table=table), position="E")
    round_set_status(round_=only, status="closed", actor=director)
    event_status_set(event=night, status="finished", actor=director)


def _seed() -> dict[str, Any]:
    """The demo club, plus a progressive day (game 1 confirmed, game 2 playing), an invitation
    and the day's table cards; returns the keys the pages need."""
    assert load_demo(), "the demo club is already there: the database was not empty"
    club = Club.objects.get(slug="riverside")
    director = get_user_model().objects.get(username=DIRECTOR[0])
    night = Event.objects.get(club=club, name="Tonight's club night")
    finished = Event.objects.filter(club=club, status=Event.Status.FINISHED).order_by("-date")[0]
    bracket = Event.objects.get(club=club, name="Saturday partners' bracket")

    day = progressive_event(16, club=club, deals_per_round=2)
    first = round_create(event=day, actor=director)
    for table in first.tables.order_by("number"):
        game_set_scorer(game=table.game, position="N")
        for number in (1, 2):
            hand_submit(game=table.game, number=number, values=values())
        game_confirm(game=Game.objects.get(table=table), position="E")
    second = day.rounds.get(number=2)  # seated by itself once game 1 was confirmed
    round_set_status(round_=second, status="playing", actor=director)
    playing, keeper = (t.game for t in second.tables.order_by("number")[:2])
    game_set_scorer(game=playing, position="N")
    hand_submit(game=playing, number=1, values=values())
    cards = table_cards_ensure(event=day, count=second.tables.count() + 1, actor=director)
    called, ruled = (t for t in second.tables.order_by("number")[2:4])
    waiting = director_call_raise(table=called, reason="dispute", words="Who led the ace?")
    director_call_take(call=waiting, actor=director)
    director_call_raise(table=second.tables.get(number=1), reason="misdeal")
    director_call_close(call=director_call_raise(table=ruled, reason="renege"),
                        note="Renege: two tricks to E-W.", actor=director)

    invitation = invitation_create(club=club, role="member", actor=director)
    others = {**_seed_threes(club, director), **_seed_other_tables(club, director)}
    _seed_finished_last(club, director)
    tonight = Table.objects.filter(round__event=night, round__number=2)
    entry = night.entries.order_by("pk")[0]
    return {
        "club": club.slug, "night": night.pk, "finished": finished.pk, "bracket": bracket.pk,
        "day": day.pk, "entry": entry.pk, "player": entry.player_id,
        "pair": Pair.objects.filter(event=bracket).order_by("seed")[0].pk,
        "season": Season.objects.get(club=club).pk,
        "invitation": invitation.token, "invitation_pk": invitation.pk,
        "table_keeper": keeper.table.token, "table_playing": playing.table.token,
        "table_finished": tonight.filter(game__status=Game.Status.FINISHED)[0].token,
        "table_confirmed": first.tables.order_by("number")[0].token,
        "idle_card": cards[-1].token,
        "table_called": called.token, "table_ruling": ruled.token, **others,
    }


@pytest.fixture(scope="module")
def site(django_db_setup: None, django_db_blocker: Any) -> Iterator[Site]:
    """The seeded data, committed, and a live server of the module's own. The database stays
    open to this module's tests (the server's thread reads it) and is emptied at the end, as a
    transactional test would leave it."""
    with django_db_blocker.unblock():
        try:
            keys = _seed()
            server = LiveServer("localhost")
            server._live_server_modified_settings.enable()
            try:
                yield Site(base=server.url, **keys)
            finally:
                server._live_server_modified_settings.disable()
                server.stop()
        finally:
            call_command("flush", interactive=False, verbosity=0)


class Browsers:
    """One browser context per visitor and size, signed in once and reused."""

    def __init__(self, browser: Browser, site: Site) -> None:
        self.browser, self.site = browser, site
        self.pages: dict[tuple[str, int, bool, str], Page] = {}
        self.contexts: list[BrowserContext] = []

    def page(self, who: str, width: int, *, zoom: bool = False, locale: str = "") -> Page:
        key = (who, width, zoom, locale)
        if key not in self.pages:
            height, phone = SIZES[width]
            context = self.browser.new_context(
                viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone,
                device_scale_factor=2 if zoom else 1, **({"locale": locale} if locale else {}))
            self.contexts.append(context)
            page = context.new_page()
            page.set_default_timeout(20_000)
            if who == "director":
                sign_in(page, self.site.base, *DIRECTOR)
            self.pages[key] = page
        return self.pages[key]

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(scope="module")
def browsers(browser: Browser, site: Site) -> Iterator[Browsers]:
    held = Browsers(browser, site)
    yield held
    held.close()


def _open(page: Page, site: Site, kind: Kind) -> str:
    """Load the page of ``kind``, bring it to its state and let its scripts settle; returns
    its path."""
    path = kind.path(site)
    response = page.goto(site.base + path, wait_until="load")
    assert response is not None and response.status == kind.status, (
        f"{path} answered {response and response.status}, not {kind.status}")
    if kind.act is not None:
        kind.act(page)
    page.evaluate("""() => document.fonts.ready.then(() => new Promise(
        done => requestAnimationFrame(() => requestAnimationFrame(done))))""")
    return path


def _describe(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join(node["summary"].split())
            lines.append(f"    {node['target']}: {summary}")
    return "\n".join(lines)


CASES = [pytest.param(name, width, id=f"{name}-{width}")
         for name, kind in KINDS.items()
         for width in (WALL_WIDTHS if kind.wall else WIDTHS)]


def _screenshot(page: Any, name: str) -> None:
    """With ``SCREENSHOTS`` set, the page as checked, to look at (test-output/pages)."""
    if os.environ.get("SCREENSHOTS"):
        shots = Path(os.environ.get("TEST_OUTPUT_DIR") or "test-output") / "pages"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{name}.png"), full_page=True)


def _serious_violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's serious and critical violations on the page as it stands."""
    page.evaluate(AXE)
    return page.evaluate("""async () => {
      const result = await axe.run(document, {resultTypes: ["violations"]});
      return result.violations
        .filter(v => v.impact === "serious" || v.impact === "critical")
        .map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(n => ({
          target: n.target.join(" "), summary: n.failureSummary || ""}))}));
    }""")


@pytest.mark.parametrize(("name", "width"), CASES)
def test_no_serious_or_critical_violation(
    name: str, width: int, site: Site, browsers: Browsers
) -> None:
    kind = KINDS[name]
    page = browsers.page(kind.who, width)
    path = _open(page, site, kind)
    _screenshot(page, f"{name}-{width}")
    violations = _serious_violations(page)
    assert violations == [], (
        f"axe: {len(violations)} serious or critical violation(s) on {name} ({path}) at "
        f"{width} px:\n{_describe(violations)}")


@pytest.mark.parametrize("name", list(KINDS))
def test_no_sideways_scrolling_at_200_percent_zoom(
    name: str, site: Site, browsers: Browsers
) -> None:
    kind = KINDS[name]
    page = browsers.page(kind.who, ZOOM_WIDTH, zoom=True)
    path = _open(page, site, kind)
    widths = page.evaluate("""() => {
      const root = document.documentElement;
      const wide = [...document.body.querySelectorAll("*")]
        .filter(el => el.getBoundingClientRect().right > root.clientWidth + 0.5)
        .slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
          + (el.className && typeof el.className === "string"
             ? "." + el.className.trim().split(/\\s+/).join(".") : ""));
      return {scroll: root.scrollWidth, client: root.clientWidth, wide};
    }""")
    assert widths["scroll"] <= widths["client"], (
        f"{name} ({path}) scrolls sideways at 200 % zoom: the document is {widths['scroll']} px "
        f"wide in a {widths['client']} px window; wider than the window: {widths['wide']}")


# German words are longer than English ones ("Veranstaltung", "Turnierleiter"): the pages a
# phone shows most, read in German at 390 px, keep every element inside the screen (a wide
# table scrolls in its own box, whose children are not counted) and pass axe as in English.
GERMAN_KINDS = ("home", "home-signed-in", "club", "event-night", "standings", "table-playing",
                "director-screen", "search-results", "event-form")
# What a German page must show for its check to mean something: the home page's latest events
# include a finished one (the "Abgeschlossen" badge once pushed the home page past 390 px).
GERMAN_SHOWS = {"home": ".badge.finished", "home-signed-in": ".badge.finished"}


def _wider_than_the_screen(page: Page) -> list[str]:
    """The elements reaching past the right edge of the window, outside a box that scrolls
    sideways on its own."""
    return list(page.evaluate("""() => {
      const width = document.documentElement.clientWidth;
      const scrolls = el => { for (let p = el.parentElement; p; p = p.parentElement) {
          const x = getComputedStyle(p).overflowX;
          if ((x === "auto" || x === "scroll") && p !== document.documentElement
              && p !== document.body) return true; }
        return false; };
      return [...document.body.querySelectorAll("*")]
        .filter(el => el.getClientRects().length && el.getBoundingClientRect().right > width + 0.5
                      && !scrolls(el))
        .slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
          + (el.className && typeof el.className === "string"
             ? "." + el.className.trim().split(/\\s+/).join(".") : "")
          + " (" + Math.round(el.getBoundingClientRect().right) + " px)");
    }"""))


@pytest.mark.parametrize("name", GERMAN_KINDS)
def test_german_pages_fit_a_phone_and_pass_axe(name: str, site: Site, browsers: Browsers) -> None:
    kind = KINDS[name]
    page = browsers.page(kind.who, 390, locale="de-DE")
    path = _open(page, site, kind)
    assert page.evaluate("document.documentElement.lang") == "de", path
    if name in GERMAN_SHOWS:
        assert page.locator(GERMAN_SHOWS[name]).first.is_visible(), (name, GERMAN_SHOWS[name])
    _screenshot(page, f"{name}-390-de")
    wide = _wider_than_the_screen(page)
    assert not wide, f"{name} ({path}) in German at 390 px: wider than the screen: {wide}"
    violations = _serious_violations(page)
    assert violations == [], (
        f"axe: {len(violations)} serious or critical violation(s) on {name} ({path}) in German "
        f"at 390 px:\n{_describe(violations)}")


# The same German pages on a desk and on a wall screen: a few kinds (the home page, the
# standings, the director's screen, the wall) at 1280 and 1920 px, where a long word or a label
# sized for English would sooner spill out of its own cell, badge or button than out of the
# window: nothing wider than the window, and no element whose text runs past its own box.
GERMAN_WIDE_KINDS = ("home", "standings", "director-screen", "wall-standings")


def _spilling_over(page: Page) -> list[str]:
    """The elements whose content is wider than their own box and neither scrolls (a box that
    scrolls sideways on its own is allowed) nor is hidden on purpose (``.visually-hidden``)."""
    return list(page.evaluate("""() => {
      const scrolls = el => { for (let p = el; p; p = p.parentElement) {
          const x = getComputedStyle(p).overflowX;
          if ((x === "auto" || x === "scroll") && p !== document.documentElement
              && p !== document.body) return true; }
        return false; };
      return [...document.body.querySelectorAll("*")]
        .filter(el => el.getClientRects().length && el.clientWidth > 1
                      && el.scrollWidth > el.clientWidth + 1 && !scrolls(el))
        .slice(0, 5).map(el => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "")
          + (el.className && typeof el.className === "string"
             ? "." + el.className.trim().split(/\\s+/).join(".") : "")
          + " (" + el.scrollWidth + " px in " + el.clientWidth + ")");
    }"""))


@pytest.mark.parametrize(("name", "width"), [
    pytest.param(name, width, id=f"{name}-{width}")
    for name in GERMAN_WIDE_KINDS for width in (1280, 1920)])
def test_german_pages_fit_a_desk_and_a_wall(
    name: str, width: int, site: Site, browsers: Browsers
) -> None:
    kind = KINDS[name]
    page = browsers.page(kind.who, width, locale="de-DE")
    path = _open(page, site, kind)
    assert page.evaluate("document.documentElement.lang") == "de", path
    _screenshot(page, f"{name}-{width}-de")
    wide = _wider_than_the_screen(page)
    assert not wide, f"{name} ({path}) in German at {width} px: wider than the window: {wide}"
    spilling = _spilling_over(page)
    assert not spilling, (
        f"{name} ({path}) in German at {width} px: text running out of its box: {spilling}")

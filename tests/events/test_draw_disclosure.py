"""The draw anyone can re-run: the commitment to the event's seed (the SHA-256 of its text) is
public from the event's creation, before any round is seated; the seed itself only once the
event is finished, on the API (``GET /api/events/{id}/draw/``), the event page and the results
sheet, each read with the event's own permission."""

from __future__ import annotations

import datetime
import hashlib
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from playwright.sync_api import Page, expect
from rest_framework.test import APIClient

from clubs.models import Membership
from draw.selectors import DRAW_ALGORITHM, draw_disclosure
from draw.services import event_status_set, round_create, round_set_status
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tests.e2e.walls import play_round
from tournaments.models import DRAW_SEED_BITS, Event, Round
from tournaments.services import entries_create_many, event_create

DAY = datetime.date(2026, 11, 21)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _night(slug: str, *, is_public: bool = True, players: int = 8) -> tuple[Event, Any]:
    """A club night made as a director makes it (its seed drawn at random), players here,
    nothing seated."""
    club, director = club_with_director(slug=slug, is_public=is_public)
    event = event_create(club=club, name="Friday night", date=DAY, deals_per_round=1,
                         rounds_planned=2)
    entries_create_many(event=event, players=[PlayerFactory(club=club) for _ in range(players)])
    return event, director


def _play_to_the_end(event: Event) -> None:
    for _ in range(event.rounds_planned):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status=Round.Status.PLAYING)
        play_round(round_)
        round_set_status(round_=round_, status=Round.Status.CLOSED)
    event_status_set(event=event, status=Event.Status.FINISHED)


def _section(html: str) -> str:
    return html.split('id="draw"', 1)[1].split("</section>", 1)[0]


@pytest.mark.django_db
def test_the_commitment_is_shown_before_the_first_round_and_the_seed_once_finished() -> None:
    event, _ = _night("friday")
    seed = event.seed
    assert int(seed) < 2 ** DRAW_SEED_BITS and event.rounds.count() == 0
    commitment = _sha256(seed)
    url = f"/api/events/{event.pk}/draw/"

    before = APIClient().get(url)  # anyone: the event is public
    assert before.status_code == 200
    assert before.json() == {"commitment": commitment, "seed": None, "algorithm": DRAW_ALGORITHM,
                             "redraws": []}
    for page in ("event-detail", "event-results"):
        html = Client().get(reverse(page, args=[event.pk])).content.decode()
        block = _section(html)
        assert f'id="draw-commitment">{commitment}<' in block
        assert seed not in html and 'id="draw-check"' not in block
        assert 'id="draw-seed-later"' in block

    round_ = round_create(event=event)  # seated: the seed still hidden, the commitment unchanged
    round_set_status(round_=round_, status=Round.Status.PLAYING)
    assert APIClient().get(url).json()["seed"] is None

    play_round(round_)
    round_set_status(round_=round_, status=Round.Status.CLOSED)
    event.refresh_from_db()
    event.rounds_planned = 1
    event.save(update_fields=["rounds_planned"])
    event_status_set(event=event, status=Event.Status.FINISHED)

    after = APIClient().get(url).json()
    assert after["seed"] == seed and after["commitment"] == commitment
    assert _sha256(after["seed"]) == after["commitment"]
    for page in ("event-detail", "event-results"):
        block = _section(Client().get(reverse(page, args=[event.pk])).content.decode())
        assert f'id="draw-seed">{seed}<' in block
        assert "check: sha256(seed) = commitment" in block
        assert f"printf %s {seed} | sha256sum" in block

    # reopened to fix a result: the seed was told, and stays told only while finished
    event_status_set(event=event, status=Event.Status.RUNNING, reason="table 2 keyed wrongly")
    assert APIClient().get(url).json()["seed"] is None


@pytest.mark.django_db
def test_every_event_commits_to_its_own_seed() -> None:
    first, _ = _night("one", players=4)
    second, _ = _night("two", players=4)
    assert first.seed != second.seed
    assert draw_disclosure(first).commitment != draw_disclosure(second).commitment
    assert len(draw_disclosure(first).commitment) == 64


@pytest.mark.django_db
def test_the_draw_is_read_with_the_events_own_permission() -> None:
    private, director = _night("closed-club", is_public=False, players=4)
    public, _ = _night("open-club", players=4)
    other_club, _ = club_with_director(slug="other-club")
    outsider = UserFactory(username="scorer-elsewhere")
    Membership.objects.create(club=other_club, user=outsider, role=Membership.Role.SCORER)
    member = UserFactory(username="member-here")
    Membership.objects.create(club=private.club, user=member, role=Membership.Role.SCORER)

    def get(user: Any, event: Event) -> Any:
        api = APIClient()
        if user is not None:
            api.force_authenticate(user)
        return api.get(f"/api/events/{event.pk}/draw/")

    # a private club's event: 404 to anyone outside the club, as the event's own API answers
    for user in (None, outsider):
        response = get(user, private)
        assert response.status_code == 404
        assert response.json()["errors"][0]["code"] == "not_found"
        assert get(user, private).status_code == \
            APIClient().get(f"/api/events/{private.pk}/").status_code
    for user in (member, director):
        assert get(user, private).json()["commitment"] == _sha256(private.seed)
    # a public event: anyone, a scorer of another club too
    assert get(outsider, public).json()["commitment"] == _sha256(public.seed)
    assert APIClient().get("/api/events/999999/draw/").status_code == 404
    # the pages say the same to the same people
    client = Client()
    client.force_login(outsider)
    assert client.get(reverse("event-detail", args=[private.pk])).status_code == 404
    assert client.get(reverse("event-results", args=[private.pk])).status_code == 404


@pytest.mark.django_db
def test_the_schema_describes_the_draw() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/events/{id}/draw/"]["get"]
    assert operation["operationId"] == "event_draw"
    assert {"200", "404"} <= set(operation["responses"])
    output = schema["components"]["schemas"]["DrawOutput"]
    assert set(output["properties"]) == {"commitment", "seed", "algorithm", "redraws"}
    assert output["properties"]["seed"].get("nullable") is True


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_the_commitment_and_seed_wrap_on_a_phone(live_server: Any, phone: Page,
                                                  output_dir: Path) -> None:
    event, _ = _night("phone-night", players=8)
    _play_to_the_end(event)
    for path in (f"/events/{event.pk}/", f"/events/{event.pk}/results/"):
        phone.goto(live_server.url + path)
        commitment = phone.locator("#draw-commitment")
        expect(commitment).to_have_text(_sha256(event.seed))
        expect(phone.locator("#draw-seed")).to_have_text(event.seed)
        expect(phone.locator("#draw-check")).to_contain_text("check: sha256(seed) = commitment")
        family = commitment.evaluate("e => getComputedStyle(e).fontFamily")
        assert "monospace" in family
        box = commitment.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390
        assert box["height"] > 1.5 * float(commitment.evaluate(
            "e => parseFloat(getComputedStyle(e).lineHeight) || 20")), "64 digits wrap"
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width == 390, f"{path} scrolls sideways ({width} px)"
    phone.locator("#draw").screenshot(path=str(output_dir / "draw-disclosure-phone.png"))

"""Check-in for a big room: many players at once through the API, all or nobody (each refused id
named); a pasted list matched against the roster; alternates marked before play; self
check-in with and without the director's approval."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from common.errors import DomainError
from draw.services import round_create
from tests.clubs.factories import ClubFactory, PlayerFactory, club_with_director
from tests.scoring.factories import member
from tests.tournaments.factories import EventFactory, progressive_event
from tournaments.models import Arrival, Entry, Event, EventLog, Seat
from tournaments.selectors import checkin_match, pasted_names
from tournaments.services import (
    arrival_decide,
    entry_check_in,
    entry_set_alternate,
    event_self_check_in_set,
    self_check_in,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk() -> dict[str, Any]:
    club, director = club_with_director(slug="bulk")
    event = EventFactory(club=club)
    players = [PlayerFactory(club=club, name=f"Member {n:02d}") for n in range(6)]
    api = APIClient()
    api.force_authenticate(director)
    return {"club": club, "director": director, "event": event, "players": players,
            "api": api, "url": f"/api/events/{event.pk}/entries/bulk/"}


# --- bulk entries through the API ----------------------------------------------------------------
def test_bulk_check_in_creates_every_entry(desk: dict[str, Any]) -> None:
    ids = [p.pk for p in desk["players"][:4]]
    response = desk["api"].post(desk["url"], {"player_ids": ids, "alternate": False},
                                format="json")
    assert response.status_code == 201
    body = response.json()
    assert [e["player_id"] for e in body] == ids
    assert all(e["status"] == "active" and not e["alternate"] for e in body)
    assert desk["event"].entries.filter(status="active").count() == 4
    assert EventLog.objects.filter(event=desk["event"], action="checked_in").count() == 4


def test_bulk_check_in_is_all_or_nothing_and_names_each_refused_id(
        desk: dict[str, Any]) -> None:
    here, *rest = desk["players"]
    entry_check_in(event=desk["event"], player=here)
    stranger = PlayerFactory(club=ClubFactory())  # another club's player
    ids = [rest[0].pk, here.pk, stranger.pk, 999999, rest[1].pk, rest[1].pk]
    response = desk["api"].post(desk["url"], {"player_ids": ids}, format="json")
    assert response.status_code == 400
    errors = {e["field"]: e for e in response.json()["errors"]}
    assert set(errors) == {f"player_ids.{here.pk}", f"player_ids.{stranger.pk}",
                           "player_ids.999999", f"player_ids.{rest[1].pk}"}
    assert errors[f"player_ids.{here.pk}"]["code"] == "already_here"
    assert errors[f"player_ids.{stranger.pk}"]["code"] == "not_on_roster"
    assert errors["player_ids.999999"]["code"] == "not_on_roster"
    assert errors[f"player_ids.{rest[1].pk}"]["code"] == "repeated"
    # nobody was checked in: the one entry is the one from before
    assert list(desk["event"].entries.values_list("player_id", flat=True)) == [here.pk]


@pytest.mark.parametrize(("body", "field"), [
    ({"player_ids": []}, "player_ids"),
    ({"player_ids": "1,2"}, "player_ids"),
    ({}, "player_ids"),
    ({"player_ids": [1], "alternate": "maybe"}, "alternate"),
])
def test_bulk_check_in_bad_input_names_the_field(desk: dict[str, Any], body: dict[str, Any],
                                                 field: str) -> None:
    response = desk["api"].post(desk["url"], body, format="json")
    assert response.status_code == 400
    assert [e["field"] for e in response.json()["errors"]] == [field]


def test_bulk_alternates_only_where_the_format_has_them(desk: dict[str, Any]) -> None:
    ids = [p.pk for p in desk["players"][:2]]
    refused = desk["api"].post(desk["url"], {"player_ids": ids, "alternate": True},
                               format="json")
    assert refused.status_code == 400
    assert [e["field"] for e in refused.json()["errors"]] == ["alternate"]
    assert not desk["event"].entries.exists()
    day = progressive_event(0, club=desk["club"])
    done = desk["api"].post(f"/api/events/{day.pk}/entries/bulk/",
                            {"player_ids": ids, "alternate": True}, format="json")
    assert done.status_code == 201 and all(e["alternate"] for e in done.json())


def test_bulk_check_in_is_for_the_events_directors(desk: dict[str, Any]) -> None:
    ids = [desk["players"][0].pk]
    scorer = APIClient()
    scorer.force_authenticate(member(desk["club"], "scorer", "bulk-scorer"))
    assert scorer.post(desk["url"], {"player_ids": ids}, format="json").status_code == 403
    _, elsewhere = club_with_director(slug="bulk-else")
    outsider = APIClient()
    outsider.force_authenticate(elsewhere)
    assert outsider.post(desk["url"], {"player_ids": ids}, format="json").status_code in (403,
                                                                                         404)
    assert APIClient().post(desk["url"], {"player_ids": ids},
                            format="json").status_code in (401, 403)
    assert not desk["event"].entries.exists()


# --- a pasted list -----------------------------------------------------------------------------
def test_pasted_names_split_by_lines_and_commas_without_numbers_or_repeats() -> None:
    text = "1. Ann Smith\n2) Bob Jones, Cleo Park;\n\n  ann   smith \tDev"
    assert pasted_names(text) == ["Ann Smith", "Bob Jones", "Cleo Park", "Dev"]


def test_a_pasted_list_is_matched_with_ambiguous_and_unknown_names_apart() -> None:
    club = ClubFactory()
    event = EventFactory(club=club)
    ann = PlayerFactory(club=club, name="Ann Smith")
    zoe = PlayerFactory(club=club, name="Zoë O'Neil")
    bob1 = PlayerFactory(club=club, name="Bob Jones")
    bob2 = PlayerFactory(club=club, name="Bobby Jonas")
    here = PlayerFactory(club=club, name="Cleo Park")
    PlayerFactory(club=ClubFactory(), name="Nobody Here")  # another club's
    entry_check_in(event=event, player=here)
    result = checkin_match(event=event, text="ann smith\nZoe oneil, zoe o'n\nBob Jo\nCleo Park\n"
                                              "Nobody Here\nXavier")
    matched = {m["typed"]: (m["player"], m["here"]) for m in result["matched"]}
    assert matched["ann smith"] == (ann, False)
    assert matched["zoe o'n"] == (zoe, False)  # accents and apostrophes ignored, word starts
    assert matched["Cleo Park"] == (here, True)
    (ambiguous,) = result["ambiguous"]
    assert ambiguous["typed"] == "Bob Jo"
    assert {c["player"] for c in ambiguous["choices"]} == {bob1, bob2}
    assert [u["typed"] for u in result["unknown"]] == ["Zoe oneil", "Nobody Here", "Xavier"]
    close = {u["typed"]: [c["player"] for c in u["close"]] for u in result["unknown"]}
    # spelt nearly as a roster name: offered as that player (besides a new one)
    assert close == {"Zoe oneil": [zoe], "Nobody Here": [], "Xavier": []}
    assert result["to_check_in"] == 2


def test_a_misspelt_pasted_name_is_offered_as_the_player_it_probably_is(client) -> None:
    from django.urls import reverse

    from tests.clubs.factories import club_with_director

    club, director = club_with_director(slug="typos")
    event = EventFactory(club=club)
    margaret = PlayerFactory(club=club, name="Margaret Olsen")
    PlayerFactory(club=club, name="Martin Olsson")
    result = checkin_match(event=event, text="Margret Olsen\nMargaret Olsen-Ruiz")
    assert [c["player"] for c in result["unknown"][0]["close"]] == [margaret]
    client.force_login(director)
    page = client.post(reverse("event-checkin", args=[event.pk]),
                       {"action": "paste", "names": "Margret Olsen"}).content.decode()
    assert "spelt nearly as" in page and f'name="players" value="{margaret.pk}"' in page
    assert 'name="new_players" value="Margret Olsen"' in page  # a new player stays possible


# --- alternates ---------------------------------------------------------------------------------
def test_an_alternate_is_marked_until_the_player_is_seated() -> None:
    event = progressive_event(9, deals_per_round=1)
    ninth = event.entries.order_by("pk").last()
    entry_set_alternate(entry=ninth, alternate=True)
    ninth.refresh_from_db()
    assert ninth.alternate
    assert EventLog.objects.filter(event=event, action="alternate_marked").exists()
    round_create(event=event)
    assert not Seat.objects.filter(entry=ninth).exists()  # the alternate waits
    first = event.entries.exclude(pk=ninth.pk).order_by("pk").first()
    with pytest.raises(DomainError) as info:
        entry_set_alternate(entry=first, alternate=True)
    assert info.value.code == "seated"
    night = EventFactory(club=event.club)
    somebody = entry_check_in(event=night, player=PlayerFactory(club=event.club))
    with pytest.raises(DomainError) as club_night:
        entry_set_alternate(entry=somebody, alternate=True)
    assert club_night.value.field == "alternate"


# --- self check-in ----------------------------------------------------------------------------------
def test_self_check_in_with_approval_waits_for_the_director() -> None:
    club, director = club_with_director(slug="door")
    event = EventFactory(club=club, self_check_in=Event.SelfCheckIn.APPROVAL)
    ann = PlayerFactory(club=club, name="Ann Smith")
    arrival = self_check_in(event=event, player=ann)
    assert arrival.status == Arrival.Status.WAITING
    assert not event.entries.exists()
    assert self_check_in(event=event, player=ann).pk == arrival.pk  # asking again: same
    done = arrival_decide(arrival=arrival, approve=True, actor=director)
    assert done.status == Arrival.Status.APPROVED and done.decided_by == director
    entry = event.entries.get(player=ann)
    assert entry.status == Entry.Status.ACTIVE and not entry.alternate
    with pytest.raises(DomainError) as again:
        self_check_in(event=event, player=ann)
    assert again.value.code == "already_here"
    bob = PlayerFactory(club=club, name="Bob Jones")
    declined = arrival_decide(arrival=self_check_in(event=event, player=bob), approve=False,
                              actor=director)
    assert declined.status == Arrival.Status.DECLINED
    assert not event.entries.filter(player=bob).exists()


def test_self_check_in_without_approval_checks_in_at_once_never_as_an_alternate() -> None:
    event = progressive_event(8)
    event_self_check_in_set(event=event, mode=Event.SelfCheckIn.OPEN)
    ninth = PlayerFactory(club=event.club)
    arrival = self_check_in(event=event, player=ninth)
    assert arrival.status == Arrival.Status.APPROVED
    entry = event.entries.get(player=ninth)
    assert entry.status == Entry.Status.ACTIVE and not entry.alternate


def test_self_check_in_closes_when_play_starts_and_refuses_strangers() -> None:
    event = progressive_event(8, deals_per_round=1)
    event_self_check_in_set(event=event, mode=Event.SelfCheckIn.OPEN)
    with pytest.raises(DomainError) as stranger:
        self_check_in(event=event, player=PlayerFactory(club=ClubFactory()))
    assert stranger.value.field == "player"
    round_create(event=event)
    with pytest.raises(DomainError) as started:
        self_check_in(event=event, player=PlayerFactory(club=event.club))
    assert started.value.code == "started"
    event_self_check_in_set(event=event, mode=Event.SelfCheckIn.OFF)
    with pytest.raises(DomainError) as off:
        self_check_in(event=event, player=PlayerFactory(club=event.club))
    assert off.value.code == "off"
    with pytest.raises(DomainError) as bad:
        event_self_check_in_set(event=event, mode="sometimes")
    assert bad.value.field == "self_check_in"

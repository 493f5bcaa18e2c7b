"""The event form for an individual progressive event: its movement and stage settings and the
prizes on the create and settings pages, refusals next to the field they concern, and the rules
of the event on its page."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.urls import reverse

from draw.services import round_create, round_set_status
from scoring.services import hand_submit
from tests.clubs.factories import PlayerFactory, club_with_director
from tests.scoring.factories import values
from tournaments.models import Event, Round
from tournaments.services import entry_check_in, event_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 21)


def _form(**over: Any) -> dict[str, Any]:
    """The create form as a director fills it for a progressive event with its own settings."""
    data: dict[str, Any] = {
        "name": "Open day", "date": "2026-11-21", "format": "individual_progressive",
        "ruleset_preset": "pagat_double_deck", "rounds_planned": 5, "deals_per_round": 4,
        "bye_scoring": "average_winning", "bye_points": 0, "is_public": "on",
        "movement": "winners_move", "direction": "down", "draw": "table", "cut": "4",
        "semi_partners": "draw", "final_rule": "single_game", "ties": "table_cut",
        "game_minutes": "55", "payouts": "1 300\n2 150", "high_game_prize": "25",
    }
    data.update(over)
    return data


def _edit_data(event: Event, **over: Any) -> dict[str, Any]:
    """The settings page as it is posted back unchanged (then ``over`` applied)."""
    settings = event.format_settings
    data: dict[str, Any] = {
        "name": event.name, "date": str(event.date), "ruleset_preset": event.ruleset_preset,
        "rounds_planned": event.rounds_planned, "deals_per_round": event.deals_per_round,
        "bye_scoring": event.bye_scoring, "bye_points": event.bye_points, "is_public": "on",
        **{k: settings[k] for k in ("movement", "direction", "draw", "cut", "semi_partners",
                                    "final_rule", "ties")},
        "game_minutes": settings["game_minutes"] or "", "payouts": "", "high_game_prize": "",
    }
    data.update(over)
    return data


@pytest.fixture
def director_client(client):
    club, director = club_with_director(slug="npa")
    client.force_login(director)
    client.club = club
    return client


def test_the_page_creates_a_progressive_event_with_its_settings_and_prizes(director_client) -> None:
    url = reverse("event-create", args=["npa"])
    page = director_client.get(url, {"format": "individual_progressive"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="progressive-settings"' in html and "js/event_form.js" in html
    for label in ("Qualifying games", "Movement", "Partner draw", "Cut", "Semi-final partners",
                  "Final", "Level games", "Game time limit (minutes)", "Payouts",
                  "High game prize"):
        assert f">{label}</label>" in html, label
    assert page.context["form"]["rounds_planned"].value() == 6  # the NPA's day by default

    response = director_client.post(url, _form())
    assert response.status_code == 302, response.context["form"].errors
    event = Event.objects.get(name="Open day")
    assert event.format == "individual_progressive"
    assert (event.rounds_planned, event.deals_per_round) == (5, 4)
    assert event.format_settings == {
        "movement": "winners_move", "direction": "down", "draw": "table", "cut": 4,
        "semi_partners": "draw", "final_rule": "single_game", "ties": "table_cut",
        "game_minutes": 55,
    }
    assert event.prizes == {
        "currency": "$",
        "payouts": [{"place": 1, "amount": "300.00"}, {"place": 2, "amount": "150.00"}],
        "side": [{"kind": "high_game", "label": "High game", "amount": "25.00"}],
    }


def test_no_prizes_and_no_time_limit_store_empty(director_client) -> None:
    response = director_client.post(reverse("event-create", args=["npa"]),
                                    _form(payouts="", high_game_prize="", game_minutes=""))
    assert response.status_code == 302
    event = Event.objects.get(name="Open day")
    assert event.prizes == {} and event.format_settings["game_minutes"] is None


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("payouts", "1 300\nsecond place 150", 'Line 2 ("second place 150")'),
        ("payouts", "1 300\n2 lots", "Line 2: Give the amount as a number"),
        ("payouts", "1 300\n\n1 150", "Line 3: Place 1 is listed twice"),
        ("payouts", "1 12.345", "Line 1: An amount has at most two decimals"),
        ("high_game_prize", "-5", ""),
        ("game_minutes", "5", ""),
        ("cut", "6", ""),
    ],
)
def test_a_bad_value_errors_on_its_field_and_stores_nothing(
    director_client, field: str, value: str, said: str,
) -> None:
    response = director_client.post(reverse("event-create", args=["npa"]), _form(**{field: value}))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert said in errors[field][0]
    assert f'id="{field}-error"' in response.content.decode()
    assert not Event.objects.exists()


def test_a_club_night_ignores_the_progressive_fields(director_client) -> None:
    response = director_client.post(reverse("event-create", args=["npa"]),
                                     _form(format="club_night", rounds_planned=4))
    assert response.status_code == 302
    event = Event.objects.get(name="Open day")
    assert (event.format, event.format_settings, event.prizes) == ("club_night", {}, {})
    page = director_client.get(reverse("event-edit", args=[event.pk]))
    assert 'id="progressive-settings"' not in page.content.decode()
    assert "cut" not in page.context["form"].fields


def _progressive(club, players: int, **kwargs: Any) -> Event:
    event = event_create(club=club, name="NPA day", date=DAY,
                         format=Event.Format.INDIVIDUAL_PROGRESSIVE, **kwargs)
    for _ in range(players):
        entry_check_in(event=event, player=PlayerFactory(club=club))
    return event


def test_the_settings_page_shows_and_changes_the_progressive_settings(director_client) -> None:
    event = _progressive(director_client.club, 0, prizes={
        "currency": "€", "payouts": [{"place": 1, "amount": "300"}, {"place": 2, "amount": "37.50"}],
        "side": [{"kind": "high_game", "amount": "25"}]})
    url = reverse("event-edit", args=[event.pk])
    page = director_client.get(url)
    form = page.context["form"]
    assert form.fields["rounds_planned"].label == "Qualifying games"
    assert form["payouts"].value() == "1 300\n2 37.50"
    assert form["high_game_prize"].value() == "25"
    assert form["cut"].value() == 8

    data = _edit_data(event, cut="0", final_rule="single_game", game_minutes="90",
                      rounds_planned=7, payouts="1 500\n2 250\n3 100", high_game_prize="")
    assert director_client.post(url, data).status_code == 302
    event.refresh_from_db()
    assert event.rounds_planned == 7
    assert event.format_settings["cut"] == 0 and event.format_settings["game_minutes"] == 90
    assert event.format_settings["final_rule"] == "single_game"
    assert event.prizes["currency"] == "€"  # kept: the form has no currency
    assert [p["amount"] for p in event.prizes["payouts"]] == ["500.00", "250.00", "100.00"]
    assert event.prizes["side"] == []


def test_fixed_seat_steps_set_through_the_api_survive_a_page_edit(director_client) -> None:
    steps = {"N": 0, "E": 1, "S": -1, "W": 2}
    event = _progressive(director_client.club, 0,
                         format_settings={"movement": "fixed_seats", "steps": steps})
    url = reverse("event-edit", args=[event.pk])
    assert director_client.post(url, _edit_data(event, name="Renamed")).status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed" and event.format_settings["steps"] == steps
    # back to winners move: the steps no longer apply and are dropped
    assert director_client.post(url, _edit_data(event, movement="winners_move")).status_code == 302
    event.refresh_from_db()
    assert "steps" not in event.format_settings


def _to_the_semi_final(event: Event) -> Round:
    """Play the one qualifying game (one deal a table) and seat the semi-final."""
    first = round_create(event=event)
    round_set_status(round_=first, status="playing")
    for table in first.tables.all():
        hand_submit(game=table.game, number=1, values=values())
    round_set_status(round_=first, status="closed", close_unfinished=True)
    semi = round_create(event=event)
    assert semi.stage == Round.Stage.SEMIFINAL
    return semi


def test_stage_settings_are_refused_once_the_semi_final_is_seated(director_client) -> None:
    event = _progressive(director_client.club, 8, rounds_planned=1, deals_per_round=1)
    _to_the_semi_final(event)
    event.refresh_from_db()
    url = reverse("event-edit", args=[event.pk])
    refused = director_client.post(url, _edit_data(event, final_rule="single_game"))
    assert refused.status_code == 200
    assert "The cut has been made: the stages cannot change now." in refused.content.decode()
    assert refused.context["form"].non_field_errors() == [
        "The cut has been made: the stages cannot change now."]
    more_games = director_client.post(url, _edit_data(event, rounds_planned=2))
    assert "the stages cannot change now" in more_games.content.decode()
    event.refresh_from_db()
    assert (event.format_settings["final_rule"], event.rounds_planned) == ("rotate", 1)
    # settings that leave the stages alone still save
    assert director_client.post(url, _edit_data(event, name="NPA day, final")).status_code == 302
    event.refresh_from_db()
    assert event.name == "NPA day, final"


def test_a_refusal_from_the_services_lands_on_its_field(director_client) -> None:
    # Four players are playing the first game: a cut to the top 8 cannot be made.
    event = _progressive(director_client.club, 4, format_settings={"cut": 4})
    round_create(event=event)
    event.refresh_from_db()
    response = director_client.post(reverse("event-edit", args=[event.pk]),
                                    _edit_data(event, cut="8"))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == ["cut"] and "only 4 players are here" in errors["cut"][0]


def test_the_event_page_shows_the_rules_of_the_event(client) -> None:
    club, _ = club_with_director(slug="npa")
    event = _progressive(club, 0, rounds_planned=5,
                         format_settings={"cut": 4, "final_rule": "single_game"})
    html = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Rules of this event" in html
    assert "5 qualifying games; each player" in html
    assert "The top 4 qualifiers go straight to the final table." in html
    assert "The final is one game, seeds 1 and 4 against 2 and 3" in html
    night = event_create(club=club, name="Friday", date=DAY)
    html = client.get(reverse("event-detail", args=[night.pk])).content.decode()
    # A club night's rules are its own (the registry's words), not the progressive day's.
    assert "4 rounds planned (the director may play more)" in html
    assert "qualifying" not in html.split("Rules of this event")[1].split("</section>")[0]


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_the_progressive_settings_show_only_for_that_format(
    live_server, desktop, output_dir,
) -> None:
    from playwright.sync_api import expect

    club, director = club_with_director(slug="npa")
    director.set_password("dana-pass-123")
    director.save()
    page = desktop
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_login", director.username)
    page.fill("#id_password", "dana-pass-123")
    page.click("button[type=submit]")
    page.goto(live_server.url + reverse("event-create", args=[club.slug]))
    group = page.locator("#progressive-settings")
    expect(group).to_be_hidden()  # a club night by default
    expect(page.locator("label[for='id_rounds_planned']")).to_have_text("Rounds")
    page.select_option("#id_format", "individual_progressive")
    expect(group).to_be_visible()
    expect(page.locator("label[for='id_rounds_planned']")).to_have_text("Qualifying games")
    expect(page.locator("#id_rounds_planned")).to_have_value("6")  # the NPA's defaults
    expect(page.locator("#id_deals_per_round")).to_have_value("4")
    page.fill("#id_name", "Browser open")
    page.select_option("#id_cut", "4")
    page.fill("#id_payouts", "1 300\n2 150")
    page.screenshot(path=str(output_dir / "event-form-progressive.png"), full_page=True)
    page.click("button:has-text('Create')")
    expect(page).to_have_url(re.compile(r"/events/\d+/checkin/$"))
    event = Event.objects.get(name="Browser open")
    assert (event.rounds_planned, event.format_settings["cut"]) == (6, 4)
    page.goto(live_server.url + reverse("event-create", args=[club.slug]))
    page.select_option("#id_format", "individual_progressive")
    page.select_option("#id_format", "club_night")
    expect(group).to_be_hidden()
    expect(page.locator("#id_rounds_planned")).to_have_value("4")

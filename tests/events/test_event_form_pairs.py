"""The event form for the fixed-partnership (pair) formats: the Pairs group on the new-event
and settings pages, the settings each format takes (the others ignored), the pair tie-breaks,
refusals next to the field they concern, and a settings page that keeps what is stored."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django import forms
from django.urls import reverse

from tests.clubs.factories import club_with_director
from tournaments.models import Event
from tournaments.services import event_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 22)
PAIR_LABELS = ("First round draw", "Groups", "Level games", "Game time limit (minutes)",
               "Third-place match", "Grand final reset", "Consolation rounds", "Playoff",
               "Playoff cut (pairs)", "Playoff third-place match", "Playoff grand final reset",
               "Playoff consolation rounds", "Lower bracket (pairs)")


def _form(format: str, **over: Any) -> dict[str, Any]:
    """The create form as a director fills it for a pair event (boxes left unticked are not
    posted, as in a browser)."""
    data: dict[str, Any] = {
        "name": "Pairs day", "date": "2026-11-22", "format": format,
        "ruleset_preset": "pagat_double_deck", "rounds_planned": 5, "deals_per_round": 2,
        "bye_scoring": "average_winning", "bye_points": 0, "is_public": "on",
        "pair_first_draw": "seeded", "pair_groups": "1", "pair_ties": "system_cut",
        "pair_game_minutes": "", "pair_reset": "on", "pair_consolation": "",
        "playoff_kind": "", "playoff_cut": "8", "playoff_reset": "on",
        "playoff_consolation": "",
    }
    data.update(over)
    return {k: v for k, v in data.items() if v is not None}


def _posted_back(form: forms.Form, **over: Any) -> dict[str, Any]:
    """A settings page posted back as the browser shows it (then ``over`` applied)."""
    data: dict[str, Any] = {}
    for field in form:
        value = field.value()
        if isinstance(field.field, forms.BooleanField):
            if value:
                data[field.name] = "on"
        elif value is not None:
            data[field.name] = str(value) if isinstance(value, datetime.date) else value
    data.update(over)
    return {k: v for k, v in data.items() if v is not None}


@pytest.fixture
def director_client(client):
    club, director = club_with_director(slug="pairs")
    client.force_login(director)
    client.club = club
    return client


def test_the_new_event_page_has_the_pairs_group_and_both_kinds_of_tie_break(
        director_client) -> None:
    page = director_client.get(reverse("event-create", args=["pairs"]), {"format": "swiss"})
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="pair-settings"' in html and "data-pairs-only" in html
    assert 'id="progressive-settings"' in html  # the page switches between the groups
    for label in PAIR_LABELS:
        assert f"{label}</label>" in html, label
    # each setting names the formats that use it; the playoff is for the qualifying formats
    assert 'data-pair-formats="round_robin"' in html  # groups
    assert 'data-pair-formats="swiss round_robin ab_movement winners_stay"' in html
    assert 'data-playoff-kinds="double"' in html and 'data-playoff-kinds="single"' in html
    assert 'data-tie-break-for="pairs"' in html and 'value="points_against"' in html
    assert 'data-tie-break-for="individual pairs"' in html
    assert 'data-unused-formats="round_robin single_elimination double_elimination"' in html
    page = director_client.get(reverse("event-create", args=["pairs"]),
                               {"format": "single_elimination"})
    assert page.context["form"].fields["rounds_planned"].label == "Rounds (not used)"


def test_a_swiss_with_a_playoff_stores_its_settings(director_client) -> None:
    response = director_client.post(reverse("event-create", args=["pairs"]), _form(
        "swiss", pair_first_draw="random", pair_ties="table_cut", pair_game_minutes="40",
        playoff_kind="single", playoff_cut="4", playoff_third_place="on",
        playoff_consolation="1", tie_breaks=["points_against", "head_to_head"],
        # settings Swiss does not take: ignored (not sent to the services)
        pair_groups="3", pair_third_place="on", pair_consolation="1, 2",
    ))
    event = Event.objects.get(name="Pairs day")
    assert response.status_code == 302
    assert response["Location"] == reverse("event-pairs", args=[event.pk])  # pairs register next
    assert (event.format, event.partnership, event.rounds_planned) == ("swiss", "fixed", 5)
    assert event.format_settings == {
        "first_draw": "random", "ties": "table_cut", "game_minutes": 40,
        "playoff": {"kind": "single", "cut": 4, "third_place": True, "consolation": [1]},
    }
    assert event.tie_breaks == ["points_against", "head_to_head"]


def test_a_double_playoff_keeps_its_reset_and_no_playoff_stores_null(director_client) -> None:
    url = reverse("event-create", args=["pairs"])
    director_client.post(url, _form("winners_stay", playoff_kind="double", playoff_cut="6",
                                    playoff_reset=None, playoff_third_place="on"))
    director_client.post(url, _form("ab_movement", name="Movement", playoff_cut="1"))
    settings = {e.name: e.format_settings for e in Event.objects.all()}
    assert settings == {
        "Pairs day": {"first_draw": "seeded", "ties": "system_cut", "game_minutes": None,
                      "playoff": {"kind": "double", "cut": 6, "reset": False,
                                  "consolation": []}},
        "Movement": {"ties": "system_cut", "game_minutes": None, "playoff": None},
    }


def test_a_double_elimination_with_consolation_rounds(director_client) -> None:
    response = director_client.post(reverse("event-create", args=["pairs"]), _form(
        "double_elimination", pair_consolation="1, 2", pair_reset=None,
        pair_third_place="on",  # single elimination only: ignored
        playoff_kind="single", playoff_cut="1",  # no playoff after a bracket: ignored
    ))
    assert response.status_code == 302
    event = Event.objects.get(name="Pairs day")
    assert event.format_settings == {"ties": "system_cut", "game_minutes": None,
                                     "reset": False, "consolation": [1, 2]}
    assert event.tie_breaks == ["head_to_head", "points_against", "highest_game"]


def test_a_round_robin_in_groups(director_client) -> None:
    response = director_client.post(reverse("event-create", args=["pairs"]),
                                    _form("round_robin", pair_groups="2"))
    assert response.status_code == 302
    event = Event.objects.get(name="Pairs day")
    assert event.format_settings == {"groups": 2, "ties": "system_cut", "game_minutes": None,
                                     "playoff": None}


@pytest.mark.parametrize(
    ("format", "over", "field", "said"),
    [
        ("swiss", {"playoff_kind": "single", "playoff_cut": "1"}, "playoff_cut",
         "The cut is the number of pairs that go on to the bracket: 2 to 256."),
        ("round_robin", {"playoff_kind": "double", "playoff_consolation": "1, 31"},
         "playoff_consolation", "List the rounds whose losers play the consolation bracket"),
        ("double_elimination", {"pair_consolation": "0"}, "pair_consolation",
         "List the rounds whose losers play the consolation bracket"),
        ("single_elimination", {"pair_consolation": "first, second"}, "pair_consolation",
         'Write the round numbers separated by commas, e.g. "1, 2"'),
        ("round_robin", {"pair_groups": "0"}, "pair_groups",
         "Groups are a whole number from 1 to 32."),
        ("single_elimination", {"pair_game_minutes": "5"}, "pair_game_minutes", ""),
        ("swiss", {"tie_breaks": ["points"]}, "tie_breaks", "Unknown tie-break 'points'"),
    ],
)
def test_a_bad_value_errors_on_its_field_and_creates_nothing(
        director_client, format: str, over: dict[str, Any], field: str, said: str) -> None:
    response = director_client.post(reverse("event-create", args=["pairs"]),
                                    _form(format, **over))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field]
    assert said in errors[field][0]
    assert f'id="{field}-error"' in response.content.decode()
    assert not Event.objects.exists()


def test_a_club_night_ignores_the_pairs_group_even_with_nonsense_in_it(director_client) -> None:
    response = director_client.post(reverse("event-create", args=["pairs"]), _form(
        "club_night", rounds_planned=4, pair_groups="0", pair_consolation="first",
        playoff_kind="single", playoff_cut="1", tie_breaks=["points", "wins"]))
    assert response.status_code == 302
    event = Event.objects.get(name="Pairs day")
    assert (event.format, event.format_settings, event.tie_breaks) == (
        "club_night", {}, ["points", "wins"])
    page = director_client.get(reverse("event-edit", args=[event.pk]))
    assert 'id="pair-settings"' not in page.content.decode()
    assert not {"pair_ties", "playoff_kind"} & set(page.context["form"].fields)


def test_the_settings_page_keeps_and_changes_a_swiss_playoff(director_client) -> None:
    event = event_create(club=director_client.club, name="Swiss", date=DAY, format="swiss",
                         tie_breaks=["highest_game"],
                         format_settings={"first_draw": "random", "game_minutes": 30,
                                          "playoff": {"kind": "single", "cut": 4,
                                                      "third_place": True,
                                                      "consolation": [1, 2]}})
    stored = event.format_settings
    url = reverse("event-edit", args=[event.pk])
    page = director_client.get(url)
    form = page.context["form"]
    # only Swiss's settings, and the pair tie-breaks
    assert {n for n in form.fields if n.startswith(("pair_", "playoff_"))} == {
        "pair_first_draw", "pair_ties", "pair_game_minutes", "playoff_kind", "playoff_cut",
        "playoff_third_place", "playoff_reset", "playoff_consolation", "playoff_lower"}
    assert "cut" not in form.fields  # not the progressive group
    assert [c for c, _ in form.fields["tie_breaks"].choices] == [
        "head_to_head", "points_against", "highest_game"]
    assert (form["pair_first_draw"].value(), form["playoff_kind"].value(),
            form["playoff_cut"].value(), form["playoff_consolation"].value()) == (
        "random", "single", 4, "1, 2")

    assert director_client.post(url, _posted_back(form, name="Swiss, renamed")).status_code == 302
    event.refresh_from_db()
    assert event.name == "Swiss, renamed" and event.format_settings == stored
    assert event.tie_breaks == ["highest_game"]

    changed = _posted_back(form, playoff_kind="double", playoff_cut="8", playoff_third_place=None,
                           playoff_consolation="", pair_game_minutes="")
    assert director_client.post(url, changed).status_code == 302
    event.refresh_from_db()
    assert event.format_settings == {
        "first_draw": "random", "ties": "system_cut", "game_minutes": None,
        "playoff": {"kind": "double", "cut": 8, "reset": True, "consolation": []}}

    refused = director_client.post(url, _posted_back(form, playoff_cut="300"))
    assert refused.status_code == 200
    assert list(refused.context["form"].errors) == ["playoff_cut"]
    event.refresh_from_db()
    assert event.format_settings["playoff"]["cut"] == 8


def test_the_settings_page_of_a_bracket_keeps_its_consolation(director_client) -> None:
    event = event_create(club=director_client.club, name="Knockout", date=DAY,
                         format="double_elimination",
                         format_settings={"reset": False, "consolation": [2, 1]})
    url = reverse("event-edit", args=[event.pk])
    page = director_client.get(url)
    form = page.context["form"]
    assert {n for n in form.fields if n.startswith(("pair_", "playoff_"))} == {
        "pair_ties", "pair_game_minutes", "pair_reset", "pair_consolation"}
    assert form.fields["rounds_planned"].label == "Rounds (not used)"
    assert "a bracket plays until it is decided" in page.content.decode()
    assert (form["pair_consolation"].value(), form["pair_reset"].value()) == ("1, 2", False)
    assert director_client.post(url, _posted_back(form, deals_per_round=3)).status_code == 302
    event.refresh_from_db()
    assert event.deals_per_round == 3
    assert event.format_settings == {"ties": "system_cut", "game_minutes": None,
                                     "reset": False, "consolation": [1, 2]}


def test_a_split_final_stores_its_lower_bracket_and_refusals_name_the_field(
        director_client) -> None:
    url = reverse("event-create", args=["pairs"])
    page = director_client.get(url, {"format": "swiss"}).content.decode()
    assert 'name="playoff_lower"' in page
    refused = director_client.post(url, _form("swiss", playoff_kind="single", playoff_cut="4",
                                              playoff_lower="1"))
    assert refused.status_code == 200
    assert list(refused.context["form"].errors) == ["playoff_lower"]
    assert "The lower bracket takes the next pairs after the cut" in \
        refused.context["form"].errors["playoff_lower"][0]
    # a third-place match for a lower bracket of two pairs: refused on the lower bracket's field
    refused = director_client.post(url, _form("swiss", playoff_kind="single", playoff_cut="4",
                                              playoff_third_place="on", playoff_lower="2"))
    assert list(refused.context["form"].errors) == ["playoff_lower"]
    assert not Event.objects.exists()
    response = director_client.post(url, _form("swiss", playoff_kind="single", playoff_cut="4",
                                               playoff_lower="4"))
    assert response.status_code == 302
    event = Event.objects.get(name="Pairs day")
    assert event.format_settings["playoff"] == {"kind": "single", "cut": 4, "third_place": False,
                                                "consolation": [], "lower": 4}
    edit = director_client.get(reverse("event-edit", args=[event.pk])).context["form"]
    assert edit["playoff_lower"].value() == 4
    # emptied on the settings page: no lower bracket any more
    assert director_client.post(reverse("event-edit", args=[event.pk]),
                                _posted_back(edit, playoff_lower="")).status_code == 302
    event.refresh_from_db()
    assert "lower" not in event.format_settings["playoff"]

"""Registering for a series: its page lists every event's registration and registers a
signed-in player for each open singles event with one tap; a closed event, a pair event and an
event the player is already in are left alone, and one event's refusal leaves the others."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from clubs.models import Player
from registrations.models import Registration
from registrations.services import registration_settings_set
from series.services import series_create
from tests.clubs.factories import PlayerFactory, UserFactory, club_with_director
from tournaments.models import Event
from tournaments.services import event_create

pytestmark = pytest.mark.django_db


def _week() -> tuple[object, list[Event]]:
    club, director = club_with_director(slug="week", is_public=True)
    day = datetime.date(2026, 12, 4)
    friday = event_create(club=club, name="Friday mini", date=day)
    saturday = event_create(club=club, name="Saturday main", date=day + datetime.timedelta(1))
    pairs = event_create(club=club, name="Sunday pairs", date=day + datetime.timedelta(2),
                         format=Event.Format.SWISS)
    closed = event_create(club=club, name="Monday closed", date=day + datetime.timedelta(3))
    registration_settings_set(event=friday, is_open=True, capacity=1)
    registration_settings_set(event=saturday, is_open=True, fee=20)
    registration_settings_set(event=pairs, is_open=True)
    series = series_create(club=club, name="Championship week",
                           events=[friday.pk, saturday.pk, pairs.pk, closed.pk],
                           points=[100, 80, 60], actor=director)
    return series, [friday, saturday, pairs, closed]


def test_one_tap_registers_for_every_open_singles_event(
        django_capture_on_commit_callbacks: Any) -> None:
    series, (friday, saturday, pairs, closed) = _week()
    first = UserFactory(username="early", email="early@example.org")
    PlayerFactory(club=series.club, name="Early Bird", user=first)
    early = Client()
    early.force_login(first)
    url = reverse("series-register", args=[series.pk])
    assert early.post(url).status_code == 302
    assert Registration.objects.filter(user=first).count() == 2  # Friday and Saturday

    user = UserFactory(username="gus", email="gus@example.org")
    PlayerFactory(club=series.club, name="Gus Hale", user=user)
    gus = Client()
    gus.force_login(user)
    page = gus.get(url).content.decode()
    assert "Register me for the 2 open events above" in page
    assert "Registration for this event is closed." in page  # Monday
    assert reverse("event-register", args=[pairs.pk]) in page  # a pair asks for a partner
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = gus.post(url, follow=True)
    assert answer.status_code == 200
    mine = {r.event_id: r.status for r in Registration.objects.filter(user=user)}
    assert mine == {friday.pk: Registration.Status.WAITLISTED,  # capacity 1, taken
                    saturday.pk: Registration.Status.REGISTERED}
    text = answer.content.decode()
    assert "Registered for 2 events of the series" in text
    assert "You are on the waitlist." in text and "You are registered." in text
    assert {m.to[0] for m in mail.outbox} == {"gus@example.org"}
    registered = next(m for m in mail.outbox if m.subject.startswith("You are registered"))
    # the mail says where the phone learns its seat on the day
    assert f"http://testserver{reverse('follow-pick', args=[saturday.pk])}" in registered.body
    # a second tap has nothing left to do: no button, nothing added
    assert "Register me for" not in text
    gus.post(url)
    assert Registration.objects.filter(user=user).count() == 2


def test_anonymous_sees_the_list_and_is_asked_to_sign_in() -> None:
    series, (friday, *_rest) = _week()
    client = Client()
    url = reverse("series-register", args=[series.pk])
    page = client.get(url).content.decode()
    assert reverse("event-register", args=[friday.pk]) in page
    assert "Sign in</a> to register for every open event at once" in page
    answer = client.post(url)
    assert answer.status_code == 302 and reverse("account_login") in answer["Location"]
    assert not Registration.objects.exists()


def test_a_private_clubs_series_is_not_found_for_outsiders() -> None:
    club, director = club_with_director(slug="hidden", is_public=False)
    event = event_create(club=club, name="Members only", date=datetime.date(2026, 12, 4))
    registration_settings_set(event=event, is_open=True)
    series = series_create(club=club, name="Members' week", events=[event.pk], points=[10],
                           actor=director)
    outsider = UserFactory(username="out", email="out@example.org")
    client = Client()
    client.force_login(outsider)
    url = reverse("series-register", args=[series.pk])
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert not Registration.objects.exists()


def test_a_new_account_is_asked_its_name_once_and_registered_everywhere(
        django_capture_on_commit_callbacks: Any) -> None:
    series, (friday, saturday, _pairs, _closed) = _week()
    user = UserFactory(username="newbie", email="newbie@example.org")  # no player anywhere
    client = Client()
    client.force_login(user)
    url = reverse("series-register", args=[series.pk])
    page = client.get(url).content.decode()
    assert 'name="name"' in page and "one player per account" in page
    assert 'name="email"' not in page  # the account's address is used
    # without the name: a clear refusal beside the field, nothing registered
    empty = client.post(url, {"name": "  "})
    assert empty.status_code == 400
    assert "Enter your name." in empty.content.decode()
    assert not Registration.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"name": "Nora  New"}, follow=True)
    assert answer.status_code == 200
    assert "Registered for 2 events of the series" in answer.content.decode()
    mine = {r.event_id: r for r in Registration.objects.filter(user=user)}
    assert set(mine) == {friday.pk, saturday.pk}
    assert {r.name for r in mine.values()} == {"Nora New"}
    # one player, linked to the account, on the club's roster
    player = Player.objects.get(user=user)
    assert player.name == "Nora New" and series.club.players.filter(pk=player.pk).exists()
    assert mine[saturday.pk].player_id == player.pk
    # the page asks no more: the account has its player now
    assert 'name="name"' not in client.get(url).content.decode()


def test_an_account_on_the_roster_or_with_a_full_name_is_not_asked(
        django_capture_on_commit_callbacks: Any) -> None:
    series, (friday, saturday, _pairs, _closed) = _week()
    PlayerFactory(club=series.club, name="Rita Roster", email="rita@example.org")
    rita = UserFactory(username="rita", email="rita@example.org")
    full = UserFactory(username="fn", email="fn@example.org", first_name="Fay",
                       last_name="Named")
    for user, name in ((rita, "Rita Roster"), (full, "Fay Named")):
        client = Client()
        client.force_login(user)
        url = reverse("series-register", args=[series.pk])
        assert 'name="name"' not in client.get(url).content.decode()
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(url).status_code == 302
        assert {r.name for r in Registration.objects.filter(user=user)} == {name}
        assert Registration.objects.filter(user=user).count() == 2
    assert Player.objects.get(name="Rita Roster").user_id == rita.pk


def test_an_account_without_an_address_gives_one_and_confirms_it_by_mail(
        django_capture_on_commit_callbacks: Any) -> None:
    series, (friday, saturday, _pairs, _closed) = _week()
    user = UserFactory(username="noaddress", email="")
    client = Client()
    client.force_login(user)
    url = reverse("series-register", args=[series.pk])
    page = client.get(url).content.decode()
    assert 'name="name"' in page and 'name="email"' in page
    missing = client.post(url, {"name": "Otto Offline"})
    assert missing.status_code == 400 and "Enter your e-mail address." in (
        missing.content.decode())
    bad = client.post(url, {"name": "Otto Offline", "email": "not-an-address"})
    assert bad.status_code == 400 and "is not an e-mail address" in bad.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"name": "Otto Offline",
                                 "email": "otto@example.org"}).status_code == 302
    assert {r.status for r in Registration.objects.filter(user=user)} == {"unconfirmed"}
    assert {m.to[0] for m in mail.outbox} == {"otto@example.org"}

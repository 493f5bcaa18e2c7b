"""The director's next step asks for each table's draw of partners where the tables draw them
(a progressive day's ``draw: table``): the form on the director screen and the event page, the
game seated from it, a table left unchosen refused in the page's words, and nobody but the
event's directors may post it."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from clubs.models import Membership
from draw.managers import table_meetings
from tests.clubs.factories import UserFactory, club_with_director
from tests.events.test_api_table_draw import played_day

pytestmark = pytest.mark.django_db


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def form_of(html: str) -> tuple[str, dict[str, str], dict[int, list[str]]]:
    """The next step's form: where it posts, its hidden fields, each table's choices."""
    form = re.search(r'<form method="post" action="([^"]+)" id="next-step">(.*?)</form>', html,
                     re.S)
    assert form is not None
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"',
                             form.group(2)))
    choices = {int(n): re.findall(r'<option value="(\d+)"', body) for n, body in
               re.findall(r'<select name="table_(\d+)"[^>]*>(.*?)</select>', form.group(2), re.S)}
    return form.group(1), hidden, choices


def test_the_director_screen_asks_for_each_tables_draw_and_seats_from_it(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director = played_day(django_capture_on_commit_callbacks)
    client = logged_in(director)
    page = client.get(f"/events/{event.pk}/director/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="table-draw"' in html
    assert "data-auto-refresh" not in html  # a refresh would lose the draws being entered
    # the automatic advance stands aside: no switch to hold it, and the screen says who seats
    assert 'id="advance-hold"' not in html and "seats itself" not in html
    assert "you seat each game from their draws" in html
    url, hidden, choices = form_of(html)
    meetings = table_meetings(event)
    assert sorted(choices) == [1, 2]
    for meeting in meetings:
        assert hidden[f"stayer_{meeting.table}"] == str(meeting.stayers[0])
        assert choices[meeting.table] == [str(a) for a in meeting.arrivals]
    body = {**hidden, "table_1": choices[1][1], "table_2": choices[2][0]}
    answer = client.post(url, body)
    assert answer.status_code == 302 and answer["Location"].endswith(f"/events/{event.pk}/director/")
    second = event.rounds.get(number=2)
    for meeting, chosen in zip(meetings, (choices[1][1], choices[2][0]), strict=True):
        seats = {s.position: s.entry_id for s in
                 second.tables.get(number=meeting.table).seats.all()}
        pair = {meeting.stayers[0], int(chosen)}
        assert pair in ({seats["N"], seats["S"]}, {seats["E"], seats["W"]})
    # the form is gone once the game is seated, and the screen refreshes itself again
    html = client.get(f"/events/{event.pk}/director/").content.decode()
    assert 'id="table-draw"' not in html and "data-auto-refresh" in html


def test_the_event_page_offers_the_same_form_and_a_missing_table_is_refused(
        django_capture_on_commit_callbacks: Any) -> None:
    event, director = played_day(django_capture_on_commit_callbacks)
    client = logged_in(director)
    html = client.get(f"/events/{event.pk}/").content.decode()
    assert 'id="table-draw"' in html and 'name="table_2"' in html
    meetings = table_meetings(event)
    body = {"number": "2", "stayer_1": str(meetings[0].stayers[0]),
            "table_1": str(meetings[0].arrivals[0]),
            "stayer_2": str(meetings[1].stayers[0]), "table_2": ""}
    answer = client.post(f"/events/{event.pk}/rounds/seat/", body, follow=True)
    assert not event.rounds.filter(number=2).exists()
    assert "Table 2: choose who partners" in answer.content.decode()
    # an arrival of another table: the core's refusal, shown on the page
    body["table_2"] = str(meetings[0].arrivals[1])
    answer = client.post(f"/events/{event.pk}/rounds/seat/", body, follow=True)
    assert not event.rounds.filter(number=2).exists()
    assert "is not at table 2" in answer.content.decode()
    # the plain button (no draws) is refused in the page's words
    answer = client.post(f"/events/{event.pk}/rounds/seat/", {"number": "2"}, follow=True)
    assert "The tables draw their partners" in answer.content.decode()
    assert not event.rounds.filter(number=2).exists()


def test_no_one_but_the_events_directors_posts_the_draws(
        django_capture_on_commit_callbacks: Any) -> None:
    event, _ = played_day(django_capture_on_commit_callbacks)
    other_club, other_director = club_with_director(slug="elsewhere-pages")
    scorer = UserFactory(username="scorer-pages")
    Membership.objects.create(club=event.club, user=scorer, role=Membership.Role.SCORER)
    meetings = table_meetings(event)
    body = {"number": "2"} | {f"stayer_{m.table}": str(m.stayers[0]) for m in meetings} \
        | {f"table_{m.table}": str(m.arrivals[0]) for m in meetings}
    for user in (other_director, scorer):
        client = logged_in(user)
        assert client.post(f"/events/{event.pk}/rounds/seat/", body).status_code == 403
        assert 'id="table-draw"' not in client.get(f"/events/{event.pk}/").content.decode()
    assert not event.rounds.filter(number=2).exists()

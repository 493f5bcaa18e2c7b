"""A word put into a sentence reads right in German: an event's word for a sitting ("round")
is the reader's ("Runde"), never the stored English key; a role inside a sentence keeps its
German capital ("Als Turnierleiter beitreten") where English lower-cases it ("Join as
director"); a label lower-cased mid-sentence in English keeps its capital in German."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from clubs.services import invitation_create
from tests.clubs.factories import UserFactory, club_with_director
from tests.scoring.factories import seated_table

pytestmark = pytest.mark.django_db


def test_an_invitation_says_its_role_inside_whole_sentences() -> None:
    club, director = club_with_director(slug="einladung")
    invitation = invitation_create(club=club, role="scorer", actor=director)
    url = reverse("invitation-accept", args=[invitation.token])
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    assert ('<strong>director-einladung</strong> invites you to join <strong>Einladung</strong> '
            'as <strong id="invitation-role">scorer</strong>.') in english
    german = Client(HTTP_ACCEPT_LANGUAGE="de").get(url).content.decode()
    assert ('<strong>director-einladung</strong> lädt Sie ein, <strong>Einladung</strong> als '
            '<strong id="invitation-role">Schreiber</strong> beizutreten.') in german
    signed_in = Client(HTTP_ACCEPT_LANGUAGE="de")
    signed_in.force_login(director)
    detail = signed_in.get(reverse("invitation-detail", args=[club.slug, invitation.pk]))
    assert "Einladung als Schreiber beitreten" in detail.content.decode()
    for language, button in (("en", "Join as scorer"), ("de", "Als Schreiber beitreten")):
        newcomer = Client(HTTP_ACCEPT_LANGUAGE=language)
        newcomer.force_login(UserFactory(username=f"neu-{language}"))
        assert button in newcomer.get(url).content.decode()
    # the club's own director has more than the invitation gives: the role said is theirs
    page = signed_in.get(url).content.decode()
    assert "Sie sind schon Turnierleiter von Einladung" in page


def test_the_director_screen_and_the_follow_page_name_the_round_in_german() -> None:
    club, director = club_with_director(slug="runde")
    table = seated_table(club=club)
    event = table.round.event
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(director)
    screen = client.get(reverse("event-director", args=[event.pk])).content.decode()
    assert "<th>Runde</th>" in screen and ">Round<" not in screen
    follow = client.get(reverse("follow-pick", args=[event.pk])).content.decode()
    assert "Platz für jede Runde, sobald sie gesetzt ist" in follow and " round" not in follow
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("follow-pick", args=[event.pk]))
    assert "your table and seat for each round as soon" in english.content.decode()


def test_a_label_inside_a_sentence_is_lower_case_in_english_only() -> None:
    template = Template("{{ kind|lower_in_english }}, {{ sitting|sitting_title }} 2, "
                        "{{ sitting|sittings_title }}")
    with translation.override("en"):
        assert template.render(Context({"kind": "Table talk", "sitting": "round"})) == (
            "table talk, Round 2, Rounds")
    with translation.override("de"):
        assert template.render(Context({"kind": "Tischgespräch", "sitting": "game"})) == (
            "Tischgespräch, Partie 2, Partien")

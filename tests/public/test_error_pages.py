"""403 and 404 are the site's own pages: the reason the code gave, in the site's layout; never
Django's debug page; and a refused request is logged as one line, not a traceback."""

from __future__ import annotations

import logging

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.views.defaults import permission_denied

from clubs.models import Membership
from tests.clubs.factories import UserFactory, club_with_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db


def test_403_shows_the_reason_in_the_site_layout(client) -> None:
    club, _ = club_with_director(slug="riverside")
    scorer = UserFactory(username="scorer")
    Membership.objects.create(club=club, user=scorer, role="scorer")
    client.force_login(scorer)
    response = client.get(reverse("club-manage", args=[club.slug]))
    assert response.status_code == 403
    page = response.content.decode()
    assert "This needs the director role in Riverside." in page
    assert 'id="forbidden"' in page and "♠ Pinochle scoring" in page  # base.html
    assert "signed in as scorer" in page


def test_403_for_someone_signed_out_offers_the_login(rf) -> None:
    request = rf.get("/somewhere/")
    request.user = AnonymousUser()
    response = permission_denied(request, PermissionDenied("Only directors may do this."))
    page = response.content.decode()
    assert response.status_code == 403
    assert "Only directors may do this." in page and "/accounts/login/?next=/somewhere/" in page
    plain = permission_denied(request, PermissionDenied()).content.decode()
    assert "You do not have permission to do this." in plain


def test_404_shows_the_codes_reason_but_not_djangos(client) -> None:
    club, _ = club_with_director(slug="hidden", is_public=False)
    event = EventFactory(club=club)
    private = client.get(reverse("event-detail", args=[event.pk]))
    assert private.status_code == 404
    page = private.content.decode()
    assert "No such event." in page and 'id="not-found"' in page and "♠ Pinochle scoring" in page

    for path in ["/no/such/page/", "/clubs/nope/", "/events/999999/rounds/9/"]:
        response = client.get(path)
        assert response.status_code == 404, path
        body = response.content.decode()
        assert "There is nothing at this address." in body or "No such" in body, path
        for leak in ("URLconf", "matches the given query", "Traceback", "DEBUG = True",
                     "Using the URL"):
            assert leak not in body, (path, leak)


def test_404_gives_the_codes_reason_in_the_readers_language(client) -> None:
    club, _ = club_with_director(slug="verborgen", is_public=False)
    event = EventFactory(club=club)
    response = client.get(reverse("event-detail", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404 and response["Content-Language"] == "de"
    page = response.content.decode()
    assert "Diese Veranstaltung gibt es nicht." in page and "No such" not in page
    # Django's own reason (get_object_or_404 names the model) is never shown, in any language
    unknown = client.get("/clubs/nope/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Unter dieser Adresse gibt es nichts." in unknown
    assert "matches the given query" not in unknown


def test_the_debug_404_stays_off_without_debug(client, settings) -> None:
    assert settings.DEBUG is False
    response = client.get("/no/such/page/")
    assert b"Using the URLconf defined in" not in response.content
    assert b"There is nothing at this address." in response.content


def test_a_403_is_logged_as_one_line_without_a_traceback(client, caplog) -> None:
    club, _ = club_with_director(slug="riverside")
    client.force_login(UserFactory(username="nobody"))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("club-manage", args=[club.slug]))
    assert response.status_code == 403
    records = [r for r in caplog.records if r.name == "django.request"]
    assert len(records) == 1
    assert records[0].getMessage() == f"Forbidden (Permission denied): /clubs/{club.slug}/manage/"
    assert records[0].exc_info is None and not records[0].exc_text
    assert "Traceback" not in caplog.text


def test_a_500_keeps_its_traceback() -> None:
    from common.logging import NoTracebackFor4xx

    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "Internal", (),
                                   sys.exc_info())
    record.status_code = 500
    assert NoTracebackFor4xx().filter(record) and record.exc_info is not None

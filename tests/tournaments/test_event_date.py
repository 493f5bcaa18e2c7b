"""An event's date defaults to today where the club plays, on every path."""

from __future__ import annotations

import datetime
import zoneinfo
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from clubs.models import Club
from tests.clubs.factories import club_with_director
from tournaments.services import event_create

pytestmark = pytest.mark.django_db


def test_an_evening_event_in_chicago_defaults_to_chicagos_date(client) -> None:
    """At 03:30 UTC on 21 November it is still the evening of the 20th in Chicago: the form's
    date, the API's and the service's default say the 20th."""
    club, director = club_with_director(slug="chicago")
    Club.objects.filter(pk=club.pk).update(time_zone="America/Chicago")
    club.refresh_from_db()
    late = datetime.datetime(2026, 11, 21, 3, 30, tzinfo=zoneinfo.ZoneInfo("UTC"))
    with mock.patch.object(timezone, "now", return_value=late):
        assert club.today() == datetime.date(2026, 11, 20)
        client.force_login(director)
        page = client.get(reverse("event-create", args=[club.slug])).content.decode()
        assert 'value="2026-11-20"' in page
        api = APIClient()
        api.force_authenticate(director)
        made = api.post("/api/events/", {"club": club.slug, "name": "Late night"}, format="json")
        assert made.status_code == 201, made.content
        assert made.json()["date"] == "2026-11-20"
        assert event_create(club=club, name="By the service").date == datetime.date(2026, 11, 20)

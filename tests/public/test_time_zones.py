"""A club's pages print times in the club's time zone; the API and other pages keep UTC."""

from __future__ import annotations

import datetime
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club
from scoring import services
from scoring.models import HandRevision
from tests.clubs.factories import club_with_director
from tests.scoring.factories import seated_table, values

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("zone", ["America/Chicago", "Europe/Berlin", "UTC"])
def test_hand_history_reads_the_club_clock(client, zone) -> None:
    club, director = club_with_director(slug="tz")
    Club.objects.filter(pk=club.pk).update(time_zone=zone)
    table = seated_table(club=club)
    revision = services.hand_submit(game=table.game, number=1, values=values())
    moment = datetime.datetime(2026, 1, 15, 1, 42, 7, tzinfo=datetime.UTC)
    HandRevision.objects.filter(pk=revision.pk).update(created_at=moment)
    client.force_login(director)
    html = client.get(reverse("hand-history", args=[revision.hand_id])).content.decode()
    local = moment.astimezone(zoneinfo.ZoneInfo(zone))
    assert local.strftime("%H:%M:%S") in html
    if zone != "UTC":
        assert moment.strftime("%H:%M:%S") not in html
    assert timezone.get_current_timezone_name() == "UTC"  # nothing carried past the request


def test_api_keeps_utc_with_its_offset(client) -> None:
    club, director = club_with_director(slug="tz-api")
    Club.objects.filter(pk=club.pk).update(time_zone="America/Chicago")
    table = seated_table(club=club)
    revision = services.hand_submit(game=table.game, number=1, values=values())
    client.force_login(director)
    answer = client.get(f"/api/hands/{revision.hand_id}/revisions/").json()
    stamps = [r["created_at"] for r in (answer.get("results") or answer.get("revisions") or answer)]
    assert stamps and all(s.endswith("Z") or s.endswith("+00:00") for s in stamps)


def test_a_club_changing_its_zone_is_seen_at_once(client) -> None:
    club, director = club_with_director(slug="tz-change")
    table = seated_table(club=club)
    revision = services.hand_submit(game=table.game, number=1, values=values())
    moment = datetime.datetime(2026, 1, 15, 1, 42, 7, tzinfo=datetime.UTC)
    HandRevision.objects.filter(pk=revision.pk).update(created_at=moment)
    client.force_login(director)
    url = reverse("hand-history", args=[revision.hand_id])
    assert "01:42:07" in client.get(url).content.decode()
    club.time_zone = "Asia/Tokyo"
    club.save()
    assert "10:42:07" in client.get(url).content.decode()


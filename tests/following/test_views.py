"""The follow pages: picking a name, the page of one's seat, who may read it (a follower's token
reads its own entry's seat only), "Notify me", e-mails, "Stop notifications" (one tap, and the
signed link of every notification), the service worker and the Content-Security-Policy."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from draw.services import round_create
from following.models import Follower
from following.services import entry_key, stop_path
from tests.clubs.factories import ClubFactory
from tests.tournaments.factories import event_with_players
from tournaments.models import Entry, Seat

pytestmark = pytest.mark.django_db

# a push service on a public address (a name would need DNS, which the tests may not have)
SUBSCRIPTION = {"endpoint": "https://8.8.8.8/send/abc",
                "keys": {"p256dh": "BP" + "A" * 85, "auth": "A" * 22}}


def _pick(client, event, entry: Entry):
    return client.post(reverse("follow-pick", args=[event.pk]), {"entry": entry.pk})


def test_a_player_picks_their_name_and_the_phone_shows_their_seat(client) -> None:
    event = event_with_players(players=8)
    round_ = round_create(event=event)
    seat = Seat.objects.select_related("entry__player", "table").filter(round=round_).first()
    entry = seat.entry
    event_page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert f'href="/events/{event.pk}/follow/" id="follow-my-seat"' in event_page
    listed = client.get(reverse("follow-pick", args=[event.pk]), {"name": entry.player.name})
    assert f'value="{entry.pk}">{entry.player.name}</button>' in listed.content.decode()
    picked = _pick(client, event, entry)
    assert picked.status_code == 302
    assert picked["Location"] == reverse("follow-entry", args=[event.pk, entry.pk])
    token = picked.cookies[f"follow-{event.pk}"]
    assert token["httponly"] and token["samesite"] == "Lax"
    follower = Follower.objects.get(entry=entry)
    assert follower.token_digest != token.value  # only the digest is kept
    page = client.get(picked["Location"]).content.decode()
    line = re.search(r'<p class="follow-line" id="follow-line">(.*?)</p>', page).group(1)
    assert line.startswith(f"Round 1: table {seat.table.number}, seat {seat.position}, partner ")
    assert 'id="follow-notify-me"' in page and 'id="follow-stop"' in page


def test_a_follower_token_reads_its_own_entry_only_in_a_private_event(client) -> None:
    club = ClubFactory(is_public=False)
    event = event_with_players(club=club, players=8)
    round_create(event=event)
    mine, other = list(event.entries.order_by("pk"))[:2]
    # a stranger cannot pick a name in a private event, nor open anyone's page
    assert client.get(reverse("follow-pick", args=[event.pk])).status_code == 404
    assert _pick(client, event, mine).status_code == 404
    assert client.get(reverse("follow-entry", args=[event.pk, mine.pk])).status_code == 404
    # the personal link (the registration mail's) opens that entry's page, and follows it
    keyed = reverse("follow-entry", args=[event.pk, mine.pk]) + f"?k={entry_key(mine)}"
    assert client.get(keyed).status_code == 200
    assert client.post(keyed).status_code == 302
    assert Follower.objects.filter(entry=mine).count() == 1
    # the phone's token now reads its own entry, without the key ...
    assert client.get(reverse("follow-entry", args=[event.pk, mine.pk])).status_code == 200
    assert client.get(reverse("follow-version", args=[event.pk, mine.pk])).status_code == 200
    # ... and never another's: not the page, its version, nor its subscription
    assert client.get(reverse("follow-entry", args=[event.pk, other.pk])).status_code == 404
    assert client.get(reverse("follow-version", args=[event.pk, other.pk])).status_code == 404
    assert client.post(reverse("follow-subscribe", args=[event.pk, other.pk]),
                       {"subscription": SUBSCRIPTION},
                       content_type="application/json").status_code == 404
    # one entry's key opens no other entry
    wrong = reverse("follow-entry", args=[event.pk, other.pk]) + f"?k={entry_key(mine)}"
    assert client.get(wrong).status_code == 404


def test_notify_me_stores_the_subscription_and_refuses_a_bad_one_by_field(client) -> None:
    event = event_with_players(players=4)
    entry = event.entries.first()
    _pick(client, event, entry)
    url = reverse("follow-subscribe", args=[event.pk, entry.pk])
    bad = client.post(url, {"subscription": {"endpoint": "ftp://x", "keys": {}}},
                      content_type="application/json")
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "subscription.endpoint"
    no_auth = client.post(url, {"subscription": {**SUBSCRIPTION, "keys": {"p256dh": "x"}}},
                          content_type="application/json")
    assert no_auth.json()["errors"][0]["field"] == "subscription.keys.auth"
    assert client.post(url, {"subscription": SUBSCRIPTION},
                       content_type="application/json").json() == {"ok": True}
    assert Follower.objects.get(entry=entry).push_subscription == SUBSCRIPTION
    # a phone that does not follow this entry cannot subscribe for it
    client.cookies.clear()
    assert client.post(url, {"subscription": SUBSCRIPTION},
                       content_type="application/json").status_code == 404


def test_stop_is_one_tap_on_the_page(client) -> None:
    event = event_with_players(players=4)
    entry = event.entries.first()
    _pick(client, event, entry)
    client.post(reverse("follow-subscribe", args=[event.pk, entry.pk]),
                {"subscription": SUBSCRIPTION}, content_type="application/json")
    response = client.post(reverse("follow-stop", args=[event.pk, entry.pk]))
    assert response.status_code == 302
    follower = Follower.objects.get(entry=entry)
    assert follower.stopped is not None and follower.push_subscription is None
    page = client.get(reverse("follow-entry", args=[event.pk, entry.pk])).content.decode()
    assert 'id="follow-stopped"' in page


def test_email_is_sent_only_to_a_confirmed_address_and_the_stop_link_stops_it(
        client, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=4)
    entry = event.entries.first()
    _pick(client, event, entry)
    url = reverse("follow-email", args=[event.pk, entry.pk])
    client.post(url, {"email": "not an address"})
    assert Follower.objects.get(entry=entry).email == ""
    with django_capture_on_commit_callbacks(execute=True):
        with_mail = client.post(url, {"email": "ann@example.org"}, follow=True)
    assert b"We sent a link" in with_mail.content
    (confirm,) = mail.outbox
    link = re.search(r"Confirm: (\S+)", confirm.body).group(1)
    assert link.startswith("http://testserver/follow/email/")
    assert Follower.objects.get(entry=entry).email_confirmed_at is None
    path = link.removeprefix("http://testserver")
    assert b'id="follow-email-confirm"' in client.get(path).content  # a tap, not the GET
    assert Follower.objects.get(entry=entry).email_confirmed_at is None
    client.post(path)
    follower = Follower.objects.get(entry=entry)
    assert follower.email_on
    # the link of every notification: a page with one button, then stopped
    stop = stop_path(follower)
    assert b'id="follow-stop-confirm"' in client.get(stop).content
    other = client.__class__()  # the link works on any device, without the cookie
    done = other.post(stop)
    assert b'id="follow-stopped"' in done.content
    follower.refresh_from_db()
    assert follower.stopped is not None and not follower.email_on
    assert other.post(stop.replace(str(follower.pk) + ":", "999:")).status_code == 400
    assert other.post(stop, HTTP_ACCEPT="application/json").json() == {"stopped": True}


def test_the_service_worker_is_served_from_the_root_and_the_policy_allows_it(client) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in response.content
    event = event_with_players(players=4)
    entry = event.entries.first()
    _pick(client, event, entry)
    page = client.get(reverse("follow-entry", args=[event.pk, entry.pk]))
    policy = dict(part.strip().split(" ", 1) for part in
                  page["Content-Security-Policy"].split(";") if part.strip())
    assert policy["worker-src"] == "'self'"
    assert "'self'" in policy["connect-src"]  # the subscription is posted to this site


def test_confirmation_mails_are_limited_per_address_and_per_client(
        client, settings, django_capture_on_commit_callbacks) -> None:
    """The follow page mails an address typed by anyone: at most 3 an hour to one address
    (whatever the client) and 10 an hour from one client (whatever the addresses)."""
    settings.FOLLOW_EMAIL_RATE_ADDRESS = "3/hour"
    settings.FOLLOW_EMAIL_RATE_CLIENT = "10/hour"
    event = event_with_players(players=4)
    entry = event.entries.first()
    client.post(reverse("follow-pick", args=[event.pk]), {"entry": entry.pk})
    url = reverse("follow-email", args=[event.pk, entry.pk])
    with django_capture_on_commit_callbacks(execute=True):
        statuses = [client.post(url, {"email": "victim@example.org"},
                                REMOTE_ADDR=f"10.0.0.{n}").status_code for n in range(40)]
    assert statuses[:3] == [302] * 3 and set(statuses[3:]) == {429}
    assert len(mail.outbox) == 3  # one address, from 40 clients: 3 mails
    with django_capture_on_commit_callbacks(execute=True):
        statuses = [client.post(url, {"email": f"p{n}@example.org"}).status_code
                    for n in range(12)]
    assert statuses == [302] * 10 + [429] * 2  # one client, many addresses: 10
    assert len(mail.outbox) == 13

"""Where a Web Push may go (``following.push``): only https push services on public addresses,
checked when the phone subscribes (a 400 naming ``subscription.endpoint``) and again when each
push is sent (a name may resolve elsewhere by then: the address is never contacted); each push
within a total deadline, so a push service trickling its answer holds up no mail; a run of the
round's notices cut short is taken up again for what it had not sent. Bodies that crashed the
subscribe endpoint (deep nesting, a lone surrogate, a NUL) are a 400 naming the field."""

from __future__ import annotations

import datetime
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from draw.services import round_create
from following import services
from following.models import Delivery, Follower, Notice
from following.push import PushDeadline, address_public, push_post
from tests.following import push_receiver
from tests.tournaments.factories import event_with_players
from tournaments.models import Entry, Event

pytestmark = pytest.mark.django_db

KEYS = {"p256dh": "BP" + "A" * 85, "auth": "A" * 22}


@dataclass
class Listener:
    """A real TCP server on 127.0.0.1 that counts the connections made to it; ``trickle``: it
    answers an HTTP status line and then one byte every 0.1 s, never finishing."""

    sock: socket.socket
    trickle: bool = False
    connections: int = 0
    stop: threading.Event = field(default_factory=threading.Event)

    @property
    def port(self) -> int:
        return int(self.sock.getsockname()[1])

    def serve(self) -> None:
        self.sock.settimeout(0.1)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            threading.Thread(target=self._answer, args=(conn,), daemon=True).start()

    def _answer(self, conn: socket.socket) -> None:
        with conn:
            if not self.trickle:
                return
            try:
                conn.settimeout(2)
                conn.recv(65536)
                conn.sendall(b"HTTP/1.1 201 Created\r\nContent-Length: 100000\r\n\r\n")
                while not self.stop.is_set():
                    conn.sendall(b"x")
                    time.sleep(0.1)
            except OSError:
                return


def _listen(trickle: bool = False) -> Iterator[Listener]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    sock.listen(16)
    listener = Listener(sock, trickle=trickle)
    thread = threading.Thread(target=listener.serve, daemon=True)
    thread.start()
    yield listener
    listener.stop.set()
    thread.join(2)
    sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    yield from _listen()


@pytest.fixture
def trickler() -> Iterator[Listener]:
    yield from _listen(trickle=True)


def _picked(client, event: Event, entry: Entry) -> str:
    client.post(reverse("follow-pick", args=[event.pk]), {"entry": entry.pk})
    return reverse("follow-subscribe", args=[event.pk, entry.pk])


def _post(client, url: str, body: str | bytes):
    return client.post(url, body, content_type="application/json")


@pytest.mark.parametrize("endpoint", [
    "https://127.0.0.1/push/1", "https://127.0.0.1:8443/push/1", "https://10.1.2.3/push/1",
    "https://192.168.1.1/push/1", "https://169.254.169.254/latest/meta-data/",
    "https://[::1]/push/1", "https://[::ffff:127.0.0.1]/push/1", "https://0x7f000001/push/1",
    "https://localhost/push/1", "https://0.0.0.0/push/1", "http://8.8.8.8/push/1",
    "https://push.invalid/push/1", "https://user:pw@8.8.8.8/push/1",
])
def test_a_push_endpoint_not_on_the_public_internet_is_refused_naming_the_field(
        client, endpoint: str) -> None:
    event = event_with_players(players=4)
    entry = event.entries.first()
    url = _picked(client, event, entry)
    response = client.post(url, {"subscription": {"endpoint": endpoint, "keys": KEYS}},
                           content_type="application/json")
    assert response.status_code == 400, response.content
    (error,) = response.json()["errors"]
    assert error["field"] == "subscription.endpoint"
    assert Follower.objects.get(entry=entry).push_subscription is None
    # the same subscription on a public address is taken
    public = {"endpoint": "https://8.8.8.8/push/1", "keys": KEYS}
    assert client.post(url, {"subscription": public},
                       content_type="application/json").json() == {"ok": True}


def test_the_test_setting_lets_only_loopback_through(settings) -> None:
    event = event_with_players(players=4)
    follower, _ = services.follower_start(event=event, entry=event.entries.first())
    settings.FOLLOW_PUSH_ALLOW_LOCAL = True
    services.follower_subscribe(follower=follower, subscription={
        "endpoint": "http://127.0.0.1:9/push/1", "keys": KEYS})
    with pytest.raises(services.DomainError) as refused:
        services.follower_subscribe(follower=follower, subscription={
            "endpoint": "http://10.0.0.1/push/1", "keys": KEYS})
    assert refused.value.field == "subscription.endpoint"
    assert not address_public("100.64.0.1") and not address_public("2002:7f00:1::1")
    assert address_public("8.8.8.8") and address_public("2606:4700:4700::1111")


@pytest.mark.parametrize(("body", "field"), [
    ("[" * 50_000 + "]" * 50_000, "subscription"),
    ('{"subscription": ' + "[" * 50_000 + "]" * 50_000 + "}", "subscription"),
    ('{"subscription": {"endpoint": "https://8.8.8.8/\\ud800", "keys": {}}}',
     "subscription.endpoint"),
    ('{"subscription": {"endpoint": "https://8.8.8.8/a\\u0000b", "keys": {}}}',
     "subscription.endpoint"),
    ('{"subscription": {"endpoint": "https://8.8.8.8/a", "keys": {"auth": "\\udfff"}}}',
     "subscription.keys.auth"),
])
def test_a_body_that_crashed_the_subscribe_endpoint_is_a_400_naming_the_field(
        client, body: str, field: str) -> None:
    event = event_with_players(players=4)
    entry = event.entries.first()
    response = _post(client, _picked(client, event, entry), body)
    assert response.status_code == 400, response.content
    assert response.json()["errors"][0]["field"] == field
    assert Follower.objects.get(entry=entry).push_subscription is None


def _real_keys() -> dict[str, str]:
    """A browser's subscription keys (a real P-256 key: the push is encrypted, then posted)."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return {"p256dh": push_receiver.b64url(public), "auth": push_receiver.b64url(os.urandom(16))}


def _follower(entry: Entry, endpoint: str, email: str = "") -> Follower:
    """A follower whose stored subscription points at ``endpoint`` (as if its name resolved
    elsewhere since it subscribed: written directly, past the subscribe check)."""
    follower, _ = services.follower_start(event=entry.event, entry=entry)
    follower.push_subscription = {"endpoint": endpoint, "keys": _real_keys()}
    if email:
        follower.email = email
        follower.email_confirmed_at = timezone.now()
    follower.save()
    return follower


def test_a_name_resolving_to_a_private_address_at_send_time_is_never_contacted(
        listener: Listener, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=4)
    entries = list(event.entries.order_by("pk"))
    # "localhost" resolves (the machine's own resolver) to 127.0.0.1, where the listener is
    by_name = _follower(entries[0], f"https://localhost:{listener.port}/push/1",
                        email="a@example.org")
    literal = _follower(entries[1], f"https://127.0.0.1:{listener.port}/push/2")
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    assert listener.connections == 0
    with pytest.raises(services.DomainError):
        push_post(f"https://localhost:{listener.port}/x", data=b"", headers={}, deadline=2)
    assert listener.connections == 0
    pushes = Delivery.objects.filter(channel=Delivery.Channel.PUSH, notice__round=first)
    assert {(d.follower_id, d.outcome) for d in pushes} == {
        (by_name.pk, Delivery.Outcome.FAILED), (literal.pk, Delivery.Outcome.FAILED)}
    assert [m.to for m in mail.outbox] == [["a@example.org"]]  # the mail went all the same


def test_a_push_service_trickling_its_answer_is_cut_at_the_deadline_and_the_mails_go(
        trickler: Listener, settings, django_capture_on_commit_callbacks) -> None:
    settings.FOLLOW_PUSH_ALLOW_LOCAL = True  # the slow push service is on 127.0.0.1
    settings.FOLLOW_PUSH_DEADLINE_SECONDS = 1
    settings.FOLLOW_SEND_TIMEOUT_SECONDS = 5  # each byte comes well within the socket timeout
    started = time.monotonic()
    with pytest.raises(PushDeadline):
        push_post(f"http://127.0.0.1:{trickler.port}/push/0", data=b"x", headers={}, deadline=1)
    assert time.monotonic() - started < 2
    event = event_with_players(players=8)
    entries = list(event.entries.order_by("pk"))
    for n, entry in enumerate(entries):
        _follower(entry, f"http://127.0.0.1:{trickler.port}/push/{n}", email=f"p{n}@example.org")
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        first = round_create(event=event)
    took = time.monotonic() - started
    assert sorted(m.to[0] for m in mail.outbox) == sorted(f"p{n}@example.org" for n in range(8))
    assert trickler.connections == 1 + 8  # every push was tried, none waited past its deadline
    assert took < 5, took  # eight pushes at once, each cut at 1 s
    outcomes = set(Delivery.objects.filter(notice__round=first, channel="push")
                   .values_list("outcome", flat=True))
    assert outcomes == {Delivery.Outcome.FAILED}
    assert Notice.objects.get(round=first).finished is not None


def test_a_run_cut_short_is_resumed_for_what_it_had_not_sent(
        settings, django_capture_on_commit_callbacks) -> None:
    event = event_with_players(players=8)
    entries = list(event.entries.order_by("pk"))
    followers = [_follower(entry, "https://8.8.8.8/push/unused", email=f"p{n}@example.org")
                 for n, entry in enumerate(entries)]
    Follower.objects.update(push_subscription=None)  # mails only: nothing leaves the machine
    settings.FOLLOW_TASK_BUDGET_SECONDS = 1000
    # the round is seated while no task runs (a worker killed mid-run): the notice is claimed,
    # three followers were mailed before the worker died
    with django_capture_on_commit_callbacks(execute=False):
        first = round_create(event=event)
    claimed = services._claim(first.pk)
    assert claimed == ["seated"]
    notice = Notice.objects.get(round=first)
    Delivery.objects.bulk_create(Delivery(notice=notice, follower=f, channel="mail",
                                          outcome="sent") for f in followers[:3])
    assert services.notices_resume() == []  # touched just now: maybe still running
    Notice.objects.filter(pk=notice.pk).update(
        touched=timezone.now() - datetime.timedelta(minutes=5))
    assert services.notices_resume() == [first.pk]  # the task runs inline in the tests
    assert sorted(m.to[0] for m in mail.outbox) == [f"p{n}@example.org" for n in range(3, 8)]
    notice.refresh_from_db()
    assert notice.finished is not None and notice.sent == 8
    assert services.notices_resume() == []

"""A "follow my seat" push in the club's language: the notice and the words of the
notification's stop button (the phone's service worker has no catalog, so the push brings
them), received and decrypted by the push service of ``tests.following.push_receiver``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from draw.services import round_create
from following import services
from tests.clubs.factories import ClubFactory
from tests.following import push_receiver
from tests.tournaments.factories import event_with_players

pytestmark = pytest.mark.django_db


@pytest.fixture
def receiver(settings) -> Iterator[push_receiver.PushReceiver]:
    settings.FOLLOW_PUSH_ALLOW_LOCAL = True  # our push service is on 127.0.0.1, over http
    server = push_receiver.start()
    yield server
    server.server.shutdown()


@pytest.mark.parametrize(("language", "stop", "start"), [
    ("de", "Benachrichtigungen beenden", "Runde 1: "),
    ("en", "Stop notifications", "Round 1: "),
])
def test_a_push_says_its_notice_and_its_stop_button_in_the_clubs_language(
        language: str, stop: str, start: str, receiver,
        django_capture_on_commit_callbacks) -> None:
    event = event_with_players(club=ClubFactory(language=language), players=4)
    entry = event.entries.order_by("pk")[0]
    follower, _ = services.follower_start(event=event, entry=entry)
    services.follower_subscribe(follower=follower,
                                subscription=receiver.subscription(str(entry.pk)))
    with django_capture_on_commit_callbacks(execute=True):
        round_create(event=event)
    (pushed,) = receiver.received
    assert pushed.message["stop_label"] == stop
    assert pushed.message["body"].startswith(start)
    assert pushed.message["stop"] == services.stop_path(follower)

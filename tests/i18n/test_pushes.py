"""A "follow my seat" push in the club's language: the notice and the words of the
notification's stop button (the phone's service worker has no catalog, so the push brings
them), received and decrypted by the push service of ``tests.following.push_receiver``; the
cut's notice says its stage and table without an English word left in German."""

from __future__ import annotations

from typing import cast

import pytest
from django.utils import translation

from draw.services import round_create
from events.where import Seating, SeatingRow
from following import services
from following.texts import cut_text
from tests.clubs.factories import ClubFactory
from tests.tournaments.factories import event_with_players
from tournaments.models import Round

pytestmark = pytest.mark.django_db




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


@pytest.mark.parametrize(("language", "stage", "where", "said"), [
    ("en", Round.Stage.SEMIFINAL, "table 2, seat N",
     "The cut is made: you play semi-final table 2 (match 3), seat N, partner Bob"),
    ("de", Round.Stage.SEMIFINAL, "Tisch 2, Platz N",
     "Der Cut ist gemacht: Sie spielen im Halbfinale an Tisch 2 (Begegnung 3), Platz N, "
     "Partner Bob"),
    ("en", Round.Stage.FINAL, "final table, seat N",
     "The cut is made: you play the final table, seat N, partner Bob"),
    ("de", Round.Stage.FINAL, "Finaltisch, Platz N",
     "Der Cut ist gemacht: Sie spielen am Finaltisch, Platz N, Partner Bob"),
])
def test_the_cut_is_told_in_german_without_an_english_word(
        language: str, stage: str, where: str, said: str) -> None:
    board = cast(Seating, {"round": Round(number=3, stage=stage), "title": "", "word": ""})
    row = cast(SeatingRow, {"state": "seated", "where": where, "table": 2,
                            "match": "3" if stage == Round.Stage.SEMIFINAL else "",
                            "partner": "Bob"})
    with translation.override(language):
        assert cut_text(board, row, None) == said

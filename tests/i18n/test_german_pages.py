"""Every kind of page, read in German, has no English sentence left.

The page kinds and their data are the accessibility test's (``tests/e2e/test_accessibility.py``:
the demo club, a progressive day, three-handed, six- and five-handed and check pinochle nights),
fetched here with the Django test client and ``Accept-Language: de`` instead of a browser. The
visible text and the text attributes (title, placeholder, aria-label, alt, data-confirm) of each
page are searched for English sentences: a run of words with two or more English words that
German does not have. What people typed is not the site's to translate: the names of the
seeded players, events, clubs, seasons and users and the words of director calls are taken out
first, and so is what pages show as code (``<code>``: a command, an address, the draw's
formula). Every kind is checked in full: the texts built in Python (formats, rulebook, status
names, forms, the director's next step) are translated like the templates."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from clubs.models import Club, Player
from conduct.models import DirectorCall
from league.models import Season
from tests.e2e.test_accessibility import DIRECTOR, KINDS, Site, _seed
from tournaments.models import Event, Pair

# Words of English that German does not use (so "in", "was", "die", "so", "an" are not here).
ENGLISH = {
    "the", "and", "of", "to", "is", "are", "with", "your", "you", "this", "that", "from", "by",
    "on", "at", "has", "have", "be", "it", "its", "for", "or", "not", "yet", "all", "each",
    "every", "here", "there", "when", "what", "which", "who", "will", "can", "page", "hand",
    "hands", "game", "games", "round", "rounds", "table", "tables", "player", "players",
    "points", "score", "scores", "standings", "seat", "seats", "bid", "meld", "trump", "wins",
    "won", "lost", "played", "playing", "confirmed", "event", "events", "night", "nights",
    "enter", "entered", "save", "saved", "director", "results", "result", "none", "no",
    "open", "closed", "finished", "running", "draft", "waiting", "next", "first", "last",
}
TEXT_ATTRIBUTES = ("title", "placeholder", "aria-label", "alt", "data-confirm")

class _Text(HTMLParser):
    """The text a reader sees or hears: text outside script, style and code, and the text
    attributes; one chunk per element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "code", "svg"):
            self.hidden += 1
        self.chunks.extend(v for k, v in attrs if k in TEXT_ATTRIBUTES and v)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "code", "svg") and self.hidden:
            self.hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden and data.strip():
            self.chunks.append(data)


def english_left(html: str, names: list[str]) -> list[str]:
    """The chunks of ``html`` that still read as English, once the ``names`` are out."""
    parser = _Text()
    parser.feed(html)
    found = []
    for chunk in parser.chunks:
        for name in names:
            chunk = chunk.replace(name, " ")
        words = re.findall(r"[A-Za-z']+", chunk)
        if sum(1 for w in words if w.lower() in ENGLISH) >= 2:
            found.append(" ".join(chunk.split()))
    return found


def _names() -> list[str]:
    """What the seeded data calls things (typed by people, never translated), longest first."""
    names = [*Player.objects.values_list("name", flat=True),
             *Event.objects.values_list("name", flat=True),
             *Club.objects.values_list("name", flat=True),
             *Season.objects.values_list("name", flat=True),
             *Pair.objects.values_list("name", flat=True),
             *get_user_model().objects.values_list("username", flat=True),
             *DirectorCall.objects.values_list("words", flat=True)]
    return sorted({n for n in names if n}, key=len, reverse=True)


def _client(who: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    if who == "director":
        client.force_login(get_user_model().objects.get(username=DIRECTOR[0]))
    return client


# Committed, as in the browser test: a confirmed game seats the next one on commit.
@pytest.mark.django_db(transaction=True)
def test_every_kind_of_page_reads_in_german_with_no_english_sentence_left() -> None:
    site = Site(base="", **_seed())
    names = _names()
    clients: dict[str, Client] = {}
    left: dict[str, Any] = {}
    for name, kind in KINDS.items():
        who = "director" if kind.who == "director" else "guest"
        client = clients.setdefault(who, _client(who))
        response = client.get(kind.path(site))
        assert response.status_code == kind.status, (name, response.status_code)
        assert response["Content-Language"] == "de", name
        english = english_left(response.content.decode(), names)
        if english:
            left[name] = english[:8]
    assert not left, "English left on German pages:\n" + "\n".join(
        f"{name}: {chunks}" for name, chunks in left.items())
    assert len(KINDS) >= 70  # every kind of page the accessibility test knows


def test_the_check_finds_english_and_passes_german() -> None:
    assert english_left("<p>Enter the hands of the table</p>", []) == [
        "Enter the hands of the table"]
    assert english_left("<p>Die Spiele des Tisches eingeben</p><code>the and of</code>", []) == []
    assert english_left('<input placeholder="Type your name here">', []) == ["Type your name here"]
    assert english_left("<p>Ada Lovelace and the Engine</p>", ["Ada Lovelace and the Engine"]) == []

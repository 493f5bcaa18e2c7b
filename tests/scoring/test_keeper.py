"""The keeper rule of the table's phone: the player keeping score is named before the first hand,
cannot change once a hand is stored, and only a player of the other side confirms the game. A
director's desk is not asked. And the table's pages are never kept by the browser."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from draw.cards import table_cards_ensure
from scoring import services
from scoring.models import Game, Hand
from tests.clubs.factories import club_with_director
from tests.scoring.factories import DEALERS, form_data, seated_table, values

pytestmark = pytest.mark.django_db


def post_hand(api: APIClient, table, number: int = 1, key: str | None = None):
    return api.post(reverse("api-table-hands", args=[table.token]),
                    {**values(dealer=DEALERS[(number - 1) % 4]), "number": number},
                    format="json", HTTP_IDEMPOTENCY_KEY=key or f"k-{number}")


def keeper(api: APIClient, table, position: str):
    return api.post(reverse("api-table-scorer", args=[table.token]), {"position": position},
                    format="json")


def confirm(api: APIClient, table, position: str):
    return api.post(reverse("api-table-confirm", args=[table.token]), {"position": position},
                    format="json")


def fields(response) -> set[str]:
    return {e["field"] for e in response.json()["errors"]}


def test_a_hand_before_the_keeper_is_named_is_refused_naming_scorer() -> None:
    api = APIClient()
    table = seated_table(keeper="")
    refused = post_hand(api, table)
    assert refused.status_code == 400
    assert fields(refused) == {"scorer"}
    assert refused.json()["errors"][0]["code"] == "no_scorer"
    assert not Hand.objects.exists()
    # the same key once the keeper is named: stored (a refused key was never used)
    assert keeper(api, table, "E").status_code == 200
    assert post_hand(api, table).status_code == 201
    assert Game.objects.get(pk=table.game.pk).scorer_position == "E"


def test_the_form_post_before_a_keeper_is_refused_and_the_page_asks_for_the_keeper(client) -> None:
    table = seated_table(keeper="")
    page = client.get(reverse("table-entry", args=[table.token])).content.decode()
    assert "Who keeps score on this phone?" in page
    assert "data-hand-area hidden" in page  # the form is not offered yet
    response = client.post(reverse("table-entry", args=[table.token]), form_data())
    assert response.status_code == 400
    assert "Name the player who keeps score on this phone first" in response.content.decode()
    assert not Hand.objects.exists()
    assert client.post(reverse("table-set-scorer", args=[table.token]),
                       {"position": "S"}).status_code == 302
    page = client.get(reverse("table-entry", args=[table.token])).content.decode()
    assert "Who keeps score on this phone?" not in page and "data-hand-area>" in page
    assert client.post(reverse("table-entry", args=[table.token]), form_data()).status_code == 302


def test_the_keeper_may_change_before_the_first_hand_never_after() -> None:
    api = APIClient()
    table = seated_table(keeper="")
    assert keeper(api, table, "N").status_code == 200
    assert keeper(api, table, "W").json()["scorer_position"] == "W"  # no hand yet: may change
    assert post_hand(api, table).status_code == 201
    changed = keeper(api, table, "N")
    assert changed.status_code == 400
    assert fields(changed) == {"scorer"}
    assert changed.json()["errors"][0]["code"] == "scorer_chosen"
    # the same keeper again (a phone's retry) answers the game as it is
    again = keeper(api, table, "W")
    assert again.status_code == 200 and again.json()["scorer_position"] == "W"
    assert Game.objects.get(pk=table.game.pk).scorer_position == "W"


def test_only_a_player_of_the_other_side_confirms() -> None:
    api = APIClient()
    table = seated_table(keeper="", deals_per_round=4)
    assert keeper(api, table, "N").status_code == 200
    for number in range(1, 5):
        assert post_hand(api, table, number).status_code == 201
    assert Game.objects.get(pk=table.game.pk).status == Game.Status.FINISHED
    for own_side in ("N", "S"):
        refused = confirm(api, table, own_side)
        assert refused.status_code == 400
        assert refused.json()["errors"][0]["code"] == "scorer_side"
        assert Game.objects.get(pk=table.game.pk).status == Game.Status.FINISHED
    # nor may the winners name another keeper now
    late = keeper(api, table, "E")
    assert late.status_code == 400 and fields(late) == {"scorer"}
    ok = confirm(api, table, "W")
    assert ok.status_code == 200 and ok.json()["status"] == Game.Status.CONFIRMED
    game = Game.objects.get(pk=table.game.pk)
    assert game.confirmed_by == table.seats.get(position="W").entry


def test_no_keeper_can_be_named_once_a_desk_finished_the_game() -> None:
    api = APIClient()
    table = seated_table(keeper="", deals_per_round=4)
    for number in range(1, 5):  # the scorer's desk entered every hand
        services.hand_submit(game=table.game, number=number,
                             values=values(dealer=DEALERS[number - 1]))
    late = keeper(api, table, "E")
    assert late.status_code == 400 and late.json()["errors"][0]["code"] == "game_over"
    assert Game.objects.get(pk=table.game.pk).scorer_position == ""


def test_the_directors_desk_is_not_asked_for_a_keeper(client) -> None:
    club, director = club_with_director(slug="keeper-club")
    table = seated_table(club=club, keeper="")
    api = APIClient()
    api.force_authenticate(director)
    desk = api.post(reverse("api-event-hands", args=[table.round.event_id]),
                    {**values(), "number": 1, "round": 1, "table": 1}, format="json")
    assert desk.status_code == 201, desk.content
    client.force_login(director)
    page = client.post(
        reverse("director-hands", args=[table.round.event_id]) + "?round=1&table=1",
        form_data(number=2, key="desk-2", dealer="W"),
    )
    assert page.status_code == 302, page.content.decode()[:2000]
    assert Hand.objects.filter(game=table.game).count() == 2
    assert Game.objects.get(pk=table.game.pk).scorer_position == ""


def test_a_confirmed_game_offers_no_fix_but_asks_for_the_director(client) -> None:
    table = seated_table(deals_per_round=4)  # N keeps score
    for number in range(1, 5):
        services.hand_submit(game=table.game, number=number,
                             values=values(dealer=DEALERS[number - 1]), table_device=True)
    page = client.get(reverse("table-entry", args=[table.token])).content.decode()
    assert 'class="fix"' in page  # finished, not confirmed: the table may still correct
    services.game_confirm(game=table.game, position="E")
    page = client.get(reverse("table-entry", args=[table.token])).content.decode()
    assert 'class="fix"' not in page
    assert "ask the director" in page.lower()
    # a stale page's Fix link: the page says why, with no form
    stale = client.get(reverse("table-hand-correct", args=[table.token, 2]))
    assert stale.status_code == 400 and "data-hand-form" not in stale.content.decode()
    assert "only a director can change it now" in stale.content.decode()
    # a stale correction form posted: refused, the message in the form, nothing looks saved
    posted = client.post(reverse("table-hand-correct", args=[table.token, 2]),
                         form_data(number=2, key="fix", dealer="W", bid="52", meld_NS="25",
                                   expected_revision="1"))
    html = posted.content.decode()
    assert posted.status_code == 400
    assert "only a director can change it now. Ask the director." in html
    assert "Not saved" in html


@pytest.mark.parametrize("path", ["table-entry", "table-entry-live", "correct", "card"])
def test_table_and_card_pages_are_never_kept_by_the_browser(client, path) -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values(), table_device=True)
    if path == "card":
        card = table_cards_ensure(event=table.round.event, count=1)[0]
        url = reverse("table-card", args=[card.token])
    elif path == "correct":
        url = reverse("table-hand-correct", args=[table.token, 1])
    else:
        url = reverse(path, args=[table.token])
    response = client.get(url)
    assert response.status_code in (200, 302)
    assert "no-store" in response["Cache-Control"]


def test_the_table_pages_say_the_formats_word_for_a_sitting(client) -> None:
    from formats.registry import REGISTERED
    from tests.scoring.factories import close_round

    by_game = next(spec for spec in REGISTERED if spec.sitting == "game")
    table = seated_table(format=by_game.name)
    close_round(table)
    html = client.post(reverse("table-entry", args=[table.token]), form_data()).content.decode()
    main = html[html.index("<main"):html.index("</main>")]
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)\b.*?</\1>", " ", main, flags=re.S))
    assert "Game 1 is closed" in text and "Game closed" in text
    assert not re.search(r"\bround\b", text, re.I), text

"""The table's phone page /t/<token>/: valid, invalid, conflict, retry, locked, wrong token."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Game, Hand, HandRevision
from tests.scoring.factories import DEALERS, close_round, form_data, seated_table

pytestmark = pytest.mark.django_db


def url(table) -> str:
    return reverse("table-entry", args=[table.token])


def error_next_to(html: str, key: str) -> str:
    """The text of the message slot of field ``key`` (e.g. ``bid``, ``meld_EW``)."""
    match = re.search(rf'<p class="field-error"[^>]*data-error-for="{re.escape(key)}"[^>]*>(.*?)</p>',
                      html, re.S)
    assert match, f"no error slot for {key}"
    return match.group(1).strip()


def test_page_shows_table_round_players_score_and_the_next_hand(client) -> None:
    table = seated_table()
    names = [s.entry.player.name for s in table.seats.select_related("entry__player")]
    response = client.get(url(table))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Table 1" in html and "Round 1" in html
    for name in names:
        assert name in html
    assert "Hand 1" in html
    assert 'inputmode="numeric"' in html
    assert 'name="idempotency_key"' in html and 'name="number" value="1"' in html
    # big radio tiles for seats; dealer pre-filled
    assert re.search(r'name="dealer" value="N" checked', html)


def test_valid_hand_is_stored_with_its_score_and_the_dealer_rotates(client) -> None:
    table = seated_table()
    response = client.post(url(table), form_data())
    assert response.status_code == 302
    revision = HandRevision.objects.get()
    assert revision.hand.game == table.game and revision.hand.number == 1
    assert revision.points == {"NS": 51, "EW": 55}
    assert revision.source == HandRevision.Source.TABLE and revision.is_live
    assert revision.idempotency_key == "key-1"
    page = client.get(url(table)).content.decode()
    assert "Hand 1 saved" in page
    assert "Hand 2" in page
    assert re.search(r'name="dealer" value="W" checked', page)  # S dealt, W deals next
    game = Game.objects.get(pk=table.game.pk)
    assert game.totals == {"NS": 51, "EW": 55}


@pytest.mark.parametrize(
    ("override", "field", "text"),
    [
        ({"bid": "63"}, "bid", "63"),
        ({"counters_NS": "30", "counters_EW": "30"}, "counters", "50"),
        ({"meld_EW": ""}, "meld_EW", "EW"),
        ({"bid": "abc"}, "bid", "whole number"),
        ({"bidder": ""}, "bidder", ""),
    ],
)
def test_rejected_hand_shows_the_message_next_to_the_field_and_stores_nothing(
    client, override, field, text
) -> None:
    table = seated_table()
    response = client.post(url(table), form_data(**override))
    assert response.status_code == 400
    message = error_next_to(response.content.decode(), field)
    assert message and text in message
    assert Hand.objects.count() == 0 and HandRevision.objects.count() == 0
    # what was typed is kept so it can be fixed
    assert 'name="meld_NS" id="id_meld_NS" value="24"' in response.content.decode()


def test_typing_one_sides_counters_fills_the_other(client) -> None:
    table = seated_table()
    data = form_data(counters_EW="")
    assert client.post(url(table), data).status_code == 302
    assert HandRevision.objects.get().counters == {"NS": 27, "EW": 23}


@pytest.mark.parametrize(
    ("override", "result"),
    [
        ({"outcome": "no_marriage"}, "board_set"),
        ({"outcome": "surrender"}, "surrendered"),
        ({"outcome": "renege", "renege_seat": "E"}, "renege"),
        ({"outcome": "misdeal"}, "misdeal"),
    ],
)
def test_an_event_instead_of_play(client, override, result) -> None:
    table = seated_table()
    # fields the event does not use (counters for a board set, everything for a misdeal) are
    # left out even when the form still holds them
    assert client.post(url(table), form_data(**override)).status_code == 302
    revision = HandRevision.objects.get()
    assert revision.result == result
    if result == "misdeal":
        assert revision.bid is None and revision.points == {"NS": 0, "EW": 0}
    if result == "renege":
        assert revision.renege_seat == "E"


def test_renege_without_the_seat_is_refused_next_to_the_seat(client) -> None:
    table = seated_table()
    response = client.post(url(table), form_data(outcome="renege"))
    assert response.status_code == 400
    assert error_next_to(response.content.decode(), "renege_seat")
    assert not HandRevision.objects.exists()


def test_second_device_entering_the_same_hand_sees_the_stored_values(client) -> None:
    table = seated_table()
    assert client.post(url(table), form_data(key="phone-a")).status_code == 302
    response = client.post(url(table), form_data(key="phone-b", bid="55", meld_NS="28"))
    assert response.status_code == 409
    html = response.content.decode()
    assert "already been entered" in html
    assert "N bid 51" in html  # the stored values, not the second device's
    revision = HandRevision.objects.get()
    assert revision.bid == 51 and revision.meld == {"NS": 24, "EW": 32}
    assert "Hand 2" in html  # the page moves on to the next hand


def test_retry_with_the_same_key_stores_one_hand(client) -> None:
    table = seated_table()
    first = client.post(url(table), form_data(key="retry-me"))
    second = client.post(url(table), form_data(key="retry-me"))
    assert first.status_code == second.status_code == 302
    assert Hand.objects.count() == 1 and HandRevision.objects.count() == 1


def test_closed_round_shows_the_final_score_read_only_and_refuses_writes(client) -> None:
    table = seated_table()
    client.post(url(table), form_data())
    close_round(table)
    page = client.get(url(table))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Round closed" in html and "data-hand-form" not in html
    assert ">51<" in html and ">55<" in html
    refused = client.post(url(table), form_data(number=2, key="late", dealer="W"))
    assert refused.status_code == 403
    assert "closed" in refused.content.decode()
    correct = client.post(reverse("table-hand-correct", args=[table.token, 1]),
                          form_data(key="late-fix", bid="52", expected_revision="1"))
    assert correct.status_code == 403
    assert HandRevision.objects.count() == 1


def test_wrong_token_is_404(client) -> None:
    seated_table()
    assert client.get("/t/not-a-real-token/").status_code == 404
    assert client.post("/t/not-a-real-token/", form_data()).status_code == 404


def test_another_tables_token_cannot_write_this_table(client) -> None:
    table_a = seated_table()
    table_b = seated_table(event=table_a.round.event, table_number=2)
    client.post(url(table_a), form_data(key="a1"))
    # B's token writes B's game only, whatever the form says
    client.post(url(table_b), form_data(key="b1", bid="55", meld_NS="28", counters_NS="27"))
    assert table_a.game.hands.get().revisions.get().bid == 51
    assert table_b.game.hands.get().revisions.get().bid == 55
    # and B's token cannot reach A's hands for correction (B has no hand 2)
    assert client.get(reverse("table-hand-correct", args=[table_b.token, 2])).status_code == 404


def test_the_game_ends_at_the_deal_count_and_a_player_of_the_other_side_confirms(client) -> None:
    table = seated_table(deals_per_round=4)
    client.post(reverse("table-set-scorer", args=[table.token]), {"position": "N"})
    for number in range(1, 5):
        response = client.post(
            url(table), form_data(number=number, key=f"k{number}", dealer=DEALERS[number - 1])
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(pk=table.game.pk)
    assert game.status == Game.Status.FINISHED and game.totals == {"NS": 204, "EW": 220}
    html = client.get(url(table)).content.decode()
    assert "Game over" in html and "data-hand-form" not in html
    # a fifth hand is refused
    assert client.post(url(table), form_data(number=5, key="k5")).status_code == 400
    # the scorer's partner may not confirm; an opponent may
    same_side = client.post(reverse("table-confirm", args=[table.token]), {"position": "S"})
    assert same_side.status_code == 400 and "other side" in same_side.content.decode()
    ok = client.post(reverse("table-confirm", args=[table.token]), {"position": "E"})
    assert ok.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.CONFIRMED
    assert game.confirmed_by == table.seats.get(position="E").entry


def test_correcting_a_hand_at_the_table_keeps_the_previous_version(client) -> None:
    table = seated_table()
    client.post(url(table), form_data())
    fix_url = reverse("table-hand-correct", args=[table.token, 1])
    form = client.get(fix_url).content.decode()
    assert 'name="expected_revision" value="1"' in form
    response = client.post(fix_url, form_data(key="fix-1", bid="52", meld_NS="25",
                                              expected_revision="1", note="typo in bid"))
    assert response.status_code == 302
    revisions = list(HandRevision.objects.order_by("revision"))
    assert [(r.revision, r.is_live, r.bid) for r in revisions] == [(1, False, 51), (2, True, 52)]
    assert revisions[1].note == "typo in bid"
    # a stale correction (based on version 1) is a conflict, not an overwrite
    stale = client.post(fix_url, form_data(key="fix-2", bid="53", meld_NS="26",
                                           expected_revision="1"))
    assert stale.status_code == 409
    assert HandRevision.objects.get(is_live=True).bid == 52


def test_scorer_is_chosen_once(client) -> None:
    table = seated_table()
    client.post(reverse("table-set-scorer", args=[table.token]), {"position": "W"})
    client.post(url(table), form_data())
    client.post(reverse("table-set-scorer", args=[table.token]), {"position": "N"})
    assert Game.objects.get(pk=table.game.pk).scorer_position == "W"


def test_entry_on_a_round_seated_by_the_seating_service(client) -> None:
    from draw.services import round_create, round_set_status
    from tests.tournaments.factories import event_with_players

    event = event_with_players(players=8)
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    table = round_.tables.order_by("number").first()
    assert client.get(url(table)).status_code == 200
    client.post(reverse("table-set-scorer", args=[table.token]), {"position": "N"})
    assert client.post(url(table), form_data()).status_code == 302
    round_set_status(round_=round_, status="closed", close_unfinished=True)
    assert client.post(url(table), form_data(number=2, key="k2", dealer="W")).status_code == 403
    other = round_.tables.order_by("number").last()
    assert other.pk != table.pk and not other.game.hands.exists()

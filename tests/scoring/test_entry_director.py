"""The director's desktop pages: entry and corrections, hand history, unconfirmed games; tenancy."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import Game, HandRevision
from tests.clubs.factories import club_with_director
from tests.scoring.factories import close_round, form_data, member, seated_table, values

pytestmark = pytest.mark.django_db


def hands_url(table, **params: object) -> str:
    query = {"round": table.round.number, "table": table.number, **params}
    return reverse("director-hands", args=[table.round.event_id]) + "?" + "&".join(
        f"{k}={v}" for k, v in query.items()
    )


@pytest.fixture
def setup():
    club, director = club_with_director(slug="club-a")
    table = seated_table(club=club)
    return club, director, table


def test_pages_need_a_login(client, setup) -> None:
    _, _, table = setup
    response = client.get(hands_url(table))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_director_enters_a_hand_from_the_desk(client, setup) -> None:
    _, director, table = setup
    client.force_login(director)
    page = client.get(hands_url(table))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Enter hand 1" in html and "data-desk" in html
    response = client.post(hands_url(table), form_data(key="desk-1"))
    assert response.status_code == 302
    revision = HandRevision.objects.get()
    assert revision.source == HandRevision.Source.DIRECTOR and revision.author == director


def test_desk_shows_rejections_next_to_the_field(client, setup) -> None:
    _, director, table = setup
    client.force_login(director)
    response = client.post(hands_url(table), form_data(key="desk-1", bid="63"))
    assert response.status_code == 400
    html = response.content.decode()
    assert 'data-error-for="bid" role="alert">' in html and "63" in html.split('data-error-for="bid"')[1][:300]
    assert HandRevision.objects.count() == 0


def test_closed_round_correction_needs_a_director_and_a_reason(client, setup) -> None:
    club, director, table = setup
    services.hand_submit(game=table.game, number=1, values=values())
    close_round(table)
    scorer = member(club, "scorer", "scorer-a")
    edit = hands_url(table, hand=1)
    changed = form_data(key="fix-1", bid="52", meld_NS="25", expected_revision="1")

    client.force_login(scorer)
    refused = client.post(edit, changed)
    assert refused.status_code == 400 and "closed" in refused.content.decode()
    assert HandRevision.objects.count() == 1

    client.force_login(director)
    form = client.get(edit).content.decode()
    assert "required: the round is closed" in form
    no_reason = client.post(edit, changed)
    assert no_reason.status_code == 400
    assert "Say why" in no_reason.content.decode().split('data-error-for="note"')[1][:200]
    assert HandRevision.objects.count() == 1

    ok = client.post(edit, {**changed, "idempotency_key": "fix-2", "note": "scorer misread the bid"})
    assert ok.status_code == 302
    live = HandRevision.objects.get(is_live=True)
    assert (live.revision, live.bid, live.note, live.author) == (2, 52, "scorer misread the bid", director)
    assert HandRevision.objects.get(revision=1).is_live is False


def test_scorer_may_correct_an_open_round(client, setup) -> None:
    club, _, table = setup
    services.hand_submit(game=table.game, number=1, values=values())
    client.force_login(member(club, "scorer", "scorer-a"))
    response = client.post(hands_url(table, hand=1),
                           form_data(key="fix-1", bid="52", meld_NS="25", expected_revision="1"))
    assert response.status_code == 302
    assert HandRevision.objects.get(is_live=True).revision == 2


def test_member_without_role_is_refused(client, setup) -> None:
    club, _, table = setup
    client.force_login(member(club, "member", "member-a"))
    assert client.get(hands_url(table)).status_code == 403


def test_history_shows_every_version_with_who_when_why(client, setup) -> None:
    _, director, table = setup
    first = services.hand_submit(game=table.game, number=1, values=values())
    services.hand_correct(hand=first.hand, values=values(bid=52, meld={"NS": 25, "EW": 32}),
                          expected_revision=1, author=director, note="bid was 52")
    client.force_login(director)
    html = client.get(reverse("hand-history", args=[first.hand_id])).content.decode()
    assert "v1" in html and "v2" in html
    assert "table phone" in html and director.username in html and "bid was 52" in html
    assert "N bid 51" in html and "N bid 52" in html


def test_games_page_lists_unconfirmed_games(client, setup) -> None:
    _, director, table = setup
    other = seated_table(event=table.round.event, table_number=2)
    Game.objects.filter(pk=other.game.pk).update(status=Game.Status.CONFIRMED)
    client.force_login(director)
    html = client.get(reverse("director-games", args=[table.round.event_id])).content.decode()
    assert "Playing" in html
    assert html.count('class="game-') == 1  # the confirmed table 2 is not listed
    everything = client.get(reverse("director-games", args=[table.round.event_id]) + "?all=1")
    assert everything.content.decode().count('class="game-') == 2


@pytest.mark.parametrize("is_public", [True, False])
def test_director_of_another_club_cannot_reach_these_pages(client, is_public) -> None:
    club_a, _ = club_with_director(slug="club-a", is_public=is_public)
    _, director_b = club_with_director(slug="club-b")
    table = seated_table(club=club_a)
    revision = services.hand_submit(game=table.game, number=1, values=values())
    client.force_login(director_b)
    expected = 403 if is_public else 404
    assert client.get(hands_url(table)).status_code == expected
    assert client.post(hands_url(table, hand=1),
                       form_data(key="x", bid="52", expected_revision="1")).status_code == expected
    assert client.get(reverse("hand-history", args=[revision.hand_id])).status_code == expected
    assert client.get(reverse("director-games", args=[table.round.event_id])).status_code == expected
    assert HandRevision.objects.count() == 1


def _delete_last(client, table, note: str = "", number: int | None = None,
                 revision: int | None = None):
    """Post the desk's delete form as the page renders it: the last hand and its version."""
    live = HandRevision.objects.filter(hand__game=table.game, is_live=True).order_by(
        "-hand__number").first()
    return client.post(reverse("director-hand-delete-last", args=[table.round.event_id]), {
        "round": table.round.number, "table": table.number, "note": note,
        "number": number or (live.hand.number if live else 1),
        "expected_revision": revision or (live.revision if live else 1),
    })


def _live_numbers(table) -> list[int]:
    return list(table.game.hands.filter(deleted_at__isnull=True).values_list("number", flat=True))


def test_a_hand_entered_by_mistake_is_deleted_and_logged(client, setup) -> None:
    club, _, table = setup
    scorer = member(club, "scorer", "sam")
    services.hand_submit(game=table.game, number=1, values=values())
    services.hand_submit(game=table.game, number=2, values=values(dealer="E"))
    client.force_login(scorer)
    response = _delete_last(client, table, note="typed twice")
    assert response.status_code == 302
    table.game.refresh_from_db()
    assert _live_numbers(table) == [1]
    assert table.game.hands_count == 1
    log = table.round.event.log.get(action="hand_deleted")
    assert log.details["hand"] == 2 and log.details["note"] == "typed twice"
    # The history stays: hand 2's entry and its deletion, by whom and why.
    history = HandRevision.objects.filter(hand__number=2, hand__game=table.game).order_by(
        "revision")
    assert [(r.is_live, r.is_deletion) for r in history] == [(False, False), (False, True)]
    assert history.last().note == "typed twice" and history.last().author == scorer
    # The number is free again: the next hand entered is hand 2.
    services.hand_submit(game=table.game, number=2, values=values(dealer="E"))
    assert _live_numbers(table) == [1, 2]


def test_a_stale_or_repeated_delete_removes_nothing_more(client, setup) -> None:
    club, _, table = setup
    client.force_login(member(club, "scorer", "sam"))
    services.hand_submit(game=table.game, number=1, values=values())
    services.hand_submit(game=table.game, number=2, values=values(dealer="E"))
    # The director saw hand 2 ... while a phone entered hand 3.
    services.hand_submit(game=table.game, number=3, values=values(dealer="N"))
    _delete_last(client, table, note="saw hand 2", number=2, revision=1)
    assert _live_numbers(table) == [1, 2, 3]
    _delete_last(client, table, note="typed twice", number=3, revision=1)
    _delete_last(client, table, note="typed twice", number=3, revision=1)  # double submit
    assert _live_numbers(table) == [1, 2]


def test_a_scorer_must_give_a_reason(client, setup) -> None:
    club, _, table = setup
    client.force_login(member(club, "scorer", "sam"))
    services.hand_submit(game=table.game, number=1, values=values())
    _delete_last(client, table, note="  ")
    assert _live_numbers(table) == [1]


def test_deleting_in_a_closed_round_needs_a_director_and_a_reason(client, setup) -> None:
    club, director, table = setup
    services.hand_submit(game=table.game, number=1, values=values())
    close_round(table)
    client.force_login(member(club, "scorer", "sam"))
    _delete_last(client, table, note="wrong")
    assert _live_numbers(table) == [1]
    client.force_login(director)
    _delete_last(client, table)  # no reason
    assert _live_numbers(table) == [1]
    _delete_last(client, table, note="never played")
    assert _live_numbers(table) == []


def test_another_clubs_director_cannot_delete(client, setup) -> None:
    _, _, table = setup
    services.hand_submit(game=table.game, number=1, values=values())
    _, outsider = club_with_director(slug="club-b")
    client.force_login(outsider)
    assert _delete_last(client, table, note="x").status_code in (403, 404)
    assert _live_numbers(table) == [1]

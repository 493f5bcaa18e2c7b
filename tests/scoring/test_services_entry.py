"""Score entry services: revisions kept, exactly one live, conflicts, retries, races."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from common.errors import ConflictError, DomainError
from rules_engine import RulesError
from scoring import services
from scoring.models import Game, Hand, HandRevision
from tests.scoring.factories import close_round, seated_table, values

pytestmark = pytest.mark.django_db


def test_submit_stores_hand_first_revision_and_game_totals() -> None:
    table = seated_table()
    revision = services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="k")
    assert (revision.revision, revision.is_live, revision.result) == (1, True, "made")
    game = Game.objects.get(pk=table.game.pk)
    assert game.totals == {"NS": 51, "EW": 55} and game.hands_count == 1 and game.version == 1


def test_rejected_hand_stores_nothing() -> None:
    table = seated_table()
    with pytest.raises(RulesError) as exc:
        services.hand_submit(game=table.game, number=1, values=values(bid=63))
    assert exc.value.errors[0].field == "bid"
    assert not Hand.objects.exists()
    assert Game.objects.get(pk=table.game.pk).version == 0


def test_correction_keeps_the_previous_revision_and_one_is_live() -> None:
    table = seated_table()
    first = services.hand_submit(game=table.game, number=1, values=values())
    second = services.hand_correct(hand=first.hand, values=values(bid=52, meld={"NS": 25, "EW": 32}),
                                   expected_revision=1, note="typo")
    third = services.hand_correct(hand=first.hand, values=values(bid=53, meld={"NS": 26, "EW": 32}),
                                  expected_revision=2, note="another typo")
    rows = list(HandRevision.objects.filter(hand=first.hand).order_by("revision")
                .values_list("revision", "is_live", "bid", "note"))
    assert rows == [(1, False, 51, ""), (2, False, 52, "typo"), (3, True, 53, "another typo")]
    assert second.pk != third.pk
    assert HandRevision.objects.filter(hand=first.hand, is_live=True).count() == 1
    assert Game.objects.get(pk=table.game.pk).totals == {"NS": 53, "EW": 55}


def test_stale_correction_is_a_conflict_carrying_the_stored_values() -> None:
    table = seated_table()
    first = services.hand_submit(game=table.game, number=1, values=values())
    services.hand_correct(hand=first.hand, values=values(bid=52, meld={"NS": 25, "EW": 32}),
                          expected_revision=1)
    with pytest.raises(ConflictError) as exc:
        services.hand_correct(hand=first.hand, values=values(bid=55, meld={"NS": 28, "EW": 32}),
                              expected_revision=1)
    assert exc.value.current["bid"] == 52 and exc.value.current["revision"] == 2
    assert HandRevision.objects.get(is_live=True).bid == 52


def test_same_hand_number_twice_is_a_conflict() -> None:
    table = seated_table()
    services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="a")
    with pytest.raises(ConflictError) as exc:
        services.hand_submit(game=table.game, number=1, values=values(bid=55), idempotency_key="b")
    assert exc.value.current["bid"] == 51
    assert HandRevision.objects.count() == 1


def test_retry_returns_the_stored_revision() -> None:
    table = seated_table()
    first = services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="a")
    again = services.hand_submit(game=table.game, number=1, values=values(), idempotency_key="a")
    assert first.pk == again.pk and HandRevision.objects.count() == 1


def test_a_key_from_another_game_is_refused() -> None:
    table_a = seated_table()
    table_b = seated_table(event=table_a.round.event, table_number=2)
    services.hand_submit(game=table_a.game, number=1, values=values(), idempotency_key="a")
    with pytest.raises(DomainError) as exc:
        services.hand_submit(game=table_b.game, number=1, values=values(), idempotency_key="a")
    assert exc.value.field == "idempotency_key"


def test_closed_round_only_director_with_reason() -> None:
    table = seated_table()
    first = services.hand_submit(game=table.game, number=1, values=values())
    close_round(table)
    changed = values(bid=52, meld={"NS": 25, "EW": 32})
    with pytest.raises(DomainError) as exc:
        services.hand_correct(hand=first.hand, values=changed, expected_revision=1, note="x")
    assert exc.value.field == "round"
    with pytest.raises(DomainError) as exc:
        services.hand_correct(hand=first.hand, values=changed, expected_revision=1,
                              as_director=True)
    assert exc.value.field == "note"
    revision = services.hand_correct(hand=first.hand, values=changed, expected_revision=1,
                                     as_director=True, note="scorer misread")
    assert revision.revision == 2


def test_database_forbids_two_live_revisions() -> None:
    table = seated_table()
    first = services.hand_submit(game=table.game, number=1, values=values())
    with pytest.raises(IntegrityError), transaction.atomic():
        HandRevision.objects.create(
            hand=first.hand, revision=2, is_live=True, dealer="S", bidder="N", bid=51, trump="H",
            outcome="played", meld={}, counters={}, points={}, result="made",
        )

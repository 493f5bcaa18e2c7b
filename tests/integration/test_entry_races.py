"""Races between devices on the real PostgreSQL: row locks across connections decide."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from common.errors import ConflictError
from scoring import services
from scoring.models import HandRevision
from tests.scoring.factories import seated_table, values


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_devices_racing_for_the_same_hand_store_one(servers) -> None:
    table = seated_table()
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def device(key: str, bid: int) -> None:
        try:
            barrier.wait()
            services.hand_submit(game=table.game, number=1, values=values(bid=bid),
                                 idempotency_key=key)
            outcomes.append("stored")
        except ConflictError:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=device, args=(k, b)) for k, b in (("a", 51), ("b", 52))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "stored"]
    assert HandRevision.objects.count() == 1


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_retry_racing_its_original_stores_one(servers) -> None:
    table = seated_table()
    barrier = threading.Barrier(2)
    ids: list[int] = []

    def device() -> None:
        try:
            barrier.wait()
            ids.append(services.hand_submit(game=table.game, number=1, values=values(),
                                            idempotency_key="same").pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=device) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(ids) == 2 and ids[0] == ids[1]
    assert HandRevision.objects.count() == 1

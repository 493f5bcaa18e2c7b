"""The suite runs against PostgreSQL and a real Celery worker behind Redis."""

from __future__ import annotations

import pytest
from django.db import connection


@pytest.mark.integration
@pytest.mark.django_db
def test_database_is_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert "PostgreSQL" in cursor.fetchone()[0]


@pytest.mark.integration
def test_celery_round_trip_through_redis_and_the_worker(celery_app_live) -> None:
    from config.celery import ping

    result = ping.delay("hello from the test")
    assert result.get(timeout=30) == "hello from the test"
    assert result.successful()

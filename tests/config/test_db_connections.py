"""Production keeps each process's database connection between requests (checked before reuse);
the environment can turn that off or change how long a connection lives."""

from __future__ import annotations

from tests.config.test_production import PRODUCTION, _settings_of


def _database(env: dict[str, str]) -> dict[str, object]:
    values = _settings_of(env, "DATABASES")["DATABASES"]
    assert isinstance(values, dict)
    default = values["default"]
    assert isinstance(default, dict)
    return default


def test_production_keeps_connections_for_a_minute_with_health_checks() -> None:
    default = _database(PRODUCTION)
    assert default["CONN_MAX_AGE"] == 60
    assert default["CONN_HEALTH_CHECKS"] is True
    assert default["ENGINE"] == "django.db.backends.postgresql"


def test_connection_lifetime_and_checks_come_from_the_environment() -> None:
    default = _database({**PRODUCTION, "DATABASE_CONN_MAX_AGE": "0",
                         "DATABASE_CONN_HEALTH_CHECKS": "false"})
    assert default["CONN_MAX_AGE"] == 0  # a connection per request, as before
    assert default["CONN_HEALTH_CHECKS"] is False


def test_the_embedded_default_still_closes_after_each_request() -> None:
    default = _database({})  # development settings, SQLite
    assert default["CONN_MAX_AGE"] == 0

"""Strict reading of environment variables.

Every problem raises :class:`ConfigError` whose message is one line naming the variable, so a
mistyped ``DATABASE_URL`` stops start-up with a sentence instead of a traceback (see
``manage.py`` and ``config/wsgi.py``, which print it and exit).
"""

from __future__ import annotations

import os
import re
from urllib.parse import urlsplit

import environ


class ConfigError(Exception):
    """A missing or malformed environment variable."""


_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def get_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name, default)
    if value is None:
        raise ConfigError(f"{name} is required but not set")
    return value


def get_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ConfigError(f"{name} must be one of true/false/1/0/yes/no, got {raw!r}")


def get_int(name: str, default: int, *, minimum: int = 0) -> int:
    raw = os.environ.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum}, got {value}")
    return value


def get_list(name: str, default: list[str] | None = None) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        if default is None:
            raise ConfigError(f"{name} is required but not set")
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


_RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")


def get_rate(name: str, default: str) -> str:
    """A request rate as DRF's throttles read it: ``120/min`` (per s, min, hour or day)."""
    value = os.environ.get(name, default).strip()
    if not _RATE.match(value):
        raise ConfigError(f"{name} must look like 120/min (per s, min, hour or day), got {value!r}")
    return value


def get_public_url(name: str) -> str:
    """An absolute http(s) address without a path (``http://192.168.1.20:8000``), trailing
    slash removed; "" when unset."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    parts = urlsplit(raw)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ConfigError(f"{name} must look like http://192.168.1.20:8000, got {raw!r}")
    if parts.path.strip("/") or parts.query or parts.fragment:
        raise ConfigError(f"{name} must be an address without a path, got {raw!r}")
    try:
        _ = parts.port
    except ValueError:
        raise ConfigError(f"{name} has an invalid port: {raw!r}") from None
    return f"{parts.scheme}://{parts.netloc}"


def get_push_url(name: str) -> str:
    """Where browsers open the standings push stream: a path on this site (``/push/``, a proxy
    in front sends it to the ASGI process) or an absolute http(s) address of the push process
    (``https://push.example.org/push/``); always ending in ``/``; "" when unset (pages poll)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return ""
    parts = urlsplit(raw)
    if parts.query or parts.fragment:
        raise ConfigError(f"{name} must be a path like /push/ or an address like "
                          f"https://push.example.org/push/, got {raw!r}")
    if parts.scheme or parts.netloc:
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ConfigError(f"{name} must be a path like /push/ or an http(s) address, "
                              f"got {raw!r}")
        try:
            _ = parts.port
        except ValueError:
            raise ConfigError(f"{name} has an invalid port: {raw!r}") from None
    elif not raw.startswith("/"):
        raise ConfigError(f"{name} must start with / or http(s)://, got {raw!r}")
    return raw if raw.endswith("/") else raw + "/"


_DB_SCHEMES = {"sqlite", "postgres", "postgresql", "pgsql"}


def get_database(name: str, default: str) -> dict[str, object]:
    raw = os.environ.get(name, default)
    parts = urlsplit(raw)
    if parts.scheme not in _DB_SCHEMES:
        raise ConfigError(
            f"{name} must be a postgres:// or sqlite:/// URL, got scheme {parts.scheme or 'none'!r}"
        )
    if parts.scheme != "sqlite" and not parts.path.strip("/"):
        raise ConfigError(f"{name} must name a database, e.g. postgres://user@host:5432/pinochle")
    try:
        config: dict[str, object] = environ.Env.db_url_config(raw)
    except Exception as exc:  # environ raises several types for bad URLs
        raise ConfigError(f"{name} is not a valid database URL: {exc}") from None
    return config


def get_redis_url(name: str) -> str | None:
    raw = os.environ.get(name)
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ConfigError(f"{name} must look like redis://host:6379/0, got {raw!r}")
    try:
        _ = parts.port
    except ValueError:
        raise ConfigError(f"{name} has an invalid port: {raw!r}") from None
    return raw

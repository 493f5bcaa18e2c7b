"""Web processes keep no state of their own (README "Beyond one machine"): sessions live in the
database, the cache is the shared Redis in production, and no model keeps files on local disk."""

from __future__ import annotations

from django.apps import apps
from django.db import models

from tests.config.test_production import PRODUCTION, _settings_of


def test_production_sessions_and_cache_are_shared_by_every_web_process() -> None:
    values = _settings_of(PRODUCTION, "SESSION_ENGINE", "CACHES")
    assert values["SESSION_ENGINE"] in {"django.contrib.sessions.backends.db",
                                        "django.contrib.sessions.backends.cache",
                                        "django.contrib.sessions.backends.cached_db"}
    assert values["CACHES"]["default"]["BACKEND"] == "common.cache.RedisCache"
    assert values["CACHES"]["default"]["LOCATION"] == PRODUCTION["REDIS_URL"]


def test_no_model_stores_files_on_the_web_machine() -> None:
    file_fields = [
        f"{model._meta.label}.{field.name}"
        for model in apps.get_models() for field in model._meta.get_fields()
        if isinstance(field, models.FileField)
    ]
    assert file_fields == []

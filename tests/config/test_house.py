"""Checks that keep the house honest: layout rules, health, schema, configuration errors."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_layout_matches_design() -> None:
    for name in ["manage.py", "pyproject.toml", "README.md", "Makefile", ".ci/run", "config",
                 "rules_engine", "pairing", "ranking", "common", "clubs", "tournaments", "scoring",
                 "standings", "draw", "events", "public", "demo", "templates", "tests", "bench"]:
        assert (ROOT / name).exists(), name
    assert "make test" in (ROOT / ".ci/run").read_text()


@pytest.mark.django_db
def test_health_endpoint_answers(client) -> None:
    response = client.get("/health/")
    assert response.status_code == 200
    assert response.json()["database"] == "ok"


@pytest.mark.django_db
def test_openapi_schema_builds(client) -> None:
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["paths"], "the API has no paths"


@pytest.mark.django_db
def test_home_page_renders(client) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert b"Pinochle" in response.content


def _manage(env_overrides: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ALLOWED_HOSTS"}}
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("variable", "value"),
    [
        ("DATABASE_URL", "mysql://nobody@host/db"),
        ("REDIS_URL", "http://localhost:6379"),
        ("DJANGO_DEBUG", "maybe"),
        ("CELERY_TASK_TIME_LIMIT", "soon"),
    ],
)
def test_malformed_environment_stops_with_one_line_naming_it(variable: str, value: str) -> None:
    result = _manage({variable: value, "DJANGO_SETTINGS_MODULE": "config.settings.base"}, "check")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert variable in lines[0]


def test_production_refuses_to_start_without_secret_key() -> None:
    result = _manage(
        {"DJANGO_SETTINGS_MODULE": "config.settings.production",
         "DJANGO_ALLOWED_HOSTS": "example.org"},
        "check",
    )
    assert result.returncode == 2
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts() -> None:
    result = _manage(
        {"DJANGO_SETTINGS_MODULE": "config.settings.production",
         "DJANGO_SECRET_KEY": "x" * 40, "DATABASE_URL": "postgres://u@h/db",
         "REDIS_URL": "redis://localhost:6379/0"},
        "check",
    )
    assert result.returncode == 2
    assert "DJANGO_ALLOWED_HOSTS" in result.stderr


@pytest.mark.django_db
def test_api_docs_work_offline(client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"cdn.jsdelivr" not in response.content
    assert b"drf_spectacular_sidecar" in response.content


def test_manage_py_honours_the_settings_option() -> None:
    result = _manage(
        {"DJANGO_SETTINGS_MODULE": "config.settings.base"},
        "shell", "--settings=config.settings.test", "-c",
        "from django.conf import settings; print(settings.SETTINGS_MODULE)",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "config.settings.test"


def test_celery_and_wsgi_default_to_the_same_settings() -> None:
    pattern = re.compile(r'setdefault\("DJANGO_SETTINGS_MODULE", "([\w.]+)"\)')
    defaults = {
        name: pattern.findall((ROOT / "config" / name).read_text()) for name in ("celery.py", "wsgi.py")
    }
    assert defaults == {"celery.py": ["config.settings.production"],
                        "wsgi.py": ["config.settings.production"]}


def test_collectstatic_under_production_settings_writes_the_manifest(tmp_path: Path) -> None:
    """The README's production step: without the manifest every production page answers 500."""
    result = _manage(
        {"DJANGO_SETTINGS_MODULE": "config.settings.base", "DJANGO_SECRET_KEY": "k" * 40,
         "DJANGO_ALLOWED_HOSTS": "scores.example.org", "DATABASE_URL": "postgres://u@h/db",
         "REDIS_URL": "redis://127.0.0.1:1/0", "DJANGO_STATIC_ROOT": str(tmp_path)},
        "collectstatic", "--noinput", "--settings=config.settings.production",
    )
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "staticfiles.json").exists()

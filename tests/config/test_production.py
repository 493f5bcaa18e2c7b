"""Production hardening: `check --deploy` is clean, HTTPS is enforced, cookies are secure,
DEBUG stays off, demo data is refused; every page carries a Content-Security-Policy whose
scripts are our files or nonce-carrying inline ones."""

from __future__ import annotations

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from draw import seating
from tests.clubs.factories import club_with_director
from tests.scoring.factories import member, seated_table
from tests.tournaments.factories import EventFactory

ROOT = Path(__file__).resolve().parents[2]

PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "config.settings.production",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(60),
    "DJANGO_ALLOWED_HOSTS": "scores.example.org",
    "DATABASE_URL": "postgres://u@h/db",
    "REDIS_URL": "redis://127.0.0.1:1/0",
}
HTTPS_ON = {
    "DJANGO_SECURE_SSL_REDIRECT": "true",
    "DJANGO_SECURE_HSTS_SECONDS": "31536000",
    "DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS": "true",
    "DJANGO_SECURE_HSTS_PRELOAD": "true",
}


def _manage(env_overrides: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {"DATABASE_URL", "REDIS_URL"} and not k.startswith("DJANGO_")}
    env.update(env_overrides)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)


def _settings_of(env: dict[str, str], *names: str) -> dict[str, Any]:
    code = ("import json; from django.conf import settings; print(json.dumps({n: "
            f"getattr(settings, n) for n in {list(names)!r}}}, default=str))")
    result = _manage(env, "shell", "-c", code)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_check_deploy_is_clean_under_production_settings() -> None:
    result = _manage({**PRODUCTION, **HTTPS_ON}, "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout, result.stdout + result.stderr


def test_production_enforces_https_and_secure_cookies_and_never_debugs() -> None:
    values = _settings_of(
        {**PRODUCTION, **HTTPS_ON, "DJANGO_DEBUG": "true"},
        "DEBUG", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS",
        "SECURE_HSTS_PRELOAD", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
        "SESSION_COOKIE_HTTPONLY", "SECURE_REDIRECT_EXEMPT", "DEMO_DATA_ALLOWED",
    )
    assert values == {
        "DEBUG": False, "SECURE_SSL_REDIRECT": True, "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True, "SECURE_HSTS_PRELOAD": True,
        "SESSION_COOKIE_SECURE": True, "CSRF_COOKIE_SECURE": True,
        "SESSION_COOKIE_HTTPONLY": True, "SECURE_REDIRECT_EXEMPT": [r"^health/$"],
        "DEMO_DATA_ALLOWED": False,
    }
    # Without the HTTPS variables: still redirected, no HSTS until asked for.
    defaults = _settings_of(PRODUCTION, "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS")
    assert defaults == {"SECURE_SSL_REDIRECT": True, "SECURE_HSTS_SECONDS": 0}


def test_debug_is_off_unless_asked_for() -> None:
    base = {"DJANGO_SETTINGS_MODULE": "config.settings.base"}
    assert _settings_of(base, "DEBUG") == {"DEBUG": False}
    assert _settings_of({**base, "DJANGO_DEBUG": "1"}, "DEBUG") == {"DEBUG": True}


def test_load_demo_refuses_production_settings_with_one_line() -> None:
    result = _manage({**PRODUCTION, **HTTPS_ON}, "load_demo")
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "production" in lines[0] and "load_demo" in lines[0]


def test_a_malformed_rate_stops_start_up_with_one_line() -> None:
    result = _manage({"DJANGO_SETTINGS_MODULE": "config.settings.base",
                      "API_RATE_ANON": "lots"}, "check")
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "configuration error: API_RATE_ANON must look like 120/min (per s, min, hour or day), "
        "got 'lots'"]


@pytest.mark.django_db
def test_https_redirect_and_hsts_when_switched_on(client, settings) -> None:
    settings.SECURE_SSL_REDIRECT = True
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_REDIRECT_EXEMPT = [r"^health/$"]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    plain = client.get("/")
    assert plain.status_code == 301 and plain["Location"].startswith("https://")
    assert client.get("/health/").status_code == 200  # load balancers check over HTTP
    secure = client.get("/", headers={"X-Forwarded-Proto": "https"})
    assert secure.status_code == 200
    assert secure["Strict-Transport-Security"].startswith("max-age=3600")


# --- Content-Security-Policy ----------------------------------------------------------------------
def _policy(response: Any) -> dict[str, str]:
    header = response["Content-Security-Policy"]
    return {part.split(" ", 1)[0]: part.split(" ", 1)[1] if " " in part else ""
            for part in (p.strip() for p in header.split(";"))}


@pytest.mark.django_db
def test_pages_carry_a_policy_without_inline_scripts(client) -> None:
    policy = _policy(client.get("/"))
    assert policy["script-src"] == "'self'"
    assert "'unsafe-inline'" not in policy["script-src"] and "script-src-attr" not in policy
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'"
    assert policy["default-src"] == "'self'" and policy["base-uri"] == "'self'"


@pytest.mark.django_db
def test_an_inline_script_runs_by_its_nonce(client) -> None:
    club, director = club_with_director(slug="nonce")
    event = EventFactory(club=club, status="running")
    seating.job_queued(event_id=event.pk, number=1)  # the page reloads itself while seating
    client.force_login(director)
    response = client.get(reverse("event-detail", args=[event.pk]))
    nonces = re.findall(r'<script nonce="([^"]+)">', response.content.decode())
    assert len(nonces) == 1 and nonces[0]
    assert f"'nonce-{nonces[0]}'" in _policy(response)["script-src"]
    assert client.get(reverse("event-detail", args=[event.pk])).content.decode().count(
        nonces[0]) == 0  # a new one per response


@pytest.mark.django_db
def test_no_page_we_own_uses_inline_handlers(client) -> None:
    templates = list((ROOT / "templates").rglob("*.html"))
    handler = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
    offenders = [str(p) for p in templates if handler.search(p.read_text())]
    assert offenders == []
    for path in (ROOT / "templates").rglob("*.html"):
        for tag in re.findall(r"<script\b[^>]*>", path.read_text()):
            assert "src=" in tag or "nonce=" in tag, (path, tag)
    table = seated_table()
    client.force_login(member(table.round.event.club, "director", "desk"))
    desk = client.get(reverse("director-hands", args=[table.round.event_id]))
    assert desk.status_code == 200
    assert "script-src-attr" not in _policy(desk)
    assert "onsubmit" not in desk.content.decode()
    cards = client.get(reverse("round-cards", args=[table.round.event_id, 1]))
    assert cards.status_code == 200 and "script-src-attr" not in _policy(cards)
    assert "data-print" in cards.content.decode()


@pytest.mark.django_db
def test_the_api_docs_have_no_inline_script(client) -> None:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    tags = re.findall(r"<script\b[^>]*>", response.content.decode())
    assert tags and all("src=" in tag for tag in tags)
    script = client.get(re.search(r'<script src="([^"]*script[^"]*)"',
                                  response.content.decode()).group(1).replace("&amp;", "&"))
    assert script.status_code == 200 and b"SwaggerUIBundle" in script.content

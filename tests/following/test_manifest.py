"""The site installs on a phone's Home Screen (iOS lets only such an app receive Web Push): the
web app manifest has what browsers require, its icons exist at the sizes it claims (read from
each PNG's header), its start page is within its scope and the service worker's, every page
links it, and the follow page tells iOS visitors how to install it."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.standings.test_views import played_event

pytestmark = pytest.mark.django_db

STATIC = Path(settings.BASE_DIR) / "static"


def _png_size(path: Path) -> tuple[int, int]:
    """The width and height of a PNG file, from its signature and IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is not a PNG"
    assert head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def _static_file(url: str) -> Path:
    assert url.startswith(settings.STATIC_URL), url
    return STATIC / url[len(settings.STATIC_URL):]


def _manifest(client: Client, query: str = "") -> dict[str, object]:
    response = client.get(reverse("web-manifest") + query)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    assert response["Cache-Control"] == "public, max-age=3600"
    return dict(json.loads(response.content))


def test_the_manifest_has_every_required_member_and_real_icons(client) -> None:
    event = played_event()
    manifest = _manifest(client, f"?event={event.pk}")
    for member in ("name", "short_name", "start_url", "scope", "display", "icons",
                   "theme_color", "background_color"):
        assert manifest.get(member), member
    assert manifest["display"] == "standalone"
    assert len(str(manifest["short_name"])) <= 12  # what a Home Screen shows under the icon
    icons = manifest["icons"]
    assert isinstance(icons, list)
    sizes: dict[str, set[str]] = {}
    for icon in icons:
        width, height = _png_size(_static_file(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}", icon
        assert icon["type"] == "image/png"
        sizes.setdefault(icon["purpose"], set()).add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes["any"]
    assert sizes["maskable"]
    # the apple-touch-icon every page links
    assert _png_size(STATIC / "icons" / "apple-touch-icon.png") == (180, 180)


def test_the_start_page_is_the_follow_page_within_the_scope_of_the_service_worker(
        client) -> None:
    event = played_event()
    manifest = _manifest(client, f"?event={event.pk}")
    start, scope = str(manifest["start_url"]), str(manifest["scope"])
    assert start == reverse("follow-pick", args=[event.pk])
    assert start.startswith(scope)
    worker = client.get(reverse("service-worker"))
    assert worker["Service-Worker-Allowed"] == "/"  # follow.js registers it with scope "/"
    assert scope.startswith(worker["Service-Worker-Allowed"])
    assert 'register("/sw.js", { scope: "/" })' in (STATIC / "js" / "follow.js").read_text()
    # elsewhere on the site, the app opens on the home page
    assert _manifest(client)["start_url"] == "/"


@pytest.mark.parametrize("bad", ["x", "-1", "1.5", "9" * 13, "١"])
def test_a_bad_event_is_a_400_naming_the_field(client, bad: str) -> None:
    response = client.get(reverse("web-manifest"), {"event": bad})
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == "event"


def test_every_page_links_the_manifest_and_the_follow_page_its_own(client) -> None:
    event = played_event()
    home = client.get("/").content.decode()
    assert f'<link rel="manifest" href="{reverse("web-manifest")}">' in home
    assert 'rel="apple-touch-icon"' in home and 'name="theme-color"' in home
    pick = client.get(reverse("follow-pick", args=[event.pk])).content.decode()
    assert f'rel="manifest" href="{reverse("web-manifest")}?event={event.pk}"' in pick


def test_the_follow_page_carries_the_ios_install_note_hidden_until_its_script_shows_it(
        client) -> None:
    event = played_event()
    entry = event.entries.order_by("pk").first()
    assert entry is not None
    client.post(reverse("follow-pick", args=[event.pk]), {"entry": entry.pk})
    page = client.get(reverse("follow-entry", args=[event.pk, entry.pk])).content.decode()
    assert 'id="follow-ios-install" hidden' in page
    assert "Add to Home Screen" in page and "open it from there" in page
    script = (STATIC / "js" / "follow.js").read_text()
    assert "follow-ios-install" in script and "display-mode: standalone" in script

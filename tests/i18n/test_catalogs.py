"""The German catalogs are complete and current: every entry translated (none fuzzy), the
compiled .mo files match the .po files, and ``makemessages`` run over the code today finds no
text that the catalogs do not have (run into a copy, so the committed files are not touched)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "locale" / "de" / "LC_MESSAGES"
DOMAINS = ("django", "djangojs")
# What makemessages reads: the apps, the templates and the scripts (not tests, bench, .venv).
SOURCES = ("templates", "static", "archive", "clubs", "common", "conduct", "config", "demo",
           "draw", "events", "following", "formats", "league", "pairing", "privacy",
           "profiles", "public", "ranking", "registrations", "rules_engine", "scoring",
           "series", "standings", "tournaments", "verify")


def _statistics(po: Path) -> str:
    done = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return done.stderr.strip()


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_german_entry_is_translated_and_none_is_fuzzy(domain: str) -> None:
    statistics = _statistics(LOCALE / f"{domain}.po")
    assert "untranslated" not in statistics and "fuzzy" not in statistics, statistics
    assert int(statistics.split()[0]) > (1000 if domain == "django" else 20), statistics


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_committed_mo_file_is_the_compiled_po_file(domain: str, tmp_path: Path) -> None:
    fresh = tmp_path / f"{domain}.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(LOCALE / f"{domain}.po")],
                   check=True)
    assert (LOCALE / f"{domain}.mo").read_bytes() == fresh.read_bytes(), (
        "run `manage.py compilemessages --ignore=.venv` and commit the .mo file")


def test_makemessages_finds_no_text_the_catalogs_lack(tmp_path: Path) -> None:
    for name in SOURCES:
        (tmp_path / name).symlink_to(ROOT / name)
    copy = tmp_path / "locale" / "de" / "LC_MESSAGES"
    copy.mkdir(parents=True)
    for domain in DOMAINS:
        shutil.copy(LOCALE / f"{domain}.po", copy / f"{domain}.po")
    for domain in DOMAINS:
        subprocess.run([sys.executable, str(ROOT / "manage.py"), "makemessages", "-l", "de",
                        "-d", domain, "--symlinks", "--no-obsolete", "--ignore=staticfiles",
                        "-v", "0"], cwd=tmp_path, check=True, capture_output=True)
        statistics = _statistics(copy / f"{domain}.po")
        assert "untranslated" not in statistics and "fuzzy" not in statistics, (
            f"{domain}: texts not in the catalog ({statistics}): run makemessages and "
            "translate them")

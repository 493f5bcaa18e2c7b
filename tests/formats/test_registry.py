"""The format registry: one home for what a format is, asked by every other layer."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import formats
from common.errors import DomainError
from draw.services import event_results, round_create, round_set_status
from formats.registry import by_name
from formats.spec import Format, FormatError, Situation
from pairing.club_night import BuiltRound
from scoring.services import game_confirm, hand_submit
from tests.scoring.factories import values
from tests.tournaments.factories import event_with_players, progressive_event
from tournaments.models import Event, EventLog

ROOT = Path(__file__).resolve().parents[2]


def test_unknown_formats_are_refused_naming_the_field() -> None:
    assert formats.get("club_night").name == "club_night"
    with pytest.raises(FormatError) as info:
        formats.get("bracket")
    assert info.value.field == "format" and info.value.code == "unknown_format"


def test_a_name_given_twice_is_a_programming_error() -> None:
    spec = formats.get("club_night")
    with pytest.raises(ValueError, match="twice"):
        by_name((spec, Format(name="club_night", label="again", build=spec.build)))


def test_the_models_choices_and_constraint_come_from_the_registry() -> None:
    assert Event.Format.values == formats.names()
    assert Event._meta.get_field("format").choices == formats.choices()
    constraint = next(c for c in Event._meta.constraints if c.name == "event_format_valid")
    assert list(constraint.condition.children[0][1]) == formats.names()


def test_every_format_module_is_registered() -> None:
    defined = []
    for path in sorted((ROOT / "formats").glob("*.py")):
        module = importlib.import_module(f"formats.{path.stem}")
        if isinstance(getattr(module, "FORMAT", None), Format):
            defined.append(module.FORMAT)
    assert len(defined) == len(formats.REGISTERED) == len(formats.FORMATS)
    assert {spec.name for spec in defined} == set(formats.names())


def test_every_registered_format_brings_its_own_tests() -> None:
    """A format ships its proof beside it: tests/formats/test_<name>.py, testing its spec as a
    pure plugin (no database)."""
    here = Path(__file__).resolve().parent
    for spec in formats.REGISTERED:
        module = here / f"test_{spec.name}.py"
        assert module.is_file(), f"format {spec.name!r} has no tests/formats/{module.name}"
        text = module.read_text()
        assert f'formats.get("{spec.name}")' in text, f"{module.name} does not test {spec.name}"
        assert "django_db" not in text, f"{module.name} should test the spec without the database"
        assert text.count("\ndef test_") >= 5, f"{module.name} tests too little"


def test_the_spec_answers_what_the_house_asks() -> None:
    progressive = formats.get("individual_progressive")
    assert progressive.sitting == "game" and not progressive.pairs and progressive.alternates
    settings = progressive.check_settings({})
    assert progressive.rounds_total(10, settings, 32) == 14  # 10, a semi-final, 3 finals
    assert progressive.describe_length(10, 4, settings, 32) == (
        "10 qualifying games of 4 deals, then semi-finals and a 3-game final")
    swiss = formats.get("swiss")
    assert swiss.pairs and swiss.swap == "pairs" and swiss.sitting == "round"
    with_playoff = swiss.check_settings({"playoff": {"kind": "single", "cut": 4}})
    assert swiss.has_bracket(with_playoff) and not swiss.has_bracket(swiss.check_settings({}))
    assert swiss.rounds_total(5, with_playoff, 12) == 7
    with pytest.raises(FormatError) as info:
        swiss.check_settings({"groups": 2})
    assert info.value.field == "format_settings.groups"


# Words that name one format: its name as a quoted string or a URL parameter. The demo's events
# are data that choose their formats, as a director does; tests and benches drive formats by
# name too.
def _mentions() -> list[str]:
    names = "|".join(re.escape(n) for n in formats.names())
    pattern = re.compile(rf"""["'=]({names})["'&\s]""")
    found = []
    for path in ROOT.rglob("*"):
        rel = path.relative_to(ROOT)
        if (path.suffix not in {".py", ".html", ".js"} or rel.parts[0] in {
                "formats", "tests", "bench", "demo", ".venv", "staticfiles", "test-output"}
                or "migrations" in rel.parts):
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{rel}:{number}: {line.strip()}")
    return found


def test_no_module_template_or_script_outside_the_package_names_a_format() -> None:
    assert _mentions() == []


@pytest.mark.django_db
def test_a_full_night_of_twelve_follows_the_whist_design() -> None:
    event = event_with_players(players=12, rounds_planned=3)
    for _ in range(3):
        round_ = round_create(event=event)
        round_set_status(round_=round_, status="playing")
        round_set_status(round_=round_, status="closed", close_unfinished=True)
    methods = [log.details["method"] for log in EventLog.objects.filter(
        event=event, action="round_seated").order_by("id")]
    assert methods == ["whist_design"] * 3


@pytest.mark.django_db
def test_builders_receive_seatings_and_results(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[Situation] = []
    club_night = formats.get("club_night")

    def spy(situation: Situation) -> BuiltRound:
        seen.append(situation)
        return club_night.build(situation)

    monkeypatch.setitem(formats.FORMATS, "club_night",
                        Format(name="club_night", label="spy", build=spy))
    event = event_with_players(players=8, deals_per_round=1)
    round_ = round_create(event=event)
    round_set_status(round_=round_, status="playing")
    for table in round_.tables.all():
        hand_submit(game=table.game, number=1, values=values())
        game_confirm(game=table.game, position="E")
    round_set_status(round_=round_, status="closed", close_unfinished=True)
    round_create(event=event)
    assert len(seen) == 2
    assert seen[0].results == () and seen[0].history == ()
    results = seen[1].results
    assert len(results) == 2 and all(r.finished and r.winner == "EW" for r in results)
    assert all(r.points == {"NS": 51, "EW": 55} for r in results)
    assert len(seen[1].history) == 1
    assert event_results(event)[0].seats.keys() == {"N", "E", "S", "W"}


@pytest.mark.django_db
def test_a_formats_refusal_reaches_the_services_as_a_domain_error_with_its_code() -> None:
    event = progressive_event(6)
    with pytest.raises(DomainError) as info:
        round_create(event=event)
    assert info.value.field == "format_settings.cut"
    assert info.value.code == "cut_larger_than_field"


def test_every_format_ships_its_own_tests() -> None:
    """A new format brings its proof: tests/formats/test_<name>.py, testing the spec alone."""
    missing = [name for name in formats.names()
               if not (ROOT / "tests" / "formats" / f"test_{name}.py").exists()]
    assert not missing, f"formats without their own tests: {missing}"

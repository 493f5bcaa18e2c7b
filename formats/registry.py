"""The registry: every format the product runs, in the order the new-event form offers them.

Adding a format is adding its module to this package and its spec to :data:`REGISTERED`; the
model's choices, its check constraint, the event form, its script and the rules page follow.
"""

from __future__ import annotations

from collections.abc import Callable

from rules_engine.i18n import Text, gettext_noop

from .ab_movement import FORMAT as AB_MOVEMENT
from .club_night import FORMAT as CLUB_NIGHT
from .double_elimination import FORMAT as DOUBLE_ELIMINATION
from .progressive import FORMAT as PROGRESSIVE
from .round_robin import FORMAT as ROUND_ROBIN
from .single_elimination import FORMAT as SINGLE_ELIMINATION
from .spec import Format, FormatError
from .swiss import FORMAT as SWISS
from .winners_stay import FORMAT as WINNERS_STAY

REGISTERED: tuple[Format, ...] = (
    CLUB_NIGHT, PROGRESSIVE, SWISS, ROUND_ROBIN, AB_MOVEMENT, WINNERS_STAY, SINGLE_ELIMINATION,
    DOUBLE_ELIMINATION,
)


def by_name(specs: tuple[Format, ...]) -> dict[str, Format]:
    """The specs keyed by name; a name given twice is a programming error."""
    found: dict[str, Format] = {}
    for spec in specs:
        if spec.name in found:
            raise ValueError(f"format {spec.name!r} is registered twice")
        found[spec.name] = spec
    return found


FORMATS: dict[str, Format] = by_name(REGISTERED)
# A new event's format when none is chosen.
DEFAULT = REGISTERED[0].name


def get(name: str) -> Format:
    """The spec of format ``name``; an unknown name is refused naming the ``format`` field."""
    try:
        return FORMATS[name]
    except KeyError:
        raise FormatError(Text(gettext_noop("Unknown format %(name)s; choose one of %(values)s."), name=repr(name), values=', '.join(FORMATS)),
                          field="format", code="unknown_format") from None


def names(where: Callable[[Format], bool] | None = None) -> list[str]:
    """The formats' names in registry order (those ``where`` accepts)."""
    return [f.name for f in REGISTERED if where is None or where(f)]


def choices() -> list[tuple[str, str]]:
    """(name, label) of every format: the model's and the forms' choices."""
    return [(f.name, f.label) for f in REGISTERED]

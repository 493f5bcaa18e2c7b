"""Season services: create, change and delete a club's seasons (directors; the views and the
API check the role). Every refusal names its field."""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TypedDict

from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club
from common.errors import DomainError
from common.types import Actor

from .models import BEST_N_LIMIT, MIN_NIGHTS_LIMIT, Season

# A season spans at most this many days (two years and a leap day).
LONGEST_DAYS = 731
FIELDS = ("name", "starts_on", "ends_on", "counting", "best_n", "min_nights", "events")


def _date(value: object, field: str) -> datetime.date:
    if isinstance(value, datetime.datetime):
        value = value.date()
    if isinstance(value, datetime.date):
        return value
    if isinstance(value, str):
        try:
            return datetime.date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise DomainError(gettext("Give a date (YYYY-MM-DD)."), field=field, code="invalid")


def _count(value: object, field: str, *, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or value is None or value == "":
        raise DomainError(gettext("Give %(what)s.") % {"what": what}, field=field, code="required")
    try:
        if not isinstance(value, int | float | str):
            raise TypeError  # as int() would
        number = int(value)
    except (TypeError, ValueError):
        raise DomainError(gettext("Give %(what)s as a whole number.") % {"what": what}, field=field,
                          code="invalid") from None
    if isinstance(value, float) and number != value:
        raise DomainError(gettext("Give %(what)s as a whole number.") % {"what": what}, field=field, code="invalid")
    if not low <= number <= high:
        raise DomainError(gettext("%(value)s%(what)s is between %(low)s and %(high)s.") % {"value": what[0].upper(), "what": what[1:], "low": low, "high": high},
                          field=field, code="out_of_range")
    return number


class SeasonFields(TypedDict):
    """A season's fields, checked (:func:`_checked`)."""

    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    counting: str
    best_n: int | None
    min_nights: int
    events: str


def _checked(club: Club, values: Mapping[str, object], *,
             season: Season | None) -> SeasonFields:
    """The season's fields, validated against each other and the club's other seasons."""
    name = str(values.get("name") or "").strip()
    if not name:
        raise DomainError(gettext("Give the season a name."), field="name", code="required")
    if len(name) > 80:
        raise DomainError(gettext("A season's name is at most 80 characters."), field="name",
                          code="too_long")
    starts_on = _date(values.get("starts_on"), "starts_on")
    ends_on = _date(values.get("ends_on"), "ends_on")
    if ends_on < starts_on:
        raise DomainError(gettext("The season ends before it starts."), field="ends_on",
                          code="before_start")
    if (ends_on - starts_on).days >= LONGEST_DAYS:
        raise DomainError(gettext("A season lasts at most two years."), field="ends_on", code="too_long")
    counting = values.get("counting") or Season.Counting.TOTAL
    if not isinstance(counting, str) or counting not in Season.Counting.values:
        raise DomainError(gettext("Count by one of: %(values)s.") % {"values": ', '.join(Season.Counting.values)},
                          field="counting", code="invalid_choice")
    best_n = None
    if counting == Season.Counting.BEST_N:
        best_n = _count(values.get("best_n"), "best_n", low=1, high=BEST_N_LIMIT,
                        what=gettext("the number of best nights that count"))
    min_nights = _count(1 if values.get("min_nights") in (None, "") else values["min_nights"],
                        "min_nights", low=0, high=MIN_NIGHTS_LIMIT,
                        what=gettext("the nights a player needs to be ranked"))
    events = values.get("events") or Season.Events.CLUB_NIGHTS
    if not isinstance(events, str) or events not in Season.Events.values:
        raise DomainError(gettext("Events counted: one of %(values)s.") % {"values": ', '.join(Season.Events.values)},
                          field="events", code="invalid_choice")
    others = Season.objects.filter(club=club)
    if season is not None:
        others = others.exclude(pk=season.pk)
    if others.filter(name=name).exists():
        raise DomainError(gettext("The club already has a season called %(name)s.") % {"name": name}, field="name",
                          code="taken")
    clash = others.filter(starts_on__lte=ends_on, ends_on__gte=starts_on).order_by(
        "starts_on").first()
    if clash is not None:
        inside = clash.starts_on <= starts_on <= clash.ends_on
        raise DomainError(
            gettext("These dates overlap %(name)s (%(starts_on)s to %(ends_on)s); a club's seasons do not overlap.") % {"name": clash.name, "starts_on": clash.starts_on, "ends_on": clash.ends_on},
            field="starts_on" if inside else "ends_on", code="overlap")
    return {"name": name, "starts_on": starts_on, "ends_on": ends_on, "counting": counting,
            "best_n": best_n, "min_nights": min_nights, "events": events}


def _lock_club(club: Club) -> Club:
    """The club row, locked: two directors saving seasons at once are checked one after the
    other (the overlap check reads the other seasons)."""
    return Club.objects.select_for_update().get(pk=club.pk)


@transaction.atomic
def season_create(*, club: Club, name: object, starts_on: object, ends_on: object,
                  counting: object = Season.Counting.TOTAL, best_n: object = None,
                  min_nights: object = 1, events: object = Season.Events.CLUB_NIGHTS,
                  actor: Actor | None = None) -> Season:
    """A new season of the club: its dates must not overlap another season of the club."""
    locked = _lock_club(club)
    fields = _checked(locked, {"name": name, "starts_on": starts_on, "ends_on": ends_on,
                               "counting": counting, "best_n": best_n,
                               "min_nights": min_nights, "events": events}, season=None)
    return Season.objects.create(club=locked, **fields)


@transaction.atomic
def season_update(*, season: Season, actor: Actor | None = None, **changes: object) -> Season:
    """Change some of a season's fields (the others keep their values)."""
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise DomainError(gettext("Unknown field %(unknown)s.") % {"unknown": unknown[0]}, field=unknown[0], code="unknown")
    _lock_club(season.club)
    locked = Season.objects.select_for_update().get(pk=season.pk)
    values = {f: getattr(locked, f) for f in FIELDS} | changes
    fields = _checked(locked.club, values, season=locked)
    locked.name, locked.counting, locked.events = fields["name"], fields["counting"], fields["events"]
    locked.starts_on, locked.ends_on = fields["starts_on"], fields["ends_on"]
    locked.best_n, locked.min_nights = fields["best_n"], fields["min_nights"]
    locked.save()
    return locked


@transaction.atomic
def season_delete(*, season: Season, actor: Actor | None = None) -> None:
    """Delete a season. Nothing else goes with it: the leaderboard is computed from the
    events' results, which stay."""
    Season.objects.filter(pk=season.pk).delete()

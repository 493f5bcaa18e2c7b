"""Series services: create, change and delete a series (the views and the API check who may;
``series.selectors.check_series_manage``). Every refusal names its field: ``events.2`` is the
third event given, ``points.0`` the first place's points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypedDict

from django.db import transaction
from django.utils.translation import gettext

from clubs.models import Club
from clubs.permissions import can_view_club, can_view_event
from common.errors import DomainError
from common.types import Actor
from tournaments.models import Event
from tournaments.services import check_prizes_field

from .models import MAX_EVENTS, MAX_PLACES, MAX_POINTS, Series
from .points import FIELD, SIDE_KINDS, TABLE

FIELDS = ("name", "description", "events", "points_rule", "points", "best_of", "min_events",
          "partner_clubs", "prizes")
# What a field series' winner earns unless told.
FIELD_TOP = 100
MAX_PARTNERS = 20


def _whole(value: object, field: str, *, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or isinstance(value, float) and not value.is_integer():
        raise DomainError(gettext("Give %(what)s as a whole number.") % {"what": what}, field=field, code="invalid")
    try:
        if not isinstance(value, int | float | str):
            raise TypeError  # as int() would
        number = int(value)
    except (TypeError, ValueError):
        raise DomainError(gettext("Give %(what)s as a whole number.") % {"what": what}, field=field,
                          code="invalid") from None
    if not low <= number <= high:
        raise DomainError(gettext("%(value)s%(what)s is between %(low)s and %(high)s.") % {"value": what[0].upper(), "what": what[1:], "low": low, "high": high},
                          field=field, code="out_of_range")
    return number


def _optional(value: object, field: str, *, what: str, high: int) -> int | None:
    if value is None or value == "":
        return None
    return _whole(value, field, low=1, high=high, what=what)


def _list(value: object, field: str, *, what: str) -> list[object]:
    if isinstance(value, str):  # a form's "100, 80, 65"
        value = [part.strip() for part in value.replace(";", ",").split(",") if part.strip()]
    if not isinstance(value, (list, tuple)):
        raise DomainError(gettext("Give %(what)s as a list.") % {"what": what}, field=field, code="invalid")
    return list(value)


def _points(rule: str, raw: object) -> list[int]:
    if rule == FIELD and (raw is None or raw == [] or raw == ""):
        return [FIELD_TOP]
    values = _list(raw, "points", what=gettext("the points by place"))
    if not values:
        raise DomainError(gettext("Give the points of at least the first place."), field="points",
                          code="required")
    if rule == FIELD and len(values) != 1:
        raise DomainError(gettext("A share-of-the-field series takes one number: what the winner earns."), field="points", code="invalid")
    if len(values) > MAX_PLACES:
        raise DomainError(gettext("The points table has at most %(max_places)s places.") % {"max_places": MAX_PLACES},
                          field="points", code="too_long")
    points = [_whole(v, f"points.{i}", low=0, high=MAX_POINTS, what=gettext("a place's points"))
              for i, v in enumerate(values)]
    for i in range(1, len(points)):
        if points[i] > points[i - 1]:
            raise DomainError(gettext("Place %(value)s cannot earn more than place %(i)s.") % {"value": i + 1, "i": i},
                              field=f"points.{i}", code="increasing")
    return points


def _clubs(raw: object, owner: Club, actor: Actor | None) -> list[Club]:
    """The partner clubs, by slug (or id): clubs the actor may see, never the owner."""
    values = _list(raw if raw is not None else [], "partner_clubs", what=gettext("the partner clubs"))
    if len(values) > MAX_PARTNERS:
        raise DomainError(gettext("A series has at most %(max_partners)s partner clubs.") % {"max_partners": MAX_PARTNERS},
                          field="partner_clubs", code="too_long")
    wanted = [str(v.slug if isinstance(v, Club) else v).strip() for v in values]
    found = {c.slug: c for c in Club.objects.filter(slug__in=wanted)}
    found |= {str(c.pk): c for c in Club.objects.filter(
        pk__in=[int(w) for w in wanted if w.isascii() and w.isdigit() and len(w) < 10])}
    clubs: list[Club] = []
    for i, key in enumerate(wanted):
        club = found.get(key)
        if club is None or actor is not None and not can_view_club(user=actor, club=club):
            raise DomainError(gettext("No club %(key)s.") % {"key": repr(key)}, field=f"partner_clubs.{i}", code="unknown")
        if club.pk == owner.pk:
            raise DomainError(gettext("The series' own club is not a partner of itself."),
                              field=f"partner_clubs.{i}", code="owner")
        if club not in clubs:
            clubs.append(club)
    return clubs


def _events(raw: object, clubs: list[Club], actor: Actor | None) -> list[Event]:
    values = _list(raw if raw is not None else [], "events", what=gettext("the events"))
    if len(values) > MAX_EVENTS:
        raise DomainError(gettext("A series has at most %(max_events)s events.") % {"max_events": MAX_EVENTS}, field="events",
                          code="too_long")
    ids = [_whole(v.pk if isinstance(v, Event) else v, f"events.{i}", low=1, high=2**31 - 1,
                  what=gettext("an event's id")) for i, v in enumerate(values)]
    found = Event.objects.select_related("club").in_bulk(ids)
    allowed = {c.pk for c in clubs}
    names = " or ".join(c.name for c in clubs)
    events: list[Event] = []
    for i, pk in enumerate(ids):
        event = found.get(pk)
        if event is None or (actor is not None and not can_view_event(user=actor, event=event)):
            raise DomainError(gettext("No event %(pk)s.") % {"pk": pk}, field=f"events.{i}", code="unknown")
        if event.club_id not in allowed:
            raise DomainError(gettext("%(name)s is an event of %(name2)s, not of %(names)s.") % {"name": event.name, "name2": event.club.name, "names": names},
                              field=f"events.{i}", code="other_club")
        if event in events:
            raise DomainError(gettext("%(name)s is listed twice.") % {"name": event.name}, field=f"events.{i}",
                              code="duplicate")
        events.append(event)
    return events


def _prizes(raw: object) -> dict[str, object]:
    """The series' payouts (``ranking.prizes``' shape) and side pots (``SIDE_KINDS``)."""
    if not raw:
        return {}
    if not isinstance(raw, Mapping):
        raise DomainError(gettext("Prizes are an object with payouts and side pots."), field="prizes")
    side_raw = raw.get("side") or []
    checked = check_prizes_field({k: v for k, v in raw.items() if k != "side"})
    if not isinstance(side_raw, list) or len(side_raw) > 10:
        raise DomainError(gettext("Side pots are a list of at most 10."), field="prizes.side")
    side = []
    for i, item in enumerate(side_raw):
        where = f"prizes.side[{i}]"
        if not isinstance(item, Mapping) or item.get("kind") not in SIDE_KINDS:
            raise DomainError(gettext("A side pot's kind is one of: %(values)s.") % {"values": ', '.join(SIDE_KINDS)},
                              field=f"{where}.kind")
        # The amount and label are checked as an event's side prize is.
        one = check_prizes_field({"side": [{"kind": "high_game", "label": item.get("label"),
                                            "amount": item.get("amount")}]})["side"][0]
        side.append({"kind": item["kind"],
                     "label": item.get("label") and one["label"] or SIDE_KINDS[item["kind"]],
                     "amount": one["amount"]})
    checked = checked or {"currency": "$", "payouts": []}
    checked["side"] = side
    return checked if checked["payouts"] or side else {}


class SeriesFields(TypedDict):
    """A series' fields, checked (:func:`_checked`)."""

    name: str
    description: str
    points_rule: str
    points: list[int]
    best_of: int | None
    min_events: int | None
    prizes: dict[str, object]
    partner_clubs: list[Club]
    events: list[Event]


def _checked(owner: Club, values: Mapping[str, object], *, series: Series | None,
             actor: Actor | None) -> SeriesFields:
    name = str(values.get("name") or "").strip()
    if not name:
        raise DomainError(gettext("Give the series a name."), field="name", code="required")
    if len(name) > 120:
        raise DomainError(gettext("A series' name is at most 120 characters."), field="name",
                          code="too_long")
    description = str(values.get("description") or "").strip()
    if len(description) > 300:
        raise DomainError(gettext("Keep the description under 300 characters."), field="description",
                          code="too_long")
    rule = values.get("points_rule") or TABLE
    if not isinstance(rule, str) or rule not in Series.PointsRule.values:
        raise DomainError(gettext("Points by one of: %(values)s.") % {"values": ', '.join(Series.PointsRule.values)},
                          field="points_rule", code="invalid_choice")
    points = _points(rule, values.get("points"))
    best_of = _optional(values.get("best_of"), "best_of", high=MAX_EVENTS,
                        what=gettext("the number of best events that count"))
    min_events = _optional(values.get("min_events"), "min_events", high=MAX_EVENTS,
                           what=gettext("the events a player needs to be ranked"))
    partners = _clubs(values.get("partner_clubs"), owner, actor)
    events = _events(values.get("events"), [owner, *partners], actor)
    others = Series.objects.filter(club=owner, name=name)
    if series is not None:
        others = others.exclude(pk=series.pk)
    if others.exists():
        raise DomainError(gettext("%(name)s already has a series called %(name2)s.") % {"name": owner.name, "name2": name}, field="name",
                          code="taken")
    return {"name": name, "description": description, "points_rule": rule, "points": points,
            "best_of": best_of, "min_events": min_events, "prizes": _prizes(values.get("prizes")),
            "partner_clubs": partners, "events": events}


def _save(series: Series, fields: SeriesFields) -> Series:
    series.name, series.description = fields["name"], fields["description"]
    series.points_rule, series.points = fields["points_rule"], fields["points"]
    series.best_of, series.min_events = fields["best_of"], fields["min_events"]
    series.prizes = fields["prizes"]
    series.save()
    series.partner_clubs.set(fields["partner_clubs"])
    series.events.set(fields["events"])
    return series


@transaction.atomic
def series_create(*, club: Club, name: object, events: object = None, points: object = None,
                  points_rule: object = TABLE, best_of: object = None, min_events: object = None,
                  partner_clubs: object = None, prizes: object = None, description: object = "",
                  actor: Actor | None = None) -> Series:
    """A new series of ``club`` with events of the club or of its partner clubs (each one the
    actor may see)."""
    locked = Club.objects.select_for_update().get(pk=club.pk)  # two directors, one name
    fields = _checked(locked, {
        "name": name, "description": description, "events": events, "points": points,
        "points_rule": points_rule, "best_of": best_of, "min_events": min_events,
        "partner_clubs": partner_clubs, "prizes": prizes}, series=None, actor=actor)
    return _save(Series(club=locked), fields)


def series_values(series: Series) -> dict[str, object]:
    """The series' fields as :func:`series_update` takes them."""
    return {"name": series.name, "description": series.description,
            "events": [e.pk for e in series.events.all()],
            "points_rule": series.points_rule, "points": list(series.points),
            "best_of": series.best_of, "min_events": series.min_events,
            "partner_clubs": [c.slug for c in series.partner_clubs.all()],
            "prizes": dict(series.prizes or {})}


@transaction.atomic
def series_update(*, series: Series, actor: Actor | None = None, **changes: object) -> Series:
    """Change some of a series' fields (the others keep their values). The owning club never
    changes."""
    unknown = sorted(set(changes) - set(FIELDS))
    if unknown:
        raise DomainError(gettext("Unknown field %(unknown)s.") % {"unknown": unknown[0]}, field=unknown[0], code="unknown")
    Club.objects.select_for_update().get(pk=series.club_id)
    locked = (Series.objects.select_for_update(of=("self",)).select_related("club")
              .get(pk=series.pk))
    values = series_values(locked) | changes
    if "points_rule" in changes and "points" not in changes \
            and changes["points_rule"] != locked.points_rule:
        values["points"] = None  # another rule: its own default, or "give the points"
    fields = _checked(locked.club, values, series=locked, actor=actor)
    return _save(locked, fields)


@transaction.atomic
def series_delete(*, series: Series, actor: Actor | None = None) -> None:
    """Delete a series; its events and their results stay."""
    Series.objects.filter(pk=series.pk).delete()

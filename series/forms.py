"""The series form: types only; the series services check the rest (and name the field)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any, TypedDict

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import MAX_EVENTS, Series


class SeriesForm(forms.Form):
    name = forms.CharField(max_length=120, help_text=_("e.g. Championship week 2026"))
    description = forms.CharField(max_length=300, required=False)
    events = forms.TypedMultipleChoiceField(
        coerce=int, required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("Events of the club or of its partner clubs."))
    points_rule = forms.ChoiceField(choices=Series.PointsRule.choices, label=_("Points"),
                                    initial=Series.PointsRule.TABLE)
    points = forms.CharField(
        max_length=4000, label=_("Points by place"), initial="100, 80, 65, 55, 50, 45, 40, 35",
        help_text=_("1st, 2nd, 3rd … separated by commas. With a share of the field: one number, "
                  "what the winner earns."))
    best_of = forms.IntegerField(required=False, min_value=1, max_value=MAX_EVENTS,
                                 label=_("Best N events count"),
                                 help_text=_("Empty: every event counts."))
    min_events = forms.IntegerField(required=False, min_value=1, max_value=MAX_EVENTS,
                                    label=_("Events to be ranked"), help_text=_("Empty: one."))
    partner_clubs = forms.CharField(
        required=False, max_length=1000, label=_("Partner clubs"),
        help_text=_("Slugs of clubs running the series with you, separated by commas: their "
                  "events may be chosen and their directors may change the series."))
    currency = forms.CharField(max_length=5, initial="$", required=False)
    payouts = forms.CharField(required=False, max_length=2000, label=_("Prize money by place"),
                              help_text=_("1st, 2nd, 3rd … separated by commas, e.g. 300, 150, 75."))
    high_game = forms.DecimalField(required=False, min_value=Decimal(0), decimal_places=2,
                                   label=_("High game pot"),
                                   help_text=_("The highest single game across the events."))
    high_hand = forms.DecimalField(required=False, min_value=Decimal(0), decimal_places=2,
                                   label=_("High hand pot"),
                                   help_text=_("The most points one side scored in one hand."))

    def __init__(self, *args: Any, event_choices: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["events"].choices = event_choices  # type: ignore[attr-defined]

    def values(self) -> dict[str, object]:
        """The services' keyword arguments from the cleaned form."""
        data = self.cleaned_data
        payouts = [p.strip() for p in (data.get("payouts") or "").split(",") if p.strip()]
        side = [{"kind": kind, "amount": str(data[kind])}
                for kind in ("high_game", "high_hand") if data.get(kind) is not None]
        prizes = {"currency": data.get("currency") or "$",
                  "payouts": [{"place": i, "amount": a} for i, a in enumerate(payouts, 1)],
                  "side": side} if payouts or side else {}
        return {"name": data["name"], "description": data.get("description") or "",
                "events": data.get("events") or [], "points_rule": data["points_rule"],
                "points": data["points"], "best_of": data.get("best_of"),
                "min_events": data.get("min_events"),
                "partner_clubs": [s.strip() for s in (data.get("partner_clubs") or "").split(",")
                                  if s.strip()],
                "prizes": prizes}


class SeriesInitial(TypedDict):
    """The form's initial values for an existing series (:func:`initial_of`)."""

    name: str
    description: str
    events: list[int]
    points_rule: str
    points: str
    best_of: int | None
    min_events: int | None
    partner_clubs: str
    currency: str
    payouts: str
    high_game: str | None
    high_hand: str | None


def initial_of(series: Series) -> SeriesInitial:
    """The form's initial values for an existing series."""
    prizes = series.prizes or {}
    side = {s["kind"]: s["amount"] for s in prizes.get("side", [])}
    return {"name": series.name, "description": series.description,
            "events": [e.pk for e in series.events.all()], "points_rule": series.points_rule,
            "points": ", ".join(str(p) for p in series.points), "best_of": series.best_of,
            "min_events": series.min_events,
            "partner_clubs": ", ".join(c.slug for c in series.partner_clubs.all()),
            "currency": prizes.get("currency", "$"),
            "payouts": ", ".join(p["amount"] for p in prizes.get("payouts", [])),
            "high_game": side.get("high_game"), "high_hand": side.get("high_hand")}

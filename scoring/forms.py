"""Forms for entering a hand: they check the *shape* of what was typed; the rules engine decides.

Error keys: the rules engine names fields after its JSON input (``bid``, ``meld.<side>``,
``counters``); forms use the same names with ``_`` for ``.`` (``meld_NS``), and
:func:`error_key` turns one into the other, so the page, its script and the API put a message next
to the same field whichever layer found the problem.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.http import QueryDict

from common.errors import DomainError
from common.labels import (
    OUTCOME_CHOICES,
    OUTCOMES,
    SEAT_CHOICES,
    SEAT_NAMES,
    SUIT_CHOICES,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    translated,
)
from common.rulesets import table_sides
from rules_engine import RulesError, Ruleset, browser_rules, fields_for, needs_tricks
from rules_engine.checks import CHECK_MELDS

from .selectors import SeatRow

# Check pinochle's check-earning melds as a form offers them (a double marriage is counted).
CHECK_CHOICES = [(name, label) for name, (_, label) in CHECK_MELDS.items()
                 if name != "double_marriage"]


def outcome_fields(ruleset: Ruleset) -> dict[str, set[str]]:
    """Which values each outcome carries to the rules engine (``rules_engine.fields_for``; the
    dealer is always asked). Fields hidden for an outcome are dropped, not sent half-filled."""
    return {o: set(fields_for(o, ruleset)) - {"dealer"} for o in OUTCOMES}


def new_idempotency_key() -> str:
    return secrets.token_urlsafe(24)


def error_key(field: str | None) -> str:
    """The key a message is shown under: ``meld.<side>`` → ``meld_<side>``; none → ``general``."""
    if not field or field == "__all__":
        return "general"
    return field.replace(".", "_")


def errors_from_exception(exc: Exception) -> dict[str, list[str]]:
    """Field-level messages from the rules engine or a service, keyed by :func:`error_key`."""
    errors: dict[str, list[str]] = {}
    if isinstance(exc, RulesError):
        for e in exc.errors:
            errors.setdefault(error_key(e.field), []).append(translated(e.message))
    elif isinstance(exc, DomainError):
        errors.setdefault(error_key(exc.field), []).append(translated(exc.message))
    return errors


def _numeric(**attrs: str) -> forms.TextInput:
    # A text input with a numeric keypad: no spinner arrows, no wheel changing a score by accident.
    return forms.TextInput(attrs={
        "inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off", **attrs,
    })


class HandForm(forms.Form):
    """One hand as typed at the table or by the director.

    ``number`` is the hand the device thinks it is entering (a second device entering the same
    hand gets a conflict instead of overwriting it); ``idempotency_key`` is generated per
    rendered form and reused by retries, so a resent submission never stores a second hand.
    """

    number = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    idempotency_key = forms.CharField(max_length=64, required=False, widget=forms.HiddenInput)
    expected_revision = forms.IntegerField(min_value=1, required=False, widget=forms.HiddenInput)
    outcome = forms.ChoiceField(choices=OUTCOME_CHOICES, initial="played")
    dealer = forms.ChoiceField(choices=SEAT_CHOICES)
    bidder = forms.ChoiceField(choices=SEAT_CHOICES, required=False)
    bid = forms.IntegerField(required=False, min_value=1, max_value=10000, widget=_numeric())
    trump = forms.ChoiceField(choices=SUIT_CHOICES, required=False)
    renege_seat = forms.ChoiceField(choices=SEAT_CHOICES, required=False)
    # five-handed: who held the called card; a technical misdeal: who called it
    partner = forms.ChoiceField(choices=SEAT_CHOICES, required=False)
    misdeal_seat = forms.ChoiceField(choices=SEAT_CHOICES, required=False)
    # a surrender where a widow is dealt: did the declarer look at it?
    widow_seen = forms.ChoiceField(
        choices=[("", "Yes"), ("no", "No: conceded at the opening bid without looking")],
        required=False)
    note = forms.CharField(max_length=200, required=False)

    def __init__(self, *args: Any, ruleset: Ruleset, seats: Sequence[str] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = ruleset
        # the table's seats, clockwise (the ruleset's own when not given) and its sides
        self.seats: tuple[str, ...] = tuple(seats or ruleset.seats)
        self.sides: tuple[str, ...] = table_sides(ruleset, self.seats)
        # where meld is saved only by a trick, or every trick counts: the tricks each side took
        self.groups: tuple[str, ...] = ("meld", "counters",
                                        *(("tricks",) if needs_tricks(ruleset) else ()))
        for side in self.sides:
            for group in self.groups:
                self.fields[f"{group}_{side}"] = forms.IntegerField(
                    required=False, min_value=0, max_value=10000, widget=_numeric()
                )
        # check pinochle: each player's melds that earn checks (a double marriage may come up to
        # four times: a count)
        self.checks = bool(ruleset.checks)
        if self.checks:
            for side in self.sides:
                self.fields[f"checks_{side}"] = forms.MultipleChoiceField(
                    choices=CHECK_CHOICES, required=False, widget=forms.CheckboxSelectMultiple)
                self.fields[f"double_marriages_{side}"] = forms.IntegerField(
                    required=False, min_value=0, max_value=4, widget=_numeric())

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        outcome = data.get("outcome") or "played"
        wanted = outcome_fields(self.ruleset).get(outcome, set())
        # Counters (and tricks): with every playing side's count typed but one, the last is
        # filled in (they add up to the ruleset's total: every counter, every trick).
        dealer = data.get("dealer")
        out = self.ruleset.sitting_out(self.seats, dealer) if dealer in self.seats else None
        playing = [s for s in self.sides if s != out]
        for group, total in (("counters", self.ruleset.counters_total),
                             ("tricks", self.ruleset.hand_size)):
            if group not in wanted:
                continue
            missing = [s for s in playing if data.get(f"{group}_{s}") is None]
            typed = sum(data.get(f"{group}_{s}") or 0 for s in playing)
            if len(missing) == 1 and len(playing) > 1 and 0 <= typed <= total:
                data[f"{group}_{missing[0]}"] = total - typed
        return data

    def hand_values(self) -> dict[str, object]:
        """The cleaned values in the rules engine's input shape (fields of other outcomes left out)."""
        data = self.cleaned_data
        outcome = data.get("outcome") or "played"
        wanted = outcome_fields(self.ruleset).get(outcome, set())
        values: dict[str, object] = {"dealer": data.get("dealer"), "outcome": outcome}
        for name in ("bidder", "bid", "trump", "renege_seat", "partner", "misdeal_seat"):
            if name in wanted and data.get(name) not in (None, ""):
                values[name] = data[name]
        if "widow_seen" in wanted and data.get("widow_seen") == "no":
            values["widow_seen"] = False
        if "check_melds" in wanted and self.checks:
            melds = {side: [*data.get(f"checks_{side}", [])]
                     + ["double_marriage"] * (data.get(f"double_marriages_{side}") or 0)
                     for side in self.sides}
            values["check_melds"] = {side: names for side, names in melds.items() if names}
        for group in self.groups:
            if group in wanted:
                values[group] = {
                    side: data.get(f"{group}_{side}") for side in self.sides
                    if data.get(f"{group}_{side}") is not None
                }
        return values

    def error_dict(self) -> dict[str, list[str]]:
        return {error_key(name): [str(m) for m in msgs] for name, msgs in self.errors.items()}

    @classmethod
    def initial_for(
        cls, *, number: int, dealer: str, values: Mapping[str, object] | None = None,
        expected_revision: int | None = None,
    ) -> dict[str, object]:
        """Initial data for a fresh form (next hand) or a correction (stored ``values``)."""
        initial: dict[str, object] = {
            "number": number, "dealer": dealer, "outcome": "played",
            "idempotency_key": new_idempotency_key(),
        }
        if expected_revision is not None:
            initial["expected_revision"] = expected_revision
        for key, value in (values or {}).items():
            if key == "check_melds" and isinstance(value, dict):
                for side, names in value.items():
                    initial[f"checks_{side}"] = [n for n in names if n != "double_marriage"]
                    initial[f"double_marriages_{side}"] = list(names).count("double_marriage")
            elif key == "widow_seen":
                initial[key] = "" if value else "no"
            elif isinstance(value, dict):
                for side, v in value.items():
                    initial[f"{key}_{side}"] = v
            elif key != "revision":
                initial[key] = value
        return initial


def _listed(data: Mapping[str, object], name: str) -> list[str]:
    """Every value posted under ``name`` (a form's check boxes)."""
    if isinstance(data, QueryDict):
        return list(data.getlist(name))
    value = data.get(name)
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def form_value(form: HandForm, name: str) -> object:
    """What a field shows: the submitted value of a bound form, else its initial value."""
    if form.is_bound:
        return form.data.get(name, "")
    value = form.initial.get(name)
    if value is None and name in form.fields:
        value = form.fields[name].initial
    return "" if value is None else value


# Message keys shown once for the whole form (no field of their own on the page).
FORM_WIDE_ERRORS = ("general", "number", "expected_revision", "idempotency_key", "scorer")


def hand_layout(
    form: HandForm, *, seats: Sequence[SeatRow], errors: dict[str, list[str]] | None = None,
) -> dict[str, object]:
    """What the templates need to draw the form: current values, tiles for the choice fields and
    the per-side number fields with their messages."""
    errors = errors or {}
    names = {s["position"]: s["name"] for s in seats}
    value = {name: str(form_value(form, name)) for name in form.fields}

    def seat_tiles(field: str) -> list[dict[str, object]]:
        return [
            {"value": p, "label": p, "sub": names.get(p, "") or SEAT_NAMES[p],
             "checked": value[field] == p}
            for p in form.seats
        ]

    return {
        "value": value,
        # the refusals that concern the hand as a whole, shown above the form
        "general_errors": " ".join(
            message for key in FORM_WIDE_ERRORS for message in errors.get(key, [])
        ),
        "outcome_fields": json.dumps(
            {k: sorted(v) for k, v in outcome_fields(form.ruleset).items()}
        ),
        "sides_attr": " ".join(form.sides),
        "seats_attr": " ".join(form.seats),
        # one more player than the hands dealt: the dealer sits each hand out
        "sit_out": len(form.seats) > form.ruleset.players,
        # what static/js/hand_preview.js checks and scores a typed hand with, in the browser
        "rules": json.dumps(browser_rules(form.ruleset), separators=(",", ":")),
        "dealer": seat_tiles("dealer"),
        "bidder": seat_tiles("bidder"),
        "renege_seat": seat_tiles("renege_seat"),
        "partner": seat_tiles("partner"),
        "misdeal_seat": seat_tiles("misdeal_seat"),
        # which values the ruleset asks at all (the form shows them for the outcomes carrying them)
        "asks": {name: any(name in fields for fields in outcome_fields(form.ruleset).values())
                 for name in ("partner", "misdeal_seat", "widow_seen", "check_melds")},
        "checks": [
            {"side": side, "players": names.get(side, ""),
             "choices": [{"value": v, "label": label,
                          "checked": v in (_listed(form.data, f"checks_{side}") if form.is_bound
                                           else form.initial.get(f"checks_{side}", []))}
                         for v, label in CHECK_CHOICES],
             "double_marriages": value.get(f"double_marriages_{side}", ""),
             "errors": errors.get(f"check_melds_{side}", [])}
            for side in form.sides
        ] if form.checks else [],
        "trump": [
            {"value": k, "label": sym, "sub": SUIT_NAMES[k], "checked": value["trump"] == k,
             "red": k in "HD"}
            for k, sym in SUIT_SYMBOLS.items()
        ],
        "outcome": [
            {"value": k, "label": v, "checked": (value["outcome"] or "played") == k}
            for k, v in OUTCOME_CHOICES
            # a technical misdeal only where the ruleset has a misdeal rule
            if k != "technical_misdeal" or form.ruleset.misdeal_rule != "none"
        ],
        "sides": [
            {"side": side, "meld": value[f"meld_{side}"], "counters": value[f"counters_{side}"],
             "tricks": value.get(f"tricks_{side}", ""),
             "meld_errors": errors.get(f"meld_{side}", []),
             "counters_errors": errors.get(f"counters_{side}", []),
             "tricks_errors": errors.get(f"tricks_{side}", []),
             "players": " & ".join(names.get(p, "") for p in form.ruleset.seats_of(side))}
            for side in form.sides
        ],
        # the tricks each side took are asked (played hands), adding up to the hand size
        "tricks": "tricks" in form.groups,
        "hand_size": form.ruleset.hand_size,
    }

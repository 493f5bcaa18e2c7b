from __future__ import annotations

import datetime
from typing import cast

from django import forms

from clubs.models import Player
from ranking import TIE_BREAKS

from .models import BYE_POINTS_LIMIT, Entry, Event


class EventForm(forms.Form):
    name = forms.CharField(max_length=120)
    date = forms.DateField(initial=datetime.date.today, widget=forms.DateInput(attrs={"type": "date"}))
    ruleset_preset = forms.ChoiceField(choices=[], label="Rules")
    rounds_planned = forms.IntegerField(min_value=1, max_value=60, initial=4, label="Rounds")
    deals_per_round = forms.IntegerField(
        min_value=1, max_value=60, required=False, initial=8,
        label="Deals per round", help_text="Leave empty to play each round as a game to the target.",
    )
    bye_scoring = forms.ChoiceField(
        choices=Event.ByeScoring.choices, initial=Event.ByeScoring.AVERAGE_WINNING,
        label="A bye scores",
    )
    bye_points = forms.IntegerField(required=False, initial=0, label="Fixed bye points",
                                    min_value=-BYE_POINTS_LIMIT, max_value=BYE_POINTS_LIMIT)
    tie_breaks = forms.MultipleChoiceField(
        choices=list(TIE_BREAKS.items()), required=False,
        widget=forms.CheckboxSelectMultiple, help_text="In order; empty for the usual ones.",
    )
    is_public = forms.BooleanField(required=False, initial=True, label="Standings are public")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        from rules_engine import list_rulesets

        cast(forms.ChoiceField, self.fields["ruleset_preset"]).choices = [
            (r.name, r.title) for r in list_rulesets() if r.players == 4
        ]


class EventCreateForm(EventForm):
    """A new event also picks its format (how rounds are built); it does not change later."""

    format = forms.ChoiceField(
        choices=Event.Format.choices, initial=Event.Format.CLUB_NIGHT, label="Format",
        required=False,
        help_text="Individual progressive: winners move, losers stay, partners drawn (NPA). "
                  "Its movement settings default to the NPA's and can be changed in the API.",
    )
    field_order = ["name", "date", "format"]

    def clean_format(self) -> str:
        return self.cleaned_data.get("format") or Event.Format.CLUB_NIGHT


class CheckInForm(forms.Form):
    players = forms.ModelMultipleChoiceField(queryset=Player.objects.none(), required=False)
    new_player = forms.CharField(max_length=120, required=False, label="New player")

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["players"].queryset = Player.objects.filter(  # type: ignore[attr-defined]
            club_links__club=event.club
        )


class SwapForm(forms.Form):
    entry_a = forms.ModelChoiceField(queryset=Entry.objects.none(), label="Swap")
    entry_b = forms.ModelChoiceField(queryset=Entry.objects.none(), label="with")

    def __init__(self, *args: object, event: Event, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        entries = Entry.objects.filter(event=event).select_related("player")
        self.fields["entry_a"].queryset = entries  # type: ignore[attr-defined]
        self.fields["entry_b"].queryset = entries  # type: ignore[attr-defined]
        for name in ("entry_a", "entry_b"):
            self.fields[name].label_from_instance = lambda e: e.player.name  # type: ignore[attr-defined]

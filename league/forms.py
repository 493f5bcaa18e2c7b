"""The season form: types only; the season services check the rest (and name the field)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import BEST_N_LIMIT, MIN_NIGHTS_LIMIT, Season


class DateInput(forms.DateInput):
    input_type = "date"


class SeasonForm(forms.Form):
    name = forms.CharField(max_length=80, help_text=_("e.g. 2026 or Spring 2026"))
    starts_on = forms.DateField(widget=DateInput, label=_("Starts on"))
    ends_on = forms.DateField(widget=DateInput, label=_("Ends on"))
    counting = forms.ChoiceField(choices=Season.Counting.choices, label=_("Leaderboard counts"),
                                 initial=Season.Counting.TOTAL)
    best_n = forms.IntegerField(required=False, min_value=1, max_value=BEST_N_LIMIT,
                                label=_("Best N nights"),
                                help_text=_("Only with 'Best N nights': how many count."))
    min_nights = forms.IntegerField(min_value=0, max_value=MIN_NIGHTS_LIMIT, initial=1,
                                    label=_("Nights to be ranked"),
                                    help_text=_("Players with fewer are listed as not yet "
                                              "qualified."))
    events = forms.ChoiceField(choices=Season.Events.choices, label=_("Events that count"),
                               initial=Season.Events.CLUB_NIGHTS)

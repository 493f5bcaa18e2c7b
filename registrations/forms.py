"""The registration pages' forms: the public form (alone or as a pair) and the director's
settings. Their checks are the services' (a refusal lands beside the field it names)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import RegistrationSettings
from .services import CAPACITY_MAX, NAME_MAX


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Your name"), max_length=NAME_MAX, required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "name",
                                                         "autocapitalize": "words"}))
    email = forms.CharField(label=_("Your e-mail address"), max_length=254, required=False,
                            help_text=_("We mail you a link to confirm it."),
                            widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    partner_name = forms.CharField(label=_("Your partner's name"), max_length=NAME_MAX,
                                   required=False)
    partner_email = forms.CharField(label=_("Your partner's e-mail address"), max_length=254,
                                    required=False, widget=forms.EmailInput())

    def __init__(self, *args: Any, pairs: bool, signed_in: bool, has_player: bool,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if not pairs:
            del self.fields["partner_name"]
            del self.fields["partner_email"]
        if signed_in:
            del self.fields["email"]
        if has_player:
            del self.fields["name"]


class SettingsForm(forms.Form):
    is_open = forms.BooleanField(label=_("Registration open"), required=False)
    capacity = forms.IntegerField(
        label=_("Capacity"), required=False, min_value=1, max_value=CAPACITY_MAX,
        help_text=_("Places (players, or pairs in a pair event); empty: no limit. Beyond it "
                  "registrations wait on the waitlist."))
    deadline = forms.DateTimeField(
        required=False, label=_("Deadline"), help_text=_("Empty: until the event starts."),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    fee = forms.DecimalField(label=_("Entry fee"), required=False, min_value=0, max_digits=7,
                             decimal_places=2,
                             help_text=_("Recorded as paid or not; no payment is taken here."))
    approval_required = forms.BooleanField(label=_("I approve each registration"),
                                           required=False)

    @classmethod
    def initial_of(cls, settings: RegistrationSettings) -> dict[str, object]:
        return {name: getattr(settings, name) for name in cls.base_fields}

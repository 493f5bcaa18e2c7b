from __future__ import annotations

from typing import cast

from django import forms

from .models import Club, Membership, Player


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=60, required=False, help_text="Web address; from the name if empty")
    time_zone = forms.CharField(max_length=64, initial="America/Chicago")
    ruleset_preset = forms.ChoiceField(choices=[])
    is_public = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        from rules_engine import list_rulesets

        cast(forms.ChoiceField, self.fields["ruleset_preset"]).choices = [
            (r.name, r.title) for r in list_rulesets()
        ]


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField(required=False)


class MembershipForm(forms.Form):
    username = forms.CharField(max_length=150)
    role = forms.ChoiceField(choices=Membership.Role.choices)


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(queryset=Player.objects.none(), label="Keep this player")
    duplicate = forms.ModelChoiceField(queryset=Player.objects.none(), label="Merge in (and remove)")

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        roster = Player.objects.filter(club_links__club=club).order_by("name")
        self.fields["keep"].queryset = roster  # type: ignore[attr-defined]
        self.fields["duplicate"].queryset = roster  # type: ignore[attr-defined]

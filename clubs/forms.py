from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import (
    CORRECTION_WINDOW_MAX,
    LANGUAGE_CHOICES,
    Club,
    Invitation,
    Membership,
    Player,
)


class ClubForm(forms.Form):
    name = forms.CharField(max_length=120)
    slug = forms.SlugField(max_length=60, required=False, help_text=_("Web address; from the name if empty"))
    time_zone = forms.CharField(max_length=64, initial="America/Chicago")
    ruleset_preset = forms.ChoiceField(choices=[])
    is_public = forms.BooleanField(required=False, initial=True)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        from rules_engine import list_rulesets

        cast(forms.ChoiceField, self.fields["ruleset_preset"]).choices = [
            (r.name, r.title) for r in list_rulesets()
        ]


class CorrectionsForm(forms.Form):
    """The club's rules for corrections (owners)."""

    show_director_names = forms.BooleanField(
        required=False, label=_("Name the director on the public Corrections list"),
        help_text=_("Otherwise the list says \"director\", \"scorer\" or \"owner\"."))
    correction_window_minutes = forms.IntegerField(
        required=False, min_value=0, max_value=CORRECTION_WINDOW_MAX,
        label=_("Correction window (minutes after an event finishes)"),
        help_text=_("After it, results lock and only an owner reopens the event. Blank: no lock."))


class WatchersForm(forms.Form):
    """Whether the public pages of a running event count who watches (owners)."""

    show_watchers = forms.BooleanField(
        required=False, label=_("Show how many people are watching"),
        help_text=_("The public standings, bracket and wall pages of a running event say "
                    "\"12 watching\". Counted from the open pages, anonymously."))


class LanguageForm(forms.Form):
    """The club's language (owners)."""

    language = forms.ChoiceField(
        choices=LANGUAGE_CHOICES, required=False, label=_("Language of the club's pages"),
        help_text=_("Its pages, walls and mails, for readers who chose no language of their "
                    "own. \"Each reader's own\": their browser's language."))


class PlayerForm(forms.Form):
    name = forms.CharField(max_length=120)
    email = forms.EmailField(required=False)


def _role_choices(choices: list[tuple[str, Any]],
                  roles: list[str] | None) -> list[tuple[str, Any]]:
    """The choices among ``roles`` (all when None), lowest role first."""
    labels = dict(choices)
    order = [r for r in ("member", "scorer", "director", "owner") if r in labels]
    return [(value, labels[value]) for value in order if roles is None or value in roles]


class MembershipForm(forms.Form):
    """Give a user a role; ``roles``: the roles the person filling it in may give."""

    username = forms.CharField(max_length=150, label=_("User name"))
    role = forms.ChoiceField(choices=Membership.Role.choices, initial=Membership.Role.MEMBER)

    def __init__(self, *args: object, roles: list[str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = cast(forms.ChoiceField, self.fields["role"])
        field.choices = _role_choices(Membership.Role.choices, roles)


class MemberRemoveForm(forms.Form):
    username = forms.CharField(max_length=150)


class InvitationForm(forms.Form):
    """A new invitation link; ``roles``: the roles the person filling it in may invite to."""

    role = forms.ChoiceField(choices=Invitation.Role.choices, initial=Invitation.Role.MEMBER)
    days = forms.IntegerField(min_value=1, max_value=Invitation.MAX_DAYS,
                              initial=Invitation.DEFAULT_DAYS, label=_("Valid for (days)"))
    max_uses = forms.IntegerField(
        min_value=1, max_value=Invitation.MAX_USES, required=False,
        label=_("How many people may use it"),
        help_text=_("Empty: anyone with the link, until it expires (a QR code on club night). "
                  "A director link always works once."))
    note = forms.CharField(max_length=80, required=False, label=_("Note"),
                           help_text=_("Who or what it is for; only managers see it."))

    def __init__(self, *args: object, roles: list[str] | None = None, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = cast(forms.ChoiceField, self.fields["role"])
        field.choices = _role_choices(Invitation.Role.choices, roles)


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Keep this player"))
    duplicate = forms.ModelChoiceField(queryset=Player.objects.none(), label=_("Merge in (and remove)"))

    def __init__(self, *args: object, club: Club, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        roster = Player.objects.filter(club_links__club=club).order_by("name")
        self.fields["keep"].queryset = roster  # type: ignore[attr-defined]
        self.fields["duplicate"].queryset = roster  # type: ignore[attr-defined]

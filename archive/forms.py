from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(label=_("Archive file (JSON)"),
                           help_text=_("A file from an event's “Download archive (JSON)”."))


class RosterUploadForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_("First line: name,email (e-mail optional). UTF-8; commas or semicolons."))

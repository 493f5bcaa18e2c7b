from __future__ import annotations

from django import forms


class ArchiveUploadForm(forms.Form):
    file = forms.FileField(label="Archive file (JSON)",
                           help_text="A file from an event's “Download archive (JSON)”.")


class RosterUploadForm(forms.Form):
    file = forms.FileField(
        label="CSV file",
        help_text="First line: name,email (e-mail optional). UTF-8; commas or semicolons.")

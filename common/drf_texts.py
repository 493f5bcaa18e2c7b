"""Django REST framework's validation messages, written again for this site's German.

DRF ships a German catalog, but some of its sentences address the reader informally ("Nutze
...", "Stelle sicher ...", "Gib ... ein"), while every other text of the site says "Sie". The
project's own catalog (``LOCALE_PATHS``) is asked before any app's, so listing those messages
here (``gettext_noop``: ``makemessages`` finds them, nothing is translated at import) lets
``locale/de/LC_MESSAGES/django.po`` give them in the formal register. The English texts are
DRF's own, unchanged; the API's serializers raise them as before."""

from __future__ import annotations

from django.utils.translation import gettext_noop

DRF_MESSAGES = (
    gettext_noop("Date has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Datetime has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Time has wrong format. Use one of these formats instead: {format}."),
    gettext_noop("Ensure that there are no more than {max_decimal_places} decimal places."),
    gettext_noop("Ensure that there are no more than {max_digits} digits in total."),
    gettext_noop("Ensure that there are no more than {max_whole_digits} digits before the "
                 "decimal point."),
    gettext_noop("Ensure this field has at least {min_length} characters."),
    gettext_noop("Ensure this field has no more than {max_length} characters."),
    gettext_noop("Ensure this filename has at most {max_length} characters (it has {length})."),
    gettext_noop("Ensure this value is greater than or equal to {min_value}."),
    gettext_noop("Ensure this value is less than or equal to {max_value}."),
    gettext_noop("Enter a valid \"slug\" consisting of Unicode letters, numbers, underscores, or "
                 "hyphens."),
    gettext_noop("Enter a valid \"slug\" consisting of letters, numbers, underscores or "
                 "hyphens."),
    gettext_noop("Enter a valid URL."),
    gettext_noop("Enter a valid email address."),
)

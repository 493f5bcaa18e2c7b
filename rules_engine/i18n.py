"""Texts of the pure packages, translatable without Django.

The pure packages (``rules_engine``, ``pairing``, ``ranking``, ``formats``) import nothing of
Django, so they cannot translate. They *mark* what people read instead:

- ``gettext_noop("...")`` around a constant text: ``makemessages`` finds it (Django's own
  keyword), the text stays English here;
- ``Text(gettext_noop("... %(name)s ..."), name=value)`` for a text with values in it: a
  ``str`` (the English sentence, as before) that remembers its template and its values;
- ``ngettext("%(n)s round", "%(n)s rounds", n, n=n)`` for one whose words follow a number: the
  same ``Text``, which also remembers the plural and the number (``makemessages`` reads
  ``ngettext`` as Django's own).

The web layer translates when the text reaches a reader: ``common.labels.translated`` (the
API's error answers, a form's refusals) looks the template up in the reader's language and
fills the values in again; an unmarked text is looked up as it is (and stays as it is when the
catalog does not have it).
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["Text", "gettext_noop", "ngettext"]


def gettext_noop(message: str) -> str:
    """Marks ``message`` for translation (``makemessages`` reads it) and returns it unchanged."""
    return message


class Text(str):
    """An English sentence made from ``template`` (``%(name)s`` placeholders) and ``params``,
    which keeps both so the web layer can write it again in the reader's language."""

    template: str
    params: Mapping[str, object]
    # a text whose words follow a number: its plural template and the number (else "" and 0)
    plural: str = ""
    number: int = 0

    def __new__(cls, template: str, /, **params: object) -> Text:
        text = super().__new__(cls, template % params if params else template)
        text.template = template
        text.params = params
        return text


def ngettext(singular: str, plural: str, count: int, /, **params: object) -> Text:
    """The English text for ``count`` (``singular`` for 1, else ``plural``), filled with
    ``params``, remembering both templates and the number for the reader's language."""
    text = Text(singular if count == 1 else plural, **params)
    text.template = singular
    text.plural = plural
    text.number = count
    return text

"""Management commands a club's director runs (``export_event``, ``import_event``) say what
they did in the director's language: ``--language de`` (one of ``settings.LANGUAGES``; the
site's default without it). Their texts are marked like the pages' (``gettext``); a refused
archive's problems come in the same language, as the API would say them."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser
from django.utils import translation


class DirectorCommand(BaseCommand):
    """A command whose output a director reads: ``--language`` chooses its language."""

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        parser.add_argument(
            "--language", choices=[code for code, _ in settings.LANGUAGES],
            default=settings.LANGUAGE_CODE,
            help="the language of the messages (default: %(default)s)")
        return parser

    def execute(self, *args: Any, **options: Any) -> str | None:
        with translation.override(options.get("language") or settings.LANGUAGE_CODE):
            return super().execute(*args, **options)

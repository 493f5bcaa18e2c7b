#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

from __future__ import annotations

import os
import sys


def _settings_from_argv(argv: list[str]) -> str | None:
    """The value of ``--settings`` on the command line, if any (``--settings X`` or ``=X``)."""
    for index, arg in enumerate(argv):
        if arg.startswith("--settings="):
            return arg.split("=", 1)[1]
        if arg == "--settings" and index + 1 < len(argv):
            return argv[index + 1]
    return None


def main() -> None:
    # The settings are loaded (and checked) before Django parses the command line, so an explicit
    # --settings must be honoured here, or the command would run under the default settings.
    explicit = _settings_from_argv(sys.argv)
    if explicit:
        os.environ["DJANGO_SETTINGS_MODULE"] = explicit
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    from django.core.management import execute_from_command_line

    from config.startup import guarded

    def setup() -> None:
        import django

        django.setup()

    guarded(setup)
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

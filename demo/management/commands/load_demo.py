from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from demo.services import load_demo


class Command(BaseCommand):
    help = "Load the demo club, its players, a finished club night and one in progress (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not getattr(settings, "DEMO_DATA_ALLOWED", False):
            # The demo's logins have published passwords: never in a production database.
            raise CommandError(
                "load_demo refuses to run under production settings (the demo logins have "
                "published passwords)."
            )
        if not load_demo(stdout=self.stdout):
            self.stdout.write("Demo data already loaded; nothing to do.")

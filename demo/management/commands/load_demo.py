from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from demo.services import load_demo


class Command(BaseCommand):
    help = "Load the demo club, its players, a finished club night and one in progress (idempotent)."

    def handle(self, *args: Any, **options: Any) -> None:
        if not load_demo(stdout=self.stdout):
            self.stdout.write("Demo data already loaded; nothing to do.")

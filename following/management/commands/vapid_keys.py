"""Print a new VAPID key pair for Web Push, as the VAPID_PRIVATE_KEY and VAPID_PUBLIC_KEY
settings take them."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from following.vapid import key_pair_new


class Command(BaseCommand):
    help = "Print a new VAPID key pair (VAPID_PRIVATE_KEY=..., VAPID_PUBLIC_KEY=...)."

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = key_pair_new()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\nVAPID_PUBLIC_KEY={public}\n")

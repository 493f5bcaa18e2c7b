"""The e-mail confirmation step of signing in (django-allauth's login stage), for
``clubs.accounts.AccountAdapter``: mandatory for every address people gave us, skipped for
accounts with no e-mail address on record (made by an administrator, ``createsuperuser`` or the
demo data), which have nothing to confirm and nowhere to send a link."""

from __future__ import annotations

from typing import Any

from allauth.account import stages
from allauth.account.models import EmailAddress


class EmailVerificationStage(stages.EmailVerificationStage):
    def handle(self) -> tuple[Any, bool]:
        user = self.login.user
        if user is not None and not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True
        result: tuple[Any, bool] = super().handle()
        return result

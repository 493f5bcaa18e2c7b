"""The e-mail confirmation step of signing in (django-allauth's login stage), for
``clubs.accounts.AccountAdapter``: mandatory for every address people gave us, skipped for
accounts with no e-mail address on record (made by an administrator, ``createsuperuser`` or the
demo data), which have nothing to confirm and nowhere to send a link."""

from __future__ import annotations

from allauth.account import stages
from allauth.account.models import EmailAddress
from django.http import HttpResponse


class EmailVerificationStage(stages.EmailVerificationStage):
    def handle(self) -> tuple[HttpResponse | None, bool]:
        user = self.login.user
        if user is not None and not EmailAddress.objects.filter(user_id=user.pk).exists():
            return None, True
        result: tuple[HttpResponse | None, bool] = super().handle()
        return result

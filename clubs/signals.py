"""The account's language follows it: when it signs in, its stored choice
(``clubs.AccountSettings.language``) goes into the new session, where
``public.middleware.ReaderLanguageMiddleware`` reads it on every request without a query."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest

from .models import AccountSettings

if TYPE_CHECKING:
    from django.contrib.auth.models import User

# The session key of the account's language ("" for none); the middleware reads it.
SESSION_LANGUAGE_KEY = "account_language"


@receiver(user_logged_in, dispatch_uid="account-language-signed-in")
def _signed_in(*, request: HttpRequest | None, user: User, **_: object) -> None:
    if request is None or not hasattr(request, "session"):
        return
    language = (AccountSettings.objects.filter(user=user)
                .values_list("language", flat=True).first()) or ""
    request.session[SESSION_LANGUAGE_KEY] = language

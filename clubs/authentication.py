"""The API's token sign-in, in the account's own language.

A script signs in with its token on every request and keeps no session, so the account's
language, which ``public.middleware.ReaderLanguageMiddleware`` reads from the session, would
never reach it. :class:`AccountTokenAuthentication` is DRF's token authentication that reads the
account's choice (``clubs.AccountSettings.language``) in the same query as the token and, when
the account chose one, answers in it: refusals, their messages and ``Content-Language``. As on
the pages, the account's choice beats the browser's ``Accept-Language``; an account that chose
none is answered in the request's language as before."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils import translation
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication
from rest_framework.authtoken.models import Token
from rest_framework.request import Request

from .models import AccountSettings


class AccountTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <key>``, answered in the account's language."""

    def authenticate_credentials(self, key: str) -> tuple[Any, Any]:
        token = (Token.objects.select_related("user", "user__account_settings")
                 .filter(key=key).first())
        if token is None:
            raise exceptions.AuthenticationFailed(translation.gettext("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(
                translation.gettext("User inactive or deleted."))
        return token.user, token

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        found = super().authenticate(request)
        if found is not None:
            try:
                language = found[0].account_settings.language
            except AccountSettings.DoesNotExist:
                language = ""
            if language in dict(settings.LANGUAGES):
                translation.activate(language)
                request._request.LANGUAGE_CODE = language
        return found

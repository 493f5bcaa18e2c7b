"""Accounts: sign-up, e-mail confirmation, sign-in and password reset are django-allauth's; this
module fits them to the product.

* **Links in e-mails** (confirmation, password reset, "no account with that address") use
  ``PUBLIC_BASE_URL`` when it is set, so a confirmation asked for on the server itself still
  reaches the person's phone; otherwise the address the page was asked by. A confirmation link
  carries the ``next`` address the person was heading for (an invitation), so it survives the
  trip through the mailbox, even into another browser.
* **Mandatory confirmation is for addresses people give us**: every address given at sign-up or
  added later must be confirmed before its account signs in. Accounts with no e-mail address on
  record (made by an administrator, ``createsuperuser`` or the demo data) have nothing to
  confirm and sign in as before.
* **Lockouts** stay django-axes's (``config/settings``: the axes backend comes first and
  allauth's own login rate limits are off): :func:`login_identifier` tells axes which account an
  attempt was for, whether it was typed as a user name or an e-mail address, so the count is
  per account and typing the address instead of the name does not start a fresh one.
* The sign-in form's field is allauth's ``login``; a post naming it ``username`` (the field of
  Django's own form, which scripts and password managers may still send) is read the same way.
* **Mails are the account's**: written in its own language (``AccountSettings.language``) when
  it chose one, else in the language of the page that asked for them.
* Client addresses for allauth's remaining rate limits come from :func:`common.http.client_ip`,
  like every other limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, urlencode, urlsplit

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.forms import LoginForm as AllauthLoginForm
from allauth.account.models import EmailConfirmation
from allauth.utils import build_absolute_uri
from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation

from common.http import client_ip

from .models import AccountSettings

# allauth's confirmation stage and ours (clubs/login_stages.py, named by path: allauth's stages
# module imports the adapter, so this module must not import it).
ALLAUTH_EMAIL_STAGE = "allauth.account.stages.EmailVerificationStage"
OUR_EMAIL_STAGE = "clubs.login_stages.EmailVerificationStage"


def email_link(request: HttpRequest | None, path: str) -> str:
    """The absolute address of ``path`` for an e-mail: under ``PUBLIC_BASE_URL`` when set, else
    as the page was asked for (not rewritten to a LAN address as QR codes are: the person
    reading the mail on the server itself must be able to follow it)."""
    base = str(getattr(settings, "PUBLIC_BASE_URL", "") or "")
    if base:
        return base.rstrip("/") + path
    return build_absolute_uri(request, path)


def _path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request: HttpRequest) -> str:
        return client_ip(request) or super().get_client_ip(request)

    def get_login_stages(self) -> list[str]:
        return [OUR_EMAIL_STAGE if path == ALLAUTH_EMAIL_STAGE else path
                for path in super().get_login_stages()]

    def _next_address(self, request: HttpRequest | None) -> str:
        """The safe, local ``next`` address of the sign-up or sign-in being handled, or ""."""
        if request is None:
            return ""
        wanted = str(request.POST.get("next") or request.GET.get("next") or "")
        if not wanted.startswith("/") or wanted.startswith("//") or not self.is_safe_url(wanted):
            return ""
        return wanted

    def get_email_confirmation_url(
        self, request: HttpRequest, emailconfirmation: EmailConfirmation,
    ) -> str:
        path = reverse("account_confirm_email", args=[emailconfirmation.key])
        wanted = self._next_address(request)
        if wanted:
            path += "?" + urlencode({"next": wanted})
        return email_link(request, path)

    def get_reset_password_from_key_url(self, key: str) -> str:
        path = reverse("account_reset_password_from_key", kwargs={"uidb36": "UID", "key": "KEY"})
        return email_link(self.request, path.replace("UID-KEY", quote(key)))

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # The remaining links allauth puts in mails (sign up, reset password) are built from
        # the request: give them the public address too.
        if getattr(settings, "PUBLIC_BASE_URL", ""):
            context = {
                key: email_link(self.request, _path_of(value))
                if key.endswith("_url") and isinstance(value, str) and "://" in value else value
                for key, value in context.items()
            }
        # The mail is the account's: in its own language when it chose one (a password reset
        # asked for from someone else's browser still reads as the account's owner reads).
        with translation.override(_account_language(context.get("user"))
                                  or translation.get_language()):
            super().send_mail(template_prefix, email, context)


def _account_language(user: Any) -> str:
    """The language an account chose for itself ("" when none, or no account)."""
    if user is None or not getattr(user, "pk", None):
        return ""
    language = (AccountSettings.objects.filter(user_id=user.pk)
                .values_list("language", flat=True).first() or "")
    return language if language in dict(settings.LANGUAGES) else ""


class LoginForm(AllauthLoginForm):
    """allauth's sign-in form (user name or e-mail address, and password); a post that names
    the first field ``username`` instead of ``login`` is read the same way."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        data = kwargs.get("data")
        if data is not None and not data.get("login") and data.get("username"):
            data = data.copy()
            data["login"] = data["username"]
            kwargs["data"] = data
        super().__init__(*args, **kwargs)
        self.fields["login"].label = "User name or e-mail address"


def login_identifier(request: HttpRequest, credentials: Mapping[str, object] | None = None) -> str:
    """Which account a sign-in attempt was for, as django-axes counts failures
    (``AXES_USERNAME_CALLABLE``): the account's user name when the typed name or e-mail address
    belongs to one, else what was typed (folded to lower case)."""
    given = credentials or {}
    typed = given.get("username") or given.get("email") or given.get("login")
    if not typed:
        data = getattr(request, "data", None) or request.POST
        typed = data.get("login") or data.get("username")
    text = str(typed or "").strip()
    if not text:
        return ""
    users = get_user_model().objects.order_by("pk")
    user = users.filter(username=text).first() or users.filter(username__iexact=text).first()
    if user is None and "@" in text:
        user = (users.filter(emailaddress__email__iexact=text).first()
                or users.filter(email__iexact=text).first())
    return user.get_username() if user is not None else text.casefold()

"""Request guards that hold for every endpoint, before any view runs."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext

# HandRevision.idempotency_key is a CharField(max_length=64); the body field is checked by the
# serializers, the header here (a longer one reached the database and failed there, as a 500).
IDEMPOTENCY_KEY_MAX_LENGTH = 64


class IdempotencyKeyMiddleware:
    """An ``Idempotency-Key`` header longer than the stored key can be is a 400 on the field
    ``idempotency_key`` (the house error shape), whichever endpoint it is sent to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get("Idempotency-Key")
        if key is not None and len(key) > IDEMPOTENCY_KEY_MAX_LENGTH:
            return JsonResponse({"errors": [{
                "field": "idempotency_key", "code": "max_length",
                "message": gettext("Ensure this field has no more than %(idempotency_key_max_length)s characters.") % {"idempotency_key_max_length": IDEMPOTENCY_KEY_MAX_LENGTH},
            }]}, status=400)
        return self.get_response(request)


class RequestSizeMiddleware:
    """A request body longer than ``REQUEST_MAX_BYTES`` (by its ``Content-Length``) is a 413 on
    the field ``file`` before anything reads it: no upload of the product is larger (an event
    archive is at most 25 MB), and a form's files are otherwise parsed to disk before the view
    could refuse them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = int(settings.REQUEST_MAX_BYTES)
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > limit:
            return JsonResponse({"errors": [{
                "field": "file", "code": "too_large",
                "message": gettext("The request is %(value)s MB; at most %(value2)s MB is read.") % {"value": format(length / (1024 * 1024), '.1f'), "value2": format(limit / (1024 * 1024), 'g')}}]}, status=413)
        return self.get_response(request)


NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _nul_field(request: HttpRequest) -> str | None:
    """The first query parameter or form field (name or value) holding a NUL character."""
    sources = [request.GET]
    if request.method == "POST" and request.content_type in FORM_TYPES:
        sources.append(request.POST)
    for source in sources:
        for name, values in source.lists():
            if NUL in name or any(NUL in value for value in values):
                return name.replace(NUL, "\\x00")
    return None


class NulCharacterMiddleware:
    """A NUL character in any query parameter or form field (its name or its value) is a 400
    naming the field: no text column of PostgreSQL stores it, so a filter or a write with it
    ended in a 500. JSON bodies are checked by the API's parser (``common.parsers``), uploaded
    files by whoever reads them."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            name = _nul_field(request)
        except MultiPartParserError as exc:
            return JsonResponse({"errors": [{
                "field": "__all__", "code": "parse_error",
                "message": gettext("The form could not be read: %(exc)s") % {"exc": exc}}]}, status=400)
        if name is not None:
            return JsonResponse({"errors": [{
                "field": name or "__all__", "code": "null_characters_not_allowed",
                "message": gettext("Null characters are not allowed."),
            }]}, status=400)
        return self.get_response(request)


# Answers that hold a table's secret state or a person's own data: never kept by the browser or
# a shared cache (Back after signing out, a club laptop's next user, a proxy). The table's API
# (its token is its key: state, hands, calls, ...) and a person's data, page and API.
NO_STORE_PREFIXES = ("/api/tables/", "/api/me/", "/account/data/")


class NoStoreMiddleware:
    """``Cache-Control: no-store`` on every answer under ``NO_STORE_PREFIXES``, errors too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path.startswith(NO_STORE_PREFIXES):
            response["Cache-Control"] = "no-store"
        return response

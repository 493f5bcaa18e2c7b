"""API plumbing: one exception handler that maps refusals (``CoreError``) and other errors to HTTP."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.utils.translation import gettext
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from rules_engine import CoreError

from .errors import ConflictError
from .labels import translated_errors

# What a client is told to wait when the database does not answer (a restart, a failover).
DATABASE_RETRY_AFTER_SECONDS = 5


def database_unavailable_errors() -> list[dict[str, str]]:
    return [{"field": "__all__", "code": "database_unavailable",
             "message": gettext("The database is not answering just now: nothing was saved. Try again in a few seconds (a table phone sends it again by itself).")}]


def _field_errors(exc: DjangoValidationError) -> list[dict[str, str]]:
    if hasattr(exc, "error_dict"):
        return [
            {"field": field, "code": err.code or "invalid", "message": str(err.message % (err.params or {}))}
            for field, errs in exc.error_dict.items()
            for err in errs
        ]
    return [{"field": "__all__", "code": "invalid", "message": m} for m in exc.messages]


def _flat(detail: object, field: str = "", item: str = "") -> list[tuple[str, str]]:
    """DRF's validation errors as ``(field, message)`` pairs, nested ones too: a nested
    serializer's field as a dotted path (``prizes.0.amount``), an item of a list field by its
    number in the message (``tie_breaks``: "Item 1: This field may not be blank."), never the
    ``ErrorDetail(...)`` text of a nested structure."""
    if isinstance(detail, dict):
        pairs: list[tuple[str, str]] = []
        for key, value in detail.items():
            if isinstance(key, int) and not isinstance(value, dict):  # an item of a ListField
                pairs += _flat(value, field or "__all__", gettext("Item %(number)s: ") % {"number": key + 1})
            else:
                pairs += _flat(value, f"{field}.{key}" if field else str(key), item)
        return pairs
    if isinstance(detail, list):
        if any(isinstance(value, dict) for value in detail):  # a list of nested serializers
            return [pair for n, value in enumerate(detail) if value
                    for pair in _flat(value, f"{field}.{n}" if field else str(n), item)]
        return [pair for value in detail for pair in _flat(value, field, item)]
    return [(field or "__all__", f"{item}{detail}")]


def exception_handler(exc: Exception, context: dict[str, object]) -> Response | None:
    """Every error body has the same shape: ``{"errors": [{"field", "code", "message"}]}``.

    Every refusal is a :class:`CoreError` (the web apps' ``DomainError``, the rules engine's
    ``RulesError``, the pairing and ranking cores' errors): one translation, keeping each
    problem's field and code. A conflict is a 409 with what is stored now."""
    if isinstance(exc, (OperationalError, InterfaceError)):
        # the database is away (stopped, restarting, out of connections): a 503 the client
        # retries (a table phone keeps the hand queued), not a 500 page
        return Response({"errors": database_unavailable_errors()},
                        status=status.HTTP_503_SERVICE_UNAVAILABLE,
                        headers={"Retry-After": str(DATABASE_RETRY_AFTER_SECONDS)})
    if isinstance(exc, ConflictError):
        return Response({"errors": translated_errors(exc.api_errors()), "current": exc.current},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, CoreError):
        # each message in the reader's language (a pure core's text is translated here)
        return Response({"errors": translated_errors(exc.api_errors())},
                        status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        return Response({"errors": _field_errors(exc)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError) and isinstance(response.data, dict):
        response.data = {"errors": [{"field": field, "code": "invalid", "message": message}
                                    for field, message in _flat(response.data)]}
    elif isinstance(response.data, dict) and "detail" in response.data:
        code = getattr(response.data["detail"], "code", "error")
        response.data = {
            "errors": [{"field": "__all__", "code": str(code), "message": str(response.data["detail"])}]
        }
    return response

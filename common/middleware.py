"""Request guards that hold for every endpoint, before any view runs."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse

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
                "message": f"Ensure this field has no more than {IDEMPOTENCY_KEY_MAX_LENGTH} "
                           "characters.",
            }]}, status=400)
        return self.get_response(request)

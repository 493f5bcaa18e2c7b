"""OpenAPI schema hooks (drf-spectacular ``POSTPROCESSING_HOOKS``): answers that every
operation can give, documented once rather than on each view."""

from __future__ import annotations

from typing import Any

from common.types import JSONValue

ERROR_SCHEMA_NAME = "ApiErrors"
ERROR_SCHEMA: dict[str, JSONValue] = {
    "type": "object",
    "description": 'The house error shape: {"errors": [{"field", "code", "message"}]}.',
    "properties": {
        "errors": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "field": {"type": "string"},
                    "code": {"type": "string"},
                    "message": {"type": "string"},
                },
                "required": ["field", "code", "message"],
            },
        },
    },
    "required": ["errors"],
}
METHODS = {"get", "put", "post", "patch", "delete", "head", "options", "trace"}


def document_common_responses(result: dict[str, Any], **_: Any) -> dict[str, Any]:
    """Every operation may answer 429 (rate limited, see ``common.throttles``), 401 (a wrong
    token: token authentication comes first) and 400 (a NUL character in a query parameter,
    ``common.middleware``), and every operation taking a body 400 (a body that is not valid
    JSON, ``common.parsers``), 413 (a body larger than any the site reads) and 415 (a body of a
    media type the site does not read, or none)."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault(ERROR_SCHEMA_NAME, ERROR_SCHEMA)
    ref = {"$ref": f"#/components/schemas/{ERROR_SCHEMA_NAME}"}
    for item in result.get("paths", {}).values():
        for method, operation in item.items():
            if method not in METHODS:
                continue
            responses = operation.setdefault("responses", {})
            responses.setdefault("429", {
                "description": "Too many requests: wait the seconds in Retry-After.",
                "content": {"application/json": {"schema": ref}},
            })
            responses.setdefault("401", {
                "description": "A wrong, regenerated or inactive user's token, or none where "
                               "one is needed (`WWW-Authenticate: Token`).",
                "content": {"application/json": {"schema": ref}},
            })
            if "requestBody" in operation:
                responses.setdefault("400", {
                    "description": "The body is not valid JSON (or nests too deeply), or a "
                                   "value holds a NUL character.",
                    "content": {"application/json": {"schema": ref}},
                })
                responses.setdefault("413", {
                    "description": "The body is larger than any the site reads.",
                    "content": {"application/json": {"schema": ref}},
                })
                responses.setdefault("415", {
                    "description": "The body's media type (`Content-Type`) is missing or not "
                                   "one the site reads.",
                    "content": {"application/json": {"schema": ref}},
                })
            else:
                responses.setdefault("400", {
                    "description": "A query parameter holds a NUL character.",
                    "content": {"application/json": {"schema": ref}},
                })
    return result

"""The HTML views' refusal helper: a refusal becomes one error message and the view goes on;
the block's own success step runs only when nothing was refused; other errors pass through."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.http import HttpRequest
from django.test import RequestFactory

from common.errors import DomainError
from common.forms import refusal_message


def _request() -> HttpRequest:
    request = RequestFactory().post("/")
    request.session = {}  # type: ignore[assignment]  # the message storage only needs a mapping
    request._messages = FallbackStorage(request)  # type: ignore[attr-defined]
    return request


def _messages(request: HttpRequest) -> list[tuple[str, str]]:
    return [(m.level_tag, m.message) for m in get_messages(request)]


def test_a_refusal_becomes_an_error_message_and_skips_the_rest_of_the_block() -> None:
    request = _request()
    done: list[str] = []
    with refusal_message(request, prefix="Table 3: ") as refused:
        raise DomainError("The game is confirmed.", field="table")
        done.append("success")  # never reached
    assert refused.error is not None and refused.error.field == "table"
    assert done == []
    assert _messages(request) == [("error", "Table 3: The game is confirmed.")]


def test_a_block_that_runs_through_adds_no_message() -> None:
    request = _request()
    with refusal_message(request) as refused:
        done = ["success"]
    assert refused.error is None
    assert done == ["success"]
    assert _messages(request) == []


def test_other_errors_are_not_swallowed() -> None:
    request = _request()
    with pytest.raises(ValueError), refusal_message(request):
        raise ValueError("a bug, not a refusal")
    assert _messages(request) == []

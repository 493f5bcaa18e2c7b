"""Helpers shared by HTML views: domain errors land next to the field they name, or, for a
button that only posts, as an error message on the page the view sends the director back to."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django import forms
from django.contrib import messages
from django.http import HttpRequest

from .errors import DomainError
from .labels import translated


def add_domain_error(form: forms.Form, exc: DomainError) -> None:
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, translated(exc.message))


class Refused:
    """What :func:`refusal_message` caught: the refusal, or None when the block ran through."""

    error: DomainError | None = None


@contextmanager
def refusal_message(request: HttpRequest, *, prefix: str = "") -> Iterator[Refused]:
    """A page's service call whose refusal (a ``DomainError``) becomes an error message
    (``prefix`` before its words) instead of an error page; the view goes on after the block.
    What the block does after the call (its success message, a redirect) happens only when
    nothing was refused; ``refused.error`` tells the view which way it went::

        with refusal_message(request):
            services.entry_withdraw(entry=entry, actor=request.user)
            messages.success(request, "… has left.")
        return redirect(...)
    """
    refused = Refused()
    try:
        yield refused
    except DomainError as exc:
        refused.error = exc
        messages.error(request, f"{prefix}{translated(exc.message)}")

"""Helpers shared by HTML views: domain errors land next to the field they name."""

from __future__ import annotations

from django import forms

from .errors import DomainError


def add_domain_error(form: forms.Form, exc: DomainError) -> None:
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)

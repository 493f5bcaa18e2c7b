"""Types the apps share in annotations.

``Actor`` is who asks for a read or a write: the request's user, signed in (the project's user
model, Django's ``User``) or not (``AnonymousUser``). Services that record who acted take
``actor: Actor | None`` (``None``: the system, a task or a command) and keep only a signed-in
user (``actor_user``).

``JSONValue`` is a value of free-form JSON (a ``JSONField``'s content whose keys nobody fixed,
such as a log row's details); where the keys are known, a ``TypedDict`` says them instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias, cast

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

Actor: TypeAlias = "User | AnonymousUser"
JSONValue: TypeAlias = (
    "None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]"
)


def actor_user(actor: Actor | None) -> User | None:
    """The signed-in user behind ``actor``; ``None`` for nobody or an anonymous visitor."""
    return cast("User | None", actor if getattr(actor, "is_authenticated", False) else None)

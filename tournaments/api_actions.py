"""The shape of a director's action on an event, which the API's writes on an event share
(the event API's, conduct's, registrations'): one class, here beside ``event_get`` so every app
above the tournaments may use it.

``POST`` by a signed-in user (else 403); the event found with the director's role (404 to
people who may not see it, 403 without the role); then what the URL names in it (``find``: a
round, a game, a pair, a penalty, a registration..., 404 when the event has none); then the
body checked by ``input`` (400 naming the field; an action without ``input`` leaves the body to
its service, which names the field it refuses); then ``act``: one service call, whose answer is
the response's body, with ``status_code`` (200, or 201 for an action that records something).
The order is the order every such view followed by hand, so the refusals stay the same.
A subclass states its schema with ``extend_schema_view(post=extend_schema(...))``.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from common.types import Actor
from tournaments.models import Event
from tournaments.selectors import event_get


# No docstrings on the class or on ``post``: the schema describes an action by its own class's
# docstring, and would take this class's for an action without one.
class DirectorAction(APIView):
    permission_classes = [IsAuthenticated]
    input: type[serializers.Serializer[object]] | None = None
    status_code: int = status.HTTP_200_OK

    def post(self, request: Request, pk: int, **where: int) -> Response:
        event = event_get(pk=pk, user=request.user, role="director")
        found = self.find(event, **where)
        if isinstance(found, Response):  # a 404 of the view's own (naming the field)
            return found
        data: dict[str, Any] = {}
        if self.input is not None:
            given = self.input(data=request.data)
            given.is_valid(raise_exception=True)
            data = given.validated_data
        return Response(self.act(event, found, data, actor=request.user),
                        status=self.status_code)

    def find(self, event: Event, **where: int) -> Any:
        """What the URL names inside the event (``where``: its other parts); the event itself
        by default. A ``Response`` found is the answer (a refusal in a shape of its own)."""
        return event

    def act(self, event: Event, found: Any, data: dict[str, Any], *, actor: Actor) -> Any:
        """The service call, with the valid ``data`` (empty without ``input``: the body as sent
        is ``self.request.data``); answers the response's body."""
        raise NotImplementedError

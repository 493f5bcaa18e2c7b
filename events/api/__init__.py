"""Event API: events, settings, check-in, seating rounds, round status, seat swaps, finishing.

Every action a director takes on the event pages has an endpoint here, with the same
permissions: an event of a private club answers 404 to people outside the club; a member without
the role gets 403; writes need a signed-in user (session or ``Authorization: Token <key>``;
a user makes a token on ``/accounts/token/`` or with ``manage.py drf_create_token``).
Writes go through the services (``tournaments.services``, ``scoring.services``,
``draw.services``); domain errors come back as 400 with the field they concern, in the house
shape ``{"errors": [{"field", "code", "message"}]}``.

The views live by resource: ``event`` (the events, finishing, the automatic advance), ``entries``
(check-in, pairs, withdrawals), ``rounds`` (seating, status, advance, swaps), ``games`` (cut,
forfeit, time, the desk's confirmations), ``boards`` (the bracket, where everyone sits) and
``draw`` (the seed's commitment, and the seed once the event is over).
"""

from __future__ import annotations

from .boards import EventBracketApi, EventSeatingApi
from .draw import EventDrawApi
from .entries import (
    EntryLeaveApi,
    EntryOutput,
    EventEntriesApi,
    EventEntriesBulkApi,
    EventPairsApi,
    PairLeaveApi,
)
from .event import (
    EventAdvanceApi,
    EventDetailApi,
    EventFinishApi,
    EventListApi,
    EventOutput,
    EventReopenApi,
)
from .games import RoundConfirmApi, RoundTimeApi, TableCutApi, TableForfeitApi
from .rounds import (
    EventRoundsApi,
    RoundAdvanceApi,
    RoundCloseApi,
    RoundDetailApi,
    RoundStartApi,
    RoundSwapApi,
    TableDrawApi,
)

__all__ = [
    "EntryLeaveApi",
    "EntryOutput",
    "EventAdvanceApi",
    "EventBracketApi",
    "EventDetailApi",
    "EventDrawApi",
    "EventEntriesApi",
    "EventEntriesBulkApi",
    "EventFinishApi",
    "EventListApi",
    "EventOutput",
    "EventPairsApi",
    "EventReopenApi",
    "EventRoundsApi",
    "EventSeatingApi",
    "PairLeaveApi",
    "RoundAdvanceApi",
    "RoundCloseApi",
    "RoundConfirmApi",
    "RoundDetailApi",
    "RoundStartApi",
    "RoundSwapApi",
    "RoundTimeApi",
    "TableCutApi",
    "TableDrawApi",
    "TableForfeitApi",
]

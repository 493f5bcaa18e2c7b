"""Writes of penalties, appeals and penalty tables: each one transaction under the event's lock,
with a log row, refused once the event's results are final. A penalty recorded or withdrawn
moves the event's ``hands_version`` and queues the standings (``tournaments.services.
event_results_changed``), as a hand does.

Calls for a director (``DirectorCall``): a table raises one from its phone while its round is
open (:func:`director_call_raise`, under the table's row lock: one open call per table, which
the database guards too), a director takes it (:func:`director_call_take`) and closes it with
the ruling (:func:`director_call_close`); each step is a row of the event's log. The directors'
screens hear of every step by push (a receiver in ``draw.signals``: this layer publishes
nothing)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from common.errors import DomainError
from common.labels import lower_in_english, sitting_word
from common.types import Actor, JSONValue, actor_user
from scoring.models import Game
from scoring.selectors import entry_refusal
from tournaments import corrections
from tournaments.models import Entry, Event, Pair, Seat, Table
from tournaments.selectors import results_final_check
from tournaments.services import event_lock, event_log, event_results_changed

from .models import (
    CALL_NOTE_MAX,
    CALL_WORDS_MAX,
    PENALTY_POINTS_MAX,
    Appeal,
    DirectorCall,
    Penalty,
    PenaltyTable,
)
from .presets import PRESETS
from .selectors import call_person, penalty_table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

REASON_MAX = 200


def _user(actor: Actor | None) -> User | None:
    return actor_user(actor)


def _reason(value: object, *, field: str, what: str, limit: int = REASON_MAX) -> str:
    text = (value or "").strip() if isinstance(value, str | type(None)) else ""
    if not text:
        raise DomainError(gettext("Say why %(what)s.") % {"what": what}, field=field)
    if len(text) > limit:
        raise DomainError(gettext("Keep it under %(limit)s characters.") % {"limit": limit}, field=field)
    return text


def check_penalty_points(value: object, *, field: str = "points") -> int:
    """A penalty's points: a whole number from 1 to ``PENALTY_POINTS_MAX`` (a penalty takes
    points off; a negative or absurd number is refused naming ``field``)."""
    try:
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise ValueError
        number = int(str(value).strip())
    except ValueError:
        raise DomainError(gettext("A penalty's points are a whole number."), field=field) from None
    if number < 1:
        raise DomainError(gettext("A penalty takes off at least 1 point (give the points as a positive number)."), field=field, code="min_value")
    if number > PENALTY_POINTS_MAX:
        raise DomainError(gettext("A penalty takes off at most %(penalty_points_max)s points.") % {"penalty_points_max": PENALTY_POINTS_MAX},
                          field=field, code="max_value")
    return number


def _target(event: Event, *, entry_id: object, pair_id: object) -> tuple[Entry | None, Pair | None]:
    """The player or pair penalised: one of ``entry_id`` or ``pair_id``, of this event. In a
    pair event a player's penalty counts against their pair."""
    if (entry_id in (None, "")) == (pair_id in (None, "")):
        raise DomainError(gettext("Name the player (entry_id) or the pair (pair_id) penalised, one of them."), field="entry_id")
    if entry_id not in (None, ""):
        entry = Entry.objects.select_related("player", "pair").filter(
            event=event, pk=_id(entry_id, "entry_id")).first()
        if entry is None:
            raise DomainError(gettext("That player is not in this event."), field="entry_id")
        return entry, entry.pair
    if not event.is_pairs:
        raise DomainError(gettext("This event has no pairs: name the player (entry_id)."),
                          field="pair_id")
    pair = Pair.objects.filter(event=event, pk=_id(pair_id, "pair_id")).first()
    if pair is None:
        raise DomainError(gettext("That pair is not in this event."), field="pair_id")
    return None, pair


def _id(value: object, field: str) -> int:
    try:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise TypeError  # what int() refuses too
        return int(value)
    except (TypeError, ValueError):
        raise DomainError(gettext("An id is a whole number."), field=field) from None


def _sitting(event: Event, *, number: object, table: object, entry: Entry | None,
             pair: Pair | None) -> tuple[int, Game | None]:
    """The round (and game) of the offence, checked: the player (or pair) sat in it."""
    round_number = _id(number, "round")
    round_ = event.rounds.filter(number=round_number).first()
    if round_ is None:
        raise DomainError(gettext("This event has no %(sitting)s %(round_number)s.") % {"sitting": sitting_word(event.sitting), "round_number": round_number}, field="round")
    seats = Seat.objects.filter(round=round_)
    seats = seats.filter(entry=entry) if entry is not None else seats.filter(entry__pair=pair)
    seat = seats.select_related("table").first()
    who = entry.player.name if entry is not None else str(pair)
    if seat is None:
        raise DomainError(gettext("%(who)s did not play in %(sitting)s %(round_number)s.") % {"who": who, "sitting": sitting_word(event.sitting), "round_number": round_number},
                          field="round", code="not_seated")
    if table in (None, ""):
        return round_number, None
    table_number = _id(table, "table")
    if seat.table.number != table_number:
        raise DomainError(gettext("%(who)s played at table %(number)s in %(sitting)s %(round_number)s, not at table %(table_number)s.") % {"who": who, "number": seat.table.number, "sitting": sitting_word(event.sitting), "round_number": round_number, "table_number": table_number}, field="table",
                          code="not_at_table")
    return round_number, Game.objects.filter(table=seat.table).first()


@transaction.atomic
def penalty_record(*, event: Event, round_number: object, kind: object, reason: object,
                   points: object = None, entry_id: object = None, pair_id: object = None,
                   table: object = None, actor: Actor | None = None) -> Penalty:
    """A director penalises a player (or a pair) for an offence in a round (at a table): the
    kind, the points (the event's penalty table's when left out) and why. It counts in the
    standings at once (the player's total in an individual event, the pair's in a pair
    event). Refused, naming the field, for a player not seated in that round (or at that
    table), points not from 1 to 1000, an unknown kind, no reason, or an event that is over."""
    locked = event_lock(event)
    results_final_check(locked)
    if locked.status != Event.Status.RUNNING:
        raise DomainError(gettext("Penalties are recorded while the event is running."), field="event")
    if not isinstance(kind, str) or kind not in Penalty.Kind.values:
        raise DomainError(gettext("A penalty's kind is one of: %(values)s.") % {"values": ', '.join(Penalty.Kind.values)},
                          field="kind")
    if points in (None, ""):
        points = penalty_table(locked)["points"][kind]
    number = check_penalty_points(points)
    why = _reason(reason, field="reason", what=gettext("the player is penalised"))
    entry, pair = _target(locked, entry_id=entry_id, pair_id=pair_id)
    round_no, game = _sitting(locked, number=round_number, table=table, entry=entry, pair=pair)
    table_number = game.table.number if game else None
    with corrections.correction_record(
            event=locked, kind=corrections.PENALTY_GIVEN, actor=actor, reason=why,
            round_number=round_no, table_number=table_number) as draft:
        penalty = Penalty.objects.create(
            event=locked, round_number=round_no, game=game, entry=entry,
            pair=pair if locked.is_pairs else None, kind=kind, points=number, reason=why,
            created_by=_user(actor))
        event_log(locked, actor, "penalty_recorded", penalty=penalty.pk, round=round_no,
                  table=table_number, entry=penalty.entry_id,
                  pair=penalty.pair_id, kind=kind, points=number, reason=why)
        draft.was = f"{_penalised(penalty)}: no penalty"
        draft.became = f"{_penalised(penalty)}: {_penalty_words(penalty)}"
        draft.before = {"penalty": None}
        draft.after = {"penalty": _penalty_values(penalty)}
    event_results_changed(locked)
    return penalty


def _penalised(penalty: Penalty) -> str:
    """Whom the penalty counts against: the pair in a pair event, else the player."""
    if penalty.pair is not None:
        return str(penalty.pair)
    return penalty.entry.player.name if penalty.entry is not None else ""


def _penalty_words(penalty: Penalty) -> str:
    return f"−{penalty.points} ({lower_in_english(penalty.get_kind_display())})"


def _penalty_values(penalty: Penalty) -> dict[str, JSONValue]:
    return {"id": penalty.pk, "kind": penalty.kind, "points": penalty.points,
            "entry_id": penalty.entry_id, "pair_id": penalty.pair_id,
            "round": penalty.round_number, "withdrawn": penalty.withdrawn}


@transaction.atomic
def penalty_withdraw(*, penalty: Penalty, reason: object, actor: Actor | None = None) -> Penalty:
    """Withdraw a penalty, saying why: it stops counting (the standings follow) and stays in
    the event's history and the player's record, marked withdrawn."""
    locked_event = event_lock(penalty.event)
    results_final_check(locked_event)
    locked = Penalty.objects.select_for_update().get(pk=penalty.pk)
    if locked.withdrawn:
        raise DomainError(gettext("This penalty was already withdrawn."), field="penalty",
                          code="withdrawn")
    why = _reason(reason, field="reason", what=gettext("the penalty is withdrawn"))
    with corrections.correction_record(
            event=locked_event, kind=corrections.PENALTY_WITHDRAWN, actor=actor, reason=why,
            round_number=locked.round_number,
            table_number=locked.game.table.number if locked.game else None) as draft:
        draft.was = f"{_penalised(locked)}: {_penalty_words(locked)}"
        draft.before = {"penalty": _penalty_values(locked)}
        locked.withdrawn_at = timezone.now()
        locked.withdrawn_by = _user(actor)
        locked.withdrawn_reason = why
        locked.save(update_fields=["withdrawn_at", "withdrawn_by", "withdrawn_reason"])
        event_log(locked_event, actor, "penalty_withdrawn", penalty=locked.pk,
                  points=locked.points, reason=why)
        draft.became = f"{_penalised(locked)}: penalty withdrawn"
        draft.after = {"penalty": _penalty_values(locked)}
    event_results_changed(locked_event)
    return locked


@transaction.atomic
def appeal_record(*, event: Event, contested: object, decision: object, note: object = "",
                  penalty_id: object = None, round_number: object = None, table: object = None,
                  entry_id: object = None, actor: Actor | None = None) -> Appeal:
    """Log an appeal and its decision: what was contested (a penalty, or a game's ruling), the
    decision (upheld, overturned, changed) and who decided. An appeal that overturns a penalty
    withdraws it (the appeal is the reason)."""
    locked = event_lock(event)
    results_final_check(locked)
    what = _reason(contested, field="contested", what=gettext("the ruling is contested"), limit=500)
    if not isinstance(decision, str) or decision not in Appeal.Decision.values:
        raise DomainError(gettext("The decision is one of: %(values)s.") % {"values": ', '.join(Appeal.Decision.values)},
                          field="decision")
    note = (note or "").strip() if isinstance(note, str) else ""
    if len(note) > 500:
        raise DomainError(gettext("Keep the note under 500 characters."), field="note")
    if decision == Appeal.Decision.CHANGED and not note:
        raise DomainError(gettext("Say how the ruling was changed."), field="note")
    penalty = None
    if penalty_id not in (None, ""):
        penalty = Penalty.objects.filter(event=locked, pk=_id(penalty_id, "penalty_id")).first()
        if penalty is None:
            raise DomainError(gettext("No such penalty in this event."), field="penalty_id")
    game = None
    if round_number not in (None, "") or table not in (None, ""):
        if round_number in (None, "") or table in (None, ""):
            raise DomainError(gettext("Name both the round and the table of the game contested."),
                              field="table" if table in (None, "") else "round")
        game = Game.objects.filter(table__round__event=locked,
                                   table__round__number=_id(round_number, "round"),
                                   table__number=_id(table, "table")).first()
        if game is None:
            raise DomainError(gettext("No such table in that round."), field="table")
    entry = None
    if entry_id not in (None, ""):
        entry = Entry.objects.filter(event=locked, pk=_id(entry_id, "entry_id")).first()
        if entry is None:
            raise DomainError(gettext("That player is not in this event."), field="entry_id")
    if penalty is None and game is None:
        raise DomainError(gettext("Name the penalty (penalty_id) or the game (round and table) contested."), field="penalty_id")
    if penalty is not None and game is None:
        game = penalty.game
    appeal = Appeal.objects.create(event=locked, penalty=penalty, game=game, entry=entry,
                                   contested=what, decision=decision, note=note,
                                   decided_by=_user(actor))
    event_log(locked, actor, "appeal_decided", appeal=appeal.pk, penalty=appeal.penalty_id,
              decision=decision, contested=what, note=note)
    if penalty is not None and decision == Appeal.Decision.OVERTURNED and not penalty.withdrawn:
        penalty_withdraw(penalty=penalty, actor=actor,
                         reason=f"Overturned on appeal: {note or what}"[:REASON_MAX])
    return appeal


@transaction.atomic
def penalty_table_set(*, event: Event, preset: object = None,
                      points: Mapping[str, object] | None = None, actor: Actor | None = None) -> PenaltyTable:
    """Set the event's penalty table: a preset (``conduct.presets``) and the director's points
    per kind over it; each refusal names ``preset`` or ``points.<kind>``."""
    locked = event_lock(event)
    results_final_check(locked)
    current = penalty_table(locked)
    preset = preset or current["preset"]
    if not isinstance(preset, str) or preset not in PRESETS:
        raise DomainError(gettext("A preset is one of: %(values)s.") % {"values": ', '.join(PRESETS)}, field="preset")
    given = dict(points or {})
    unknown = sorted(set(given) - set(Penalty.Kind.values))
    if unknown:
        raise DomainError(gettext("%(unknown)s is not a kind of penalty.") % {"unknown": repr(unknown[0])},
                          field=f"points.{unknown[0]}")
    base = dict(PRESETS[preset]["points"])
    chosen = {kind: check_penalty_points(given[kind], field=f"points.{kind}")
              for kind in Penalty.Kind.values if kind in given and given[kind] not in (None, "")}
    table, _ = PenaltyTable.objects.update_or_create(
        event=locked, defaults={"preset": preset,
                                "points": {k: v for k, v in chosen.items() if base[k] != v}})
    event_log(locked, actor, "penalty_table", preset=preset, points=table.points)
    return table


# --- calls for a director ---------------------------------------------------------------------
def _call_open_error(call: DirectorCall) -> DomainError:
    when = timezone.localtime(call.raised_at).strftime("%H:%M")
    if call.taken_at is not None:
        who = call_person(call.taken_by) or "A director"
        return DomainError(gettext("This table already called the director (at %(when)s); %(who)s is on the way.") % {"when": when, "who": who}, field="table", code="call_open")
    return DomainError(gettext("This table already called the director (at %(when)s); the call is still open.") % {"when": when}, field="table", code="call_open")


@transaction.atomic
def director_call_raise(*, table: Table, reason: object = "", words: object = "",
                        actor: Actor | None = None) -> DirectorCall:
    """A table calls the director from its phone, with an optional reason (renege, misdeal,
    dispute, other) and a few words. Refused, naming the field, while the table's round is
    closed or the event over (``round``, ``event``), while the table's last call is still open
    (``table``), and for an unknown reason (``reason``) or too many words (``words``)."""
    locked = (Table.objects.select_for_update(of=("self",)).select_related("round__event")
              .get(pk=table.pk))
    refusal = entry_refusal(locked.round)
    if refusal is not None:
        raise DomainError(gettext("%(message)s Ask a director in person.") % {"message": refusal.message}, field=refusal.field,
                          code=refusal.code)
    if not isinstance(reason, str | type(None)) or (reason or "") not in DirectorCall.Reason.values:
        raise DomainError("The reason is one of: " + ", ".join(
            r for r in DirectorCall.Reason.values if r) + " (or none).", field="reason")
    text = (words or "").strip() if isinstance(words, str | type(None)) else None
    if text is None:
        raise DomainError(gettext("Say it in a few words."), field="words")
    if len(text) > CALL_WORDS_MAX:
        raise DomainError(gettext("Keep it under %(call_words_max)s characters: the director comes and listens.") % {"call_words_max": CALL_WORDS_MAX}, field="words", code="max_length")
    current = DirectorCall.objects.filter(table=locked, closed_at__isnull=True).select_related(
        "taken_by").first()
    if current is not None:
        raise _call_open_error(current)
    event = locked.round.event
    try:
        with transaction.atomic():
            call = DirectorCall.objects.create(event=event, table=locked, reason=reason or "",
                                               words=text)
    except IntegrityError:  # the constraint, should a second writer ever pass the lock
        raise DomainError(gettext("This table already called the director; the call is still open."),
                          field="table", code="call_open") from None
    event_log(event, actor, "director_called", call=call.pk, round=locked.round.number,
              table=locked.number, reason=call.reason, words=text)
    return call


def _locked_call(call: DirectorCall) -> DirectorCall:
    return DirectorCall.objects.select_for_update(of=("self",)).select_related(
        "event", "table__round").get(pk=call.pk)


@transaction.atomic
def director_call_take(*, call: DirectorCall, actor: Actor | None) -> DirectorCall:
    """A director takes a call ("on my way"): the table's phone shows who is coming. Taking it
    again is a no-op for the same director; refused (``call``) once it is closed or when
    another director has taken it."""
    locked = _locked_call(call)
    if locked.closed_at is not None:
        raise DomainError(gettext("This call is closed already: the ruling was given."), field="call",
                          code="closed")
    user = _user(actor)
    if locked.taken_at is not None:
        if locked.taken_by_id is not None and user is not None and locked.taken_by_id == user.pk:
            return locked
        who = call_person(locked.taken_by) or "Another director"
        raise DomainError(gettext("%(who)s has taken this call already.") % {"who": who}, field="call", code="taken")
    locked.taken_by, locked.taken_at = user, timezone.now()
    locked.save(update_fields=["taken_by", "taken_at"])
    event_log(locked.event, actor, "director_call_taken", call=locked.pk,
              round=locked.table.round.number, table=locked.table.number)
    return locked


@transaction.atomic
def director_call_close(*, call: DirectorCall, note: object, actor: Actor | None) -> DirectorCall:
    """A director closes a call with the ruling (``note``, required), which the table's phone
    shows. A call nobody took is taken by the director who closes it. Refused (``call``) when
    it is closed already."""
    locked = _locked_call(call)
    if locked.closed_at is not None:
        raise DomainError(gettext("This call is closed already: the ruling was given."), field="call",
                          code="closed")
    ruling = (note or "").strip() if isinstance(note, str | type(None)) else ""
    if not ruling:
        raise DomainError(gettext("Write the ruling for the table: a call is closed with a note."),
                          field="note", code="required")
    if len(ruling) > CALL_NOTE_MAX:
        raise DomainError(gettext("Keep the ruling under %(call_note_max)s characters.") % {"call_note_max": CALL_NOTE_MAX}, field="note",
                          code="max_length")
    now, user = timezone.now(), _user(actor)
    if locked.taken_at is None:
        locked.taken_by, locked.taken_at = user, now
    locked.closed_by, locked.closed_at, locked.note = user, now, ruling
    locked.save(update_fields=["taken_by", "taken_at", "closed_by", "closed_at", "note"])
    event_log(locked.event, actor, "director_call_closed", call=locked.pk,
              round=locked.table.round.number, table=locked.table.number, note=ruling)
    return locked


@transaction.atomic
def director_call_dismiss(*, call: DirectorCall) -> DirectorCall:
    """The table's phone puts a ruling away (it goes by itself at the next hand). Only a closed
    call's ruling is dismissed (``call``); twice is a no-op."""
    locked = _locked_call(call)
    if locked.closed_at is None:
        raise DomainError(gettext("This call is still open: the director has not ruled yet."),
                          field="call", code="open")
    if locked.dismissed_at is None:
        locked.dismissed_at = timezone.now()
        locked.save(update_fields=["dismissed_at"])
    return locked

"""The bridge between the event's rows and the pure round builders.

``round_create`` reads who is here, the seatings so far and every game's result, hands them to
the builder of the event's format (``formats``), and writes the round it gets
back: tables, seats, byes and an empty game per table, in one transaction under the event's row
lock. Round status changes and seat swaps live here too, since they move the same rows.

Services: keyword-only arguments, one transaction, an ``EventLog`` row for every director action.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import TypedDict

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from clubs.models import Membership
from clubs.permissions import club_role
from common.errors import DomainError, refused
from common.labels import lower_in_english, sitting_title, sitting_word
from common.rulesets import event_ruleset, two_sides
from common.tasks import ROUND_SEAT, task_queue
from common.types import Actor
from conduct.models import Correction
from formats import Finish, Format, Situation, Stage
from pairing.rotation import RotationError, RoundPlan
from ranking.prizes import award_places
from scoring.models import Game, Hand
from scoring.services import (
    game_forfeit,
    level_games_lock_idle,
    level_sides,
    round_games_lock_idle,
)
from standings.models import StandingsSnapshot
from standings.rows import Placement, StandingRow
from standings.selectors import qualifying_order, standings_compute
from standings.services import placements_store, standings_rebuild
from tournaments import corrections
from tournaments.models import Bye, Entry, Event, EventLog, Round, Seat, Table
from tournaments.selectors import (
    event_entrants,
    pairs_in_seed_order,
    results_final_check,
    results_locked_at,
    results_locked_refusal,
)
from tournaments.services import event_lock, event_log, event_results_changed

from . import seating
from .managers import event_history, manager_for
from .selectors import REDRAW_ACTION, event_results, round_draw_seed, system_cut

# Allowed status changes of an event; anything else is refused.
EVENT_TRANSITIONS: dict[str, set[str]] = {
    Event.Status.DRAFT: {Event.Status.RUNNING, Event.Status.CANCELLED},
    Event.Status.RUNNING: {Event.Status.FINISHED, Event.Status.CANCELLED},
    Event.Status.FINISHED: {Event.Status.RUNNING},  # reopened by a director to fix a result
    Event.Status.CANCELLED: set(),
}
REASON_MAX_LENGTH = 500

ROUND_TRANSITIONS: dict[str, set[str]] = {
    Round.Status.SEATED: {Round.Status.PLAYING},
    Round.Status.PLAYING: {Round.Status.CLOSED},
    Round.Status.CLOSED: set(),
}


# --- building a round ----------------------------------------------------------------------------
@transaction.atomic
def round_create(
    *, event: Event, actor: Actor | None = None, number: int | None = None, reseat: bool = False,
    reason: str = "", table_draw: Sequence[Sequence[int]] | None = None,
) -> Round:
    """Seat the next round through the event's format. Idempotent: asking for a round that
    exists returns it unchanged, unless ``reseat`` is set and no hand has been entered in it.

    ``reseat`` is the director's re-draw of the open round, with a ``reason`` (required, logged
    as ``round_redrawn``): the round is built again from the next value of the event's draw
    stream (``draw.selectors.round_draw_seed``), never from a fresh random number, so the new
    draw is as fixed by the seed as the first and anyone can re-run it."""
    if reseat:
        reason = redraw_reason(reason)
    locked = event_lock(event)
    if locked.is_over:
        raise DomainError(gettext("This event is over; no more rounds."), field="event")
    spec = locked.spec
    if number is not None and not reseat:
        existing = locked.rounds.filter(number=number).first()
        if existing is not None:
            return existing
    latest = locked.rounds.order_by("-number").first()
    if reseat:
        if latest is None or latest.status == Round.Status.CLOSED:
            raise DomainError(gettext("There is no open round to reseat."), field="round")
        round_games_lock_idle(latest)  # then no hand is on its way: the check below is final
        if Hand.objects.filter(game__table__round=latest).exists():
            raise DomainError(
                gettext("Hands have been entered in this round; it cannot be reseated."), field="round"
            )
        if table_draw is None:
            table_draw = _logged_table_draw(locked, latest.number)
        draw = EventLog.objects.filter(event=locked, action=REDRAW_ACTION).count() + 1
        event_log(locked, actor, REDRAW_ACTION, round=latest.number, reason=reason, draw=draw)
        latest.delete()
        latest = locked.rounds.order_by("-number").first()
    elif (latest is not None and latest.status != Round.Status.CLOSED and number is None
          and spec.seats_automatically
          and not Hand.objects.filter(game__table__round=latest).exists()):
        # The format seated this round by itself (the automatic advance, or a job that won the
        # race with this request): asking for "the next round" returns it, unchanged.
        return latest
    elif latest is not None and latest.status != Round.Status.CLOSED:
        if round_unfinished(latest) or not Game.objects.filter(table__round=latest).exists():
            raise DomainError(
                gettext("%(sitting_title)s %(number)s is still open; close it before seating the next one.") % {"sitting_title": sitting_title(event.sitting), "number": latest.number},
                field="round",
            )
        # Every game is confirmed: closing is what the automatic advance would have done (it may
        # have been lost with a worker), so seating the next round closes this one first.
        if latest.status == Round.Status.SEATED:
            round_set_status(round_=latest, status=Round.Status.PLAYING, actor=actor)
        latest = round_set_status(round_=latest, status=Round.Status.CLOSED, actor=actor)
    new_number = (latest.number if latest else 0) + 1
    if number is not None and number != new_number:
        raise DomainError(gettext("The next round is round %(new_number)s.") % {"new_number": new_number}, field="number")
    settings = dict(locked.format_settings or {})
    entrants = event_entrants(locked)
    total = spec.rounds_total(locked.rounds_planned, settings, entrants)
    if not spec.open_ended and new_number > total:
        raise DomainError(
            gettext("This event plays %(total)s rounds and all have been seated; finish the event.") % {"total": total},
            field="number", code="no_more_rounds",
        )
    stage = spec.stage_of(new_number, locked.rounds_planned, settings, entrants)
    manager = manager_for(spec)(
        event=locked, spec=spec, number=new_number, stage=stage, history=event_history(locked),
        seed=round_draw_seed(locked, new_number))
    manager.check()
    if spec.needs_winners and latest is not None:
        _settle_ties(locked, latest, settings, actor)
    situation = manager.situation(tuple(event_results(locked)))
    if table_draw is not None:
        situation = _with_table_draw(spec, situation, table_draw)
    try:
        with refused():
            built = spec.build(situation)
    except RotationError as exc:
        raise DomainError.of(exc) from None
    except DomainError as exc:
        raise _table_draw_field(exc) from None
    round_ = _write_round(locked, new_number, built.plan, stage, built.matches)
    after = manager.after_seating(built.plan)
    _name_alternates(locked, list(after.alternates), actor)
    if locked.status == Event.Status.DRAFT:
        locked.status = Event.Status.RUNNING
        locked.save(update_fields=["status"])
    # a club night's season: the partnerships of earlier nights it read (not in the event's
    # archive, so its verifier knows this draw cannot be re-run from the archive alone)
    extra: dict[str, object] = {"season_partnerships": len(situation.season_history)} \
        if situation.season_history else {}
    if situation.table_draw:  # what the seating read beyond the archive's rows
        extra["table_draw"] = [list(pair) for pair in situation.table_draw]
    event_log(locked, actor, "round_seated", round=new_number, tables=len(built.plan.tables),
              byes=len(built.plan.byes), method=built.method, stage=stage, **extra)
    _walkovers(locked, round_, after.walkovers, actor)
    event_results_changed(locked)
    return round_


def _with_table_draw(spec: Format, situation: Situation,
                     table_draw: Sequence[Sequence[int]]) -> Situation:
    """The situation with the tables' own draw, refused where the round needs none."""
    if not spec.meetings(situation):
        raise DomainError(
            gettext("This %(sitting)s is not drawn at the tables: seat it without a table draw.")
            % {"sitting": sitting_word(spec.sitting)}, field="table_draw", code="not_used")
    pairs = []
    for index, pair in enumerate(table_draw):
        values = list(pair)
        if len(values) != 2 or not all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in values):
            raise DomainError(gettext("A table's draw is a stayer and the arrival who partners "
                                      "them: [stayer, arrival]."),
                              field=f"table_draw.{index}", code="bad_pair")
        pairs.append((values[0], values[1]))
    return dataclasses.replace(situation, table_draw=tuple(pairs))


def _table_draw_field(exc: DomainError) -> DomainError:
    """A core's refusal naming ``table_draw[i]`` named as the API names a list's item
    (``table_draw.i``); any other refusal as it is."""
    field = exc.field or ""
    if field.startswith("table_draw[") and field.endswith("]"):
        return DomainError(exc.message, field=f"table_draw.{field[11:-1]}", code=exc.code)
    return exc


def _logged_table_draw(event: Event, number: int) -> list[list[int]] | None:
    """The tables' draw the latest seating of round ``number`` read, if any (a re-draw keeps
    it)."""
    line = (EventLog.objects.filter(event=event, action="round_seated", details__round=number)
            .order_by("-pk").first())
    found = (line.details or {}).get("table_draw") if line is not None else None
    return found if isinstance(found, list) else None


def redraw_reason(reason: object) -> str:
    """The director's reason for a re-draw, required (it is logged with the new draw)."""
    if not isinstance(reason, str) or not reason.strip():
        raise DomainError(gettext("Say why the round is drawn again: the reason is logged with the new draw."), field="reason", code="required")
    if len(reason.strip()) > REASON_MAX_LENGTH:
        raise DomainError(gettext("Keep the reason under %(reason_max_length)s characters.") % {"reason_max_length": REASON_MAX_LENGTH},
                          field="reason", code="max_length")
    return reason.strip()


def _walkovers(event: Event, round_: Round, walkovers: tuple[tuple[int, str, int], ...],
               actor: Actor | None) -> None:
    """The walkovers the pair manager found (``RoundManager.after_seating``): each table's
    withdrawn side forfeits its game at once."""
    if not walkovers:
        return
    names = {pk: str(pair) for pk, pair in
             event.pairs.in_bulk([pair for _, _, pair in walkovers]).items()}
    games = {g.table.number: g for g in
             Game.objects.filter(table__round=round_).select_related("table__round")}
    for number, side, pair in walkovers:
        game_forfeit(game=games[number], side=side, actor=actor,
                     reason=f"{names[pair]} withdrew: a walkover.")


def _name_alternates(event: Event, waiting: list[int], actor: Actor | None) -> None:
    """Players the format left unseated wait as alternates from now on; the log names them."""
    if not waiting:
        return
    Entry.objects.filter(pk__in=waiting).update(alternate=True)
    names = list(Entry.objects.filter(pk__in=waiting).values_list("player__name", flat=True))
    event_log(event, actor, "alternates_named", entries=waiting, names=names)


def _settle_ties(event: Event, round_: Round, settings: Mapping[str, object],
                 actor: Actor | None) -> None:
    """Games of ``round_`` that ended level need a winner before players move: the system cuts
    the cards (seeded by the event, round and table; logged), or the table has entered its cut.
    The level games are locked without waiting (refused, ``busy``, while one is corrected)."""
    level = level_games_lock_idle(round_)  # none is being corrected: the cut below is final
    if not level:
        return
    if settings.get("ties") == "table_cut":
        tables = ", ".join(str(g.table.number) for g in level)
        raise DomainError(
            gettext("The game at table %(tables)s of round %(number)s ended level: enter who won the cut of the cards before the next round is seated.") % {"tables": tables, "number": round_.number},
            field="cut_winner", code="tie",
        )
    ruleset = event_ruleset(event)
    for game in level:
        game.cut_winner = system_cut(event, round_.number, game.table.number,
                                     level_sides(game, ruleset))
        game.save(update_fields=["cut_winner"])
        event_log(event, actor, "tie_cut", round=round_.number, table=game.table.number,
                  winner=game.cut_winner, by="system")


def _settle_final_ties(event: Event, actor: Actor | None) -> None:
    """A bracket's last wave places its pairs by its winners: a game of it that ended level is
    settled when the event finishes, as one of an earlier wave is before the next is seated (the
    system cuts the cards, or the table is asked for its cut: refused naming ``cut_winner``).
    Otherwise a level final left the bracket unfinished and the finish refused."""
    spec, settings = event.spec, dict(event.format_settings or {})
    if not spec.needs_winners or not spec.has_bracket(settings):
        return
    last = event.rounds.order_by("-number").first()
    if last is not None and last.stage == Stage.BRACKET:
        _settle_ties(event, last, settings, actor)


def _write_round(event: Event, number: int, plan: RoundPlan[int], stage: str,
                 matches: tuple[str, ...] = ()) -> Round:
    round_ = Round.objects.create(event=event, number=number, stage=stage)
    codes = matches or ("",) * len(plan.tables)
    tables = Table.objects.bulk_create(
        Table(round=round_, number=n, match=code)
        for n, code in zip(range(1, len(plan.tables) + 1), codes, strict=True)
    )
    if any(t.pk is None for t in tables):  # backends without RETURNING ids
        tables = list(Table.objects.filter(round=round_).order_by("number"))
    Game.objects.bulk_create(Game(table=table) for table in tables)
    seats_for = event_ruleset(event).seats_for
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, position=position, entry_id=entry_id)
        for table, players in zip(tables, plan.tables, strict=True)
        for position, entry_id in zip(seats_for(len(players)), players, strict=True)
    )
    Bye.objects.bulk_create(Bye(round=round_, entry_id=entry_id) for entry_id in plan.byes)
    return round_


def round_seat_request(
    *, event: Event, actor: Actor | None = None, number: int | None = None, reseat: bool = False,
    reason: str = "",
) -> int:
    """Queue the seating of round ``number`` (the director's "Seat round N"; the next round when
    not given); returns N.

    The job is idempotent (it asks for round N by number, and the page's button carries N), so a
    second click or a retried task never makes two rounds. With eager Celery (the embedded
    default) it runs before this returns.
    """
    latest = event.rounds.order_by("-number").first()
    if reseat:
        reason = redraw_reason(reason)  # refused here, before a job is queued
        if latest is None:
            raise DomainError(gettext("There is no open round to reseat."), field="round")
        number = latest.number
    elif number is None:
        number = (latest.number if latest else 0) + 1
    seating.job_queued(event_id=event.pk, number=number)
    # Nothing was written here, so there is no commit to wait for.
    if not task_queue(ROUND_SEAT, args=(event.pk, number, reseat, getattr(actor, "pk", None),
                                        reason), on_commit=False):
        # The broker is away: the director is here, so the round is seated in this request.
        try:
            round_create(event=event, number=number, reseat=reseat, actor=actor, reason=reason)
        finally:
            seating.job_done(event_id=event.pk)
    return number


@transaction.atomic
def round_advance(
    *, event: Event, number: int, actor: Actor | None = None, close_unfinished: bool = False,
    start: bool = True, automatic: bool = False, table_draw: Sequence[Sequence[int]] | None = None,
) -> Round | None:
    """The director's one step between rounds: close round ``number`` and seat the next round,
    started (its clock runs and the tables' phones show the new seats), in one transaction, for
    every format (the format builds the round, ``round_create``). What took five pages (the
    round page, Close, the event page, Seat, Start) is one button.

    Returns the new round, or None when round ``number`` was the last (the plan is played, or
    the bracket is decided): finishing comes next. Asked again for a round already closed
    whose next round exists (a second click, or the automatic advance was first), it returns
    that round and changes nothing. Any refusal (games not finished and confirmed without
    ``close_unfinished``, code ``unfinished``; a level game waiting for its table's cut; too few
    players) leaves everything as it was: the round stays open.

    ``automatic`` is the format's own advance, asked for when the last game of the round is
    confirmed (``draw.tasks.round_confirmed``): it does nothing for a format that does not seat
    itself, and while the director holds the advance it closes the round and seats nothing (the
    director seats the next round by hand). It also does nothing once the event is over (the
    director closed the round and finished the event before the advance of its last
    confirmation ran), where it would otherwise report a refusal on a finished event's page.
    The new round is seated, not started (``start`` is the director's). A round the tables
    draw partners for (``table_draw``, as :func:`round_create` takes it) is never seated by
    the automatic advance: it closes the round and the director enters the tables' draws."""
    locked = event_lock(event)
    spec = locked.spec
    if automatic and (locked.is_over or not spec.seats_automatically
                      or not locked.rounds.filter(number=number).exists()):
        return None
    if locked.is_over:
        raise DomainError(gettext("This event is over; no more rounds."), field="event")
    word = locked.sitting
    round_ = locked.rounds.filter(number=number).first()
    if round_ is None:
        raise DomainError(gettext("There is no %(word)s %(number)s.") % {"word": word, "number": number}, field="number")
    if round_.status == Round.Status.CLOSED:
        following = locked.rounds.filter(number=number + 1).first()
        if following is not None:
            return following
    else:
        later = locked.rounds.filter(number__gt=number).exists()
        if later:  # pragma: no cover - one open round at a time (a named constraint)
            raise DomainError(gettext("%(value)s %(number)s is not the latest.") % {"value": word.capitalize(), "number": number}, field="number")
        if round_.status == Round.Status.SEATED:
            # Never started (every game decided without a hand, or nobody pressed Start).
            round_set_status(round_=round_, status=Round.Status.PLAYING, actor=actor)
        round_set_status(round_=round_, status=Round.Status.CLOSED, actor=actor,
                         close_unfinished=close_unfinished)
    total = spec.rounds_total(locked.rounds_planned, dict(locked.format_settings or {}),
                              event_entrants(locked))
    if number >= total or (automatic and locked.advance_held):
        return None
    try:
        new = round_create(event=locked, actor=actor, number=number + 1, table_draw=table_draw)
    except DomainError as exc:
        if exc.code == "complete":  # a bracket decided before its deepest round
            return None
        if automatic and exc.field == "table_draw" and exc.code == "missing":
            return None  # the tables draw their partners: the director enters the draws
        raise
    if automatic:
        return new
    if start and new.status == Round.Status.SEATED:
        round_set_status(round_=new, status=Round.Status.PLAYING, actor=actor)
    event_log(locked, actor, "round_advanced", closed=number, seated=new.number,
              started=start)
    return new


# --- the event's status -------------------------------------------------------------------------
@transaction.atomic
def event_status_set(*, event: Event, status: str, actor: Actor | None = None, reason: str = "") -> Event:
    """Finish, reopen or cancel the event. Finishing also brings the standings snapshot up to
    date and writes the final places (the format's rule, with the prizes they win) in the same
    transaction; reopening (``reason`` required: the results were final) clears the places until
    the event finishes again. The one service that changes an event's status (the pages, the
    API, the demo and the archive come here).

    Reopening and finishing again are public corrections (``tournaments.corrections``): the
    places before and after, and whose standings moved between the reopen and the new finish.
    Past the club's correction window (``Club.correction_window_minutes`` after the finish)
    only the club's owner reopens (others: code ``locked``); without an ``actor`` (a management
    command) the change is made as asked."""
    previous = event_lock(event).status
    if previous == Event.Status.FINISHED and status == Event.Status.RUNNING:
        with corrections.correction_record(event=event, kind=corrections.EVENT_REOPENED,
                                           actor=actor, reason=reason) as draft:
            places = _places(event)
            locked = _event_status_write(event, status=status, actor=actor, reason=reason)
            placements_store(event_id=locked.pk, placements=[])
            draft.was = "finished: " + _places_words(places)
            draft.became = "running again: the places are cleared until it finishes again"
            draft.before = {"status": previous, "places": places,
                            "standings": draft.standings_before}
            draft.after = {"status": status, "places": []}
        return locked
    reopened = (Correction.objects.filter(event_id=event.pk, kind__in=[
        Correction.Kind.EVENT_REOPENED, Correction.Kind.EVENT_REFINISHED]).first()
                if status == Event.Status.FINISHED else None)
    again = reopened is not None and reopened.kind == Correction.Kind.EVENT_REOPENED
    # a re-finish compares with the event when it was reopened; the first finish records nothing
    with corrections.correction_record(event=event, kind=corrections.EVENT_REFINISHED,
                                       actor=actor, reason=reason, when=again) as draft:
        if status == Event.Status.FINISHED:
            _settle_final_ties(event_lock(event), actor)
        locked = _event_status_write(event, status=status, actor=actor, reason=reason)
        if status == Event.Status.FINISHED:
            snapshot = standings_rebuild(event_id=locked.pk)
            placements_store(event_id=locked.pk, placements=event_placements_compute(
                locked, standings=snapshot.rows))
        elif status == Event.Status.RUNNING:
            placements_store(event_id=locked.pk, placements=[])
        if again and reopened is not None:
            before = reopened.before
            draft.baseline = before.get("standings") or None
            places = _places(event)
            draft.was = "reopened: the places were cleared"
            draft.became = "finished again: " + _places_words(places)
            draft.before = {"status": Event.Status.RUNNING, "places": before.get("places", [])}
            draft.after = {"status": status, "places": places}
    return locked


def _places(event: Event) -> list[dict[str, object]]:
    """The finished event's places as stored (the snapshot's placements), short: place, who."""
    stored = StandingsSnapshot.objects.filter(event_id=event.pk).values_list(
        "placements", flat=True).first() or []
    key = "pair_id" if event.is_pairs else "entry_id"
    return [{"place": p.get("place"), key: p.get(key), "name": p.get("name", "")}
            for p in stored]


def _places_words(places: list[dict[str, object]], *, top: int = 3) -> str:
    if not places:
        return "no places"
    words = ", ".join(f"{p['place']}. {p['name']}" for p in places[:top])
    return words + (", …" if len(places) > top else "")


def _event_status_write(event: Event, *, status: str, actor: Actor | None, reason: str = "") -> Event:
    """The status change itself, under the event's row lock: an allowed transition, every round
    closed before the event finishes, and a log row."""
    locked = event_lock(event)
    if status not in EVENT_TRANSITIONS.get(locked.status, set()):
        raise DomainError(
            gettext("An event that is %(value)s cannot become %(value2)s.") % {"value": lower_in_english(locked.get_status_display()), "value2": lower_in_english(Event.Status(status).label) if status in Event.Status.values else status},
            field="status",
        )
    if status == Event.Status.FINISHED and locked.rounds.exclude(status=Round.Status.CLOSED).exists():
        raise DomainError(gettext("Close the current round before finishing the event."), field="status")
    reason = (reason or "").strip()
    if locked.status == Event.Status.FINISHED and actor is not None:
        locked_at = results_locked_at(locked)
        if locked_at is not None and club_role(user=actor, club=locked.club) \
                != Membership.Role.OWNER:
            raise results_locked_refusal(locked, locked_at, field="status")
    if locked.status == Event.Status.FINISHED and not reason:
        raise DomainError(gettext("Say why the finished event is reopened: its results were final."),
                          field="reason")
    if len(reason) > REASON_MAX_LENGTH:
        raise DomainError(gettext("Keep the reason under %(reason_max_length)s characters.") % {"reason_max_length": REASON_MAX_LENGTH},
                          field="reason")
    previous = locked.status
    locked.status = status
    locked.save(update_fields=["status"])
    event_log(locked, actor, "status", previous=previous, status=status,
              **({"reason": reason} if reason else {}))
    event.status = status
    return locked


def event_finish_preview(event: Event) -> list[Placement]:
    """The places finishing the event would write now (``event_placements_compute`` over the
    standings as they stand), written nowhere: the director's "Finish" page shows them first."""
    rows = None if event.spec.pairs or event.spec.needs_winners \
        else standings_compute(event=event).rows
    return event_placements_compute(event, standings=rows)


def event_placements_compute(
    event: Event, *, standings: list[StandingRow] | None = None
) -> list[Placement]:
    """The final places by the event's format: [{"place", "entry_id", "name", "stage",
    "prize"}] best first (``prize`` is an amount string or null). A format without stages
    places by the standings (``standings``: the snapshot rows, all rounds); alternates are
    not placed."""
    spec = event.spec
    if spec.pairs:
        return _pair_placements(event, spec)
    names = dict(event.entries.values_list("pk", "player__name"))
    alternates = set(event.entries.filter(alternate=True).values_list("pk", flat=True))
    if spec.needs_winners:
        ranking = tuple(qualifying_order(event))
    else:
        rows = standings if standings is not None else standings_rebuild(event_id=event.pk).rows
        ranking = tuple((r["entry_id"], r["rank"] or 0) for r in rows
                        if r["entry_id"] not in alternates)
    ruleset = event_ruleset(event)
    with refused():
        placed = spec.placements(Finish(
            rounds_planned=event.rounds_planned, settings=dict(event.format_settings or {}),
            ranking=ranking, results=tuple(event_results(event)),
            table_sizes=tuple(ruleset.table_sizes), individual=ruleset.individual,
        ))
    won = award_places([(p.place, p.entry_id) for p in placed], event.prizes or {})
    return [{"place": p.place, "entry_id": p.entry_id, "name": names.get(p.entry_id, ""),
             "stage": p.stage, "prize": won.get(p.entry_id)} for p in placed]


def _pair_placements(event: Event, spec: Format) -> list[Placement]:
    """A pair event's places: the pair, its first member's entry (``entry_id``) and its name."""
    pairs = pairs_in_seed_order(event)
    with refused():
        placed = spec.placements(Finish(
            rounds_planned=event.rounds_planned, settings=dict(event.format_settings or {}),
            ranking=tuple(qualifying_order(event)), results=tuple(event_results(event)),
            pairs={pk: members for pk, members, _ in pairs}, **two_sides(event_ruleset(event)),
        ))
    names = {pk: str(pair) for pk, pair in event.pairs.in_bulk().items()}
    first = {pk: members[0] for pk, members, _ in pairs if members}
    won = award_places([(p.place, p.entry_id) for p in placed], event.prizes or {})
    return [{"place": p.place, "pair_id": p.entry_id, "entry_id": first.get(p.entry_id, 0),
             "name": names.get(p.entry_id, ""), "stage": p.stage, "group": p.group,
             "prize": won.get(p.entry_id)}
            for p in placed]


@transaction.atomic
def entry_withdraw(*, entry: Entry, actor: Actor | None = None) -> Entry:
    """A player withdraws (leaves early); results so far stay.

    In a progressive event nobody is ever both withdrawn and seated: a player seated in a game
    being played withdraws when it is over (the next game gives the seat to an alternate); a
    player seated in a game not yet started hands the seat to the first waiting alternate at
    once, and without one the withdrawal is refused. In a pair event the pair withdraws
    together (``tournaments.services.pair_withdraw``). The one service by which a player
    leaves (the pages and the API come here).
    """
    locked = event_lock(entry.event)
    results_final_check(locked)
    handed_over = None
    if locked.spec.alternates and entry.status == Entry.Status.ACTIVE:
        handed_over = _hand_over_seat(locked, entry, actor)
    left = _entry_leave(locked, entry, actor=actor)
    if handed_over is not None:
        # They never played the game whose seat they handed over.
        left.left_after_round = handed_over - 1
        left.save(update_fields=["left_after_round"])
    return left


def _entry_leave(locked: Event, entry: Entry, *, actor: Actor | None) -> Entry:
    """Mark the entry as gone after the last round seated: seated in no further round; results
    so far stay."""
    entry = Entry.objects.select_for_update(of=("self",)).select_related("player").get(
        pk=entry.pk)
    if entry.pair_id is not None:
        raise DomainError(gettext("In a pair event the pair withdraws together (both players)."),
                          field="entry", code="pair_event")
    if entry.status == Entry.Status.LEFT:
        raise DomainError(gettext("%(name)s has already left.") % {"name": entry.player.name}, field="entry")
    entry.status = Entry.Status.LEFT
    entry.left_after_round = locked.rounds.aggregate(n=Max("number"))["n"] or 0
    entry.save(update_fields=["status", "left_after_round"])
    event_log(locked, actor, "left", entry=entry.pk, name=entry.player.name)
    return entry


def _hand_over_seat(event: Event, entry: Entry, actor: Actor | None) -> int | None:
    """Give the entry's seat in the open round to the first waiting alternate; returns the
    round's number, or None when the entry is not seated in an open round."""
    open_round = event.rounds.exclude(status=Round.Status.CLOSED).first()
    seat = Seat.objects.filter(round=open_round, entry=entry).first() if open_round else None
    if seat is None or open_round is None:
        return None
    started = open_round.status != Round.Status.SEATED or Hand.objects.filter(game__table=seat.table).exists()
    if started:
        raise DomainError(
            gettext("%(name)s is playing game %(number)s at table %(number2)s: withdraw them when the game is over (an alternate takes the seat in the next game).") % {"name": entry.player.name, "number": open_round.number, "number2": seat.table.number}, field="entry", code="seated")
    seated = Seat.objects.filter(round=open_round).values_list("entry_id", flat=True)
    alternate = (
        event.entries.filter(status=Entry.Status.ACTIVE, alternate=True)
        .exclude(pk__in=seated).order_by("checked_in_at", "pk").first()
    )
    if alternate is None:
        raise DomainError(
            gettext("%(name)s is seated at table %(number)s for game %(number2)s and no alternate is waiting to take the seat: check in an alternate first.") % {"name": entry.player.name, "number": seat.table.number, "number2": open_round.number}, field="entry", code="no_alternate")
    seat.entry = alternate
    seat.save(update_fields=["entry"])
    event_log(event, actor, "alternate_seated", round=open_round.number,
              table=seat.table.number, position=seat.position, entry=alternate.pk,
              name=alternate.player.name, replaces=entry.pk)
    return open_round.number


# --- round status and seat swaps -----------------------------------------------------------------
class Unfinished(TypedDict):
    """A game of a round not yet finished and confirmed (:func:`round_unfinished`)."""

    table: int
    status: str
    label: str
    hands: int


def round_unfinished(round_: Round) -> list[Unfinished]:
    """The round's games that are still playing or not confirmed, by table."""
    return [
        {"table": number, "status": status, "label": str(Game.Status(status).label),
         "hands": hands}
        for number, status, hands in Game.objects.filter(table__round=round_)
        .exclude(status=Game.Status.CONFIRMED)
        .order_by("table__number").values_list("table__number", "status", "hands_count")
    ]


@transaction.atomic
def round_set_status(
    *, round_: Round, status: str, actor: Actor | None = None, close_unfinished: bool = False
) -> Round:
    """Start or close a round. Closing a round whose games are not all finished and confirmed
    is refused with the list of them (code ``unfinished``) unless the director confirms it
    (``close_unfinished``); the log then records what was left."""
    locked_event = event_lock(round_.event)
    locked = Round.objects.select_for_update().get(pk=round_.pk)
    if status == locked.status:
        # Asked twice (or already done by the automatic advance): nothing to change.
        round_.status = locked.status
        return locked
    if status not in ROUND_TRANSITIONS.get(locked.status, set()):
        raise DomainError(
            gettext("%(sitting_title)s %(number)s is %(value)s; it cannot become %(status)s.") % {"sitting_title": sitting_title(locked.event.sitting), "number": locked.number, "value": lower_in_english(locked.get_status_display()), "status": lower_in_english(Round.Status(status).label) if status in Round.Status.values else status},
            field="status",
        )
    left: list[Unfinished] = []
    if status == Round.Status.CLOSED:
        left = round_unfinished(locked)
        if left and not close_unfinished:
            listed = ", ".join(f"table {g['table']} ({g['label'].lower()})" for g in left)
            raise DomainError(
                gettext("Not every game of round %(number)s is finished and confirmed: %(listed)s. Close the round anyway?") % {"number": locked.number, "listed": listed},
                field="close_unfinished", code="unfinished",
            )
    now = timezone.now()
    locked.status = status
    if status == Round.Status.PLAYING:
        locked.started_at = now
    if status == Round.Status.CLOSED:
        locked.closed_at = now
    locked.save(update_fields=["status", "started_at", "closed_at"])
    event_log(locked_event, actor, f"round_{status}", round=locked.number,
              unfinished=[g["table"] for g in left])
    if status == Round.Status.CLOSED:
        event_results_changed(locked_event)
    round_.status = locked.status
    return locked

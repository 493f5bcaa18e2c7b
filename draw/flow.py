"""What comes next in an event, for the director: the one step the event page and the director
screen offer as their main button.

In playing order: seat round 1 → start it → close it and seat (and start) the next one, or
make the cut when the next round is of a later stage (a semi-final, a final, the bracket) →
close the last round → finish (a page showing the placings first). Every format gets the same
steps; the words come from the format (its word for a sitting, its stages: ``sitting_labels``).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext

from common.labels import sitting_word
from tournaments.models import Event, Round
from tournaments.selectors import event_entrants

from .selectors import event_bracket, rounds_total, sitting_labels, sitting_phrase


@dataclass(frozen=True)
class Step:
    """One button: ``kind`` (``seat``, ``start``, ``advance``, ``finish``), its words, where it
    posts (``method`` ``get`` for the finish page, which asks before writing), the round number
    it carries and the button's id."""

    kind: str
    label: str
    url: str
    number: int = 0
    method: str = "post"
    button_id: str = ""
    note: str = ""


def plan_done(event: Event, rounds: list[Round], total: int) -> bool:
    """Every planned round played, or the bracket decided before its deepest round."""
    if not rounds or any(r.status != Round.Status.CLOSED for r in rounds):
        return False
    if rounds[-1].number >= total:
        return True
    return _bracket_complete(event)


def _bracket_complete(event: Event) -> bool:
    if not event.spec.has_bracket(event.format_settings or {}):
        return False
    # a level game of the last wave is read with the system's cut, made when the director
    # takes the next step: a level final may end the bracket, and Finish comes next
    bracket = event_bracket(event, cut_level=True)
    return bracket is not None and bracket["complete"]


def next_step(event: Event, rounds: list[Round]) -> Step | None:
    """The event's next step for its director, or None once it is over."""
    if event.is_over:
        return None
    total = rounds_total(event)
    labels = sitting_labels(event, upto=(rounds[-1].number + 1) if rounds else 1)
    current = next((r for r in rounds if r.status != Round.Status.CLOSED), None)
    if current is None:
        if plan_done(event, rounds, total):
            return Step("finish", gettext("Finish the event"),
                        reverse("event-finish", args=[event.pk]), method="get",
                        button_id="finish-event",
                        note=gettext("Shows the placings it will write before anything is "
                                     "written."))
        number = (rounds[-1].number + 1) if rounds else 1
        label = labels[number]
        if rounds and rounds[-1].stage != _stage(event, number):
            text = gettext("Make the cut: seat %(sitting)s") % {"sitting": sitting_phrase(label)}
        else:
            text = gettext("Seat %(sitting)s") % {"sitting": sitting_phrase(label)}
        return Step("seat", text, reverse("round-seat", args=[event.pk]), number=number,
                    button_id="seat-round")
    label = labels[current.number]
    if current.status == Round.Status.SEATED:
        return Step("start", gettext("Start %(sitting)s") % {"sitting": sitting_phrase(label)},
                    reverse("round-start", args=[event.pk, current.number]),
                    number=current.number, button_id="start-round",
                    note=gettext("Check the tables first: seats can be swapped until it starts."))
    url = reverse("round-advance", args=[event.pk, current.number])
    last = current.number >= total or _bracket_complete(event)
    if last:
        return Step("advance", gettext("Close %(sitting)s") % {"sitting": sitting_phrase(label)},
                    url, number=current.number, button_id="advance-round",
                    note=gettext("The last one: the placings to finish with come next."))
    following = labels[current.number + 1]
    if current.stage != _stage(event, current.number + 1):
        text = gettext("Close %(sitting)s and make the cut: seat %(next)s")
    else:
        text = gettext("Close %(sitting)s and seat %(next)s")
    text %= {"sitting": sitting_phrase(label), "next": sitting_phrase(following)}
    return Step("advance", text, url, number=current.number, button_id="advance-round",
                note=gettext("The next one is seated and started at once: its tables' phones "
                             "show the new seats."))


def _stage(event: Event, number: int) -> str:
    return event.spec.stage_of(number, event.rounds_planned, dict(event.format_settings or {}),
                               event_entrants(event))


def redraw_warning(event: Event, label: str) -> str:
    """What re-drawing a round not yet played loses, in the words its confirmation asks with:
    the round is drawn again by the same rule from the players here now, from the next value of
    the event's draw stream (so its seats change: never a director's pick among draws, and the
    reason is logged), and everything recorded at its tables goes with the old tables."""
    phrase = sitting_phrase(label)
    sitting = sitting_word(event.sitting)
    if event.spec.forfeits:
        cleared = gettext("Each table's chosen score keeper, any forfeit and its start are "
                          "cleared")
    else:
        cleared = gettext("Each table's chosen score keeper and its start are cleared")
    return gettext(
        "Re-draw %(phrase)s? It is drawn again by the same rule from the players here now, with "
        "the next draw of the event's seed: the seats change, swaps are undone, and the re-draw "
        "and your reason are logged for everyone checking the draw. %(cleared)s; phones that "
        "opened a table by this %(sitting)s's own link open it again (the day's table cards keep "
        "working), and this %(sitting)s's printed cards with names are out of date. No hand has "
        "been entered, so no score is lost.") % {"phrase": phrase, "cleared": cleared,
                                                 "sitting": sitting}

"""What the pages and the API read about an event's format: its settings with their defaults,
its stages and their rounds, the rules in words, the final results with prizes, and every game
so far as the round builders see it (:func:`event_results`), and what anyone may check of the
draws: the commitment to the event's seed, the seed once the event is over, and the seed each
round was drawn with (:func:`draw_disclosure`, :func:`round_draw_seed`)."""

from __future__ import annotations

import dataclasses
import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TypedDict

from django.utils.translation import gettext

import formats
from common.labels import (
    reads_english,
    sitting_title,
    sitting_word,
    translated,
    translated_lines,
)
from common.rulesets import event_ruleset, table_seats, table_sides, table_teams, two_sides
from formats import FormatError, Stage
from formats.pairs import BracketView, bracket_first_round, bracket_view
from pairing.results import TableResult
from ranking.prizes import award_side
from rules_engine import Ruleset
from scoring.models import Game, SeatResult
from standings.compute import walkover_points
from standings.models import StandingsSnapshot
from standings.rows import Placement, StandingRow
from standings.selectors import qualifying_order
from tournaments.models import DRAW_SEED_BITS, Event, EventLog, Round, Seat, Table
from tournaments.selectors import event_entrants, pairs_in_seed_order


class AdvanceDue(TypedDict):
    """An automatic advance owed (:func:`advance_due`)."""

    round: int
    next: int
    since: datetime | None


class GameSide(TypedDict):
    side: str
    name: str
    points: int | None
    won: bool


class StageGame(TypedDict):
    table: int
    status: str
    forfeit: str
    sides: list[GameSide]


class StageRound(TypedDict):
    """A round after qualifying on the results sheet (:func:`stage_games`)."""

    number: int
    label: str
    stage: str
    games: list[StageGame]


class SidePrize(TypedDict):
    """A side prize won (:func:`side_prizes`)."""

    label: str
    amount: str
    score: int | None
    names: list[str]


class FinalResults(TypedDict):
    placements: list[Placement]
    side_prizes: list[SidePrize]
    currency: str


class CardGame(TypedDict):
    status: str
    status_label: str
    hands_count: int
    totals: dict[str, int]
    winner: str
    forfeit: str
    adjusted: dict[str, object] | None


class CardSide(TypedDict):
    side: str
    names: str


class TableCard(TypedDict):
    """A table card of :func:`round_table_cards`."""

    number: int
    token: str
    game: CardGame | None
    seats: list[dict[str, str] | None]  # position, name
    sides: list[CardSide]


def event_results(event: Event) -> list[TableResult]:
    """Every game of the event so far: seats, side totals, winner (what builders that move
    winners and losers, or pair by wins, need). A level game's winner is the side that won the
    cut, once there is one."""
    seats: dict[int, dict[str, int]] = {}
    for table_id, position, entry_id in Seat.objects.filter(round__event=event).values_list(
        "table_id", "position", "entry_id"
    ):
        seats.setdefault(table_id, {})[position] = entry_id
    games = Game.objects.filter(table__round__event=event).values_list(
        "table_id", "table__round__number", "table__number", "totals", "winner", "cut_winner",
        "status", "table__match",
    ).order_by("table__round__number", "table__number")
    return [
        TableResult(
            round_number=round_number, table_number=table_number, seats=seats.get(table_id, {}),
            points={k: int(v) for k, v in (totals or {}).items()},
            winner=winner or cut_winner or None, finished=status != Game.Status.PLAYING,
            match=match,
        )
        for table_id, round_number, table_number, totals, winner, cut_winner, status, match
        in games
    ]


# --- the draw anyone can re-run ------------------------------------------------------------------
# The log's action for a director's re-draw of a round (``draw.services.round_create`` with
# ``reseat``): its details name the round, the reason and the draw it moved to.
REDRAW_ACTION = "round_redrawn"

# How the event's seed makes every draw, in one line (the API's ``algorithm``; the architecture
# document says the same at more length). Change the words only with the code they describe.
DRAW_ALGORITHM = (
    "commitment = sha256(seed as decimal text), the seed shown when the event is finished; "
    f"round n is built from S = seed + d*2**{DRAW_SEED_BITS} (d = re-draws logged for rounds "
    "1..n) by the format's builder, every random choice a Python random.Random seeded from S "
    "(S*1000+n for the round's search or shuffle; S for a first draw, a semi-final draw, "
    "a club night's whist schedule); a level game's cut: "
    "random.Random('cut:{seed}:{round}:{table}').choice(level sides)")


@dataclass(frozen=True)
class DrawDisclosure:
    """What anyone who may see the event may check of its draws: ``commitment`` (the SHA-256
    of the seed's text, shown from the event's creation, before any round is seated), ``seed``
    (None until the event is finished), ``algorithm`` (how the seed makes the draws) and
    ``redraws``, the director's re-draws as (round, draw) in order (the ``d`` the algorithm
    counts; the reasons stay in the director's log)."""

    commitment: str
    seed: str | None
    algorithm: str
    redraws: tuple[tuple[int, int], ...] = ()


def draw_commitment(seed: str) -> str:
    """The commitment to a seed: the hex SHA-256 of its decimal text."""
    return hashlib.sha256(seed.encode()).hexdigest()


def draw_disclosure(event: Event) -> DrawDisclosure:
    """The event's commitment, its seed once it is finished, and its re-draws (one query)."""
    finished = event.status == Event.Status.FINISHED
    redraws = EventLog.objects.filter(event=event, action=REDRAW_ACTION).order_by("pk")
    return DrawDisclosure(
        commitment=draw_commitment(event.seed), seed=event.seed if finished else None,
        algorithm=DRAW_ALGORITHM,
        redraws=tuple((int(details.get("round", 0)), int(details.get("draw", 0)))
                      for details in redraws.values_list("details", flat=True)))


def round_redraws(event: Event, number: int) -> int:
    """How many re-draws the log records for rounds 1..``number`` of the event: the draw of the
    event's stream round ``number`` was built from (0 when nothing was drawn again)."""
    return EventLog.objects.filter(event=event, action=REDRAW_ACTION,
                                   details__round__lte=number).count()


def system_cut(event: Event, round_number: int, table_number: int, level: Sequence[str]) -> str:
    """The system's cut of the cards for a level game (``ties: system_cut``): the side that wins
    it, drawn from the event's seed, the round and the table (``DRAW_ALGORITHM``)."""
    rng = random.Random(f"cut:{event.seed}:{round_number}:{table_number}")
    return rng.choice(list(level))


def system_cut_results(event: Event, results: tuple[TableResult, ...]
                       ) -> tuple[TableResult, ...]:
    """``results`` with each finished level game's winner the system's cut will give it
    (``ties: system_cut``, the default: a cut is made when the next round is seated or the
    event finishes, so what comes next reads it now); under ``table_cut`` as they are (the
    table enters its cut)."""
    if (event.format_settings or {}).get("ties") == "table_cut":
        return results
    ruleset = event_ruleset(event)
    out = []
    for result in results:
        if result.winner or not result.finished or not result.points:
            out.append(result)
            continue
        sides = [side for side in table_sides(ruleset, tuple(result.seats))
                 if side in result.points]
        top = max((result.points[side] for side in sides), default=0)
        level = [side for side in sides if result.points[side] == top]
        out.append(result if len(level) < 2 else dataclasses.replace(
            result, winner=system_cut(event, result.round_number, result.table_number, level)))
    return tuple(out)


def round_draw_seed(event: Event, number: int) -> int:
    """The seed the builders get for round ``number``: the event's seed while no round up to it
    was drawn again, else the next value of the same stream for each re-draw (the draw count
    above the seed's bits, so no re-draw meets another draw's seed)."""
    return event.draw_seed + (round_redraws(event, number) << DRAW_SEED_BITS)


def event_format_settings(event: Event) -> dict[str, object]:
    """The format's settings as they apply (defaults filled in); a format that names its
    planned rounds in its settings (a progressive day's ``qualifying_games``) shows them."""
    spec = event.spec
    try:
        ruleset = event_ruleset(event)
        settings = spec.settings_for(event.format_settings, table_sizes=tuple(ruleset.table_sizes),
                                     individual=ruleset.individual, teams=table_teams(ruleset))
    except FormatError:  # stored before a setting was renamed: show what is stored
        settings = dict(event.format_settings or {})
    if spec.rounds_setting:
        return {spec.rounds_setting: event.rounds_planned, **settings}
    return settings


def rounds_total(event: Event) -> int:
    return event.spec.rounds_total(
        event.rounds_planned, dict(event.format_settings or {}), event_entrants(event))


def advance_due(event: Event) -> AdvanceDue | None:
    """The automatic advance this event is owed and has not had: its latest round has games,
    every one confirmed, the format seats the next round by itself, the advance is not held, and
    the next round is not seated (nor the last round played). ``{"round", "next", "since"}``
    (``since``: the last confirmation), or None. A worker killed at the last confirmation, or a
    broker away then, leaves exactly this state behind; ``draw.tasks.reconcile_advances`` and
    the director screen's "Seat now" both start from it."""
    if event.status != Event.Status.RUNNING or event.advance_held:
        return None
    if not event.spec.seats_automatically:
        return None
    if event.spec.tables_draw(dict(event.format_settings or {})):
        return None  # the director enters the tables' draws of partners and seats
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return None
    games = Game.objects.filter(table__round=latest)
    if not games.exists() or games.exclude(status=Game.Status.CONFIRMED).exists():
        return None
    if latest.number >= rounds_total(event):
        return None
    since = max((at for at in games.values_list("confirmed_at", flat=True) if at), default=None)
    return {"round": latest.number, "next": latest.number + 1, "since": since}


def advances_due() -> list[tuple[int, int]]:
    """Every running event owed an automatic advance, as ``(event_id, round number)``."""
    automatic = formats.names(lambda spec: spec.seats_automatically)
    events = Event.objects.filter(status=Event.Status.RUNNING, advance_held=False,
                                  format__in=automatic)
    owed = ((event.pk, advance_due(event)) for event in events)
    return [(event_id, due["round"]) for event_id, due in owed if due]


class StageRounds(TypedDict):
    """A stage of the event and its planned rounds (:func:`event_stages`)."""

    stage: str
    label: str
    rounds: list[int]


def event_stages(event: Event) -> list[StageRounds]:
    """[{"stage", "label", "rounds": [numbers]}] in playing order (planned rounds)."""
    spec = event.spec
    settings = dict(event.format_settings or {})
    entrants = event_entrants(event)
    total = spec.rounds_total(event.rounds_planned, settings, entrants)
    out: list[StageRounds] = []
    for number in range(1, total + 1):
        stage = spec.stage_of(number, event.rounds_planned, settings, entrants)
        if not out or out[-1]["stage"] != stage:
            out.append({"stage": stage, "label": Round.Stage(stage).label, "rounds": []})
        out[-1]["rounds"].append(number)
    return out


def sitting_labels(event: Event, *, upto: int = 0) -> dict[int, str]:
    """{round number: its name on the event's pages}, from the format's word for a sitting and
    its stages: "Round 3" or "Game 3" while the event has one stage; with stages, the qualifying
    rounds by their number and the later ones by their stage ("Semi-final", "Final game 2",
    "Bracket round 1"). Rounds past the plan (a club night playing on, up to ``upto``) are
    named by their number. In the reader's language."""
    word = sitting_title(event.sitting)
    stages = event_stages(event)
    labels: dict[int, str] = {}
    for stage in stages:
        numbers = stage["rounds"]
        for i, number in enumerate(numbers, start=1):
            if len(stages) == 1 or stage["stage"] == Stage.QUALIFYING:
                labels[number] = f"{word} {number}"
            elif len(numbers) == 1:
                labels[number] = str(stage["label"])
            else:
                # Translators: a later stage's sitting, e.g. "Final game 2", "Bracket round 1".
                labels[number] = gettext("%(stage)s %(sitting)s %(number)s") % {
                    "stage": stage["label"], "sitting": sitting_word(event.sitting),
                    "number": i}
    for number in range(1, upto + 1):
        labels.setdefault(number, f"{word} {number}")
    return labels


def sitting_phrase(label: str) -> str:
    """A sitting's label inside a sentence: "game 3", "the semi-final", "final game 2" (German
    keeps the label as it is: "Partie 3", "Halbfinale")."""
    if not reads_english():
        return label
    words = label.split()
    phrase = label[:1].lower() + label[1:]
    return phrase if words[-1].isdigit() else f"the {phrase}"


def stage_games(event: Event) -> list[StageRound]:
    """The games after qualifying (semi-finals, finals, bracket matches), the last round first,
    for the results sheet: each round's label and, per table, its sides (names and points) and
    the winner. An event of one stage has none, unless that stage is a bracket."""
    qualifying_only = {s["stage"] for s in event_stages(event)} == {Stage.QUALIFYING}
    rounds = list(event.rounds.exclude(stage=Stage.QUALIFYING).order_by("-number"))
    if qualifying_only or not rounds:
        return []
    labels = sitting_labels(event, upto=rounds[0].number)
    ruleset = event_ruleset(event)
    sides = ruleset.sides
    names: dict[int, dict[str, str]] = {}
    pair_names: dict[int, dict[str, str]] = {}
    for table_id, position, name, pair_id in Seat.objects.filter(round__in=rounds).values_list(
            "table_id", "position", "entry__player__name", "entry__pair_id"):
        names.setdefault(table_id, {})[position] = name
        if pair_id is not None:
            pair_names.setdefault(table_id, {})[ruleset.side_of(position)] = str(pair_id)
    pairs = {str(pk): str(pair) for pk, pair in event.pairs.in_bulk().items()} if event.is_pairs \
        else {}
    games = (Game.objects.filter(table__round__in=rounds).select_related("table__round")
             .order_by("-table__round__number", "table__number"))
    out: list[StageRound] = []
    for game in games:
        table = game.table
        if not out or out[-1]["number"] != table.round.number:
            out.append({"number": table.round.number, "label": labels[table.round.number],
                        "stage": table.round.stage, "games": []})
        winner = game.winner or game.cut_winner
        out[-1]["games"].append({
            "table": table.number, "status": game.status, "forfeit": game.forfeit,
            "sides": [{
                "side": side,
                "name": pairs.get(pair_names.get(table.pk, {}).get(side, ""))
                or " & ".join(names.get(table.pk, {}).get(p, "–") for p in ruleset.seats_of(side)),
                "points": (game.totals or {}).get(side),
                "won": winner == side,
            } for side in sides],
        })
    return out


def event_length(event: Event, *, game_target: int | None = None) -> str:
    """How long the event is, as its page's heading says it (``formats.Format.describe_length``:
    the format's rounds, stage by stage); ``game_target`` words a game played to a score."""
    return translated(event.spec.describe_length(
        event.rounds_planned, event.deals_per_round, dict(event.format_settings or {}),
        event_entrants(event), game_target=game_target))


def event_rules(event: Event) -> list[str]:
    """The format's rules in sentences, for its settings as they apply."""
    return translated_lines(event.spec.describe(event_format_settings(event),
                                                event.rounds_planned))


def _placements(rows: list[StandingRow] | None,
                placements: list[Placement] | None) -> list[Placement]:
    if placements:
        return placements
    # Events finished before places were stored: their standings' ranks.
    ordered = sorted(rows or [], key=lambda row: row["rank"] or 0)  # stable: keeps tie order
    return [{"place": row["rank"] or 0, "entry_id": int(row["entry_id"]),
             "name": str(row.get("name", "")), "stage": "qualifying", "prize": None}
            for row in ordered]


def event_placements(event: Event) -> list[Placement]:
    """Final places of a finished event, as written when it finished (empty before).

    Finishing brings the snapshot up to date and places everyone by the format's rule
    (``draw.services.event_placements_compute``)."""
    if event.status != Event.Status.FINISHED:
        return []
    found = StandingsSnapshot.objects.filter(event_id=event.pk).values_list(
        "rows", "placements").first()
    return _placements(*found) if found else []


def events_placements(events: list[Event]) -> dict[int, list[Placement]]:
    """:func:`event_placements` of many events in one query (the event list)."""
    finished = [e.pk for e in events if e.status == Event.Status.FINISHED]
    snapshots = StandingsSnapshot.objects.filter(event_id__in=finished).values_list(
        "event_id", "rows", "placements")
    return {event_id: _placements(rows, placed) for event_id, rows, placed in snapshots}


def final_results(event: Event) -> FinalResults:
    """The final standings of a finished event: places (with prizes) and side prizes.

    ``{"placements": [...], "side_prizes": [{"label", "amount", "names", "score"}],
    "currency": "$"}``; empty lists before the event finishes."""
    if event.status != Event.Status.FINISHED:
        return {"placements": [], "side_prizes": [], "currency": ""}
    placements = event_placements(event)
    prizes = event.prizes or {}
    return {"placements": placements, "side_prizes": side_prizes(event, placements),
            "currency": prizes.get("currency", "")}


def side_prizes(event: Event, placements: list[Placement]) -> list[SidePrize]:
    """The side prizes (high game, ...) the placed entrants win: ``[{"label", "amount",
    "names", "score"}]``; the results sheet shows them, and the finish page before finishing."""
    prizes = event.prizes or {}
    if not prizes.get("side"):
        return []
    eligible = {p["entry_id"] for p in placements}
    names = {p["entry_id"]: p["name"] for p in placements}
    best: dict[int, int] = {}
    for entry_id, points in SeatResult.objects.filter(
            event=event, finished=True, entry_id__in=eligible).values_list("entry_id", "points"):
        best[entry_id] = max(points, best.get(entry_id, points))
    return [{"label": won.label, "amount": won.amount, "score": won.score,
             "names": [names[e] for e in won.entry_ids]}
            for won in award_side(prizes, high_games=best.items())]



def event_bracket(event: Event, *, cut_level: bool = False) -> BracketView | None:
    """The event's bracket as the bracket page and the API draw it (None for an event without
    one): every match of the plan with its pairs once known, its result and its table
    (``formats.pairs.bracket_view`` says what a match carries). ``cut_level``: a level game
    not yet cut read with the system's cut it will get (:func:`system_cut_results`), as the
    director's next step must (a level final may end the bracket)."""
    spec = event.spec
    settings = dict(event.format_settings or {})
    if not spec.pairs or not spec.has_bracket(settings):
        return None
    pairs = pairs_in_seed_order(event)
    members = {pk: m for pk, m, _ in pairs}
    entrants = len(pairs)
    first = 1
    seeds: tuple[int, ...] | None = tuple(members)
    if not spec.bracket:
        first = bracket_first_round(spec, event.rounds_planned, settings, entrants)
        started = event.rounds.filter(stage=Stage.BRACKET).exists()
        # The qualifying order: the format seeds its bracket(s) from the top of it.
        seeds = tuple(p for p, _ in qualifying_order(event)) if started else None
    names = {pk: str(pair) for pk, pair in event.pairs.in_bulk().items()}
    statuses: dict[tuple[int, int], str] = {}
    forfeits: dict[tuple[int, int], tuple[int, str, int]] = {}
    for number, table, table_id, game_status, forfeit, game_id in Game.objects.filter(
            table__round__event=event, table__round__number__gte=first).values_list(
            "table__round__number", "table__number", "table_id", "status", "forfeit", "pk"):
        statuses[(number, table)] = game_status
        if forfeit:
            forfeits[(number, table)] = (table_id, forfeit, game_id)
    try:
        view = bracket_view(
            spec.bracket, settings, entrants=entrants, seeds=seeds, members=members,
            names=names, first_round=first,
            results=(system_cut_results(event, tuple(event_results(event))) if cut_level
                     else event_results(event)),
            statuses=statuses, **two_sides(event_ruleset(event)))
    except FormatError:  # too few pairs yet for the bracket's settings: nothing to draw
        return None
    return _with_walkovers(view, event_ruleset(event), forfeits,
                           walkover_points(event) if forfeits else {})


def _with_walkovers(view: BracketView, ruleset: Ruleset,
                    forfeits: dict[tuple[int, int], tuple[int, str, int]],
                    credited: dict[int, dict[int, int]]) -> BracketView:
    """Each match says whether it was a walkover: ``forfeit``, the pair that forfeited it (None
    for a match played out or not played yet). A walkover's ``points`` are what the standings
    credit (``standings.compute.walkover_points``: the winner a bye's score), not the 0-0 of a
    game with no hand."""
    pair_at = {
        (table_id, position): pair_id for table_id, position, pair_id in Seat.objects.filter(
            table_id__in=[t for t, _, _ in forfeits.values()])
        .values_list("table_id", "position", "entry__pair_id")
    } if forfeits else {}
    # a partnership's pair sits in its first seat
    first_seat = {side: ruleset.seats_of(side)[0] for side in ruleset.sides}
    for part in view["brackets"]:
        for column in part["rounds"]:
            for match in column["matches"]:
                number, table = match["round_number"], match["table"]
                found = forfeits.get((number, table)) if number and table else None
                match["forfeit"] = pair_at.get(
                    (found[0], first_seat.get(found[1], ""))) if found else None
                if found and found[2] in credited:
                    scores = credited[found[2]]
                    match["points"] = [scores.get(side["pair"] or 0, 0) for side in match["sides"]]
    return view


def round_table_cards(*, round_: Round) -> list[TableCard]:
    """A round's tables as its table cards show them (``events/partials/tables.html``), in table
    order: ``number``, ``token``, ``game`` (None before it exists: ``status``,
    ``status_label``, ``hands_count``, ``totals``, ``winner``, ``forfeit``, ``adjusted``) and
    ``seats`` clockwise from North (``position``, ``name``; None for an empty seat) and
    ``sides`` (``side``, ``names``). Plain rows in two
    queries whatever the size: a big day's 128 cards were some 1,800 models."""
    seats: dict[int, dict[str, dict[str, str]]] = {}
    for table_id, position, name in Seat.objects.filter(round=round_).order_by().values_list(
            "table_id", "position", "entry__player__name"):
        seats.setdefault(table_id, {})[position] = {"position": position, "name": name}
    labels = dict(Game.Status.choices)
    ruleset = event_ruleset(round_.event)
    cards: list[TableCard] = []
    for (pk, number, token, game_id, status, hands_count, totals, winner, forfeit,
         adjusted) in Table.objects.filter(round=round_).order_by("number").values_list(
            "pk", "number", "token", "game__pk", "game__status", "game__hands_count",
            "game__totals", "game__winner", "game__forfeit", "game__adjusted"):
        by_position = seats.get(pk, {})
        cards.append({
            "number": number, "token": token,
            "game": None if game_id is None else {
                "status": status, "status_label": str(labels.get(status, status)),
                "hands_count": hands_count, "totals": totals, "winner": winner,
                "forfeit": forfeit, "adjusted": adjusted},
            "seats": [by_position.get(p) for p in table_seats(ruleset, by_position)],
            # each side with its players (a partnership, or one player)
            "sides": [{"side": side, "names": " & ".join(
                by_position.get(p, {}).get("name", "") for p in ruleset.seats_of(side))}
                for side in table_sides(ruleset, table_seats(ruleset, by_position))],
        })
    return cards

"""What a ranking view of an event's standings shows: the event's result, stage by stage.

Vocabulary:

* a *part* is what the viewer asked for: ``result`` (the default: the event's result as it
  stands), ``totals`` (every game summed, whatever its stage) or one stage (``Round.Stage``:
  that stage's rounds only);
* a *board* is one ranked table of a part, with a title: the final results, a semi-final
  table, the final table, the bracket, the qualifying standings; the qualifying board draws the
  *cut line* under the last entry that goes through (or will, as things stand);
* the *result*: once a finished event's places are written (``StandingsSnapshot.placements``,
  by the format's rule), one board in the order of those places, every row's rank its place;
  entries not placed (alternates, players who withdrew) follow without a rank. Before that, the
  boards follow the stages seated so far: the final table, then the semi-final tables, then
  the bracket's places so far, then the qualifying standings. An event of one stage (a club
  night, a Swiss without a playoff) has one board: its standings.

Every row keeps the totals columns of its board (all games for the result, the stage's games
for a stage's board); only the order and the rank column change. Data-driven: the rounds'
``stage``, the snapshot and, for the size of the cut and the bracket's shape, the event's
settings, as the format's spec (``formats``) reads them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from common.rulesets import event_ruleset
from formats.pair_settings import lower_plan
from formats.pairs import LOWER_PREFIX, bracket_plan_of, lower_size
from formats.spec import setting_int, setting_map
from pairing.bracket import BracketError, Plan, bracket_state, elimination_places
from scoring.models import Game
from tournaments.models import Event, Round, Seat
from tournaments.selectors import pairs_in_seed_order

from .compute import qualifying_order, stage_rounds, standings_compute
from .rows import Placement, StandingRow

RESULT = "result"
TOTALS = "totals"
PARTS = (RESULT, TOTALS, *Round.Stage.values)
STAGE_WORDS = {Round.Stage.FINAL: pgettext_lazy("placed by", "the final table"),
               Round.Stage.SEMIFINAL: _("the semi-finals"),
               Round.Stage.BRACKET: _("the bracket"), Round.Stage.QUALIFYING: _("qualifying")}


class BoardExtra(TypedDict, total=False):
    """What a qualifying board with a cut says of it: how many go through, and to what."""

    cut_size: int
    goes_to: str


@dataclass
class Board:
    """One ranked table: ``rows`` best first; ``cut``: how many rows stand above the cut line
    (None: no line); ``note``: one sentence under the title; ``podium``: its first three are
    the event's leaders (the wall colours them)."""

    key: str
    title: str
    rows: list[StandingRow]
    cut: int | None = None
    note: str = ""
    stage: str = ""
    extra: BoardExtra = field(default_factory=lambda: BoardExtra())
    podium: bool = True


def row_key(item: StandingRow | Placement, *, pairs: bool) -> int:
    """What a row or a placement ranks: its pair in a pair event, else its entry."""
    pair_id = item.get("pair_id")
    if pairs and pair_id is not None:
        return int(pair_id)
    return int(item.get("entry_id") or 0)


def _rank_text(row: StandingRow) -> str:
    if row.get("rank") is None:
        return "–"
    return f"{row['rank']}{'=' if row.get('tied') else ''}"


def _blank_row(placed: Placement) -> StandingRow:
    """A row for a placed entry the snapshot does not list (it should always list them); its
    ``rank`` and ``tied`` are the place's (:func:`placed_rows`)."""
    row: StandingRow = {
        "entry_id": int(placed.get("entry_id") or 0), "name": placed.get("name", ""),
        "active": True, "alternate": False, "points": 0, "games": 0, "wins": 0, "byes": 0,
        "bye_points": 0, "hands_declared": 0, "hands_made": 0, "hands_set": 0,
        "highest_game": None, "per_round": {}, "rank": None, "tied": False}
    pair_id = placed.get("pair_id")
    if pair_id is not None:
        row["pair_id"] = int(pair_id)
    return row


def placed_rows(rows: Iterable[StandingRow], placements: list[Placement], *,
                pairs: bool) -> list[StandingRow]:
    """The rows in the order of the final places: each placed row's ``rank`` is its place
    (``tied`` when shared), with the ``stage`` that decided it and its ``prize`` if any; the rows not
    placed follow in their order, with no rank. The rows given are not changed."""
    by_key = {row_key(r, pairs=pairs): r for r in rows}
    shared = Counter(int(p["place"]) for p in placements)
    out: list[StandingRow] = []
    seen: set[int] = set()
    for placed in placements:
        key = row_key(placed, pairs=pairs)
        if key in seen:
            continue
        seen.add(key)
        row = by_key.get(key) or _blank_row(placed)
        place = int(placed["place"])
        line: StandingRow = {**row, "rank": place, "tied": shared[place] > 1,
                             "stage": placed.get("stage") or ""}
        prize = placed.get("prize")
        if prize:
            line["prize"] = str(prize)
        out.append(line)
    out += [{**row, "rank": None, "tied": False} for key, row in by_key.items()
            if key not in seen]
    return out


def _number(value: object) -> int:
    """A stored place's number (0 when absent)."""
    return int(value) if isinstance(value, int | float | str) and value else 0


def place_of(placements: Sequence[Placement | Mapping[str, object]], *, entry_id: int,
             pair_id: int | None = None) -> tuple[int, int, bool] | None:
    """(place, how many places, shared) of an entry (its pair's, in a pair event) in a finished
    event's placements (as stored); None when it is not placed."""
    for placed in placements:
        placed_pair = placed.get("pair_id")
        if pair_id is not None and placed_pair is not None:
            mine = _number(placed_pair) == pair_id
        else:
            mine = _number(placed.get("entry_id")) == entry_id
        if mine:
            place = _number(placed["place"])
            return place, len(placements), sum(
                1 for p in placements if _number(p["place"]) == place) > 1
    return None


def first_placed(placements: Sequence[Placement | Mapping[str, object]],
                 pair_entries: dict[int, list[int]]) -> set[int]:
    """The entries placed first (a pair's two players, through ``pair_entries``)."""
    firsts: set[int] = set()
    for placed in placements:
        if _number(placed.get("place", 0)) != 1:
            continue
        pair_id, entry_id = placed.get("pair_id"), placed.get("entry_id")
        if pair_id is not None:
            firsts.update(pair_entries.get(_number(pair_id), []))
        elif entry_id:
            firsts.add(_number(entry_id))
    return firsts


def _eligible(row: StandingRow) -> bool:
    """Counts for the cut: still playing and not an alternate (``qualifying_order``)."""
    return bool(row.get("active", True)) and not row.get("alternate")


def cut_after(rows: list[StandingRow], size: int) -> int | None:
    """How many rows stand above the cut line when the best ``size`` eligible rows go through
    (None when fewer are eligible: nobody is cut)."""
    through = 0
    for position, row in enumerate(rows, start=1):
        through += _eligible(row)
        if through == size:
            return position if position < len(rows) else None
    return None


def qualifying_board(event: Event, rows: list[StandingRow], *, titled: bool) -> Board:
    """The qualifying standings, with the cut line when the event cuts after qualifying."""
    cut = event.spec.qualifying_cut(dict(event.format_settings or {}))
    if cut is None:
        return Board("qualifying", gettext("Qualifying") if titled else "", rows,
                     stage=Round.Stage.QUALIFYING)
    goes_to = gettext(cut.goes_to)
    return Board("qualifying", gettext("Qualifying"), rows, cut=cut_after(rows, cut.size),
                 note=gettext("The best %(size)s go on to %(goes_to)s: the line is drawn under "
                              "the last of them.") % {"size": cut.size, "goes_to": goes_to},
                 stage=Round.Stage.QUALIFYING,
                 extra=BoardExtra(cut_size=cut.size, goes_to=goes_to))


def _table_boards(event: Event, stage: str, rounds: list[int]) -> list[Board]:
    """One board per table of a stage (the semi-final tables, the final table): the stage's
    standings of the players seated there, ranked within the table."""
    rows = standings_compute(event=event, rounds=rounds).rows
    tables: dict[int, set[int]] = {}
    for number, entry_id in Seat.objects.filter(round__event=event, round__number__in=rounds
                                                ).values_list("table__number", "entry_id"):
        tables.setdefault(number, set()).add(entry_id)
    boards = []
    label = Round.Stage(stage).label
    for number in sorted(tables):
        mine = [r for r in rows if int(r["entry_id"]) in tables[number]
                or set(r.get("entry_ids") or ()) & tables[number]]
        ranks = Counter(r["rank"] or 0 for r in mine)
        table_rows: list[StandingRow] = [
            {**r, "rank": 1 + sum(1 for o in mine if (o["rank"] or 0) < (r["rank"] or 0)),
             "tied": ranks[r["rank"] or 0] > 1} for r in mine]
        title = gettext("Final table") if stage == Round.Stage.FINAL and len(tables) == 1 \
            else gettext("%(stage)s · table %(number)s") % {"stage": label, "number": number}
        boards.append(Board(f"{stage}-{number}", title, table_rows, stage=stage,
                            note=gettext("Points in this stage's games only."),
                            podium=stage == Round.Stage.FINAL))
    return boards


def _bracket_board(event: Event, rows: list[StandingRow], rounds: list[int]) -> Board | None:
    """The bracket's places so far (the upper bracket's, in a split final). None when the
    bracket cannot be read (the standings of its games are shown instead)."""
    pairs = pairs_in_seed_order(event)
    settings = dict(event.format_settings or {})
    plan = bracket_plan_of(event.spec, settings, len(pairs))
    if plan is None:
        return None
    if event.is_bracket:
        seeds = [pk for pk, _, _ in pairs]
    else:
        seeds = [pk for pk, _ in qualifying_order(event)][:plan.entrants]
    results = _match_winners(event, rounds)
    lower = lower_size(settings) and not event.is_bracket
    title = (gettext("Bracket") if event.is_bracket else gettext("Upper bracket") if lower
             else gettext("Playoff"))
    return _places_board(plan, seeds, {c: w for c, w in results.items()
                                       if not c.startswith(LOWER_PREFIX)},
                         rows, key="bracket", title=title, offset=0)


def _lower_board(event: Event, rows: list[StandingRow], rounds: list[int]) -> Board | None:
    """A split final's lower bracket while it is played: its places so far, counted on from
    the cut (9 to 16 after a cut of 8). None without a lower bracket."""
    settings = dict(event.format_settings or {})
    playoff = setting_map(settings, "playoff")
    if event.is_bracket or not lower_size(settings):
        return None
    plan = lower_plan(playoff)
    if plan is None:
        return None
    cut = setting_int(playoff, "cut")
    seeds = [pk for pk, _ in qualifying_order(event)][cut:cut + plan.entrants]
    results = {c[len(LOWER_PREFIX):]: w for c, w in _match_winners(event, rounds).items()
               if c.startswith(LOWER_PREFIX)}
    return _places_board(plan, seeds, results, rows, key="bracket-lower",
                         title=gettext("Lower bracket"), offset=cut)


def _match_winners(event: Event, rounds: list[int]) -> dict[str, int]:
    """The winning pair of every bracket match played (and not being played) in ``rounds``."""
    pair_at: dict[tuple[int, str], int] = {}
    ruleset = event_ruleset(event)
    # a partnership's pair sits in its first seat
    first_seat = {side: ruleset.seats_of(side)[0] for side in ruleset.sides}
    for table_id, position, pair_id in Seat.objects.filter(
            round__event=event, round__number__in=rounds, position__in=first_seat.values()
    ).values_list("table_id", "position", "entry__pair_id"):
        pair_at[(table_id, position)] = pair_id
    results: dict[str, int] = {}
    for table_id, match, winner, cut_winner in Game.objects.filter(
            table__round__event=event, table__round__number__in=rounds
    ).exclude(status=Game.Status.PLAYING).exclude(table__match="").values_list(
            "table_id", "table__match", "winner", "cut_winner"):
        seat = first_seat.get(winner or cut_winner)
        if seat is not None and (table_id, seat) in pair_at:
            results[match] = pair_at[(table_id, seat)]
    return results


def _places_board(plan: Plan, seeds: list[int], results: dict[str, int],
                  rows: list[StandingRow], *, key: str, title: str, offset: int) -> Board | None:
    """One bracket's places so far: the pairs still in it (the places still open), then the
    pairs it has placed, best first (sharing a place when they went out in the same round);
    ``offset`` the places before the bracket's own (a lower bracket's)."""
    try:
        state = bracket_state(plan, seeds, results)
    except BracketError:
        return None
    places = elimination_places(plan)
    consolation = {m.code for m in plan.matches if m.bracket == "consolation"}
    placed: dict[int, int] = {}
    for code, victor in state.winners.items():
        if code in consolation:
            continue
        won, lost = places.get(code, (None, None))
        if lost is not None and code in state.losers:
            placed[state.losers[code]] = offset + lost
        if won is not None:
            placed[victor] = offset + won
    by_pair = {row_key(r, pairs=True): r for r in rows}
    in_play = [s for s in seeds if s not in placed and s in by_pair]
    shared = Counter(placed.values())
    first = offset + 1
    board_rows: list[StandingRow] = [
        {**by_pair[s], "rank": None, "tied": False, "stage": "bracket",
         "rank_text": f"{first}–{offset + len(in_play)}" if len(in_play) > 1 else str(first)}
        for s in in_play]
    board_rows += [{**by_pair[p], "rank": place, "tied": shared[place] > 1, "stage": "bracket"}
                   for p, place in sorted(placed.items(), key=lambda item: item[1])
                   if p in by_pair]
    return Board(key, title, board_rows, stage=Round.Stage.BRACKET,
                 note=gettext("%(pairs)s pairs still in the bracket play for the places "
                              "%(first)s to %(last)s; the others are placed as they went out.")
                 % {"pairs": len(in_play), "first": first, "last": offset + len(in_play)}
                 if len(in_play) > 1 else gettext("The bracket is decided."))


def result_boards(event: Event, rows: list[StandingRow],
                  placements: list[Placement]) -> list[Board]:
    """The event's result as it stands (the default part): the final places once written,
    else a board per stage seated so far, the latest stage first. ``rows``: the snapshot's
    rows (every game)."""
    if event.status == Event.Status.FINISHED and placements:
        decided = {p.get("stage") for p in placements} - {"", None, Round.Stage.QUALIFYING}
        words = [STAGE_WORDS[Round.Stage(s)] for s in (
            Round.Stage.FINAL, Round.Stage.SEMIFINAL, Round.Stage.BRACKET) if s in decided]
        note = gettext("The final places as the event's format decides them: %(order)s. The "
                       "columns are totals over all games.") % {"order": gettext(", then ").join(
                           [*map(str, words), gettext("the qualifying standings")])} if words else ""
        return [Board(RESULT, gettext("Final results"), placed_rows(rows, placements,
                                                           pairs=event.is_pairs), note=note)]
    stages: dict[str, list[int]] = {}
    for number, stage in event.rounds.order_by("number").values_list("number", "stage"):
        stages.setdefault(stage, []).append(number)
    later = [s for s in (Round.Stage.FINAL, Round.Stage.SEMIFINAL, Round.Stage.BRACKET)
             if s in stages]
    if not later:
        return [qualifying_board(event, rows, titled=False)]
    boards: list[Board] = []
    for stage in later:
        if stage == Round.Stage.BRACKET:
            bracket = _bracket_board(event, rows, stages[stage])
            boards += [bracket] if bracket is not None else [Board(
                "bracket", gettext("Bracket"), standings_compute(event=event, rounds=stages[stage]).rows,
                stage=stage)]
            lower = _lower_board(event, rows, stages[stage])
            boards += [lower] if lower is not None else []
        else:
            boards += _table_boards(event, stage, stages[stage])
    if Round.Stage.QUALIFYING in stages:
        qualifying = standings_compute(event=event, rounds=stages[Round.Stage.QUALIFYING]).rows
        boards.append(qualifying_board(event, qualifying, titled=True))
        boards[-1].podium = False  # the leaders are those of the later stages now
    return boards


def part_boards(event: Event, part: str, rows: list[StandingRow],
                placements: list[Placement]) -> list[Board]:
    """The boards of ``part`` (one of :data:`PARTS`)."""
    if part == TOTALS:
        return [Board(TOTALS, gettext("Totals over all games"), rows,
                      note=gettext("Every game's points summed, whatever its stage: not the "
                                   "event's places."))]
    if part == RESULT:
        return result_boards(event, rows, placements)
    computed = standings_compute(event=event, rounds=stage_rounds(event, part)).rows
    if part == Round.Stage.QUALIFYING:
        return [qualifying_board(event, computed, titled=True)]
    return [Board(part, str(Round.Stage(part).label), computed, stage=part,
                  note=gettext("Points in this stage's games only."))]


def flat_rows(boards: list[Board], *, pairs: bool) -> list[StandingRow]:
    """Every board's rows in board order, each entry (pair) once, where it first appears."""
    seen: set[int] = set()
    out = []
    for board in boards:
        for row in board.rows:
            key = row_key(row, pairs=pairs)
            if key in seen:
                continue
            seen.add(key)
            out.append(row)
    return out


def label_rows(boards: list[Board]) -> None:
    """Give every row its ``rank_text`` (what the rank column shows) and its ``board``."""
    for board in boards:
        for row in board.rows:
            row.setdefault("rank_text", _rank_text(row))
            row["board"] = board.key

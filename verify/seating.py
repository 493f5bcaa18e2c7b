"""Drawing every round again from the event's seed: the seats the archive stores are the ones
the format's builder gives.

Each round ``n`` is rebuilt by the format's pure builder (``formats`` spec's ``build``) from a
:class:`formats.Situation` gathered from the archive as the site's round managers gather it
from the rows (``draw.managers``) when the round was seated:

* the **seed**: the event's seed plus ``d * 2**128``, ``d`` the re-draws the log records
  (``round_redrawn``) for rounds 1..n;
* the **history**: the stored seats of rounds 1..n-1 (tables in seat order clockwise from
  North) and their byes, a late arrival counted as sitting out the rounds before it came;
* the **results** of those rounds' games (totals, winner or the cut's winner, decided or not),
  as stored: the games' own check is the recomputation's (:mod:`verify.recompute`);
* **who was here**: players (in check-in order) who had joined by round ``n`` and had not left
  before it was seated (a player who handed their seat to an alternate was still here when it
  was drawn), the alternates named before it, and one waiting alternate per seat left empty;
  in a pair event every pair in seed order, still playing when not withdrawn before it;
* after a cut, the **qualifying order** of those still eligible (the recomputed standings of
  the qualifying rounds);
* where the tables draw partners themselves (a progressive day's ``draw: table``), each
  table's draw as the director entered it: the ``table_draw`` of the round's last
  ``round_seated`` line.

The director's changes after the draw are applied to the rebuilt round as the log records them
(an alternate taking a withdrawn player's seat, a swap of two players or two pairs), then every
table's seats, its bracket match and the byes are compared with the stored ones: each
difference is a discrepancy naming the round, the table and the seat.

A round the archive cannot re-draw with certainty is **not re-checkable** when its rebuild
differs, and counted apart instead of reported: something its builder read was changed after it
was seated (a result of an earlier round corrected, a penalty recorded or withdrawn, the
settings changed), a player came back after leaving or was marked an alternate by hand, or it
read the partnerships of a club night's earlier nights (its ``round_seated`` line says how
many), which the archive does not carry.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from formats import Format, FormatError, Situation, Stage
from pairing.errors import PairingError
from pairing.results import TableResult
from pairing.rotation import RoundPlan
from rules_engine import Ruleset

from .read import Malformed
from .rows import ArchiveData, EntryRow, EventRow, GameRow, JSONObject, PairRow, PlayerRow, TableRow

# One difference found: what, where, the stored value and the recomputed one.
Difference = tuple[str, str, object, object]

DRAW_SEED_BITS = 128  # tournaments.models.DRAW_SEED_BITS
REDRAW = "round_redrawn"
# Log lines that change what a draw reads: written after a round was seated, the settings;
# an earlier round's game decided by the director; after a cut, a penalty.
SETTINGS = ("settings", "deals_per_round")
DECISIONS = ("game_adjusted", "game_forfeited")
PENALTIES = ("penalty_recorded", "penalty_withdrawn")
# Log lines that change who was here in a way the archive's entries do not keep.
WHO_WAS_HERE = ("returned", "alternate_marked", "alternate_cleared")


class Recomputed(Protocol):
    """What a redraw reads of the verifier that ran (:class:`verify.recompute.Verifier`, which
    imports this module): the archive, its ruleset and format, its rows by id or key, and the
    recomputed standings."""

    data: ArchiveData
    ruleset: Ruleset
    spec: Format
    event: EventRow
    entries: dict[int, EntryRow]
    players: dict[int, PlayerRow]
    pairs: dict[int, PairRow]
    tables: dict[tuple[int, int], TableRow]
    seats: dict[tuple[int, int], dict[str, int]]
    games: list[GameRow]

    def seats_of(self, key: tuple[int, int]) -> tuple[str, ...]: ...

    def standings(self, rounds: Collection[int] | None = None
                  ) -> tuple[list[Mapping[str, object]], list[dict[str, str]]]: ...

    def members(self) -> dict[int, list[int]]: ...


@dataclass
class SeatingResult:
    """What re-drawing the rounds found: rounds whose seats match (``checked``), rounds not
    re-checkable with why, and the seats that differ (``differences``: what, where, stored,
    recomputed)."""

    checked: int = 0
    unchecked: list[tuple[int, str]] | None = None
    differences: list[Difference] | None = None


def draw_seed(value: object) -> int | None:
    """The archive's or the command line's seed as a number (decimal text of 0 or more)."""
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return None


class Redraw:
    """Re-draws an archive's rounds (``verifier``: a :class:`verify.recompute.Verifier` that has
    run, for the recomputed standings after a cut)."""

    def __init__(self, verifier: Recomputed, seed: int) -> None:
        self.v = verifier
        self.seed = seed
        data = verifier.data
        self.ruleset = verifier.ruleset
        self.spec = verifier.spec
        self.event = verifier.event
        self.rounds = sorted(data["rounds"], key=lambda r: r["number"])
        self.created = {r["number"]: str(r.get("created_at") or "") for r in self.rounds}
        self.log: list[JSONObject] = [row for row in data["log"] if isinstance(row, dict)]
        self.entries: dict[int, EntryRow] = verifier.entries
        size = max(self.ruleset.table_sizes)
        seats = list(self.ruleset.seats_for(size))
        sides = [str(side) for side in self.ruleset.sides_for(size)]
        self.teams = tuple(tuple(seats.index(seat) for seat in self.ruleset.seats_of(side))
                           for side in sides)
        self.two_sides: dict[str, tuple[str, ...]] = {}
        if len(sides) == 2:
            self.two_sides = {"side_names": tuple(sides), "first_seats": tuple(
                str(self.ruleset.seats_of(side)[0]) for side in sides)}
        self.plans = {r["number"]: self.stored_plan(r["number"]) for r in self.rounds}

    # --- what is stored ---------------------------------------------------------------------
    def table_order(self, key: tuple[int, int]) -> tuple[str, ...]:
        return tuple(self.v.seats_of(key))

    def stored_plan(self, number: int) -> RoundPlan[int]:
        tables = sorted(k for k in self.v.tables if k[0] == number)
        return RoundPlan(
            tables=tuple(tuple(self.v.seats.get(k, {})[p] for p in self.table_order(k)
                               if p in self.v.seats.get(k, {})) for k in tables),
            byes=tuple(sorted(b["entry"] for b in self.v.data["byes"] if b["round"] == number)))

    def history(self, number: int) -> tuple[RoundPlan[int], ...]:
        """Rounds 1..number-1 as ``draw.services.event_history`` gave them when round
        ``number`` was seated: a late arrival checked in by then counted as sitting out the
        rounds before it came (one who came later was not there to count)."""
        out = []
        for n in range(1, number):
            plan = self.plans.get(n, RoundPlan(tables=()))
            byes = set(plan.byes)
            if plan.tables:
                byes |= {pk for pk, e in self.entries.items()
                         if n < (_whole(e.get("joined_round")) or 1) <= number}
            out.append(RoundPlan(tables=plan.tables, byes=tuple(sorted(byes))))
        return tuple(out)

    def results(self, number: int) -> tuple[TableResult, ...]:
        """The games of rounds before ``number`` as ``draw.selectors.event_results`` reads them."""
        out = []
        for game in sorted(self.v.games, key=lambda g: (g["round"], g["table"])):
            key = (game["round"], game["table"])
            if key[0] >= number:
                continue
            totals = game["totals"] if isinstance(game["totals"], dict) else {}
            out.append(TableResult(
                round_number=key[0], table_number=key[1], seats=dict(self.v.seats.get(key, {})),
                points={str(k): _int_of(v) for k, v in totals.items()},
                winner=game["winner"] or game["cut_winner"] or None,
                finished=game["status"] != "playing", match=self.v.tables[key]["match"]))
        return tuple(out)

    # --- the log ----------------------------------------------------------------------------
    def logged(self, action: str) -> list[JSONObject]:
        return [row for row in self.log if row.get("action") == action]

    @staticmethod
    def details(row: Mapping[str, object]) -> JSONObject:
        found = row.get("details")
        return found if isinstance(found, dict) else {}

    def table_draw(self, number: int) -> tuple[tuple[int, int], ...]:
        """The tables' draws of partners round ``number``'s seating read (its last
        ``round_seated`` line's ``table_draw``; () for none). A malformed item is read as it is
        and its builder refuses it: a difference, not a crash."""
        seated = [self.details(row) for row in self.logged("round_seated")
                  if _whole(self.details(row).get("round")) == number]
        found = seated[-1].get("table_draw") if seated else None
        if not isinstance(found, list):
            return ()
        return tuple((_whole(pair[0]), _whole(pair[1])) if isinstance(pair, list)
                     and len(pair) == 2 else (0, 0) for pair in found)

    def redraws(self, number: int) -> int:
        return sum(1 for row in self.logged(REDRAW)
                   if _whole(self.details(row).get("round")) <= number)

    def after_draw(self, number: int, action: str) -> list[JSONObject]:
        """The log's ``action`` lines about round ``number`` written after it was seated."""
        return [self.details(row) for row in self.logged(action)
                if _whole(self.details(row).get("round")) == number
                and str(row.get("created_at") or "") > self.created[number]]

    # --- who was here -----------------------------------------------------------------------
    def present(self, entry: EntryRow, number: int) -> bool:
        """The entry was checked in and had not left when round ``number`` was seated."""
        if (_whole(entry.get("joined_round")) or 1) > number:
            return False
        if entry["status"] == "active" or (entry["left_after_round"] or 0) >= number:
            return True
        return any(_whole(d.get("replaces")) == entry["id"]
                   for d in self.after_draw(number, "alternate_seated"))

    def alternate(self, entry: EntryRow, number: int) -> bool:
        """The entry waited as an alternate when round ``number`` was seated: checked in as one,
        or named one when an earlier round was seated."""
        if not entry["alternate"]:
            return False
        named = [row for row in self.logged("alternates_named")
                 if entry["id"] in _listed(self.details(row).get("entries"))]
        return not named or any(str(row.get("created_at") or "") < self.created[number]
                                for row in named)

    def playing_pairs(self, number: int) -> list[tuple[int, tuple[int, ...], bool]]:
        """``tournaments.selectors.pairs_in_seed_order`` as it read when round ``number`` was
        seated."""
        members = self.v.members()
        order = sorted(self.v.pairs.values(),
                       key=lambda p: (p["seed"] is None, p["seed"] or 0, p["id"]))
        out = []
        for pair in order:
            mine = tuple(members.get(pair["id"], []))
            playing = bool(mine) and all(self.present(self.entries[e], number) for e in mine)
            out.append((pair["id"], mine, playing))
        return out

    def ranking(self, number: int, pairs: Sequence[tuple[int, tuple[int, ...], bool]]
                ) -> tuple[int, ...]:
        """After a cut: the qualifying order of those eligible when round ``number`` was seated
        (``standings.compute.qualifying_order``)."""
        rounds = {r["number"] for r in self.rounds if r["stage"] == Stage.QUALIFYING}
        rows, _ = self.v.standings(rounds)
        if self.spec.pairs:
            last = max(rounds, default=0)
            kept = {e["pair"] for e in self.entries.values() if e["pair"] is not None
                    and (e["left_after_round"] or 0) > last} if last else set()
            playing = {pk for pk, _, now in pairs if now}
            return tuple(_whole(r["pair_id"]) for r in rows
                         if r["pair_id"] in playing or r["pair_id"] in kept)
        eligible = {pk for pk, e in self.entries.items()
                    if self.present(e, number) and not self.alternate(e, number)}
        return tuple(_whole(r["entry_id"]) for r in rows if r["entry_id"] in eligible)

    def reads_ranking(self, stage: str) -> bool:
        """A round of ``stage`` is drawn from the qualifying order (after a cut; a bracket
        from its first round is seeded by the director instead)."""
        return stage != Stage.QUALIFYING and not self.spec.bracket

    def situation(self, number: int, stage: str) -> Situation:
        history = self.history(number)
        extra: dict[str, object] = {}
        if self.spec.pairs:
            pairs = self.playing_pairs(number)
            extra = {"entries": tuple(e for _, members, now in pairs if now for e in members),
                     "pairs": {pk: members for pk, members, _ in pairs},
                     "active_pairs": tuple(pk for pk, _, now in pairs if now)}
            if self.reads_ranking(stage):
                extra["ranking"] = self.ranking(number, pairs)
        else:
            here = sorted((e for e in self.entries.values()
                           if e["pair"] is None and self.present(e, number)),
                          key=lambda e: (str(e.get("checked_in_at") or ""), e["id"]))
            players = [e["id"] for e in here if not self.alternate(e, number)]
            waiting = [e["id"] for e in here if self.alternate(e, number)]
            extra = {"entries": present_players(players, waiting, list(history)),
                     "fixed_tables": {e["id"]: e["fixed_table"] for e in here
                                      if _whole(e.get("fixed_table"))}}
            if self.reads_ranking(stage):
                extra["ranking"] = self.ranking(number, [])
        return Situation(
            number=number, seed=self.seed + (self.redraws(number) << DRAW_SEED_BITS),
            rounds_planned=self.event["rounds_planned"], history=history,
            results=self.results(number), settings=dict(self.event["format_settings"]),
            table_draw=self.table_draw(number), table_sizes=tuple(self.ruleset.table_sizes), individual=self.ruleset.individual,
            teams=self.teams, **self.two_sides, **extra)  # type: ignore[arg-type]

    # --- the director's changes after the draw ----------------------------------------------
    def changed(self, number: int, plan: RoundPlan[int]) -> RoundPlan[int]:
        tables = [list(t) for t in plan.tables]
        byes = list(plan.byes)
        members = self.v.members()

        def move(mapping: Mapping[int, int]) -> None:
            for table in tables:
                table[:] = [mapping.get(e, e) for e in table]
            byes[:] = [mapping.get(e, e) for e in byes]

        for d in self.after_draw(number, "alternate_seated"):
            move({_whole(d.get("replaces")): _whole(d.get("entry"))})
        for action in ("seat_swap", "pair_swap"):
            for d in self.after_draw(number, action):
                a, b = _whole(d.get("a")), _whole(d.get("b"))
                if action == "seat_swap":
                    move({a: b, b: a})
                    continue
                first, second = members.get(a, []), members.get(b, [])
                mapping = dict(zip(_placed(first, tables, byes), _placed(second, tables, byes),
                                   strict=False))
                move({**mapping, **{v: k for k, v in mapping.items()}})
        return RoundPlan(tables=tuple(tuple(t) for t in tables), byes=tuple(sorted(byes)))

    def uncertain(self, number: int) -> str:
        """Why round ``number``'s draw may have read other inputs than the archive's final ones
        ("" when nothing says so)."""
        at = self.created[number]
        seated = [self.details(row) for row in self.logged("round_seated")
                  if _whole(self.details(row).get("round")) == number]
        if seated and _whole(seated[-1].get("season_partnerships")):
            return "it read the partnerships of the season's earlier nights"
        stage = next(r["stage"] for r in self.rounds if r["number"] == number)
        for row in self.log:
            action = row.get("action")
            if action in WHO_WAS_HERE:
                return f"{action} changed who was here"
            if str(row.get("created_at") or "") <= at:
                continue
            if (action in SETTINGS
                    or (action in DECISIONS and _whole(self.details(row).get("round")) < number)
                    or (action in PENALTIES and self.reads_ranking(stage))):
                return f"{action} was logged after it was seated"
        for hand in self.v.data["hands"]:
            if hand["round"] >= number:
                continue
            if str(hand["deleted_at"] or "") > at or any(
                    str(rev.get("created_at") or "") > at for rev in hand["revisions"]):
                return "an earlier round's hand was entered or corrected after it was seated"
        return ""

    # --- the check --------------------------------------------------------------------------
    def run(self) -> SeatingResult:
        result = SeatingResult(unchecked=[], differences=[])
        assert result.unchecked is not None and result.differences is not None
        settings = dict(self.event["format_settings"])
        for round_ in self.rounds:
            number, stage = round_["number"], round_["stage"]
            try:
                built = self.spec.build(self.situation(number, stage))
            except (FormatError, PairingError, KeyError, ValueError, TypeError) as exc:
                why = self.uncertain(number)
                if why:
                    result.unchecked.append((number, why))
                else:
                    result.differences.append(("round seating", f"round {number}",
                                               "seated", f"cannot be drawn: {exc}"))
                continue
            rebuilt = self.changed(number, built.plan)
            found = self.compare(number, rebuilt, built.matches)
            entrants = (len(self.v.pairs) if self.spec.pairs else
                        sum(1 for e in self.entries.values()
                            if e["pair"] is None and self.present(e, number)))
            try:
                expected = str(self.spec.stage_of(number, self.event["rounds_planned"], settings,
                                                  entrants))
            except (FormatError, PairingError, KeyError, ValueError, TypeError):
                expected = stage
            if expected != stage:
                found.append(("round stage", f"round {number}", stage, expected))
            if not found:
                result.checked += 1
                continue
            why = self.uncertain(number)
            if why:
                result.unchecked.append((number, why))
            else:
                result.differences.extend(found)
        return result

    def who(self, entry: int | None) -> str | None:
        if entry is None:
            return None
        row = self.entries.get(entry)
        name = self.v.players[row["player"]]["name"] if row else "?"
        return f"entry {entry} ({name})"

    def compare(self, number: int, rebuilt: RoundPlan[int], matches: tuple[str, ...]
                ) -> list[Difference]:
        found: list[Difference] = []
        stored = sorted(k for k in self.v.tables if k[0] == number)
        if len(stored) != len(rebuilt.tables):
            found.append(("round tables", f"round {number}", len(stored), len(rebuilt.tables)))
        codes = matches or ("",) * len(rebuilt.tables)
        for index in range(max(len(stored), len(rebuilt.tables))):
            key = (number, index + 1)
            at = self.v.seats.get(key, {})
            mine: dict[str, int] = {}
            if index < len(rebuilt.tables):
                players = rebuilt.tables[index]
                mine = dict(zip(self.ruleset.seats_for(len(players)), players, strict=True))
                if key in self.v.tables and self.v.tables[key]["match"] != codes[index]:
                    found.append(("table match", f"round {number}, table {key[1]}",
                                  self.v.tables[key]["match"], codes[index]))
            for seat in sorted(set(at) | set(mine), key=lambda s: (len(s), s)):
                if at.get(seat) != mine.get(seat):
                    found.append(("seat", f"round {number}, table {key[1]}, seat {seat}",
                                  self.who(at.get(seat)), self.who(mine.get(seat))))
        byes = set(self.plans[number].byes)
        for entry in sorted(byes ^ set(rebuilt.byes)):
            found.append(("bye", f"round {number}", self.who(entry) if entry in byes else None,
                          self.who(entry) if entry in rebuilt.byes else None))
        return found


def present_players(players: list[int], alternates: list[int],
                    history: list[RoundPlan[int]]) -> tuple[int, ...]:
    """Who the builder seats (``draw.managers._present``): the players; the alternates who
    already play; and, in check-in order, one waiting alternate per seat left empty since the
    last round that no late arrival fills."""
    if not history:
        return tuple(players)
    seated = set(history[-1].seated())
    playing = [pk for pk in alternates if pk in seated]
    staying = set(players) | set(playing)
    empty = len(seated - staying) - len(set(players) - seated)
    waiting = [pk for pk in alternates if pk not in seated]
    return tuple(players + playing + waiting[:max(empty, 0)])


def _placed(members: Sequence[int], tables: Sequence[Sequence[int]],
            byes: Sequence[int]) -> list[int]:
    """A pair's members in the order of their places (seat order, then byes)."""
    order = [e for table in tables for e in table] + list(byes)
    return sorted(members, key=lambda e: order.index(e) if e in order else len(order))


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _int_of(value: object) -> int:
    """A stored number as ``int`` reads it (TypeError for what is none)."""
    if isinstance(value, (int, float, str)):
        return int(value)
    raise TypeError(f"{type(value).__name__} is not a number")


def _listed(value: object) -> list[object]:
    """A log line's list (entries named), or none."""
    return value if isinstance(value, list) else []


def seed_of(archive_event: Mapping[str, object]) -> int | None:
    """The seed an archive carries, or None; a seed that is not a whole number is malformed."""
    value = archive_event.get("seed")
    if value in (None, ""):
        return None
    seed = draw_seed(value)
    if seed is None:
        raise Malformed("event.seed", "must be the draw seed as decimal digits")
    return seed

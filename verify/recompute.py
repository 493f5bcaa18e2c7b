"""Recomputing an event from its archive, independently of what the archive says it derived.

What is recomputed, and from what (the *inputs*: the entered values of every hand revision,
the seats, the byes, the settings, the director's decisions: forfeits, adjusted results,
penalties, cuts of the cards):

* every **hand revision's** points, result, made and reason, by the rules engine with the
  event's ruleset at the table's seats (``rules_engine.parse_hand``, ``score_hand``);
* every **game's** totals, winner, finish reason, hands counted and status, from its live
  hands in order (``rules_engine.score_game``; a timed game ends after the deals played), or
  from a forfeit (the other side wins, no points) or an adjusted result (the director's points;
  a round's average is the mean of the round's other games played out, when it averaged the
  same games); a **confirmation** names a player of that table, of a decided game;
* the **standings** of every entry or pair (``ranking.standings_rows``,
  ``ranking.pairs.pair_standings``, the functions the site's standings use): points per round,
  **byes** scored by the event's bye policy, walkovers, **penalties** in force taken off,
  ranked by the event's **tie-breaks**; and their columns;
* the final **placements** of a finished event by its format's rule (``formats`` spec's
  ``placements``, from the qualifying order and every game's result) with the prizes they win
  (``ranking.prizes.award_places``).

Each difference is a :class:`Discrepancy`: what differs, where (the path in the archive and the
round, table and hand), the stored value and the recomputed one.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal

import formats
from formats import Finish, FormatError
from pairing.results import TableResult
from ranking import (
    EntryTotals,
    Meeting,
    RankingError,
    RoundScores,
    bye_score,
    standings_rows,
    tie_break_labels,
    tie_breaks_in_force,
)
from ranking.pairs import (
    PAIR_TIE_BREAKS,
    PairBye,
    PairGame,
    PairInfo,
    pair_standings,
    validate_pair_tie_breaks,
)
from ranking.prizes import award_places
from rules_engine import Outcome, RulesError, Ruleset, get_ruleset, parse_hand, score_game
from rules_engine import score_hand as engine_score_hand

from .read import Archive, Malformed
from .rows import GameRow, JSONObject, RevisionRow
from .seating import Redraw, seed_of

NO_BID_OUTCOMES = (str(Outcome.MISDEAL), str(Outcome.TECHNICAL_MISDEAL))
HAND_VALUES = ("bidder", "bid", "trump", "counters", "renege_seat", "tricks", "quadruple_run",
               "partner", "misdeal_seat", "widow_seen", "check_melds")
REASON_MAX = 200
Key = tuple[int, int]  # a table (or its game): (round number, table number)


@dataclass(frozen=True)
class Discrepancy:
    """One stored value the recomputation does not give."""

    what: str
    where: str
    stored: object  # JSON values, or what ``json.dumps`` shows with ``str``
    recomputed: object

    def line(self) -> str:
        return (f"{self.what} at {self.where}: stored {_shown(self.stored)}, "
                f"recomputed {_shown(self.recomputed)}")


@dataclass
class Report:
    hands: int = 0
    games: int = 0
    standings_rows: int = 0
    placements: int = 0
    discrepancies: list[Discrepancy] = field(default_factory=list)
    # The seatings re-drawn from the seed (None: not checked, no seed), and the rounds not
    # re-checkable with why (:mod:`verify.seating`).
    seatings: int | None = None
    not_recheckable: list[tuple[int, str]] = field(default_factory=list)

    def summary(self) -> str:
        seats = ""
        if self.seatings is not None:
            seats = (f"{self.seatings} rounds' seats drawn again from the seed, "
                     f"{len(self.not_recheckable)} not re-checkable, ")
        return (f"verified: {self.hands} hands, {self.games} games, {self.standings_rows} "
                f"standings rows, {seats}{len(self.discrepancies)} discrepancies")


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)


@dataclass
class Derived:
    """A game as recomputed: its totals, winner, reason, whether it is decided, its hands."""

    totals: dict[str, int]
    winner: str
    reason: str
    finished: bool
    hands_count: int
    untouched: bool = False  # never scored: no hand, no totals (no results either)


@dataclass(frozen=True)
class SeatResult:
    entry: int
    round_number: int
    game: int
    side: str
    points: int
    won: bool
    finished: bool
    declared: int
    made: int
    set: int


# --- the table and its hands ---------------------------------------------------------------------
def table_seats(ruleset: Ruleset, positions: Collection[str]) -> tuple[str, ...]:
    """The seats of a table whose players sit at ``positions``, clockwise: the smallest table
    the ruleset seats that holds them all (as the site reads a table)."""
    sizes = sorted(ruleset.table_sizes)
    for size in sizes:
        seats = tuple(ruleset.seats_for(size))
        if set(positions) <= set(seats):
            return seats
    return tuple(ruleset.seats_for(sizes[-1]))


def revision_values(rev: RevisionRow) -> JSONObject:
    """A revision's entered values as the rules engine reads them: only those it carries."""
    values: JSONObject = {"dealer": rev["dealer"], "outcome": rev["outcome"]}
    if rev["outcome"] not in NO_BID_OUTCOMES and rev.get("meld"):
        values["meld"] = rev["meld"]
    for name in HAND_VALUES:
        value = rev.get(name)
        if value not in (None, ""):
            values[name] = value
    return values


def _cleaned(values: Mapping[str, object]) -> JSONObject:
    """Values as the entry checks them: empty ones left out (inner empty ones too)."""
    out: JSONObject = {}
    for key, value in values.items():
        if isinstance(value, Mapping):
            value = {k: v for k, v in value.items() if v not in (None, "")}
            if not value:
                continue
        out[key] = value
    return out


class Verifier:
    """One archive's recomputation (:func:`verify`)."""

    def __init__(self, archive: Archive) -> None:
        self.data = archive.data
        self.event = archive.data["event"]
        self.report = Report()
        try:
            self.ruleset = get_ruleset(self.event["ruleset_preset"],
                                       self.event["ruleset_overrides"])
        except RulesError as exc:
            raise Malformed("event.ruleset_preset", f"not a ruleset: {exc}") from None
        try:
            self.spec = formats.get(self.event["format"])
        except FormatError as exc:
            raise Malformed("event.format", exc.message) from None
        self.entries = {e["id"]: e for e in self.data["entries"]}
        self.players = {p["id"]: p for p in self.data["players"]}
        self.pairs = {p["id"]: p for p in self.data["pairs"]}
        self.tables = {(t["round"], t["number"]): t for t in self.data["tables"]}
        self.seats: dict[Key, dict[str, int]] = {}
        for s in self.data["seats"]:
            self.seats.setdefault((s["round"], s["table"]), {})[s["position"]] = s["entry"]
        self.games = self.data["games"]
        self.game_index = {(g["round"], g["table"]): i for i, g in enumerate(self.games)}
        self.derived: dict[Key, Derived] = {}
        self.results: list[SeatResult] = []

    def differ(self, what: str, where: str, stored: object, recomputed: object) -> None:
        self.report.discrepancies.append(Discrepancy(what, where, stored, recomputed))

    def seats_of(self, key: Key) -> tuple[str, ...]:
        return table_seats(self.ruleset, self.seats.get(key, {}))

    # --- hands ------------------------------------------------------------------------------
    def check_hands(self) -> dict[Key, list[tuple[int, RevisionRow]]]:
        """Every revision scored again; returns each game's live revisions by hand number."""
        live: dict[Key, list[tuple[int, RevisionRow]]] = {}
        for index, hand in enumerate(self.data["hands"]):
            key = (hand["round"], hand["table"])
            seats = self.seats_of(key)
            self.report.hands += 1
            place = f"round {key[0]}, table {key[1]}, hand {hand['number']}"
            for n, rev in enumerate(hand["revisions"]):
                where = f"hands[{index}].revisions[{n}] ({place}, revision {rev['revision']})"
                self.check_revision(rev, seats, where)
            current = [r for r in hand["revisions"] if r["is_live"]]
            if hand["deleted_at"] is None and len(current) == 1:
                live.setdefault(key, []).append((hand["number"], current[0]))
            elif hand["deleted_at"] is None:
                self.differ("live revisions", f"hands[{index}] ({place})", len(current), 1)
        for listed in live.values():
            listed.sort(key=lambda item: item[0])
        return live

    def check_revision(self, rev: RevisionRow, seats: Sequence[str], where: str) -> None:
        try:
            hand = parse_hand(_cleaned(revision_values(rev)), self.ruleset, seats=seats)
            score = engine_score_hand(hand, self.ruleset)
        except RulesError as exc:
            self.differ("hand refused by the rules", where, rev["points"], str(exc))
            return
        reason = "deleted" if rev["is_deletion"] else score.reason[:REASON_MAX]
        for name, stored, recomputed in (
                ("points", rev["points"], dict(score.points)),
                ("result", rev["result"], str(score.result)), ("made", rev["made"], score.made),
                ("reason", rev["reason"], reason)):
            if stored != recomputed:
                self.differ(f"hand {name}", where, stored, recomputed)

    # --- games ------------------------------------------------------------------------------
    def check_games(self, live: Mapping[Key, list[tuple[int, RevisionRow]]]) -> None:
        # played-out games first: a round's average is computed from them
        order = sorted(range(len(self.games)), key=lambda i: _averaged(self.games[i]))
        for index in order:
            game = self.games[index]
            key = (game["round"], game["table"])
            self.report.games += 1
            revisions = [rev for _, rev in live.get(key, [])]
            where = f"games[{index}] (round {key[0]}, table {key[1]})"
            derived = self.derive(game, key, revisions, where)
            self.derived[key] = derived
            self.compare_game(game, key, derived, where)
            if not derived.untouched:
                self.seat_results(key, index, derived, revisions)

    def derive(self, game: GameRow, key: Key, revisions: list[RevisionRow],
               where: str) -> Derived:
        seats = self.seats_of(key)
        sides = tuple(self.ruleset.sides_for(len(seats)))
        count = len(revisions)
        if game["forfeit"]:
            winner = next((side for side in sides if side != game["forfeit"]), "")
            return Derived({side: 0 for side in sides}, winner, "forfeit", True, count)
        adjusted = game["adjusted"]
        if adjusted:
            given = _mapping(adjusted.get("points"))
            if adjusted.get("kind") == "average":
                self.check_average(game, key, given, where)
            totals = {side: _whole(given.get(side, 0)) for side in sides}
            top = max(totals.values(), default=0)
            leaders = [side for side, points in totals.items() if points == top]
            return Derived(totals, leaders[0] if len(leaders) == 1 else "", "adjusted", True,
                           count)
        if not revisions:
            if not game["totals"]:
                return Derived({}, "", "", game["time_called"], 0, untouched=True)
            finished = bool(game["time_called"])
            return Derived({side: 0 for side in sides}, "", "time" if finished else "",
                           finished, 0)
        try:
            hands = [parse_hand(revision_values(r), self.ruleset, seats=seats) for r in revisions]
            result = score_game(hands, self.ruleset, max_deals=self.event["deals_per_round"],
                                seats=seats)
            if result.finished_after is None and game["time_called"]:
                counted = [i for i, h in enumerate(hands) if str(h.outcome) not in NO_BID_OUTCOMES]
                if counted:
                    result = score_game(hands[:counted[-1] + 1], self.ruleset,
                                        max_deals=len(counted), seats=seats)
        except RulesError as exc:
            self.differ("game refused by the rules", where, game["totals"], str(exc))
            return Derived({k: _whole(v) for k, v in game["totals"].items()}, game["winner"], game["finish_reason"],
                           game["status"] != "playing", count)
        winner, reason = result.winner or "", result.reason or ""
        finished = result.finished_after is not None
        if game["time_called"] and (not finished or reason == "deals"):
            finished, reason = True, "time"
        return Derived(dict(result.totals[-1]), winner, reason, finished, count)

    def check_average(self, game: GameRow, key: Key, given: Mapping[str, object],
                      where: str) -> None:
        """A round's average: the mean of the side totals of the round's other games played
        out (rounded half up), when it averaged those same games and none of the round's
        results changed after it was closed (an average stops following the round's games
        once the round is closed)."""
        counted = [d for k, d in self.derived.items() if k[0] == key[0] and k != key
                   and d.finished and d.reason != "forfeit"
                   and not _averaged(self.games[self.game_index[k]])]
        if (game["adjusted"] or {}).get("games") != len(counted) or self.changed_after_close(key[0]):
            return
        points = [v for d in counted for v in d.totals.values()]
        if not points:
            return
        mean = int((Decimal(sum(points)) / Decimal(len(points))).quantize(
            Decimal(1), rounding=ROUND_HALF_UP))
        if any(_whole(v) != mean for v in given.values()):
            self.differ("adjusted average", f"{where}.adjusted.points", dict(given),
                        {side: mean for side in given})

    def changed_after_close(self, number: int) -> bool:
        """A result of round ``number`` changed after the round was closed (a hand entered,
        corrected or deleted, a game adjusted or forfeited, in a reopened event): a round's
        average stopped following its games when it was closed, so it may average the results
        before the change."""
        closed = next((str(r.get("closed_at") or "") for r in self.data["rounds"]
                       if r["number"] == number), "")
        if not closed:
            return False
        for hand in self.data["hands"]:
            if hand["round"] == number and (
                    str(hand["deleted_at"] or "") > closed
                    or any(str(rev.get("created_at") or "") > closed
                           for rev in hand["revisions"])):
                return True
        return any(
            row.get("action") in ("game_adjusted", "game_forfeited")
            and _mapping(row.get("details")).get("round") == number
            and str(row.get("created_at") or "") > closed for row in self.data["log"])

    def compare_game(self, game: GameRow, key: Key, derived: Derived,
                     where: str) -> None:
        if derived.untouched:
            if game["status"] != "playing" and not game["time_called"]:
                self.differ("game status", where, game["status"], "playing")
            return
        for name, stored, recomputed in (
                ("totals", game["totals"], derived.totals), ("winner", game["winner"], derived.winner),
                ("finish_reason", game["finish_reason"], derived.reason),
                ("hands_count", game["hands_count"], derived.hands_count)):
            if stored != recomputed:
                self.differ(f"game {name}", where, stored, recomputed)
        decided = game["status"] != "playing"
        if decided != derived.finished:
            self.differ("game status", where, game["status"],
                        "finished or confirmed" if derived.finished else "playing")
        if game["cut_winner"] and (derived.winner or not derived.finished):
            self.differ("game cut", where, game["cut_winner"], "")
        confirmer = game["confirmed_by"]
        if confirmer is not None:
            if confirmer not in self.seats.get(key, {}).values():
                self.differ("confirmation by a player not at the table", where, confirmer,
                            sorted(self.seats.get(key, {}).values()))
            if game["status"] != "confirmed":
                self.differ("confirmation of a game not confirmed", where, game["status"],
                            "confirmed")

    def seat_results(self, key: Key, index: int, derived: Derived,
                     revisions: Sequence[RevisionRow]) -> None:
        for position, entry in self.seats.get(key, {}).items():
            side = self.ruleset.side_of(position)
            mine = [r for r in revisions if r.get("bidder") == position]
            self.results.append(SeatResult(
                entry=entry, round_number=key[0], game=index, side=side,
                points=derived.totals.get(side, 0),
                won=derived.finished and derived.winner == side, finished=derived.finished,
                declared=len(mine), made=sum(1 for r in mine if r["made"]),
                set=sum(1 for r in mine if r["made"] is False)))

    # --- standings --------------------------------------------------------------------------
    def penalty_sums(self, rounds: Collection[int] | None) -> dict[int, int]:
        sums: dict[int, int] = {}
        for p in self.data["penalties"]:
            who = p["pair"] if self.spec.pairs else p["entry"]
            if p["withdrawn_at"] is None and who is not None and (
                    rounds is None or p["round_number"] in rounds):
                sums[who] = sums.get(who, 0) + p["points"]
        return sums

    def standings(self, rounds: Collection[int] | None = None
                  ) -> tuple[list[Mapping[str, object]], list[dict[str, str]]]:
        """The ranked rows over every round, or over ``rounds``, and the tie-breaks' labels."""
        if self.spec.pairs:
            return self.pair_standings(rounds)
        results = [r for r in self.results if rounds is None or r.round_number in rounds]
        by_entry: dict[int, list[SeatResult]] = {}
        for r in results:
            by_entry.setdefault(r.entry, []).append(r)
        totals = []
        for entry_id, entry in self.entries.items():
            mine = by_entry.get(entry_id, [])
            finished = [r for r in mine if r.finished]
            per_round: dict[int, int] = {}
            for r in mine:
                per_round[r.round_number] = per_round.get(r.round_number, 0) + r.points
            totals.append(EntryTotals(
                entry_id=entry_id, name=self.players[entry["player"]]["name"],
                active=entry["status"] == "active", alternate=entry["alternate"],
                points=sum(r.points for r in mine), games=len(finished),
                wins=sum(1 for r in finished if r.won),
                hands_declared=sum(r.declared for r in mine),
                hands_made=sum(r.made for r in mine), hands_set=sum(r.set for r in mine),
                highest_game=max((r.points for r in finished), default=None),
                per_round=per_round))
        byes = [(b["round"], b["entry"]) for b in self.data["byes"]
                if rounds is None or b["round"] in rounds]
        scores: dict[int, list[int]] = {}
        for r in results:
            if r.finished:
                row = scores.setdefault(r.round_number, [0, 0, 0, 0])
                row[0] += r.points if r.won else 0
                row[1] += int(r.won)
                row[2] += r.points
                row[3] += 1
        meetings = [Meeting(r.game, r.entry, r.side, r.won) for r in results if r.finished]
        try:
            tie_breaks = tie_breaks_in_force(_names(self.event["tie_breaks"]),
                                             partnership=self.event["partnership"])
        except TypeError:
            raise Malformed("event.tie_breaks", "must list tie-break names") from None
        rows = standings_rows(
            totals=totals, byes=byes,
            round_scores={n: RoundScores(*s) for n, s in scores.items()},
            tie_breaks=tie_breaks, bye_scoring=self.event["bye_scoring"],
            bye_points=self.event["bye_points"], meetings_for=lambda ids: meetings,
            penalties=self.penalty_sums(rounds))
        return [row.to_dict() for row in rows], tie_break_labels(tie_breaks)

    def pair_games(self, rounds: Collection[int] | None) -> list[PairGame]:
        sides = tuple(self.ruleset.sides)
        firsts = tuple(self.ruleset.seats_of(side)[0] for side in sides)
        out = []
        for index, game in enumerate(self.games):
            key = (game["round"], game["table"])
            derived = self.derived[key]
            if (rounds is not None and key[0] not in rounds) or not derived.finished:
                continue
            at = self.seats.get(key, {})
            pairs = tuple(self.entries[at[s]]["pair"] if s in at else None for s in firsts)
            if None in pairs:
                continue
            won = dict(zip(sides, pairs, strict=True)).get(derived.winner or game["cut_winner"])
            out.append(PairGame(
                round_number=key[0], game_id=index, pairs=(int(pairs[0] or 0), int(pairs[1] or 0)),
                points=(int(derived.totals.get(sides[0], 0)), int(derived.totals.get(sides[1], 0))),
                winner=won, forfeit=bool(game["forfeit"])))
        scores = _pair_round_scores(out)
        for index, pg in enumerate(out):
            if pg.forfeit and pg.winner is not None:
                won_points = self.bye_points(scores, pg.round_number)
                out[index] = replace(pg, points=(won_points, 0) if pg.winner == pg.pairs[0]
                                     else (0, won_points))
        return out

    def bye_points(self, scores: Mapping[int, RoundScores], number: int) -> int:
        return bye_score(scoring=self.event["bye_scoring"], fixed_points=self.event["bye_points"],
                         scores=scores.get(number, RoundScores()))

    def members(self) -> dict[int, list[int]]:
        found: dict[int, list[int]] = {}
        for entry_id in sorted(self.entries):
            pair = self.entries[entry_id]["pair"]
            if pair is not None:
                found.setdefault(pair, []).append(entry_id)
        return found

    def pair_standings(self, rounds: Collection[int] | None
                       ) -> tuple[list[Mapping[str, object]], list[dict[str, str]]]:
        members = self.members()

        def name(entry_id: int) -> str:
            return str(self.players[self.entries[entry_id]["player"]]["name"])

        infos = [PairInfo(
            pair_id=pk, name=self.pairs[pk]["name"] or " & ".join(
                name(e) for e in members.get(pk, [])),
            players=tuple(name(e) for e in members.get(pk, [])),
            active=all(self.entries[e]["status"] == "active" for e in members.get(pk, [])))
            for pk in sorted(self.pairs)]
        games = self.pair_games(rounds)
        scores = _pair_round_scores(games)
        sitting = sorted({(b["round"], pair) for b in self.data["byes"]
                          if (pair := self.entries[b["entry"]]["pair"]) is not None
                          and (rounds is None or b["round"] in rounds)})
        byes = [PairBye(round_number=n, pair_id=pk, points=self.bye_points(scores, n))
                for n, pk in sitting]
        hands: dict[int, list[int]] = {}
        for r in self.results:
            if rounds is None or r.round_number in rounds:
                sums = hands.setdefault(r.entry, [0, 0, 0])
                sums[0] += r.declared
                sums[1] += r.made
                sums[2] += r.set
        try:
            tie_breaks = validate_pair_tie_breaks(_names(self.event["tie_breaks"]) or None)
        except (RankingError, TypeError):
            raise Malformed("event.tie_breaks", "not a pair event's tie-breaks") from None
        rows: list[Mapping[str, object]] = []
        for row in pair_standings(infos, games, byes, tie_breaks,
                                  penalties=self.penalty_sums(rounds)):
            data = row.to_dict()
            entries = members.get(row.pair_id, [])
            counted = [hands.get(e, [0, 0, 0]) for e in entries]
            data.update({
                "entry_id": entries[0] if entries else 0, "entry_ids": entries,
                "alternate": False, "hands_declared": sum(c[0] for c in counted),
                "hands_made": sum(c[1] for c in counted), "hands_set": sum(c[2] for c in counted),
            })
            data.setdefault("bye_points", 0)
            rows.append(data)
        labels = [{"name": "wins", "label": "Wins (a bye counts as a win)"},
                  {"name": "points", "label": "Total points"}]
        labels += [{"name": n, "label": PAIR_TIE_BREAKS[n]} for n in tie_breaks]
        return rows, labels

    def check_standings(self) -> list[Mapping[str, object]]:
        rows, labels = self.standings()
        stored = self.data["standings"]
        self.report.standings_rows = len(stored["rows"])
        if _canon(stored["tie_breaks"]) != _canon(labels):
            self.differ("standings tie-breaks", "standings.tie_breaks", stored["tie_breaks"],
                        labels)
        key = "pair_id" if self.spec.pairs else "entry_id"
        fresh = {row[key]: (n, _canon_row(row)) for n, row in enumerate(rows)}
        seen = set()
        for n, row in enumerate(stored["rows"]):
            ident = row.get(key)
            who = f"standings.rows[{n}] ({key.removesuffix('_id')} {ident}, {row.get('name')!r})"
            seen.add(ident)
            if ident not in fresh:
                self.differ("standings row", who, ident, None)
                continue
            at, mine = fresh[ident]
            for name in sorted(set(mine) | set(row)):
                if name != "name" and _canon(row.get(name)) != mine.get(name):
                    self.differ(f"standings {name}", who, row.get(name), mine.get(name))
            if at != n:
                self.differ("standings order", who, n + 1, at + 1)
        for ident in fresh:
            if ident not in seen:
                self.differ("standings row missing", "standings.rows", None, ident)
        return rows

    # --- byes and placements ------------------------------------------------------------------
    def check_byes(self) -> None:
        seated = {(k[0], entry) for k, at in self.seats.items() for entry in at.values()}
        for index, bye in enumerate(self.data["byes"]):
            if (bye["round"], bye["entry"]) in seated:
                self.differ("bye of a seated player", f"byes[{index}] (round {bye['round']})",
                            bye["entry"], "seated")

    def event_results(self) -> tuple[TableResult, ...]:
        out = []
        for game in sorted(self.games, key=lambda g: (g["round"], g["table"])):
            key = (game["round"], game["table"])
            derived = self.derived[key]
            out.append(TableResult(
                round_number=key[0], table_number=key[1], seats=dict(self.seats.get(key, {})),
                points={k: int(v) for k, v in derived.totals.items()},
                winner=derived.winner or game["cut_winner"] or None,
                finished=derived.finished and not derived.untouched,
                match=self.tables[key]["match"]))
        return tuple(out)

    def qualifying_order(self) -> tuple[tuple[int, int], ...]:
        rounds = {r["number"] for r in self.data["rounds"] if r["stage"] == "qualifying"}
        rows, _ = self.standings(rounds)
        if self.spec.pairs:
            last = max(rounds, default=0)
            kept = {e["pair"] for e in self.entries.values() if e["pair"] is not None
                    and e["status"] == "left" and (e["left_after_round"] or 0) > last} \
                if last else set()
            return tuple((_whole(r["pair_id"]), _whole(r["rank"])) for r in rows
                         if r["active"] or r["pair_id"] in kept)
        eligible = {k for k, e in self.entries.items()
                    if e["status"] == "active" and not e["alternate"]}
        return tuple((_whole(r["entry_id"]), _whole(r["rank"])) for r in rows
                     if r["entry_id"] in eligible)

    def placements(self, rows: Sequence[Mapping[str, object]]) -> list[JSONObject]:
        settings = dict(self.event["format_settings"])
        prizes = self.event["prizes"]
        if self.spec.pairs:
            members = self.members()
            seeded = sorted(self.pairs.values(),
                            key=lambda p: (p["seed"] is None, p["seed"] or 0, p["id"]))
            size = max(self.ruleset.table_sizes)
            sides = tuple(str(s) for s in self.ruleset.sides_for(size))
            finish = Finish(
                rounds_planned=self.event["rounds_planned"], settings=settings,
                ranking=self.qualifying_order(), results=self.event_results(),
                pairs={p["id"]: tuple(members.get(p["id"], [])) for p in seeded})
            if len(sides) == 2:  # a game of two sides: each side's name and its first seat
                finish = replace(finish, side_names=sides, first_seats=tuple(
                    str(self.ruleset.seats_of(s)[0]) for s in sides))
            placed = self.spec.placements(finish)
            won = award_places([(p.place, p.entry_id) for p in placed], prizes)
            return [{"place": p.place, "pair_id": p.entry_id,
                     "entry_id": (members.get(p.entry_id) or [0])[0],
                     "name": self.pairs[p.entry_id]["name"] if p.entry_id in self.pairs else "",
                     "stage": p.stage, "group": p.group, "prize": won.get(p.entry_id)}
                    for p in placed]
        if self.spec.needs_winners:
            ranking = self.qualifying_order()
        else:
            ranking = tuple((_whole(r["entry_id"]), _whole(r["rank"])) for r in rows
                            if not self.entries[_whole(r["entry_id"])]["alternate"])
        placed = self.spec.placements(Finish(
            rounds_planned=self.event["rounds_planned"], settings=settings, ranking=ranking,
            results=self.event_results(), table_sizes=tuple(self.ruleset.table_sizes),
            individual=self.ruleset.individual))
        won = award_places([(p.place, p.entry_id) for p in placed], prizes)
        return [{"place": p.place, "entry_id": p.entry_id,
                 "name": self.players[self.entries[p.entry_id]["player"]]["name"],
                 "stage": p.stage, "prize": won.get(p.entry_id)} for p in placed]

    def check_placements(self, rows: Sequence[Mapping[str, object]]) -> None:
        stored = self.data["standings"]["placements"]
        self.report.placements = len(stored)
        status = self.event["status"]
        if status in ("draft", "running"):
            if stored:
                self.differ("placements of an event not finished", "standings.placements",
                            len(stored), 0)
            return
        if status != "finished":
            return
        try:
            fresh = self.placements(rows)
        except (FormatError, RankingError, KeyError, ValueError) as exc:
            self.differ("placements", "standings.placements", len(stored),
                        f"cannot be computed: {exc}")
            return
        for n in range(max(len(stored), len(fresh))):
            mine = fresh[n] if n < len(fresh) else None
            theirs = stored[n] if n < len(stored) else None
            where = f"standings.placements[{n}]"
            if mine is None or theirs is None:
                self.differ("placement", where, theirs, mine)
                continue
            for name, value in mine.items():
                if name == "name" and not value:
                    continue  # an unnamed pair's name is its number where it was played
                if theirs.get(name) != value:
                    self.differ(f"placement {name}", f"{where} ({theirs.get('name')!r})",
                                theirs.get(name), value)

    def run(self, seed: int | None = None) -> Report:
        live = self.check_hands()
        self.check_games(live)
        self.check_byes()
        rows = self.check_standings()
        self.check_placements(rows)
        if seed is not None:
            self.check_seatings(seed)
        return self.report

    def check_seatings(self, seed: int) -> None:
        """Every round drawn again from ``seed`` (:mod:`verify.seating`)."""
        found = Redraw(self, seed).run()
        self.report.seatings = found.checked
        self.report.not_recheckable = list(found.unchecked or [])
        for what, where, stored, recomputed in found.differences or []:
            self.differ(what, where, stored, recomputed)


def _averaged(game: GameRow) -> bool:
    adjusted = game["adjusted"]
    return adjusted is not None and adjusted.get("kind") == "average"


def _whole(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _canon(value: object) -> object:
    """A JSON value with every object's keys sorted (what the archive writes)."""
    if isinstance(value, dict):
        return {str(k): _canon(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_canon(v) for v in value]
    return value


def _canon_row(row: Mapping[str, object]) -> JSONObject:
    """A standings row as :func:`_canon` gives it."""
    return {str(k): _canon(v) for k, v in sorted(row.items(), key=lambda kv: str(kv[0]))}


def _mapping(value: object) -> Mapping[str, object]:
    """A stored JSON object (an adjusted result's points, a log line's details), or an empty
    one for anything else."""
    return value if isinstance(value, dict) else {}


def _names(value: list[object]) -> list[str]:
    """The event's tie-breaks as names: every item must be one."""
    names = [name for name in value if isinstance(name, str)]
    if len(names) != len(value):
        raise TypeError("a tie-break is named by text")
    return names


def _pair_round_scores(games: Sequence[PairGame]) -> dict[int, RoundScores]:
    """Per round, what a pair's bye is scored from: the games played out (not walkovers)."""
    sums: dict[int, list[int]] = {}
    for game in games:
        if game.forfeit:
            continue
        row = sums.setdefault(game.round_number, [0, 0, 0, 0])
        if game.winner is not None:
            row[0] += game.points[game.pairs.index(game.winner)]
            row[1] += 1
        row[2] += sum(game.points)
        row[3] += 2
    return {number: RoundScores(*row) for number, row in sums.items()}


def verify(archive: Archive, *, seed: int | None = None, seats: bool = True) -> Report:
    """Recompute the archive's event; the report lists every discrepancy found.

    The seatings are drawn again (:mod:`verify.seating`) from ``seed`` when given (a seed the
    archive states otherwise is a discrepancy), else from the archive's own seed once the event
    is finished (the seed is public then); ``seats=False`` leaves them out."""
    verifier = Verifier(archive)
    stated = seed_of(archive.data["event"])
    if seed is not None and stated is not None and stated != seed:
        verifier.differ("draw seed", "event.seed", str(stated), str(seed))
    if seed is None and archive.data["event"]["status"] == "finished":
        seed = stated
    return verifier.run(seed if seats else None)

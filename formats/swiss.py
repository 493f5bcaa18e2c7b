"""Swiss (pairs): pairs with the same number of wins meet, never twice; a bye counts as a win
(``pairing.swiss`` finds the pairing); an optional playoff bracket after the rounds."""

from __future__ import annotations

from collections.abc import Mapping

from pairing.club_night import BuiltRound
from pairing.round_robin import PairRound
from pairing.swiss import Standing, SwissError, swiss_round
from rules_engine.i18n import gettext_noop, ngettext

from .pairs import pair_format, pair_of, pair_results, previous_finished, seat
from .spec import FormatError, Situation


def _standings(s: Situation) -> list[Standing]:
    """What the Swiss pairing needs per pair still playing: wins (a bye counts as one),
    points, opponents met and byes."""
    pair_by_entry = pair_of(s.pairs)
    wins = dict.fromkeys(s.pairs, 0)
    points = dict.fromkeys(s.pairs, 0)
    met: dict[int, set[int]] = {p: set() for p in s.pairs}
    for r in pair_results(s):
        for i, pair in enumerate(r.pairs):
            points[pair] += r.points[i]
            met[pair].add(r.pairs[1 - i])
        if r.winner is not None:
            wins[r.winner] += 1
    byes = dict.fromkeys(s.pairs, 0)
    for past in s.history:
        for pair in {pair_by_entry[e] for e in past.byes if e in pair_by_entry}:
            byes[pair] += 1
            wins[pair] += 1
    return [Standing(pair=p, wins=wins[p], points=points[p], opponents=frozenset(met[p]),
                     byes=byes[p]) for p in s.active_pairs]


def _build(s: Situation) -> BuiltRound:
    if s.number > 1:
        previous_finished(s)
    try:
        found = swiss_round(_standings(s), seed=s.seed * 1000 + s.number,
                            shuffle_first=s.settings.get("first_draw") == "random")
    except SwissError as exc:
        raise FormatError(exc.message, field=exc.field, code=exc.code) from None
    q = found.quality
    built = PairRound(matches=found.matches, byes=(found.bye,) if found.bye is not None else ())
    return seat(s, built, f"swiss: {q.rematches} rematches, spread {q.spread}")


def _describe(settings: Mapping[str, object], rounds_planned: int) -> list[str]:
    return [ngettext("Swiss, %(rounds)s round: pairs with the same number of wins meet, never "
                     "twice; with an odd number of pairs one has a bye each round (never twice "
                     "while another has had none), which counts as a win.",
                     "Swiss, %(rounds)s rounds: pairs with the same number of wins meet, never "
                     "twice; with an odd number of pairs one has a bye each round (never twice "
                     "while another has had none), which counts as a win.",
                     rounds_planned, rounds=rounds_planned)]


FORMAT = pair_format(
    name="swiss", label=gettext_noop("Swiss (pairs)"), qualify=_build, describe=_describe,
    summary=gettext_noop("Swiss: fixed pairs with the same number of wins meet, never twice; optionally a "
            "playoff bracket for the top pairs."),
    keys=frozenset({"first_draw"}), shortcut=gettext_noop("New pairs event"),
)

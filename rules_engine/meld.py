"""Meld counting and the check that an entered meld total can exist at all.

Counting per class, on a count array of the hand:

* class I, runs and marriages: runs = fewest copies among A T K Q J of trump; royal marriages =
  trump K–Q pairs left after the runs; marriages per other suit = min(K, Q); dix = nines of trump.
* class II, pinochles: min(Q♠, J♦).
* class III, arounds: per rank A K Q J, the fewest copies across the four suits.

A card serves at most once per class, so the counts above are the whole rule: "roundhouse" or
"run with an extra marriage" are names for sums, not extra points.

An entered meld total is checked against the totals some hand could show
(:func:`check_meld_total`): one player's meld against one hand, a side's against the sums of two.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ._meld_data import PRECOMPUTED
from .cards import (
    ACE,
    DIAMONDS,
    JACK,
    KING,
    NINE,
    NUM_CARD_TYPES,
    QUEEN,
    SPADES,
    SUITS,
    TEN,
    Deck,
    check_copies,
    counts_of,
    parse_cards,
    parse_suit,
)
from .errors import RulesError
from .inputs import named, shown
from .rulesets import Ruleset

__all__ = [
    "Meld",
    "MeldResult",
    "count_meld",
    "meld_total",
    "check_meld_total",
    "achievable_hand_totals",
    "max_side_meld",
]

_AROUND_RANKS = (ACE, KING, QUEEN, JACK)
_AROUND_NAMES = ("aces", "kings", "queens", "jacks")
_QS = SPADES * 6 + QUEEN
_JD = DIAMONDS * 6 + JACK


@dataclass(frozen=True, slots=True)
class Meld:
    """One line of a meld breakdown: ``times`` is single (1) to quadruple (4)."""

    name: str
    cls: str
    times: int
    points: int
    suit: str | None = None
    wins_game: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "name": self.name,
            "class": self.cls,
            "times": self.times,
            "points": self.points,
        }
        if self.suit is not None:
            d["suit"] = self.suit
        if self.wins_game:
            d["wins_game"] = True
        return d


@dataclass(frozen=True, slots=True)
class MeldResult:
    total: int
    melds: tuple[Meld, ...]
    wins_game: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"total": self.total, "melds": [m.to_dict() for m in self.melds]}
        if self.wins_game:
            d["wins_game"] = True
        return d


def meld_total(counts: Sequence[int], trump: int, rs: Ruleset) -> int:
    """Total meld of one hand given as a 24-slot count array; the fast path (no breakdown)."""
    b = trump * 6
    k = counts[b + KING]
    q = counts[b + QUEEN]
    runs = min(counts[b], counts[b + TEN], k, q, counts[b + JACK])
    total = rs.run_t[runs] + rs.royal_t[min(k, q) - runs] + rs.dix * counts[b + NINE]
    mt = rs.marriage_t
    for s in (2, 8, 14, 20):
        if s != b + 2:
            total += mt[min(counts[s], counts[s + 1])]
    total += rs.pinochle_t[min(counts[_QS], counts[_JD])]
    a = rs.around_t
    total += a[0][min(counts[0], counts[6], counts[12], counts[18])]
    total += a[1][min(counts[2], counts[8], counts[14], counts[20])]
    total += a[2][min(counts[3], counts[9], counts[15], counts[21])]
    total += a[3][min(counts[4], counts[10], counts[16], counts[22])]
    return total


_VALID_CARDS = {
    Deck.SINGLE: frozenset(range(NUM_CARD_TYPES)),
    Deck.DOUBLE: frozenset(c for c in range(NUM_CARD_TYPES) if c % 6 != NINE),
}


def _counts(cards: Iterable[int | str], rs: Ruleset) -> list[int]:
    """Count array of a hand, validating tokens, deck membership and copies."""
    items = cards if isinstance(cards, list | tuple) else list(cards)
    # size first: a huge list is refused before any card in it is read
    limit = rs.hand_size + rs.widow
    if len(items) > limit:
        raise RulesError.single(
            "cards",
            "too_many_cards",
            f"{len(items):,} cards, but a hand holds at most {limit} here",
        )
    valid = _VALID_CARDS[rs.deck]
    c = [0] * NUM_CARD_TYPES
    try:
        for x in items:
            c[x] += 1
        ok = all(x in valid for x in items) and not any(isinstance(x, bool) for x in items)
    except (TypeError, IndexError):
        ok = False
    if not ok:
        c = counts_of(parse_cards(items, rs.deck))
    if max(c) > rs.copies:
        check_copies([i for i, n in enumerate(c) for _ in range(n)], rs.deck)
    return c


def _meld_table(rs: Ruleset) -> dict[tuple[str, int, int], Meld]:
    """Every possible breakdown line for this ruleset, built once and shared (they are frozen)."""

    def build() -> dict[tuple[str, int, int], Meld]:
        t: dict[tuple[str, int, int], Meld] = {}
        for n in range(1, rs.copies + 1):
            for s in range(4):
                suit = SUITS[s]
                wins = rs.quadruple_run_wins and n == 4
                t["run", s, n] = Meld("run", "I", n, rs.run_t[n], suit, wins)
                t["royal_marriage", s, n] = Meld("royal_marriage", "I", n, rs.royal_t[n], suit)
                t["marriage", s, n] = Meld("marriage", "I", n, rs.marriage_t[n], suit)
                t["dix", s, n] = Meld("dix", "I", n, rs.dix * n, suit)
            t["pinochle", 0, n] = Meld("pinochle", "II", n, rs.pinochle_t[n])
            for i, name in enumerate(_AROUND_NAMES):
                t[name, 0, n] = Meld(name, "III", n, rs.around_t[i][n])
        return t

    table: dict[tuple[str, int, int], Meld] = rs.memo("meld_table", build)
    return table


def count_meld(cards: Iterable[int | str], trump: int | str, ruleset: Ruleset) -> MeldResult:
    """Total and breakdown of one player's meld. ``cards`` are indices or tokens like ``"QS"``."""
    rs = ruleset
    t = trump if isinstance(trump, int) and not isinstance(trump, bool) else parse_suit(trump)
    if not 0 <= t < 4:
        raise RulesError.single("trump", "bad_suit", f"{shown(trump)} is not a suit")
    c = _counts(cards, rs)
    table = _meld_table(rs)
    melds: list[Meld] = []
    b = t * 6
    k, q = c[b + KING], c[b + QUEEN]
    runs = min(c[b], c[b + TEN], k, q, c[b + JACK])
    if runs:
        melds.append(table["run", t, runs])
    royal = min(k, q) - runs
    if royal:
        melds.append(table["royal_marriage", t, royal])
    for s in range(4):
        if s != t:
            m = min(c[s * 6 + KING], c[s * 6 + QUEEN])
            if m:
                melds.append(table["marriage", s, m])
    nines = c[b + NINE]
    if nines and rs.dix:
        melds.append(table["dix", t, nines])
    p = min(c[_QS], c[_JD])
    if p:
        melds.append(table["pinochle", 0, p])
    for i, r in enumerate(_AROUND_RANKS):
        n = min(c[r], c[6 + r], c[12 + r], c[18 + r])
        if n:
            melds.append(table[_AROUND_NAMES[i], 0, n])
    total = 0
    for line in melds:
        total += line.points
    wins = runs == 4 and rs.quadruple_run_wins
    return MeldResult(total, tuple(melds), wins)


# --- which totals can exist --------------------------------------------------------------------


def _hand_totals_for_trump(rs: Ruleset, trump: int, max_cards: int) -> int:
    """Bitset of every meld total one hand of ``max_cards`` cards can show with this trump.

    Exact up to the assumption that a hand using fewer cards can be padded with cards that add
    nothing (non-trump tens and nines, spare aces), which always holds for real hand sizes.
    Enumerates the around levels L, then runs a small DP over the suits that keeps the cards used,
    whether some suit holds exactly L kings / L queens (so the around level is exact) and the
    count of the first pinochle card seen.
    """
    copies = rs.copies
    rng = range(copies + 1)
    single = rs.deck.copies == 2
    run_t, royal_t, mar_t, pin_t = rs.run_t, rs.royal_t, rs.marriage_t, rs.pinochle_t
    a_t = rs.around_t
    others = [s for s in range(4) if s != trump]
    # pinochle suits first (after trump) so the pending count is resolved early
    others.sort(key=lambda s: (s not in (SPADES, DIAMONDS), s))
    result = 0
    for la in rng:
        for lk in rng:
            for lq in rng:
                for lj in rng:
                    base_cards = 4 * (la + lk + lq + lj)
                    if base_cards > max_cards:
                        continue
                    around = a_t[0][la] + a_t[1][lk] + a_t[2][lq] + a_t[3][lj]
                    # state: (cards, tight bits K=1 Q=2, pending pinochle card count or -1)
                    states: dict[tuple[int, int, int], int] = {}
                    pend_trump = trump in (SPADES, DIAMONDS)
                    for r in rng:
                        a_n = max(r, la)
                        j_lo = max(r, lj)
                        j_choices = range(j_lo, copies + 1) if trump == DIAMONDS else (j_lo,)
                        nine_choices = rng if single else (0,)
                        for kk in range(max(r, lk), copies + 1):
                            for qq in range(max(r, lq), copies + 1):
                                value = run_t[r] + royal_t[min(kk, qq) - r]
                                tight = (kk == lk) | ((qq == lq) << 1)
                                for jj in j_choices:
                                    for nn in nine_choices:
                                        cards = a_n + r + kk + qq + jj + nn
                                        if cards > max_cards:
                                            continue
                                        pend = -1
                                        if pend_trump:
                                            pend = qq if trump == SPADES else jj
                                        key = (cards, tight, pend)
                                        v = value + rs.dix * nn
                                        states[key] = states.get(key, 0) | (1 << v)
                    for s in others:
                        new: dict[tuple[int, int, int], int] = {}
                        is_pin = s in (SPADES, DIAMONDS)
                        for (cards, tight, pend), bits in states.items():
                            for kk in range(lk, copies + 1):
                                for qq in range(lq, copies + 1):
                                    jr = range(lj, copies + 1) if s == DIAMONDS else (lj,)
                                    for jj in jr:
                                        c2 = cards + la + kk + qq + jj
                                        if c2 > max_cards:
                                            continue
                                        v = mar_t[min(kk, qq)]
                                        p2 = pend
                                        if is_pin:
                                            mine = qq if s == SPADES else jj
                                            if pend < 0:
                                                p2 = mine
                                            else:
                                                v += pin_t[min(pend, mine)]
                                                p2 = -2
                                        t2 = tight | (kk == lk) | ((qq == lq) << 1)
                                        key = (c2, t2, p2)
                                        new[key] = new.get(key, 0) | (bits << v)
                        states = new
                    for (_cards, tight, _pend), bits in states.items():
                        if tight == 3:  # the around levels are exact (cards were checked per suit)
                            result |= bits << around
    return result


def achievable_hand_totals(rs: Ruleset, max_cards: int | None = None) -> int:
    """Bitset (bit n set ⇔ total n possible) of one hand's meld, over every trump suit."""
    cards = rs.hand_size + rs.widow if max_cards is None else max_cards
    key = _table_key(rs, cards)
    hit = _TOTALS_CACHE.get(key)
    if hit is not None:
        return hit
    pre = PRECOMPUTED.get(key)
    if pre is not None:
        bits = int(pre, 16)
    else:
        bits = 0
        # hearts and clubs behave alike; spades and diamonds carry the pinochle cards
        for trump in (SPADES, 1, DIAMONDS):
            bits |= _hand_totals_for_trump(rs, trump, cards)
    _TOTALS_CACHE[key] = bits
    return bits


def _table_key(rs: Ruleset, cards: int) -> str:
    """Everything the achievable-totals table depends on, as a stable string."""
    parts = [
        cards,
        rs.copies,
        rs.run_t,
        rs.royal_t,
        rs.marriage_t,
        rs.pinochle_t,
        rs.around_t,
        rs.dix,
    ]
    return repr(parts).replace(" ", "")


_TOTALS_CACHE: dict[str, int] = {}


def _side_bits(rs: Ruleset) -> int:
    def build() -> int:
        hand = achievable_hand_totals(rs)
        if rs.players == 3:
            return hand
        both = 0
        h = hand
        n = 0
        while h:
            if h & 1:
                both |= hand << n
            h >>= 1
            n += 1
        return both

    result: int = rs.memo("side_bits", build)
    return result


def max_side_meld(rs: Ruleset) -> int:
    """The most meld a side can show.

    Each partner's hand is taken at its own maximum, ignoring that the two hands share one deck
    and one trump suit, so this is an upper bound: it never rejects a real total.
    """
    return _side_bits(rs).bit_length() - 1


def check_meld_total(
    total: object, ruleset: Ruleset, field: str = "meld", *, player: bool = False
) -> None:
    """Raise :class:`RulesError` if no deal could give a side this meld total under the ruleset.

    With ``player=True`` the total is one player's meld, checked against a single hand: 13 is
    not a pagat total even when a side's 13 could not be told apart from 2 + 11 typed wrongly.
    In three-player games a side is one player, so both checks are the same.
    """
    if not isinstance(total, int) or isinstance(total, bool):
        raise RulesError.single(
            field, "bad_type", f"meld must be a whole number, got {shown(total)}"
        )
    if total < 0:
        raise RulesError.single(field, "negative", f"meld cannot be negative, got {shown(total)}")
    bits = achievable_hand_totals(ruleset) if player else _side_bits(ruleset)
    top = bits.bit_length() - 1
    if total > top:
        who = "one player" if player else "a side"
        raise RulesError.single(
            field,
            "too_high",
            f"{named('meld', total)} is more than {who} can hold (at most {top})",
        )
    if not (bits >> total) & 1:
        below = next((n for n in range(total - 1, -1, -1) if (bits >> n) & 1), 0)
        above = next((n for n in range(total + 1, top + 1) if (bits >> n) & 1), top)
        raise RulesError.single(
            field,
            "not_achievable",
            f"no combination of melds adds up to {total}; did you mean {below} or {above}?",
        )


def _generate_precomputed() -> str:  # pragma: no cover - run by hand after changing a preset
    """Source of ``_meld_data.py``: achievable totals of every preset (both scales)."""
    from .rulesets import PRESET_NAMES, get_ruleset

    table: dict[str, str] = {}
    for name in PRESET_NAMES:
        for scale in (1, 10):
            rs = get_ruleset(name, {"scale": scale})
            cards = rs.hand_size + rs.widow
            bits = 0
            for trump in (SPADES, 1, DIAMONDS):
                bits |= _hand_totals_for_trump(rs, trump, cards)
            table[_table_key(rs, cards)] = format(bits, "x")
    lines = [
        '"""Generated by ``rules_engine.meld._generate_precomputed()``: do not edit by hand.',
        "",
        "Bitsets (hex) of the meld totals one hand can show, keyed by the meld table they belong",
        'to, so that checking an entered total needs no search for the presets."""',
        "",
        "from __future__ import annotations",
        "",
        "PRECOMPUTED: dict[str, str] = {",
    ]
    for k, v in table.items():
        lines.append(f"    {k!r}: (")
        for i in range(0, len(v), 80):
            lines.append(f'        "{v[i : i + 80]}"')
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"

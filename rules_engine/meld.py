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
from typing import NotRequired, TypedDict

from ._meld_data import PRECOMPUTED as _PRECOMPUTED
from ._meld_data import SIDE_MAX
from ._meld_data_tables import PRECOMPUTED as _PRECOMPUTED_TABLES
from ._meld_data_tables import TEAM_MAX
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
    check_pack,
    counts_of,
    parse_cards,
    parse_suit,
)
from .errors import RulesError
from .i18n import Text, gettext_noop
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
    "side_meld_witness",
    "team_meld_witness",
]

# the presets' tables: the four-handed and three-player presets', and those for tables of other
# sizes (generated apart, ``_generate_precomputed(tables=True)``)
PRECOMPUTED: dict[str, str] = {**_PRECOMPUTED, **_PRECOMPUTED_TABLES}

_AROUND_RANKS = (ACE, KING, QUEEN, JACK)
_AROUND_NAMES = ("aces", "kings", "queens", "jacks")
_QS = SPADES * 6 + QUEEN
_JD = DIAMONDS * 6 + JACK


# One line of a breakdown as :meth:`Meld.to_dict` writes it (``class`` is a keyword: the
# functional form).
MeldDict = TypedDict("MeldDict", {
    "name": str, "class": str, "times": int, "points": int,
    "suit": NotRequired[str], "wins_game": NotRequired[bool],
})


class MeldResultDict(TypedDict):
    """A meld count as :meth:`MeldResult.to_dict` writes it."""

    total: int
    melds: list[MeldDict]
    wins_game: NotRequired[bool]


@dataclass(frozen=True, slots=True)
class Meld:
    """One line of a meld breakdown: ``times`` is single (1) to quadruple (4)."""

    name: str
    cls: str
    times: int
    points: int
    suit: str | None = None
    wins_game: bool = False

    def to_dict(self) -> MeldDict:
        d: MeldDict = {
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

    def to_dict(self) -> MeldResultDict:
        d: MeldResultDict = {"total": self.total, "melds": [m.to_dict() for m in self.melds]}
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
    if runs and rs.run_extra:
        total += rs.run_extra * abs(k - q)
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
    if rs.round_house:
        total += rs.round_house * _round_houses(counts)
    return total


def _round_houses(counts: Sequence[int]) -> int:
    """Round houses held: a king and queen of every suit (trump's counted as they lie)."""
    return min(min(counts[s * 6 + KING], counts[s * 6 + QUEEN]) for s in range(4))


_VALID_CARDS = {
    deck: frozenset(c for c in range(NUM_CARD_TYPES) if deck.has_card(c)) for deck in Deck
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
            Text(gettext_noop("%(count)s cards, but a hand holds at most %(limit)s here"), count=format(len(items), ','), limit=limit),
        )
    # nines added to a pack without them (racehorse) are in play: one of each suit per four
    added = rs.nines_added // 4
    deck = Deck.SINGLE if added else rs.deck
    valid = _VALID_CARDS[deck]
    c = [0] * NUM_CARD_TYPES
    try:
        for x in items:
            c[x] += 1
        ok = all(x in valid for x in items) and not any(isinstance(x, bool) for x in items)
    except (TypeError, IndexError):
        ok = False
    if not ok:
        c = counts_of(parse_cards(items, None if added else rs.deck))
    if max(c) > rs.copies or added and any(c[s * 6 + NINE] > added for s in range(4)):
        check_pack([i for i, n in enumerate(c) for _ in range(n)], rs.deck, rs.nines_added)
    return c


def _meld_table(rs: Ruleset) -> dict[tuple[str, int, int], Meld]:
    """Every possible breakdown line for this ruleset, built once and shared (they are frozen)."""

    def build() -> dict[tuple[str, int, int], Meld]:
        t: dict[tuple[str, int, int], Meld] = {}
        for n in range(1, rs.copies + 1):
            for s in range(4):
                suit = SUITS[s]
                wins = rs.quadruple_run_wins and n >= 4
                big = rs.quadruple_melds_win and n >= 4
                t["run", s, n] = Meld("run", "I", n, rs.run_t[n], suit, wins)
                t["royal_marriage", s, n] = Meld(
                    "royal_marriage", "I", n, rs.royal_t[n], suit, big
                )
                t["marriage", s, n] = Meld("marriage", "I", n, rs.marriage_t[n], suit)
                t["dix", s, n] = Meld("dix", "I", n, rs.dix * n, suit)
                t["run_extra", s, n] = Meld("run_extra", "I", n, rs.run_extra * n, suit)
            t["pinochle", 0, n] = Meld(
                "pinochle", "II", n, rs.pinochle_t[n], None, rs.quadruple_melds_win and n >= 4
            )
            t["round_house", 0, n] = Meld("round_house", "I", n, rs.round_house * n)
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
        raise RulesError.single("trump", "bad_suit", Text(gettext_noop("%(value)s is not a suit"), value=shown(trump)))
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
    if runs and rs.run_extra and k != q:
        # kings (or queens) of trump beside the run with no partner for a royal marriage
        melds.append(table["run_extra", t, abs(k - q)])
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
    houses = _round_houses(c) if rs.round_house else 0
    if houses:
        melds.append(table["round_house", 0, houses])
    total = 0
    for line in melds:
        total += line.points
    wins = runs >= 4 and rs.quadruple_run_wins
    if rs.quadruple_melds_win and (royal >= 4 or p >= 4):
        # racehorse: four royal marriages or four pinochles are "the game"; a run's king and
        # queen are used by the run (one meld per class), as the points count them
        wins = True
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
    single = rs.deck is Deck.SINGLE
    run_t, royal_t, mar_t, pin_t = rs.run_t, rs.royal_t, rs.marriage_t, rs.pinochle_t
    a_t = rs.around_t
    extra = rs.run_extra
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
                                if r:
                                    value += extra * abs(kk - qq)
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
        bits = _with_round_houses(rs, bits, cards)
    _TOTALS_CACHE[key] = bits
    return bits


def _with_round_houses(rs: Ruleset, bits: int, cards: int) -> int:
    """Totals with the round-house bonus: each total plus up to as many bonuses as the hand has
    room for round houses (eight cards each). A superset: a total that some hand could show is
    never refused, though a few sums no hand reaches may pass."""
    if not rs.round_house:
        return bits
    out = bits
    for n in range(1, min(rs.copies, cards // 8) + 1):
        out |= bits << (n * rs.round_house)
    return out


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
    if rs.run_extra:  # left out when off, so the precomputed keys of the presets stay the same
        parts.append(("run_extra", rs.run_extra))
    if rs.round_house:
        parts.append(("round_house", rs.round_house))
    return repr(parts).replace(" ", "")


_TOTALS_CACHE: dict[str, int] = {}


# --- the most a side can meld ------------------------------------------------------------------
#
# Adding the two partners' best hands overstates a side: both hands come from one deck and share
# one trump suit (a single-deck hand's best, a double run with double pinochle, 1800, leaves the
# partner no trump run card). The side's maximum is found by enumeration instead:
#
# 1. A hand's *signature* is what it shows: runs r, royal marriages m, extra kings or queens
#    beside the run e, dix n, a marriage level per other suit, pinochles p and an around level
#    per rank. A signature's value is its melds added up; it needs, per card, the most copies any
#    of its classes uses (a card serves once per class, so classes share cards).
# 2. Every signature one hand's cards allow is listed, per trump suit (hearts and clubs are
#    alike), with its needed cards packed four bits a card.
# 3. A real side's two hands each show their own signature, which needs no more cards than the
#    hand holds; so no side melds more than the best pair of listed signatures whose needs fit in
#    the deck together (per card at most ``copies``). Pairs are tried from the highest values
#    down, so the first pair that fits is the maximum.
# 4. The pair found is filled up to full hands with cards that belong to no meld (tens and nines
#    outside trump), and :func:`meld_total` of those two real hands equals the maximum: the bound
#    is reached, so it is exact. tests/rules_engine/test_meld.py and bench/side_meld.py check
#    this for every preset (single deck partnership: 2,220; pagat double deck: 572).


def _signatures(rs: Ruleset, trump: int, max_cards: int) -> list[tuple[int, int, int]]:
    """(value, needed cards packed 4 bits per card, card count) of every signature one hand of
    ``max_cards`` cards allows with this trump."""
    cp = rs.copies
    rng = range(cp + 1)
    run_t, royal_t, mar_t, pin_t, at = (
        rs.run_t, rs.royal_t, rs.marriage_t, rs.pinochle_t, rs.around_t,
    )  # fmt: skip
    dix, extra = rs.dix, rs.run_extra
    nines = rng if rs.deck is Deck.SINGLE and dix else (0,)
    others = [x for x in range(4) if x != trump]

    def put(suit: int, rank: int, n: int) -> int:
        return n << (4 * (suit * 6 + rank))

    out: list[tuple[int, int, int]] = []
    for la in rng:
        for lk in rng:
            for lq in rng:
                for lj in rng:
                    if 4 * (la + lk + lq + lj) > max_cards:
                        continue
                    around = at[0][la] + at[1][lk] + at[2][lq] + at[3][lj]
                    for p in rng:
                        per: list[list[tuple[int, int, int]]] = []
                        for x in others:
                            row = []
                            for mk in rng:
                                kk = max(lk, mk)
                                qq = max(lq, mk, p if x == SPADES else 0)
                                jj = max(lj, p if x == DIAMONDS else 0)
                                packed = put(x, ACE, la) | put(x, KING, kk)
                                packed |= put(x, QUEEN, qq) | put(x, JACK, jj)
                                row.append((la + kk + qq + jj, packed, mar_t[mk]))
                            per.append(row)
                        trumps = []
                        for r in rng:
                            for m in range(cp - r + 1):
                                for e in range(cp - r - m + 1) if extra and r else (0,):
                                    for rank in (KING, QUEEN) if e else (KING,):
                                        for n in nines:
                                            aa = max(la, r)
                                            kk = max(lk, r + m + (e if rank == KING else 0))
                                            qq = r + m + (e if rank == QUEEN else 0)
                                            qq = max(lq, qq, p if trump == SPADES else 0)
                                            jj = max(lj, r, p if trump == DIAMONDS else 0)
                                            packed = put(trump, ACE, aa) | put(trump, TEN, r)
                                            packed |= put(trump, KING, kk) | put(trump, QUEEN, qq)
                                            packed |= put(trump, JACK, jj) | put(trump, NINE, n)
                                            value = run_t[r] + royal_t[m] + extra * e + dix * n
                                            trumps.append((aa + r + kk + qq + jj + n, packed, value))
                        base = around + pin_t[p]
                        (r1, r2, r3) = per
                        for s0, x0, v0 in trumps:
                            if s0 > max_cards:
                                continue
                            for s1, x1, v1 in r1:
                                t1 = s0 + s1
                                if t1 > max_cards:
                                    continue
                                for s2, x2, v2 in r2:
                                    t2 = t1 + s2
                                    if t2 > max_cards:
                                        continue
                                    for s3, x3, v3 in r3:
                                        if t2 + s3 <= max_cards:
                                            value = base + v0 + v1 + v2 + v3
                                            out.append((value, x0 | x1 | x2 | x3, t2 + s3))
    return out


def _unpack(packed: int) -> list[int]:
    return [(packed >> (4 * i)) & 15 for i in range(NUM_CARD_TYPES)]


def _fill(needed: list[int], spare: list[int], size: int) -> list[int] | None:
    """``needed`` filled up to ``size`` cards from ``spare`` (taken from it); None if too few."""
    hand = list(needed)
    short = size - sum(hand)
    for card in range(NUM_CARD_TYPES):
        take = min(short, spare[card])
        hand[card] += take
        spare[card] -= take
        short -= take
    return hand if short == 0 else None


def side_meld_witness(rs: Ruleset) -> tuple[int, int, list[int], list[int]] | None:
    """The most meld a partnership can show, with the trump and the two partners' hands (count
    arrays) that show it; None where a side is one hand, or a team too large (or a pack too
    big) to enumerate (:func:`_side_bound` applies there).

    See the comment above :func:`_signatures` for the method.
    """
    if rs.individual or rs.side_size != 2 or not _enumerated(rs):
        return None

    def build() -> tuple[int, int, list[int], list[int]]:
        size = rs.hand_size
        cp = rs.copies
        bias = sum((7 - cp) << (4 * i) for i in range(NUM_CARD_TYPES))
        high = sum(8 << (4 * i) for i in range(NUM_CARD_TYPES))
        best = -1
        found = (0, 0, 0)
        for trump in (SPADES, 1, DIAMONDS):  # hearts and clubs are alike
            sigs = _signatures(rs, trump, size)
            sigs.sort(key=lambda z: -z[0])
            for i, (v1, x1, _) in enumerate(sigs):
                if 2 * v1 <= best:
                    break  # the partner's share would have to be the larger one
                for v2, x2, _ in sigs[i:]:
                    if v1 + v2 <= best:
                        break
                    if not (x1 + x2 + bias) & high:  # no card needed more than cp times
                        best, found = v1 + v2, (trump, x1, x2)
                        break
        trump, x1, x2 = found
        one, two = _unpack(x1), _unpack(x2)
        # cards outside every meld: tens and nines of the suits that are not trump
        spare = [
            (cp if c // 6 != trump and c % 6 in (TEN, NINE) and c in _VALID_CARDS[rs.deck] else 0)
            - one[c]
            - two[c]
            for c in range(NUM_CARD_TYPES)
        ]
        hand1 = _fill(one, spare, size) or one
        hand2 = _fill(two, spare, size) or two
        return best, trump, hand1, hand2

    result: tuple[int, int, list[int], list[int]] = rs.memo("side_witness", build)
    return result


def _repack(packed: int) -> int:
    """Needed cards packed four bits a card, repacked five bits a card (room for three hands'
    needs added up: at most 3 x 6 = 18 copies of one card)."""
    out = 0
    for i in range(NUM_CARD_TYPES):
        out |= ((packed >> (4 * i)) & 15) << (5 * i)
    return out


def team_meld_witness(rs: Ruleset) -> tuple[int, int, list[list[int]]] | None:
    """The most meld a team of three can show (six-handed, racehorse), with the trump and the
    three players' hands (count arrays) that show it; None for other sides.

    The method of :func:`side_meld_witness` with three signatures: every signature one hand
    allows is listed per trump (the declarer's with the widow, the partners' without), and the
    best three whose needs fit in the pack together (per card at most ``copies``) are found
    from the highest values down, each first one that fits ending its branch. The three are
    filled up to full hands with tens outside trump, and the hands' meld equals the maximum
    (tests/rules_engine/test_team_meld.py): the bound is reached, so it is exact. A defending
    team, without the widow, melds at most this too.
    """
    if rs.side_size != 3 or rs.copies > 6:
        return None

    def build() -> tuple[int, int, list[list[int]]]:
        cp = rs.copies
        bias = sum((15 - cp) << (5 * i) for i in range(NUM_CARD_TYPES))
        high = sum(16 << (5 * i) for i in range(NUM_CARD_TYPES))
        best = -1
        found: tuple[int, int, int, int] = (0, 0, 0, 0)
        sizes = (rs.hand_size + rs.widow, rs.hand_size)
        for trump in (SPADES, 1, DIAMONDS):  # hearts and clubs are alike
            lists: list[list[tuple[int, int, int]]] = []
            for size in sizes:
                kept: dict[int, tuple[int, int]] = {}
                for value, packed, _ in _signatures(rs, trump, size):
                    if kept.get(packed, (-1, 0))[0] < value:
                        kept[packed] = (value, _repack(packed))
                lists.append(sorted(((v, x, k) for k, (v, x) in kept.items()), reverse=True))
            first, others = lists
            top = others[0][0]
            for v1, x1, k1 in first:
                if v1 + 2 * top <= best:
                    break
                for j, (v2, x2, k2) in enumerate(others):
                    if v1 + 2 * v2 <= best:
                        break
                    if (x1 + x2 + bias) & high:
                        continue
                    for v3, x3, k3 in others[j:]:
                        if v1 + v2 + v3 <= best:
                            break
                        if not (x1 + x2 + x3 + bias) & high:
                            best, found = v1 + v2 + v3, (trump, k1, k2, k3)
                            break
        trump, *needs = found
        hands = [_unpack(k) for k in needs]
        # cards outside every meld: tens of the suits that are not trump
        spare = [
            (cp if c // 6 != trump and c % 6 == TEN else 0) - sum(h[c] for h in hands)
            for c in range(NUM_CARD_TYPES)
        ]
        full = [
            _fill(h, spare, size) or h for h, size in zip(hands, (sizes[0], *sizes[1:] * 2), strict=True)
        ]
        return best, trump, full

    result: tuple[int, int, list[list[int]]] = rs.memo("team_witness", build)
    return result


def _enumerated(rs: Ruleset) -> bool:
    """Whether the side maximum is found by enumeration: partnerships of two from a single or
    double deck (:func:`side_meld_witness`), teams of three from up to a triple pack
    (:func:`team_meld_witness`). Larger packs use :func:`_side_bound`."""
    return (rs.side_size == 2 and rs.copies <= 4) or (rs.side_size == 3 and rs.copies <= 6)


def _side_bound(rs: Ruleset) -> int:
    """A safe bound on a team's meld where enumeration is too costly (teams of three, triple and
    quadruple packs): each member's best hand added up. No real side melds more, so no real
    total is refused; a total above what the shared pack allows may pass."""
    return rs.side_size * (achievable_hand_totals(rs).bit_length() - 1)


def _side_max(rs: Ruleset) -> int:
    if rs.individual:
        return achievable_hand_totals(rs).bit_length() - 1
    if not _enumerated(rs):
        bound: int = rs.memo("side_bound", lambda: _side_bound(rs))
        return bound
    # the enumeration leaves the round-house bonus out: add the most each partner could hold
    bonus = rs.side_size * rs.copies * rs.round_house
    if rs.side_size == 3:
        known = TEAM_MAX.get(_table_key(rs, rs.hand_size + rs.widow))
        if known is not None:
            return known + bonus
        team = team_meld_witness(rs)
        assert team is not None
        return team[0] + bonus
    known = SIDE_MAX.get(_table_key(rs, rs.hand_size))
    if known is not None:
        return known + bonus
    witness = side_meld_witness(rs)
    assert witness is not None
    return witness[0] + bonus


def _side_bits(rs: Ruleset) -> int:
    def build() -> int:
        hand = achievable_hand_totals(rs)
        if rs.individual:
            return hand
        both = hand
        for _ in range(rs.side_size - 1):
            step = 0
            h = hand
            n = 0
            while h:
                if h & 1:
                    step |= both << n
                h >>= 1
                n += 1
            both = step
        # hands from one pack: nothing above the side's maximum (or its bound)
        return both & ((1 << (_side_max(rs) + 1)) - 1)

    result: int = rs.memo("side_bits", build)
    return result


def max_side_meld(rs: Ruleset) -> int:
    """The most meld a side can show: exact, from the enumeration above (individual games: the
    declarer's hand with the widow); for teams of three and triple or quadruple packs, the safe
    bound of :func:`_side_bound`. With a called partner (five-handed) a side is the bidder and
    the partner: two best hands, a safe bound."""
    if rs.called_partner:
        return 2 * _side_max(rs)
    return _side_max(rs)


def check_meld_total(
    total: object,
    ruleset: Ruleset,
    field: str = "meld",
    *,
    player: bool = False,
    cards: int | None = None,
) -> None:
    """Raise :class:`RulesError` if no deal could give a side this meld total under the ruleset.

    With ``player=True`` the total is one player's meld, checked against a single hand: 13 is
    not a pagat total even when a side's 13 could not be told apart from 2 + 11 typed wrongly.
    In three-player games a side is one player, so both checks are the same. ``cards`` is the
    number of cards that player melds from where it differs from the declarer's (a
    three-handed defender holds 15, without the widow).
    """
    if not isinstance(total, int) or isinstance(total, bool):
        raise RulesError.single(
            field, "bad_type", Text(gettext_noop("meld must be a whole number, got %(value)s"), value=shown(total))
        )
    if total < 0:
        raise RulesError.single(field, "negative", Text(gettext_noop("meld cannot be negative, got %(value)s"), value=shown(total)))
    if cards is not None:
        bits = achievable_hand_totals(ruleset, cards)
    elif player:
        bits = achievable_hand_totals(ruleset)
    else:
        bits = _side_bits(ruleset)
    top = bits.bit_length() - 1
    if total > top:
        if cards is not None:
            who = f"a player holding {cards} cards"
        else:
            who = "one player" if player else "a side"
        raise RulesError.single(
            field,
            "too_high",
            Text(gettext_noop("%(value)s is more than %(who)s can hold (at most %(top)s)"), value=named('meld', total), who=who, top=top),
        )
    if not (bits >> total) & 1:
        below = next((n for n in range(total - 1, -1, -1) if (bits >> n) & 1), 0)
        above = next((n for n in range(total + 1, top + 1) if (bits >> n) & 1), top)
        raise RulesError.single(
            field,
            "not_achievable",
            Text(gettext_noop("no combination of melds adds up to %(total)s; did you mean %(below)s or %(above)s?"), total=total, below=below, above=above),
        )


def _generate_precomputed(tables: bool = False) -> str:  # pragma: no cover - run by hand
    """Source of ``_meld_data.py``: achievable totals of every preset (both scales), for the
    declarer's hand and, where there is a widow, a defender's; and each partnership preset's
    side maximum (:func:`side_meld_witness`). Run by hand after changing a preset.

    ``tables=True``: the source of ``_meld_data_tables.py`` instead, the same bitsets for the
    presets of tables of two, five, six and eight (``rulesets._BIG_TABLES``), kept apart so
    either file can be regenerated alone."""
    from .rulesets import _BIG_TABLES, PRESET_NAMES, get_ruleset

    table: dict[str, str] = {}
    sides: dict[str, int] = {}
    teams: dict[str, int] = {}
    names = [n for n in PRESET_NAMES if (n in _BIG_TABLES) == tables]
    for name in names:
        for scale in (1, 10):
            rs = get_ruleset(name, {"scale": scale})
            for cards in sorted({rs.hand_size + rs.widow, rs.hand_size}):
                bits = 0
                for trump in (SPADES, 1, DIAMONDS):
                    bits |= _hand_totals_for_trump(rs, trump, cards)
                bits = _with_round_houses(rs, bits, cards)
                table[_table_key(rs, cards)] = format(bits, "x")
            witness = side_meld_witness(rs)
            if witness is not None:
                sides[_table_key(rs, rs.hand_size)] = witness[0]
            team = team_meld_witness(rs)
            if team is not None:
                teams[_table_key(rs, rs.hand_size + rs.widow)] = team[0]
    call = "_generate_precomputed(tables=True)" if tables else "_generate_precomputed()"
    lines = [
        f'"""Generated by ``rules_engine.meld.{call}``: do not edit by hand.',
        "",
        "Bitsets (hex) of the meld totals one hand can show, keyed by the meld table they belong",
        "to, so that checking an entered total needs no search for the presets"
        + ("" if tables else "; and the most a"),
    ]
    if tables:
        lines[-1] += " of tables of"
        lines.append("two, five, six and eight players; and the most a team of three can meld under")
        lines.append('each table (TEAM_MAX, found by enumeration)."""')
    else:
        lines.append('partnership can meld under each table (SIDE_MAX, found by enumeration)."""')
    lines += [
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
    lines.append("")
    lines.append(("TEAM_MAX" if tables else "SIDE_MAX") + ": dict[str, int] = {")
    for k, n in (teams if tables else sides).items():
        lines.append(f"    {k!r}: {n},")
    lines.append("}")
    return "\n".join(lines) + "\n"

"""Cards, suits, ranks and decks.

A card is a small integer ``suit * 6 + rank`` so that hands can be held as flat count arrays:
suits are S=0, H=1, D=2, C=3 and ranks A=0, T=1, K=2, Q=3, J=4, 9=5 (highest first). The
:class:`Suit` enum names the suits as they appear in input and output (``S H D C``) and gives
their words and symbols for labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum, StrEnum

from .errors import MAX_ERRORS, FieldError, RulesError
from .i18n import Text, gettext_noop
from .inputs import shown

__all__ = [
    "SUITS",
    "RANKS",
    "NUM_CARD_TYPES",
    "Deck",
    "Suit",
    "card_str",
    "parse_card",
    "parse_cards",
    "parse_suit",
    "counts_of",
    "check_copies",
    "pack_copies",
    "check_pack",
]

SUITS = "SHDC"
RANKS = "ATKQJ9"
NUM_CARD_TYPES = 24

ACE, TEN, KING, QUEEN, JACK, NINE = range(6)
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

_SUIT_ALIASES: dict[str, int] = {
    "S": 0, "♠": 0, "♤": 0, "SPADES": 0, "SPADE": 0,
    "H": 1, "♥": 1, "♡": 1, "HEARTS": 1, "HEART": 1,
    "D": 2, "♦": 2, "♢": 2, "DIAMONDS": 2, "DIAMOND": 2,
    "C": 3, "♣": 3, "♧": 3, "CLUBS": 3, "CLUB": 3,
}  # fmt: skip
_RANK_ALIASES: dict[str, int] = {"A": 0, "T": 1, "10": 1, "K": 2, "Q": 3, "J": 4, "9": 5}


class Deck(Enum):
    """The packs in use: a single pinochle deck (48, with nines), a double deck (80, two packs
    without nines), a triple deck (120, three packs without nines: six-handed) and a quadruple
    deck (160, two double decks: eight-handed)."""

    SINGLE = "single"
    DOUBLE = "double"
    TRIPLE = "triple"
    QUADRUPLE = "quadruple"

    @property
    def copies(self) -> int:
        """How many identical copies of each card the pack holds."""
        return _COPIES[self.value]

    @property
    def ranks(self) -> str:
        return RANKS if self is Deck.SINGLE else RANKS[:5]

    @property
    def size(self) -> int:
        return len(self.ranks) * 4 * self.copies

    def has_card(self, card: int) -> bool:
        return self is Deck.SINGLE or card % 6 != NINE

    def cards(self) -> list[int]:
        """Every card of the pack (with repeats), in suit-then-rank order."""
        out: list[int] = []
        for suit in range(4):
            for rank in range(len(self.ranks)):
                out.extend([suit * 6 + rank] * self.copies)
        return out


_COPIES = {"single": 2, "double": 4, "triple": 6, "quadruple": 8}


class Suit(StrEnum):
    """A suit as written in input and output (``S H D C``), with its words and symbol."""

    S = "S"
    H = "H"
    D = "D"
    C = "C"

    @property
    def label(self) -> str:
        """``spades``, ``hearts``, ``diamonds``, ``clubs``."""
        return _SUIT_LABELS[self]

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def number(self) -> int:
        """The suit's number in a card index (``suit * 6 + rank``): S=0, H=1, D=2, C=3."""
        return SUITS.index(self.value)

    @classmethod
    def of_number(cls, number: int) -> Suit:
        return _SUIT_BY_INDEX[number]


_SUIT_LABELS = {Suit.S: gettext_noop("spades"), Suit.H: gettext_noop("hearts"),
                Suit.D: gettext_noop("diamonds"), Suit.C: gettext_noop("clubs")}
_SUIT_SYMBOLS = {Suit.S: "♠", Suit.H: "♥", Suit.D: "♦", Suit.C: "♣"}
_SUIT_BY_INDEX = tuple(Suit)


def card_str(card: int) -> str:
    """Canonical token, e.g. ``TH`` for the ten of hearts."""
    return RANKS[card % 6] + SUITS[card // 6]


def parse_suit(value: object, field: str = "trump") -> int:
    """A suit from ``S H D C``, ``♠ ♥ ♦ ♣`` or its English name, any case."""
    if isinstance(value, str):
        idx = _SUIT_ALIASES.get(value.strip().upper())
        if idx is not None:
            return idx
    raise RulesError.single(
        field, "bad_suit", Text(gettext_noop("%(value)s is not a suit: use S, H, D or C (or ♠ ♥ ♦ ♣)"), value=shown(value))
    )


def _parse_token(token: str) -> int | None:
    t = token.strip().upper()
    if len(t) < 2:
        return None
    suit = _SUIT_ALIASES.get(t[-1])
    rank = _RANK_ALIASES.get(t[:-1])
    if suit is None or rank is None:
        # also accept the suit first (S10, ♠A)
        suit = _SUIT_ALIASES.get(t[0])
        rank = _RANK_ALIASES.get(t[1:])
        if suit is None or rank is None:
            return None
    return suit * 6 + rank


def parse_card(token: object, field: str = "card", deck: Deck | None = None) -> int:
    """One card token (``AS``, ``TS``, ``10S``, ``9♠``, any case) to its index."""
    card = _parse_token(token) if isinstance(token, str) else None
    if card is None:
        raise RulesError.single(
            field,
            "bad_card",
            Text(gettext_noop("%(value)s is not a card: write rank then suit, e.g. AS, TS or 10S, KH, QD, JC"), value=shown(token)),
        )
    if deck is not None and not deck.has_card(card):
        raise RulesError.single(
            field, "not_in_deck", Text(gettext_noop("%(value)s: a %(value2)s deck has no nines"), value=card_str(card), value2=deck.value)
        )
    return card


def parse_cards(
    tokens: Iterable[object], deck: Deck | None = None, field: str = "cards"
) -> list[int]:
    """Parse card tokens; with ``deck``, also check no card appears more often than the deck has.

    Every bad token is reported (``cards[3]``), not only the first, up to the cap of
    :class:`RulesError`: the rest are not even read, so a huge list of junk fails fast.
    """
    errors: list[FieldError] = []
    cards: list[int] = []
    for i, token in enumerate(tokens):
        try:
            cards.append(parse_card(token, f"{field}[{i}]", deck))
        except RulesError as exc:
            errors.extend(exc.errors)
            if len(errors) > MAX_ERRORS:
                break
    if errors:
        raise RulesError(errors)
    if deck is not None:
        check_copies(cards, deck, field)
    return cards


def counts_of(cards: Iterable[int]) -> list[int]:
    counts = [0] * NUM_CARD_TYPES
    for c in cards:
        counts[c] += 1
    return counts


def check_copies(cards: Sequence[int] | Iterable[int], deck: Deck, field: str = "cards") -> None:
    counts = counts_of(cards)
    errors = [
        FieldError(
            field,
            "too_many_copies",
            Text(gettext_noop("%(n)s copies of %(value)s, but a %(value2)s deck has only %(copies)s"), n=n, value=card_str(c), value2=deck.value, copies=deck.copies),
        )
        for c, n in enumerate(counts)
        if n > deck.copies
    ]
    if errors:
        raise RulesError(errors)


def pack_copies(deck: Deck, nines_added: int = 0) -> list[int]:
    """How many copies of each card the pack in play holds: the deck's, and in a pack without
    nines, ``nines_added`` of them one of each suit per four (racehorse: 4, one nine a suit)."""
    added = nines_added // 4
    return [
        deck.copies if deck.has_card(c) else added if c % 6 == NINE else 0
        for c in range(NUM_CARD_TYPES)
    ]


def check_pack(
    cards: Iterable[int], deck: Deck, nines_added: int = 0, field: str = "cards"
) -> None:
    """Refuse more copies of a card than the pack in play holds (:func:`pack_copies`): the
    deck's copies, and the added nines of a pack without them."""
    if not nines_added:
        check_copies(cards, deck, field)
        return
    most = pack_copies(deck, nines_added)
    errors = [
        FieldError(
            field,
            "too_many_copies",
            Text(gettext_noop("%(n)s copies of %(card)s, but only %(most)s nine of each suit is "
                              "added to the pack"), n=n, card=card_str(c), most=most[c])
            if c % 6 == NINE
            else Text(gettext_noop("%(n)s copies of %(card)s, but a %(deck)s deck has only "
                                   "%(most)s"), n=n, card=card_str(c), deck=deck.value,
                      most=most[c]),
        )
        for c, n in enumerate(counts_of(cards))
        if n > most[c]
    ]
    if errors:
        raise RulesError(errors)

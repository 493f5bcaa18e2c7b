"""Prizes: a payout table by place and side prizes, checked and awarded (pure Python).

An event's prizes are plain JSON::

    {"currency": "$",
     "payouts": [{"place": 1, "amount": "300"}, {"place": 2, "amount": "150"}, ...],
     "side": [{"kind": "high_game", "label": "High game", "amount": "25"}]}

Amounts are decimal strings (money is never a float). Players who share a place share the
amounts of the places they cover equally (two players tied for 3rd split the 3rd and 4th
prizes), rounded down to the cent; the ``high_game`` side prize goes to the highest single-game
score of the event (shared likewise).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation
from typing import Any

from rules_engine.i18n import Text, gettext_noop

from .standings import RankingError

SIDE_KINDS = {"high_game": "High game"}
MAX_PLACES = 500
CENT = Decimal("0.01")


def _amount(value: object, field: str) -> Decimal:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise RankingError(Text(gettext_noop("Give the amount as a number, e.g. \"150\" or \"37.50\".")), field=field)
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise RankingError(Text(gettext_noop("Give the amount as a number, e.g. \"150\" or \"37.50\".")),
                           field=field) from None
    if not amount.is_finite() or amount < 0 or amount > Decimal("10000000"):
        raise RankingError(Text(gettext_noop("An amount is between 0 and 10,000,000.")), field=field)
    if amount != amount.quantize(CENT):
        raise RankingError(Text(gettext_noop("An amount has at most two decimals (cents).")), field=field)
    return amount.quantize(CENT)


def check_prizes(raw: Mapping[str, Any] | None) -> dict[str, Any]:
    """The prizes as stored, or a :class:`RankingError` naming the field (``prizes.…``)."""
    if not raw:
        return {}
    if not isinstance(raw, Mapping):
        raise RankingError(Text(gettext_noop("Prizes are an object with payouts and side prizes.")), field="prizes")
    unknown = sorted(set(raw) - {"currency", "payouts", "side"})
    if unknown:
        raise RankingError(Text(gettext_noop("Prizes have currency, payouts and side.")), field=f"prizes.{unknown[0]}")
    currency = raw.get("currency", "$")
    if not isinstance(currency, str) or len(currency) > 5:
        raise RankingError(Text(gettext_noop("The currency is a short sign or code, e.g. $ or USD.")),
                           field="prizes.currency")
    payouts_raw = raw.get("payouts", [])
    if not isinstance(payouts_raw, list) or len(payouts_raw) > MAX_PLACES:
        raise RankingError(Text(gettext_noop("Payouts are a list of at most %(max_places)s places."), max_places=MAX_PLACES),
                           field="prizes.payouts")
    payouts: list[dict[str, Any]] = []
    seen: set[int] = set()
    for i, item in enumerate(payouts_raw):
        where = f"prizes.payouts[{i}]"
        if not isinstance(item, Mapping):
            raise RankingError(Text(gettext_noop("Each payout is {\"place\": n, \"amount\": \"...\"}.")), field=where)
        place = item.get("place")
        if isinstance(place, bool) or not isinstance(place, int) or not 1 <= place <= MAX_PLACES:
            raise RankingError(Text(gettext_noop("A place is a whole number from 1 to %(max_places)s."), max_places=MAX_PLACES),
                               field=f"{where}.place")
        if place in seen:
            raise RankingError(Text(gettext_noop("Place %(place)s is listed twice."), place=place), field=f"{where}.place")
        seen.add(place)
        payouts.append({"place": place, "amount": str(_amount(item.get("amount"),
                                                                f"{where}.amount"))})
    side: list[dict[str, Any]] = []
    side_raw = raw.get("side", [])
    if not isinstance(side_raw, list) or len(side_raw) > 10:
        raise RankingError(Text(gettext_noop("Side prizes are a list of at most 10.")), field="prizes.side")
    for i, item in enumerate(side_raw):
        where = f"prizes.side[{i}]"
        if not isinstance(item, Mapping) or item.get("kind") not in SIDE_KINDS:
            raise RankingError(Text(gettext_noop("A side prize's kind is one of: %(values)s."), values=', '.join(SIDE_KINDS)),
                               field=f"{where}.kind")
        label = item.get("label") or SIDE_KINDS[item["kind"]]
        if not isinstance(label, str) or len(label) > 60:
            raise RankingError(Text(gettext_noop("A side prize's label is at most 60 characters.")),
                               field=f"{where}.label")
        side.append({"kind": item["kind"], "label": label.strip(),
                     "amount": str(_amount(item.get("amount"), f"{where}.amount"))})
    return {"currency": currency, "payouts": sorted(payouts, key=lambda p: p["place"]),
            "side": side}


def _split(total: Decimal, count: int) -> Decimal:
    return (total / count).quantize(CENT, rounding=ROUND_DOWN)


def award_places(places: Sequence[tuple[int, int]], prizes: Mapping[str, Any]) -> dict[int, str]:
    """Each entry's prize from ``places`` as (place, entry id): {entry id: amount}. Entries who
    share a place share the amounts of the places they cover."""
    table = {int(p["place"]): Decimal(p["amount"]) for p in prizes.get("payouts", [])}
    by_place: dict[int, list[int]] = {}
    for place, entry in places:
        by_place.setdefault(place, []).append(entry)
    won: dict[int, str] = {}
    for place, entries in by_place.items():
        pool = sum((table.get(p, Decimal(0)) for p in range(place, place + len(entries))),
                   Decimal(0))
        if pool > 0:
            share = _split(pool, len(entries))
            for entry in entries:
                won[entry] = str(share)
    return won


@dataclass(frozen=True)
class SideWinner:
    kind: str
    label: str
    amount: str
    entry_ids: tuple[int, ...]
    score: int | None


def award_side(prizes: Mapping[str, Any], *, high_games: Iterable[tuple[int, int]]) -> list[SideWinner]:
    """Side prizes: ``high_games`` are (entry id, best single-game score) of eligible players."""
    best = list(high_games)
    top = max((score for _, score in best), default=None)
    winners = tuple(sorted(e for e, score in best if score == top)) if top is not None else ()
    out = []
    for item in prizes.get("side", []):
        if item["kind"] == "high_game":
            share = _split(Decimal(item["amount"]), len(winners)) if winners else Decimal(0)
            out.append(SideWinner("high_game", item["label"], str(share), winners, top))
    return out


def money_text(amount: object, currency: str | None) -> str:
    """An amount as a reader expects it: ``$300.00`` for a sign, ``300.00 USD`` for a code, the
    bare amount without a currency; empty without an amount."""
    if amount is None or amount == "":
        return ""
    currency = currency or ""
    if currency.isalpha() and len(currency) > 1:
        return f"{amount} {currency}"
    return f"{currency}{amount}"

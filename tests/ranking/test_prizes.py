"""Prizes: the payout table and side prizes, checked and awarded (pure; ranking.prizes)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ranking import RankingError
from ranking.prizes import award_places, award_side, check_prizes

PRIZES = {"currency": "$", "payouts": [{"place": 2, "amount": "150"}, {"place": 1, "amount": 300},
                                       {"place": 3, "amount": "75.50"}],
          "side": [{"kind": "high_game", "amount": "25"}]}


def test_prizes_are_stored_sorted_with_cents() -> None:
    checked = check_prizes(PRIZES)
    assert checked["payouts"] == [{"place": 1, "amount": "300.00"},
                                  {"place": 2, "amount": "150.00"},
                                  {"place": 3, "amount": "75.50"}]
    assert checked["side"] == [{"kind": "high_game", "label": "High game", "amount": "25.00"}]
    assert check_prizes(None) == {} and check_prizes({}) == {}


@pytest.mark.parametrize(("raw", "field"), [
    ({"payouts": [{"place": 0, "amount": "1"}]}, "prizes.payouts[0].place"),
    ({"payouts": [{"place": 1, "amount": "1"}, {"place": 1, "amount": "2"}]},
     "prizes.payouts[1].place"),
    ({"payouts": [{"place": 1, "amount": "-5"}]}, "prizes.payouts[0].amount"),
    ({"payouts": [{"place": 1, "amount": "1.005"}]}, "prizes.payouts[0].amount"),
    ({"payouts": [{"place": 1, "amount": 1.5}]}, "prizes.payouts[0].amount"),
    ({"payouts": [{"place": 1, "amount": "NaN"}]}, "prizes.payouts[0].amount"),
    ({"side": [{"kind": "best_hat", "amount": "1"}]}, "prizes.side[0].kind"),
    ({"jackpot": 1}, "prizes.jackpot"),
    ({"payouts": "lots"}, "prizes.payouts"),
])
def test_bad_prizes_name_the_field(raw: dict, field: str) -> None:
    with pytest.raises(RankingError) as info:
        check_prizes(raw)
    assert info.value.field == field


def test_shared_places_share_the_places_they_cover() -> None:
    prizes = check_prizes(PRIZES)
    won = award_places([(1, 10), (2, 11), (2, 12), (4, 13)], prizes)
    assert won == {10: "300.00", 11: "112.75", 12: "112.75"}  # (150 + 75.50) / 2


def test_the_high_game_goes_to_the_best_single_game_shared_when_level() -> None:
    prizes = check_prizes(PRIZES)
    [won] = award_side(prizes, high_games=[(1, 400), (2, 520), (3, 520)])
    assert (won.entry_ids, won.score, won.amount) == ((2, 3), 520, "12.50")


@given(st.lists(st.integers(min_value=1, max_value=12), min_size=1, max_size=30))
def test_never_more_is_paid_than_the_table_holds(places: list[int]) -> None:
    prizes = check_prizes({"payouts": [{"place": p, "amount": str(13 * p)} for p in range(1, 9)]})
    ranked = sorted(places)
    # places as a ranking would give them: a shared place covers as many places as players
    normalised, position = [], 1
    for i, place in enumerate(ranked):
        if i and place == ranked[i - 1]:
            normalised.append(normalised[-1])
        else:
            normalised.append(position)
        position += 1
    won = award_places([(p, i) for i, p in enumerate(normalised)], prizes)
    assert sum(Decimal(v) for v in won.values()) <= sum(Decimal(13 * p) for p in range(1, 9))

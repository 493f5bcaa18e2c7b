"""A save re-derives its game from hands parsed once per process (``revision_hand``): the kept
hands are keyed by their values, so corrections, deletions and adjusted results give
the same game as a derivation from scratch."""

from __future__ import annotations

from typing import Any

import pytest

from common.rulesets import event_ruleset
from rules_engine import parse_hand, score_game
from scoring import services
from scoring.models import Game, HandRevision, SeatResult
from scoring.selectors import revision_values

from .factories import seated_table, values

pytestmark = pytest.mark.django_db


def _fresh(game: Game) -> tuple[Any, ...]:
    """The game's totals and hands count as the engine gives them from the live hands, parsed
    now without the kept hands."""
    ruleset = event_ruleset(game.table.round.event)
    live = list(HandRevision.objects.filter(hand__game=game, is_live=True)
                .order_by("hand__number"))
    if not live:
        return ({side: 0 for side in ruleset.sides}, 0)
    result = score_game([parse_hand(revision_values(r), ruleset) for r in live], ruleset,
                        max_deals=game.table.round.event.deals_per_round)
    return (dict(result.totals[-1]), len(live))


def _stored(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    return (game.totals, game.hands_count)


def test_a_stored_hand_is_parsed_once_and_equals_a_fresh_parse() -> None:
    table = seated_table()
    ruleset = event_ruleset(table.round.event)
    revision = services.hand_submit(game=table.game, number=1, values=values())
    first = services.revision_hand(revision, ruleset)
    assert first == parse_hand(revision_values(revision), ruleset)
    # The same values again (the next save of the game): the kept hand, not a new parse.
    assert services.revision_hand(HandRevision.objects.get(pk=revision.pk), ruleset) is first
    # Other values are another hand.
    other = HandRevision(dealer="S", bidder="N", bid=52, trump="H", outcome="played",
                         meld={"NS": 25, "EW": 32}, counters={"NS": 27, "EW": 23})
    assert services.revision_hand(other, ruleset).bid == 52


def test_corrections_and_deletions_derive_the_game_as_from_scratch() -> None:
    table = seated_table()
    game = table.game
    dealers = ["S", "W", "N", "E"]
    revisions = [services.hand_submit(game=game, number=n, values=values(dealer=dealers[n - 1]))
                 for n in (1, 2, 3)]
    assert _stored(game) == _fresh(game)
    # A correction of hand 2: the later saves score its new values, not the kept old ones.
    services.hand_correct(hand=revisions[1].hand,
                          values=values(dealer="W", bid=60, meld={"NS": 40, "EW": 10}),
                          expected_revision=1)
    assert _stored(game) == _fresh(game)
    totals_corrected = _stored(game)[0]
    services.hand_submit(game=game, number=4, values=values(dealer="E"))
    assert _stored(game) == _fresh(game)
    # The same values as hand 2's first revision come back as a new revision: still right.
    services.hand_correct(hand=revisions[1].hand, values=values(dealer="W"), expected_revision=2)
    assert _stored(game) == _fresh(game)
    assert _stored(game)[0] != totals_corrected
    services.hand_delete_last(game=game, number=4, expected_revision=1, note="entered twice")
    assert _stored(game) == _fresh(game)
    assert _stored(game)[1] == 3
    rows = SeatResult.objects.filter(game=game)
    assert {r.points for r in rows} == set(_stored(game)[0].values())


def test_an_adjusted_result_overrides_the_kept_hands() -> None:
    table = seated_table()
    game = table.game
    services.hand_submit(game=game, number=1, values=values())
    services.game_adjust(game=game, kind="points", points={"NS": 7, "EW": 3},
                         reason="the scoresheet was lost")
    game.refresh_from_db()
    assert game.totals == {"NS": 7, "EW": 3}
    # A later save of another game of the same values does not bring the hands back here.
    other = seated_table(event=table.round.event, table_number=2)
    services.hand_submit(game=other.game, number=1, values=values())
    game.refresh_from_db()
    assert game.totals == {"NS": 7, "EW": 3}
    assert _stored(other.game) == _fresh(other.game)

"""Enumerated odds against closed forms and an independent count over the deck."""

from fractions import Fraction
from math import comb

import pytest

from generator.engine.cards import full_deck
from generator.games.bunco.odds import bunco_odds
from generator.games.stop_the_bus.odds import stop_the_bus_counts, stop_the_bus_odds
from generator.games.tonk.odds import tonk_dealt_odds, tonk_total_counts
from generator.games.stop_the_bus.engine import CATEGORIES
from generator.games.tonk.engine import card_value


def test_bunco_odds_match_closed_forms():
    odds = bunco_odds()
    assert odds["bunco"] == Fraction(1, 6**3)
    # Three alike, but not the target: five faces.
    assert odds["baby_bunco"] == Fraction(5, 216)
    # At least one die shows the target, or a baby bunco (which shows no target at all).
    assert odds["scoring"] == 1 - Fraction(5, 6) ** 3 + Fraction(5, 216) == Fraction(96, 216)
    assert odds["wipeout"] == 0
    assert all(bunco_odds(r) == odds for r in range(1, 7))


def test_bunco_odds_with_wipeout_depend_on_the_round():
    assert bunco_odds(1, wipeout=True) == bunco_odds(1)
    for r in range(2, 7):
        assert bunco_odds(r, wipeout=True) == {
            "bunco": Fraction(1, 216),
            "baby_bunco": Fraction(4, 216),
            "scoring": Fraction(95, 216),
            "wipeout": Fraction(1, 216),
        }
    with pytest.raises(ValueError) as error:
        bunco_odds(wipeout=True)
    assert str(error.value) == "with the wipeout rule the odds differ between rounds; give round_number"


def test_stop_the_bus_counts_match_closed_forms():
    sequences = 11  # 2-3-4 up to Q-K-A; the ace is high only
    closed = {
        "three_of_a_kind": 13 * comb(4, 3),
        "running_flush": sequences * 4,
        "run": sequences * 4**3 - sequences * 4,
        "flush": 4 * comb(13, 3) - sequences * 4,
        "pair": 13 * comb(4, 2) * 48,
        "high_card": (comb(13, 3) - sequences) * (4**3 - 4),
    }
    counts = stop_the_bus_counts()
    assert list(counts) == list(CATEGORIES)
    assert counts == closed
    assert [counts[c] for c in reversed(CATEGORIES)] == [52, 44, 660, 1100, 3744, 16500]
    assert sum(counts.values()) == comb(52, 3) == 22100


@pytest.mark.parametrize("ace_low_run", [False, True])
def test_stop_the_bus_counts_match_every_hand_of_the_deck(ace_low_run):
    """The count by rank groups against each of the 22,100 hands ranked one by one."""
    from collections import Counter
    from itertools import combinations

    from generator.games.stop_the_bus.engine import Rules, hand_rank

    rules = Rules(ace_low_run=ace_low_run)
    every = Counter(hand_rank(hand, rules=rules).category for hand in combinations(full_deck(), 3))
    assert stop_the_bus_counts(rules=rules) == {c: every[c] for c in CATEGORIES}


def test_stop_the_bus_odds():
    odds = stop_the_bus_odds()
    assert sum(odds.values()) == 1
    assert odds["three_of_a_kind"] == Fraction(52, 22100) == Fraction(1, 425)
    assert odds["high_card"] == Fraction(16500, 22100)


def count_by_deck(hand_size):
    """Subsets of the 52 actual cards by size and total, one card at a time (no value grouping)."""
    ways = [dict() for _ in range(hand_size + 1)]
    ways[0][0] = 1
    for card in full_deck():
        value = card_value(card)
        for size in range(hand_size, 0, -1):
            for total, count in ways[size - 1].items():
                ways[size][total + value] = ways[size].get(total + value, 0) + count
    return ways[hand_size]


def test_tonk_total_counts_match_a_count_over_the_deck():
    assert tonk_total_counts() == count_by_deck(5)
    assert tonk_total_counts(3) == count_by_deck(3)
    assert sum(tonk_total_counts().values()) == comb(52, 5) == 2_598_960


def test_tonk_dealt_odds_match_closed_forms():
    tens = 16  # 10, J, Q, K in four suits
    fifty = comb(tens, 5)  # five ten-value cards
    forty_nine = comb(tens, 4) * 4  # four ten-value cards and a 9
    odds = tonk_dealt_odds()
    assert (fifty, forty_nine) == (4368, 7280)
    assert odds["total_50"] == Fraction(fifty, comb(52, 5)) == Fraction(1, 595)
    assert odds["total_49"] == Fraction(forty_nine, comb(52, 5)) == Fraction(1, 357)
    assert odds["tonk"] == odds["total_49"] + odds["total_50"] == Fraction(8, 1785)

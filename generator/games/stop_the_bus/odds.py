"""Exact Stop the Bus odds, counted over the 22,100 three-card hands (never typed in)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement

from generator.engine.cards import RANKS, SUITS, Card
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.stop_the_bus.engine import CATEGORIES, hand_rank


def _hand_classes():
    """Every three-card hand, grouped by what a hand's rank can depend on: its three ranks, and whether
    its cards share a suit. Yields one hand of each group with the number of hands in it (22,100 in all)."""
    s = len(SUITS)
    for low, mid, high in combinations_with_replacement(RANKS, 3):
        if low == high:  # three of one rank: any three of its four suits
            yield (Card(low, "S"), Card(mid, "H"), Card(high, "D")), s * (s - 1) * (s - 2) // 6
        elif low == mid or mid == high:  # a pair (two suits of four) and an odd card (any suit)
            yield (Card(low, "S"), Card(mid, "H"), Card(high, "D" if mid == high else "S")), s * (s - 1) // 2 * s
        else:  # three ranks: one suit for all three, or any mix of suits
            yield (Card(low, "S"), Card(mid, "S"), Card(high, "S")), s
            yield (Card(low, "S"), Card(mid, "H"), Card(high, "S")), s ** 3 - s


@lru_cache(maxsize=None)
def _hand_counts(rules: stop_the_bus.Rules) -> tuple[tuple[str, int], ...]:
    counts: Counter[str] = Counter()
    for hand, hands in _hand_classes():
        counts[hand_rank(hand, rules=rules).category] += hands
    return tuple((category, counts[category]) for category in CATEGORIES)


def stop_the_bus_counts(*, rules: stop_the_bus.Rules = stop_the_bus.STANDARD) -> dict[str, int]:
    """How many of the 22,100 three-card hands fall in each category, worst first (as CATEGORIES)."""
    return dict(_hand_counts(rules))


def stop_the_bus_odds(*, rules: stop_the_bus.Rules = stop_the_bus.STANDARD) -> dict[str, Fraction]:
    """The chance that three cards dealt from a full deck fall in each category, worst first."""
    counts = stop_the_bus_counts(rules=rules)
    hands = sum(counts.values())
    return {category: Fraction(count, hands) for category, count in counts.items()}

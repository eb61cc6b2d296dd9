"""Exact Stop the Bus odds, counted over the 22,100 three-card hands (never typed in)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from generator.engine.cards import full_deck
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.stop_the_bus.engine import CATEGORIES, hand_rank


@lru_cache(maxsize=None)
def _hand_counts(rules: stop_the_bus.Rules) -> tuple[tuple[str, int], ...]:
    hands = combinations(full_deck(), stop_the_bus.HAND_SIZE)
    counts = Counter(hand_rank(hand, rules=rules).category for hand in hands)
    return tuple((category, counts[category]) for category in CATEGORIES)


def stop_the_bus_counts(*, rules: stop_the_bus.Rules = stop_the_bus.STANDARD) -> dict[str, int]:
    """How many of the 22,100 three-card hands fall in each category, worst first (as CATEGORIES)."""
    return dict(_hand_counts(rules))


def stop_the_bus_odds(*, rules: stop_the_bus.Rules = stop_the_bus.STANDARD) -> dict[str, Fraction]:
    """The chance that three cards dealt from a full deck fall in each category, worst first."""
    counts = stop_the_bus_counts(rules=rules)
    hands = sum(counts.values())
    return {category: Fraction(count, hands) for category, count in counts.items()}

"""Exact Tonk odds of dealt totals, counted over value multisets of the deck (never typed in)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations_with_replacement
from math import comb, prod

from generator.engine.cards import full_deck
from generator.games.tonk import engine as tonk
from generator.games.tonk.engine import card_value


@lru_cache(maxsize=None)
def _total_counts(hand_size: int) -> tuple[tuple[int, int], ...]:
    # Cards of equal value are interchangeable for the total, so count value multisets:
    # a multiset with m copies of value v stands for C(cards of value v, m) hands.
    copies = Counter(card_value(card) for card in full_deck())
    totals: Counter = Counter()
    for values in combinations_with_replacement(sorted(copies), hand_size):
        hands = prod(comb(copies[v], m) for v, m in Counter(values).items())
        if hands:  # five aces, say, cannot be dealt
            totals[sum(values)] += hands
    return tuple(sorted(totals.items()))


def tonk_total_counts(hand_size: int | None = None, *, rules: tonk.Rules = tonk.STANDARD) -> dict[int, int]:
    """How many hands of `hand_size` (default rules.hand_size) cards from a full deck have each Tonk total."""
    return dict(_total_counts(rules.hand_size if hand_size is None else hand_size))


def tonk_dealt_odds(*, rules: tonk.Rules = tonk.STANDARD) -> dict[str, Fraction]:
    """The chance that a dealt hand totals each of rules.tonk_totals (`total_49`...), or any of them (`tonk`)."""
    counts = tonk_total_counts(rules=rules)
    hands = comb(len(full_deck()), rules.hand_size)
    odds = {f"total_{t}": Fraction(counts.get(t, 0), hands) for t in rules.tonk_totals}
    odds["tonk"] = Fraction(sum(counts.get(t, 0) for t in rules.tonk_totals), hands)
    return odds

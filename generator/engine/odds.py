"""Exact odds for the sheets, counted by enumeration (never typed in), as Fractions."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb, prod

from .bunco import ROUNDS_PER_SET, score_throw
from .cards import RANKS, SUITS, full_deck
from .dice import all_throws
from .stop_the_bus import CATEGORIES, hand_rank
from .tonk import DEALT_CARDS, TONK_TOTALS, card_value


@lru_cache(maxsize=None)
def _throw_counts(round_number: int, wipeout: bool) -> tuple[tuple[str, int], ...]:
    counts = Counter()
    for dice in all_throws():
        throw = score_throw(dice, round_number, wipeout=wipeout)
        counts["bunco"] += throw.bunco
        counts["baby_bunco"] += throw.baby_bunco
        counts["scoring"] += throw.points > 0
        counts["wipeout"] += throw.wipeout
    return tuple((key, counts[key]) for key in ("bunco", "baby_bunco", "scoring", "wipeout"))


def bunco_odds(round_number: int | None = None, *, wipeout: bool = False) -> dict[str, Fraction]:
    """The chance per throw of a Bunco, a baby bunco, a scoring throw and a wipeout, over all 216 throws.

    Without `round_number` the odds of every round are counted and must agree, which
    they do unless the wipeout rule is on (round 1 has no wipeout).
    """
    rounds = range(1, ROUNDS_PER_SET + 1) if round_number is None else [round_number]
    per_round = {_throw_counts(r, wipeout) for r in rounds}
    if len(per_round) != 1:
        raise ValueError("with the wipeout rule the odds differ between rounds; give round_number")
    (counts,) = per_round
    throws = 6**3
    return {key: Fraction(count, throws) for key, count in counts}


@lru_cache(maxsize=None)
def _hand_counts() -> tuple[tuple[str, int], ...]:
    counts = Counter(hand_rank(hand).category for hand in combinations(full_deck(), 3))
    return tuple((category, counts[category]) for category in CATEGORIES)


def stop_the_bus_counts() -> dict[str, int]:
    """How many of the 22,100 three-card hands fall in each category, worst first (as CATEGORIES)."""
    return dict(_hand_counts())


def stop_the_bus_odds() -> dict[str, Fraction]:
    """The chance that three cards dealt from a full deck fall in each category, worst first."""
    counts = stop_the_bus_counts()
    hands = sum(counts.values())
    return {category: Fraction(count, hands) for category, count in counts.items()}


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


def tonk_total_counts(hand_size: int = DEALT_CARDS) -> dict[int, int]:
    """How many hands of `hand_size` cards from a full deck have each Tonk total."""
    return dict(_total_counts(hand_size))


def tonk_dealt_odds() -> dict[str, Fraction]:
    """The chance that a dealt five-card hand totals 49, 50, or either (a tonk)."""
    counts = tonk_total_counts(DEALT_CARDS)
    hands = comb(len(RANKS) * len(SUITS), DEALT_CARDS)
    low, high = TONK_TOTALS
    return {
        "total_49": Fraction(counts.get(low, 0), hands),
        "total_50": Fraction(counts.get(high, 0), hands),
        "tonk": Fraction(counts.get(low, 0) + counts.get(high, 0), hands),
    }

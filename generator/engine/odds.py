"""Exact odds for the sheets, counted by enumeration (never typed in), as Fractions."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, combinations_with_replacement
from math import comb, prod

from . import bunco, stop_the_bus, tonk
from .bunco import FIRST_ROUND, score_throw
from .cards import full_deck
from .dice import FACES, DICE_PER_THROW, all_throws
from .stop_the_bus import CATEGORIES, hand_rank
from .tonk import card_value


@lru_cache(maxsize=None)
def _throw_counts(round_number: int, rules: bunco.Rules) -> tuple[tuple[str, int], ...]:
    counts = Counter()
    for dice in all_throws():
        throw = score_throw(dice, round_number, rules=rules)
        counts["bunco"] += throw.bunco
        counts["baby_bunco"] += throw.baby_bunco
        counts["scoring"] += throw.points > 0
        counts["wipeout"] += throw.wipeout
    return tuple((key, counts[key]) for key in ("bunco", "baby_bunco", "scoring", "wipeout"))


def bunco_odds(round_number: int | None = None, *, wipeout: bool | None = None,
               rules: bunco.Rules = bunco.STANDARD) -> dict[str, Fraction]:
    """The chance per throw of a Bunco, a baby bunco, a scoring throw and a wipeout, over all 216 throws.

    Without `round_number` the odds of every round are counted and must agree, which
    they do unless the wipeout rule is on (round 1 has no wipeout).
    """
    if wipeout is not None:
        rules = replace(rules, wipeout=wipeout)
    rounds = range(FIRST_ROUND, rules.rounds_per_set + 1) if round_number is None else [round_number]
    per_round = {_throw_counts(r, rules) for r in rounds}
    if len(per_round) != 1:
        raise ValueError("with the wipeout rule the odds differ between rounds; give round_number")
    (counts,) = per_round
    throws = len(FACES) ** DICE_PER_THROW
    return {key: Fraction(count, throws) for key, count in counts}


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

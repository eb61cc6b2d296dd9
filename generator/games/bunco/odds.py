"""Exact Bunco odds per throw, counted over all 216 throws (never typed in), as Fractions."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from generator.engine.dice import DICE_PER_THROW, FACES, all_throws
from generator.games.bunco import engine as bunco
from generator.games.bunco.engine import FIRST_ROUND, score_throw


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

"""The rules of Call Break written a second time, card by card, to check the engine against.

Written from DESIGN.md ("Rules as this project reads them / Call Break") without looking at
the engine's code: a predicate per card instead of a filtered list, a sort key for the winner,
and scores in whole tenths instead of Fractions.
"""

from __future__ import annotations

from fractions import Fraction

SPADE = "S"


def may_play(card, hand, trick, *, must_overtake: bool) -> bool:
    """Whether `card` (in `hand`) may be played to `trick` (the cards already in it)."""
    if not trick:
        return True  # the leader may lead anything
    led = trick[0].suit
    if any(c.suit == led for c in hand):
        if card.suit != led:
            return False
        if not must_overtake:
            return True
        if led != SPADE and any(c.suit == SPADE for c in trick):
            return True  # trumped already: heading the led suit cannot win it
        best = max(c.rank for c in trick if c.suit == led)
        can_head = any(c.suit == led and c.rank > best for c in hand)
        return card.rank > best or not can_head
    spades = [c for c in hand if c.suit == SPADE]
    bar = max((c.rank for c in trick if c.suit == SPADE), default=0)
    if not any(c.rank > bar for c in spades):
        return True  # no spade, or none high enough to win: anything goes
    return card.suit == SPADE and card.rank > bar


def winner(trick) -> int:
    """Index of the winning card: spades beat everything, the led suit beats the rest, then rank."""
    led = trick[0].suit
    return max(range(len(trick)), key=lambda i: (trick[i].suit == SPADE, trick[i].suit == led, trick[i].rank))


def score_tenths(call: int, tricks: int, overtrick_tenths: int) -> int:
    """A deal's score counted in tenths of a point."""
    if tricks < call:
        return -10 * call
    return 10 * call + overtrick_tenths * (tricks - call)


def score(call: int, tricks: int, overtrick_tenths: int) -> Fraction:
    return Fraction(score_tenths(call, tricks, overtrick_tenths), 10)

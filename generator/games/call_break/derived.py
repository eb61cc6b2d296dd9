"""Every number the Call Break prose quotes that the engine fixes or computes, by placeholder name."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from generator.engine.cards import full_deck

from . import engine


def derive(rules: engine.Rules, facts: Mapping[str, int]) -> dict[str, int | Fraction]:
    """(rules, prose facts) -> numbers; the shape of registry.Game.derive. Odds are Fractions, counted."""
    chances = engine.odds()
    usual = engine.most_likely_spades()
    return {
        "players": engine.PLAYERS,
        "deck_size": len(full_deck()),
        "hand_size": engine.HAND_SIZE,
        "tricks_per_deal": engine.TRICKS_PER_DEAL,
        "higher_min_call": max(engine.MIN_CALL_CHOICES),
        "odds_no_spade": chances["no_spade"],
        "odds_someone_no_spade": chances["someone_no_spade"],
        "odds_no_face_card": chances["no_face_card"],
        "usual_spades": usual,
        "odds_usual_spades": engine.spade_count_odds()[usual],
    }

"""Stop the Bus: three-card hands ranked as in Brag, a token lost by the lowest hand, the pot to the last one left.

This module is what the registry reads: the engine's Rules, the numbers the prose quotes, and the
sheets, example kinds and kit the game brings (imported only when used).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from generator.core.registry import ExampleKind, Game, Number, Ref, Sheet
from generator.engine import cards
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.stop_the_bus.odds import stop_the_bus_counts


def derive(rules: stop_the_bus.Rules, facts: Mapping[str, int]) -> dict[str, Number]:
    counts = stop_the_bus_counts(rules=rules)
    total = sum(counts.values())
    values: dict[str, Number] = {
        "deck_size": len(cards.full_deck()),
        "hand_size": stop_the_bus.HAND_SIZE,
        "centre_cards": stop_the_bus.HAND_SIZE,
        "cards_swapped": stop_the_bus.CARDS_SWAPPED,
        "last_turns": stop_the_bus.LAST_TURNS,
        "tokens_lost": stop_the_bus.TOKENS_LOST,
        "min_players": stop_the_bus.MIN_PLAYERS,
        "max_players": (len(cards.full_deck()) - stop_the_bus.HAND_SIZE) // stop_the_bus.HAND_SIZE,
        "total_hands": total,
    }
    for category, n in counts.items():
        values[f"count_{category}"] = n
        values[f"odds_{category}"] = Fraction(n, total)
    return values


GAME = Game(
    id="stop-the-bus",
    rules_class=stop_the_bus.Rules,
    derive=derive,
    sheets=(Sheet("hand-ranking", "Stop the Bus: hand ranking", Ref(".sheets:hand_ranking")),
            Sheet("quick-reference", "Quick reference", Ref("generator.render.sheets:quick_reference"))),
    example_kinds={"stop-the-bus.showdown": ExampleKind(Ref(".examples:HandsIn"), Ref(".examples:ShowdownOut"),
                                                         Ref(".examples:showdown"), "stb_showdown")},
    kit=Ref(".kit:parts"),
    card=Ref(".sheets:card"),
)

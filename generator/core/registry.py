"""The games: everything game-specific (engine Rules, derived numbers, sheets) found in one place.

The build, the sheets and the templates never ask "which game is this?": they look the game up
here. A derived number is computed from the engine's Rules and structure, never typed in, so a
house rule that changes the rules changes every number that depends on them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from importlib import import_module
from typing import Any

from generator.games.bunco import engine as bunco
from generator.engine import cards, dice
from generator.games.bunco.odds import bunco_odds
from generator.games.stop_the_bus.odds import stop_the_bus_counts
from generator.games.tonk.odds import tonk_dealt_odds
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.tonk import engine as tonk

Number = int | Fraction


@dataclass(frozen=True)
class Sheet:
    """A printable sheet of a game: its artifact kind and the renderer in generator.render.sheets."""

    kind: str
    renderer: str
    #: Scorepads come one per table: the artifact is made once per table (`--tables`).
    per_table: bool = False

    def render(self, *args, **kwargs) -> str:
        return getattr(import_module("generator.render.sheets"), self.renderer)(*args, **kwargs)


@dataclass(frozen=True)
class Game:
    """One game: its id (the model file's name), its engine's Rules, derived numbers and sheets."""

    id: str
    rules_class: type
    #: (rules, prose facts) -> every number the engine computes for the prose, by placeholder name.
    derive: Callable[[Any, Mapping[str, int]], dict[str, Number]]
    sheets: tuple[Sheet, ...]

    def rule_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self.rules_class))

    def make_rules(self, values: Mapping[str, Any]):
        """The engine's Rules from plain values (lists become tuples); ValueError names a bad one."""
        clean = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
        return self.rules_class(**clean)

    def values(self, rules, facts: Mapping[str, int]) -> dict[str, Any]:
        """Every value prose may quote under `rules`: the rules, the engine's numbers, the prose-only facts."""
        return {**rule_values(rules), **self.derive(rules, facts), **facts}


def _bunco(rules: bunco.Rules, facts: Mapping[str, int]) -> dict[str, Number]:
    per_table = bunco.PLAYERS_PER_TABLE
    values: dict[str, Number] = {
        "players_per_table": per_table,
        "dice_per_table": dice.DICE_PER_THROW,
        "rounds_per_evening": rules.rounds_per_set * rules.sets_per_evening,
        "first_round": bunco.FIRST_ROUND,
        "wipeout_face": bunco.WIPEOUT_FACE,
        "small_group": 2 * per_table,
        "smallest_group": per_table,
    }
    if "usual_players" in facts:
        values["usual_tables"] = facts["usual_players"] // per_table
        values["total_dice"] = values["usual_tables"] * dice.DICE_PER_THROW
    # With the wipeout rule round 1 differs from the rest; quote the odds of a later round.
    chances = bunco_odds(bunco.FIRST_ROUND + 1 if rules.wipeout else None, rules=rules)
    values.update({f"odds_{k}": v for k, v in chances.items()})
    return values


def _stop_the_bus(rules: stop_the_bus.Rules, facts: Mapping[str, int]) -> dict[str, Number]:
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


def _tonk(rules: tonk.Rules, facts: Mapping[str, int]) -> dict[str, Number]:
    chances = tonk_dealt_odds(rules=rules)
    return {
        "deck_size": len(cards.full_deck()),
        "min_players": tonk.MIN_PLAYERS,
        "face_card_value": tonk.FACE_CARD_VALUE,
        "ace_value": tonk.ACE_VALUE,
        "book_min": min(tonk.BOOK_SIZES),
        "book_max": max(tonk.BOOK_SIZES),
        "run_min": tonk.RUN_MIN,
        "single_stake": tonk.SINGLE_STAKE,
        "held_aces": tonk.HELD_ACES,
        "odds_tonk": chances["tonk"],
    }


#: Every game has a one-page quick-reference card for the table.
QUICK_REFERENCE = Sheet("quick-reference", "quick_reference")

GAMES: dict[str, Game] = {
    "bunco": Game("bunco", bunco.Rules, _bunco,
                  (Sheet("tally-sheet", "tally_sheet"), Sheet("scorepad", "scorepad", per_table=True), QUICK_REFERENCE)),
    "stop-the-bus": Game("stop-the-bus", stop_the_bus.Rules, _stop_the_bus,
                         (Sheet("hand-ranking", "hand_ranking"), QUICK_REFERENCE)),
    "tonk": Game("tonk", tonk.Rules, _tonk, (Sheet("payout-sheet", "payout_sheet"), QUICK_REFERENCE)),
}


def game(game_id: str) -> Game:
    return GAMES[game_id]


def rule_values(rules) -> dict[str, Any]:
    """A Rules object as plain values, for prose placeholders and `when:` conditions."""
    return {f.name: getattr(rules, f.name) for f in fields(rules)}

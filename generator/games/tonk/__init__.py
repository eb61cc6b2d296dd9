"""Tonk: knock rummy for money, paid out however a hand ends.

This module is what the registry reads: the engine's Rules, the numbers the prose quotes, and the
sheets, example kinds and kit the game brings (imported only when used).
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.core.registry import ExampleKind, Game, Number, Ref, Sheet
from generator.engine import cards
from generator.games.tonk import engine as tonk
from generator.games.tonk.odds import tonk_dealt_odds


def derive(rules: tonk.Rules, facts: Mapping[str, int]) -> dict[str, Number]:
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


def _kind(input: str, expect: str, run: str, macro: str) -> ExampleKind:
    return ExampleKind(Ref(f".examples:{input}"), Ref(f".examples:{expect}"), Ref(f".examples:{run}"), macro)


GAME = Game(
    id="tonk",
    rules_class=tonk.Rules,
    derive=derive,
    sheets=(Sheet("payout-sheet", "Tonk payouts", Ref(".sheets:payout_sheet")),
            Sheet("quick-reference", "Quick reference", Ref("generator.render.sheets:quick_reference"))),
    example_kinds={
        "tonk.dealt": _kind("StakeHandsIn", "TonkTotalsOut", "dealt", "tonk_hands"),
        "tonk.knock": _kind("KnockIn", "TonkTotalsOut", "knock", "tonk_hands"),
        "tonk.stock-out": _kind("StakeHandsIn", "TonkTotalsOut", "stock_out", "tonk_hands"),
        "tonk.went-out": _kind("WentOutIn", "PayoutOut", "went_out", "tonk_went_out"),
        "tonk.spread": _kind("CardsIn", "SpreadOut", "spread", "tonk_spread"),
    },
    kit=Ref(".kit:parts"),
    card=Ref(".sheets:card"),
)

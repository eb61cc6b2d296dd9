"""Call Break: four players, each for themselves, calling their tricks with spades always trump.

This module is what the registry reads: the engine's Rules, the numbers the prose quotes, and the
sheets, example kinds and kit the game brings (imported only when used).
"""

from __future__ import annotations

from generator.core.registry import ExampleKind, Game, Ref, Sheet
from generator.games.call_break import engine
from generator.games.call_break.derived import derive


def _kind(input: str, expect: str, run: str, macro: str) -> ExampleKind:
    return ExampleKind(Ref(f".examples:{input}"), Ref(f".examples:{expect}"), Ref(f".examples:{run}"), macro)


GAME = Game(
    id="call-break",
    rules_class=engine.Rules,
    derive=derive,
    sheets=(Sheet("score-sheet", "Call Break score sheet", Ref(".sheets:score_sheet"), per_table=True),
            Sheet("quick-reference", "Quick reference", Ref("generator.render.sheets:quick_reference"))),
    example_kinds={
        "call-break.trick": _kind("TrickIn", "TrickOut", "run_trick", "cb_trick"),
        "call-break.deal-score": _kind("ScoreIn", "ScoreOut", "run_deal_score", "cb_deal_score"),
        "call-break.game-totals": _kind("GameIn", "GameOut", "run_game_totals", "cb_game_totals"),
    },
    kit=Ref(".kit:parts"),
    card=Ref(".sheets:card"),
)

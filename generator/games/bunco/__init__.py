"""Bunco: dice, four to a table, teams that move after every round.

This module is what the registry reads: the engine's Rules, the numbers the prose quotes, and the
sheets, example kinds and kit the game brings (imported only when used).
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.core.registry import ExampleKind, Game, Number, Ref, Sheet
from generator.engine import dice
from generator.games.bunco import engine as bunco
from generator.games.bunco.odds import bunco_odds


def derive(rules: bunco.Rules, facts: Mapping[str, int]) -> dict[str, Number]:
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
    values["odds_scoring_first"] = bunco_odds(bunco.FIRST_ROUND, rules=rules)["scoring"]
    return values


def _kind(name: str, macro: str) -> ExampleKind:
    return ExampleKind(Ref(f".examples:{name}In"), Ref(f".examples:{name}Out"), Ref(f".examples:{name.lower()}"), macro)


GAME = Game(
    id="bunco",
    rules_class=bunco.Rules,
    derive=derive,
    sheets=(Sheet("tally-sheet", "Bunco tally sheet", Ref(".sheets:tally_sheet"), per_page=(1, 2, 4)),
            Sheet("scorepad", "Bunco scorepad", Ref(".sheets:scorepad"), per_table=True,
                  table_label=Ref("generator.render.html:table_label")),
            Sheet("quick-reference", "Quick reference", Ref("generator.render.sheets:quick_reference"))),
    example_kinds={"bunco.throw": _kind("Throw", "bunco_throw"), "bunco.turn": _kind("Turn", "bunco_turn"),
                   "bunco.seating": _kind("Seating", "bunco_seating")},
    kit=Ref(".kit:parts"),
    card=Ref(".sheets:card"),
)

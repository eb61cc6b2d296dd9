"""Stop the Bus's worked examples: a showdown, ranked by the engine."""

from __future__ import annotations

from pydantic import Field

from generator.games.stop_the_bus import engine as stop_the_bus
from generator.model.examples import MAX_PLAYERS, Cards, Schema as _Schema


class HandsIn(_Schema):
    hands: dict[str, Cards] = Field(max_length=MAX_PLAYERS)


class ShowdownOut(_Schema):
    losers: tuple[str, ...]
    categories: dict[str, str] | None = None


def showdown(rules: stop_the_bus.Rules, i: HandsIn) -> dict:
    ranks = {p: stop_the_bus.hand_rank(h, rules=rules) for p, h in i.hands.items()}
    return {"losers": tuple(sorted(stop_the_bus.losers(i.hands, rules=rules))),
            "categories": {p: r.category for p, r in ranks.items()}}

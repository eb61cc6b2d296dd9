"""Stop the Bus's hand-ranking card, and the ranking its quick-reference card shows."""

from __future__ import annotations

from generator.edition.sheets import SheetOptions
from generator.games.stop_the_bus import engine as stop_the_bus
from generator.games.stop_the_bus.odds import stop_the_bus_counts, stop_the_bus_odds
from generator.i18n.translate import N_, Translator
from generator.render.sheets import render_sheet

#: One example hand per category, best first.
RANKING_EXAMPLES = {
    "three_of_a_kind": "7S 7H 7D",
    "running_flush": "9H 10H JH",
    "run": "4C 5D 6S",
    "flush": "2S 8S KS",
    "pair": "QD QC 5H",
    "high_card": "AH 9C 4D",
}


def ranking_rows(rules: stop_the_bus.Rules) -> list[dict]:
    """Each category, best first, with an example hand, how many of the 22,100 hands fall in it and its odds."""
    counts = stop_the_bus_counts(rules=rules)
    chances = stop_the_bus_odds(rules=rules)
    return [{"category": c, "cards": RANKING_EXAMPLES[c], "count": counts[c], "odds": chances[c]}
            for c in reversed(list(counts))]


def hand_ranking(edition, tr: Translator, opts: SheetOptions, table=None) -> str:
    rows = ranking_rows(edition.rules)
    return render_sheet("stop-the-bus/hand-ranking.html.j2", edition, tr, N_("Stop the Bus: hand ranking"),
                        "hand-ranking", rows=rows, total=sum(r["count"] for r in rows), tokens=edition.rules.tokens)


def card(edition, tr: Translator, opts: SheetOptions) -> dict:
    """The card ends with the ranking, best first, and each category's odds."""
    return {"ranking": ranking_rows(edition.rules)}

"""Stop the Bus's part of a game-night kit: a hand-ranking card, a quick-reference card and a token tracker per table."""

from __future__ import annotations

from markupsafe import Markup

from generator.edition.sheets import SheetOptions
from generator.games.stop_the_bus.sheets import hand_ranking
from generator.i18n.translate import N_, Translator
from generator.render.kit import card_part, card_tables, part, seating
from generator.render.sheets import render_sheet


def token_tracker(edition, tr: Translator, label: Markup, players: list[str]) -> str:
    return render_sheet("stop-the-bus/token-tracker.html.j2", edition, tr, N_("Stop the Bus token tracker"),
                        "token-tracker", label=label, players=players, tokens=edition.rules.tokens)


def parts(edition, tr: Translator, so: SheetOptions, names: list[str]):
    """The kit's parts in print order, who sits at each table, no ghost, card tables."""
    groups, labels = card_tables(edition, tr, names, edition.values["max_players"], edition.values["min_players"])
    n = len(groups)
    trackers = [token_tracker(edition, tr, labels[i], g) for i, g in enumerate(groups)]
    kit_parts = [
        part("hand-rankings", N_("Stop the Bus: hand ranking"), [hand_ranking(edition, tr, so)] * n, n, n),
        card_part(edition, tr, so, n),
        part("token-trackers", N_("Stop the Bus token tracker"), trackers, n, n),
    ]
    return kit_parts, seating(labels, groups), False, True

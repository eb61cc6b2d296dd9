"""The line `rulesheets kit` ends with: the players, the pages and each part counted, in the kit's language."""

from __future__ import annotations

from generator.i18n.translate import Translator
from generator.render.html import locale_globals

#: Each part of a kit counted (part ids of generator/games/*/kit.py and generator/render/kit.py), singular and
#: plural, so every language gets its own plural forms (CLDR, through the catalog's Plural-Forms).
COUNTS = {
    "table-signs": ("{count} table sign", "{count} table signs"),
    "seat-slips": ("{count} seat slip", "{count} seat slips"),
    "scorepads": ("{count} scorepad", "{count} scorepads"),
    "tally-sheets": ("{count} tally sheet", "{count} tally sheets"),
    "results": ("{count} results sheet", "{count} results sheets"),
    "score-sheets": ("{count} score sheet", "{count} score sheets"),
    "quick-reference": ("{count} quick-reference card", "{count} quick-reference cards"),
    "ledgers": ("{count} money ledger", "{count} money ledgers"),
    "payout-sheets": ("{count} payout sheet", "{count} payout sheets"),
    "token-trackers": ("{count} token tracker", "{count} token trackers"),
    "hand-rankings": ("{count} hand-ranking card", "{count} hand-ranking cards"),
}
#: The whole line: "4 players, 4 pages: 4 seat slips, 1 score sheet and 1 quick-reference card".
SUMMARY = "{players}, {pages}: {parts}"


def kit_summary(tr: Translator, players: int, pages: int, parts: list[dict]) -> str:
    """One line in the kit's language; a part no game declared here is counted by its title ("2 × Title")."""
    g = locale_globals(tr)
    counted = []
    for p in parts:
        forms = COUNTS.get(p["id"])
        counted.append(str(g["ngettext"](*forms, p["count"], count=p["count"]).striptags()) if forms
                       else f"{tr.number(p['count'])} × {g['_'](p['title']).striptags()}")
    return str(g["_"](SUMMARY, players=g["ngettext"]("{count} player", "{count} players", players, count=players),
                      pages=g["ngettext"]("{count} page", "{count} pages", pages, count=pages),
                      parts=tr.items(counted)).striptags())

"""Tonk's part of a game-night kit: a payout sheet, a card and a money ledger for each table."""

from __future__ import annotations

from markupsafe import Markup

from generator.edition.sheets import SheetOptions
from generator.games.tonk.sheets import payout_sheet
from generator.i18n.translate import N_, Translator
from generator.render.kit import card_part, card_tables, part, seating
from generator.render.sheets import render_sheet, stake_text

#: Hands on one ledger page.
LEDGER_HANDS = 20


def ledger(edition, tr: Translator, opts: SheetOptions, label: Markup, players: list[str], hands: int) -> str:
    return render_sheet("tonk/ledger.html.j2", edition, tr, N_("Tonk money ledger"), "ledger", label=label,
                        players=players, hands=hands, stake_text=stake_text(tr, opts))


def parts(edition, tr: Translator, so: SheetOptions, names: list[str]):
    """The kit's parts in print order, who sits at each table, no ghost, card tables."""
    groups, labels = card_tables(edition, tr, names, edition.values["max_players"], edition.values["min_players"])
    n = len(groups)
    ledgers = [ledger(edition, tr, so, labels[i], g, LEDGER_HANDS) for i, g in enumerate(groups)]
    kit_parts = [
        part("payout-sheets", N_("Tonk payouts"), [payout_sheet(edition, tr, so)] * n, n, n),
        card_part(edition, tr, so, n),
        part("ledgers", N_("Tonk money ledger"), ledgers, n, n),
    ]
    return kit_parts, seating(labels, groups), False, True

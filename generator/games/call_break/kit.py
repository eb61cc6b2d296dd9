"""Call Break's part of a game-night kit: seat slips for tables of four, a named score sheet and a card per table."""

from __future__ import annotations

import math

from generator.core.errors import InputError, Problem
from generator.edition.sheets import SheetOptions
from generator.i18n.translate import N_, Translator
from generator.render.html import card_table_label
from generator.render.kit import card_part, part, seating
from generator.render.sheets import render_sheet

from . import engine
from .sheets import score_sheet

#: Seat slips on one page (two columns).
SLIPS_PER_PAGE = 16


def check_count(count: int) -> None:
    """Tables of exactly four: any other count is refused, naming the nearest counts that work."""
    n = engine.PLAYERS
    if count % n == 0 and count > 0:
        return
    lower, upper = count // n * n, (count // n + 1) * n
    nearest = f"{lower} or {upper}" if lower else f"{upper}"
    raise InputError(Problem("--players", None, f"Call Break is played at tables of exactly {n}: "
                                                f"{count} players cannot be seated (try {nearest})"))


def seat_slips(edition, tr: Translator, slips: list[dict]) -> str:
    return render_sheet("call-break/seat-slips.html.j2", edition, tr, N_("Call Break seats"), "seat-slips",
                        slips=slips, per_page=SLIPS_PER_PAGE)


def parts(edition, tr: Translator, so: SheetOptions, names: list[str]):
    """Players sit in list order, four to a table; seat 1 calls and leads first, seat 4 deals first."""
    check_count(len(names))
    n = engine.PLAYERS
    groups = [names[i:i + n] for i in range(0, len(names), n)]
    labels = [card_table_label(tr, t, len(groups)) for t in range(len(groups))]
    slips = [{"name": name, "label": labels[t], "table": t + 1, "seat": s + 1, "dealer": s == n - 1}
             for t, group in enumerate(groups) for s, name in enumerate(group)]
    count = len(groups)
    sheets = [score_sheet(edition, tr, so, t, names=tuple(g), label=labels[t]) for t, g in enumerate(groups)]
    kit_parts = [
        part("seat-slips", N_("Call Break seats"), [seat_slips(edition, tr, slips)], len(slips),
             math.ceil(len(slips) / SLIPS_PER_PAGE), cut=True),
        part("score-sheets", N_("Call Break score sheet"), sheets, count, count),
        card_part(edition, tr, so, count),
    ]
    return kit_parts, seating(labels, groups), False, True

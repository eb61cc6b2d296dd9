"""Bunco's sheets: the players' tally sheets, the tables' scorepads, and what its quick-reference card adds."""

from __future__ import annotations

from babel.dates import format_date

from generator.edition.sheets import SheetOptions
from generator.i18n.translate import Translator
from generator.render.html import table_label
from generator.render.sheets import render_sheet


def sets(edition, opts: SheetOptions) -> int:
    """Sets on a tally sheet or scorepad: the host's --sets, else the rules' sets per evening."""
    return opts.sets if opts.sets is not None else edition.rules.sets_per_evening


def tally_sheet(edition, tr: Translator, opts: SheetOptions, table=None, names: tuple[str, ...] = ()) -> str:
    """Blank tally sheets (`opts.copies` pages), or one per name with the name printed (a kit)."""
    date = tr.digits(format_date(opts.date, "long", locale=tr.config.babel)) if opts.date else ""
    return render_sheet("bunco/tally-sheet.html.j2", edition, tr, "Bunco tally sheet", "tally-sheet",
                        opts=opts, sets=sets(edition, opts), date=date, names=list(names))


def scorepad(edition, tr: Translator, opts: SheetOptions, table: int) -> str:
    return render_sheet("bunco/scorepad.html.j2", edition, tr, "Bunco scorepad", "scorepad", opts=opts,
                        sets=sets(edition, opts), label=table_label(tr, table, opts.tables))


def card(edition, tr: Translator, opts: SheetOptions) -> dict:
    """The card shows the target die of each round above its points."""
    return {"card_header": "bunco/card-header.html.j2"}

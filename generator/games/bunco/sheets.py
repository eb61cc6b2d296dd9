"""Bunco's sheets: the players' tally sheets, the tables' scorepads, and what its quick-reference card adds."""

from __future__ import annotations

import math
from dataclasses import dataclass

from babel.dates import format_date

from generator.core.notes import note

from generator.edition.sheets import SheetOptions
from generator.i18n.translate import N_, Translator
from generator.render.html import table_label
from generator.render.sheets import render_sheet


def sets(edition, opts: SheetOptions) -> int:
    """Sets on a tally sheet or scorepad: the host's --sets, else the rules' sets per evening."""
    return opts.sets if opts.sets is not None else edition.rules.sets_per_evening


#: Tally columns (a set takes 2, or 3 with wipeouts) that fit one row of grids across a copy, by
#: copies per page: a full-width copy takes 12 boxes of 8 mm and the round column; a quarter page, 8.
MAX_COLUMNS = {1: 12, 2: 12, 4: 8}


@dataclass(frozen=True)
class TallyLayout:
    """How the tally grid is laid out: copies per page actually printed, and the sets of each band."""

    per_page: int
    bands: tuple[tuple[int, ...], ...]


def tally_layout(sets: int, wipeout: bool, per_page: int) -> TallyLayout:
    """Sets in bands of at most MAX_COLUMNS columns, as even as possible; copies per page reduced
    until the grid is one band (a copy of 127 mm holds one band), or one copy a page (any number)."""
    columns = 3 if wipeout else 2
    for p in (4, 2, 1):
        if p > per_page:
            continue
        per_band = MAX_COLUMNS[p] // columns
        count = math.ceil(sets / per_band)
        if count == 1 or p == 1:
            size, extra = divmod(sets, count)
            bands, start = [], 1
            for i in range(count):
                n = size + (i < extra)
                bands.append(tuple(range(start, start + n)))
                start += n
            return TallyLayout(p, tuple(bands))
    raise AssertionError("unreachable: one copy a page always fits")


def tally_sheet(edition, tr: Translator, opts: SheetOptions, table=None, names: tuple[str, ...] = ()) -> str:
    """Blank tally sheets (`opts.copies` pages), or one per name with the name printed (a kit)."""
    date = tr.digits(format_date(opts.date, "long", locale=tr.config.babel)) if opts.date else ""
    count = sets(edition, opts)
    layout = tally_layout(count, edition.rules.wipeout, opts.per_page)
    if layout.per_page != opts.per_page:
        with_wipeouts = " with wipeouts" if edition.rules.wipeout else ""
        note(f"tally sheet: {count} sets{with_wipeouts} do not fit {opts.per_page} to a page; "
             f"printed {layout.per_page} to a page")
    return render_sheet("bunco/tally-sheet.html.j2", edition, tr, N_("Bunco tally sheet"), "tally-sheet",
                        opts=opts, sets=count, date=date, names=list(names), per_page=layout.per_page,
                        bands=layout.bands)


def scorepad(edition, tr: Translator, opts: SheetOptions, table: int) -> str:
    return render_sheet("bunco/scorepad.html.j2", edition, tr, N_("Bunco scorepad"), "scorepad", opts=opts,
                        sets=sets(edition, opts), label=table_label(tr, table, opts.tables))


def card(edition, tr: Translator, opts: SheetOptions) -> dict:
    """The card shows the target die of each round above its points."""
    return {"card_header": "bunco/card-header.html.j2"}

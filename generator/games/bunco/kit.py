"""Bunco's part of a game-night kit: table signs, seat slips, scorepads, cards, named tally sheets, results."""

from __future__ import annotations

import math

from markupsafe import Markup

from generator.core.errors import InputError, Problem
from generator.edition.sheets import SheetOptions
from generator.games.bunco import engine as bunco
from generator.games.bunco.sheets import scorepad, sets, tally_layout, tally_sheet
from generator.i18n.translate import N_, Translator
from generator.render.html import model_text, table_label
from generator.render.kit import card_part, part, split_tables
from generator.render.sheets import render_sheet

#: Seat slips on one page (two columns).
SLIPS_PER_PAGE = 16


def table_signs(edition, tr: Translator, labels: list[Markup]) -> str:
    signs = [{"label": label, "head": i == 0} for i, label in enumerate(labels)]
    name = model_text(tr, edition.model.game, edition.model.name, edition.values)
    return render_sheet("bunco/table-signs.html.j2", edition, tr, N_("Table signs"), "table-signs", signs=signs,
                        game_name=name)


def seat_slips(edition, tr: Translator, slips: list[dict], per_page: int) -> str:
    return render_sheet("bunco/seat-slips.html.j2", edition, tr, N_("Seat draw for round 1"), "seat-slips",
                        slips=slips, per_page=per_page)


#: Names on one page of the results sheet: 20 rows of 9 mm boxes, with the title and the prize lines, fit Letter.
RESULTS_PER_PAGE = 20


def results_pages(players: list[str]) -> list[list[str]]:
    """The players in list order on the fewest pages of at most RESULTS_PER_PAGE, as even as possible
    (48 players: three pages of 16, not two full pages and the prize lines alone on a third)."""
    return split_tables(players, RESULTS_PER_PAGE)


def results(edition, tr: Translator, players: list[str], pages: list[list[str]]) -> str:
    """The results sheet; `pages`: the players as results_pages splits them (the kit plans as many pages)."""
    return render_sheet("bunco/results.html.j2", edition, tr, N_("Bunco results"), "results", players=players,
                        pages=pages)


def parts(edition, tr: Translator, so: SheetOptions, names: list[str]):
    """The kit's parts in print order, the tables for the contents page, whether a ghost plays, card tables."""
    try:
        seats = bunco.seats_for(names)
    except ValueError as exc:
        raise InputError(Problem("--players", None, str(exc))) from None
    count = len(seats) // bunco.PLAYERS_PER_TABLE
    ghost = bunco.GHOST in seats
    so = SheetOptions(**{**so.__dict__, "tables": count})
    labels = [table_label(tr, i, count) for i in range(count)]
    slips = []
    for t in range(count):
        # Seats a, b (team 1) and c, d (team 2); the ghost takes the last seat of the low table.
        for seat in range(bunco.PLAYERS_PER_TABLE):
            index = t * bunco.PLAYERS_PER_TABLE + seat
            if seats[index] is bunco.GHOST:
                continue
            slips.append({"table": t + 1, "label": labels[t], "team": 1 + seat // 2,
                          "ghost_partner": ghost and t == count - 1 and seat == 2})
    per_page = tally_layout(sets(edition, so), edition.rules.wipeout, so.per_page).per_page
    tally_pages = math.ceil(len(names) / per_page)
    result_pages = results_pages(names)
    kit_parts = [
        part("table-signs", N_("Table signs"), [table_signs(edition, tr, labels)], count, count),
        part("seat-slips", N_("Seat draw for round 1"), [seat_slips(edition, tr, slips, SLIPS_PER_PAGE)],
             len(slips), math.ceil(len(slips) / SLIPS_PER_PAGE), cut=True),
        part("scorepads", N_("Bunco scorepad"), [scorepad(edition, tr, so, t) for t in range(count)], count, count),
        card_part(edition, tr, so, count),
        part("tally-sheets", N_("Bunco tally sheet"), [tally_sheet(edition, tr, so, names=tuple(names))],
             len(names), tally_pages, cut=per_page > 1),
        part("results", N_("Bunco results"), [results(edition, tr, names, result_pages)], 1, len(result_pages)),
    ]
    tables = [{"label": labels[t], "names": ""} for t in range(count)]
    return kit_parts, tables, ghost, False

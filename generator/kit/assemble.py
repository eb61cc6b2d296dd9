"""`rulesheets kit GAME`: one print-ordered PDF (and its HTML) with everything a game night needs.

Every sheet in a kit is rendered by the same renderers as the sheets of a build, from the game's
edition (rules, house rules, engine numbers) and the locale's catalogs; the kit only chooses how
many of each, prints the players' names on them and puts them in print order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from generator import GAMES
from generator.edition.editions import make_edition
from generator.games.bunco import engine as bunco
from generator.core.errors import CheckFailed, InputError, Problem
from generator.model.examples import input_problems
from generator.i18n.translate import COMMON_DOMAIN, check_locales, fallback_problems, load_translator
from generator.model.loader import load_model, standard_values
from generator.kit.players import Player, check_glyphs
from generator.render import kit as kit_html
from generator.render import sheets as sheet_html
from generator.render.html import locale_globals, table_label
from generator.edition.sheets import SheetOptions

#: Seat slips on one page (two columns), and hands on one Tonk ledger page.
SLIPS_PER_PAGE = 16
LEDGER_HANDS = 20


@dataclass(frozen=True)
class KitOptions:
    game: str
    players: tuple[Player, ...]
    locale: str = "en"
    #: None: the locale's usual paper (locale.toml).
    paper: str | None = None
    sheets: SheetOptions = field(default_factory=lambda: SheetOptions(per_page=2))
    house_rules: dict = field(default_factory=dict)
    #: None: kit/ in the output folder.
    out: Path | None = None
    strict: bool = False


@dataclass(frozen=True)
class Kit:
    """A kit made in memory: its files by name, and what the contents page promises."""

    files: dict[str, bytes]
    parts: list[dict]
    pages: int


def _bad(option: str, message: str) -> InputError:
    return InputError(Problem(option, None, message))


def _split(names: list[str], size: int) -> list[list[str]]:
    """Players in list order at the fewest tables of at most `size`, as evenly as possible."""
    count = math.ceil(len(names) / size)
    base, extra = divmod(len(names), count)
    out, start = [], 0
    for i in range(count):
        n = base + (i < extra)
        out.append(names[start:start + n])
        start += n
    return out


def _part(id: str, title: str, docs: list[str], count: int, pages: int, cut: bool = False) -> dict:
    """One kind of sheet in the kit: its sheet documents (each from a fresh page), how many, how many pages."""
    return {"id": id, "title": title, "docs": docs, "count": count, "pages": pages, "cut": cut}


def _card_part(edition, tr, so: SheetOptions, tables: int) -> dict:
    """The quick-reference card, one for each table."""
    return _part("quick-reference", "Quick reference", [sheet_html.quick_reference(edition, tr, so)] * tables,
                 tables, tables)


def _bunco_parts(edition, tr, so: SheetOptions, names: list[str]):
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
    tally_pages = math.ceil(len(names) / so.per_page)
    parts = [
        _part("table-signs", "Table signs", [kit_html.table_signs(edition, tr, labels)], count, count),
        _part("seat-slips", "Seat draw for round 1", [kit_html.seat_slips(edition, tr, slips, SLIPS_PER_PAGE)],
              len(slips), math.ceil(len(slips) / SLIPS_PER_PAGE), cut=True),
        _part("scorepads", "Bunco scorepad", [sheet_html.scorepad(edition, tr, so, t) for t in range(count)],
              count, count),
        _card_part(edition, tr, so, count),
        _part("tally-sheets", "Bunco tally sheet", [sheet_html.tally_sheet(edition, tr, so, names=tuple(names))],
              len(names), tally_pages, cut=so.per_page > 1),
        _part("results", "Bunco results", [kit_html.results(edition, tr, names)], 1, 1),
    ]
    tables = [{"label": labels[t], "names": ""} for t in range(count)]
    return parts, tables, ghost, False


def _card_tables(edition, tr, names: list[str], size: int, least: int):
    if len(names) < least:
        raise InputError(Problem("--players", None, f"{edition.model.name} needs at least {least} players, "
                                                    f"got {len(names)}"))
    groups = _split(names, size)
    # Card tables are not ranked like Bunco tables: "the table", or "Table 1", "Table 2"...
    _ = locale_globals(tr)["_"]
    labels = [_("The table") if len(groups) == 1 else _("Table {number}", number=i + 1) for i in range(len(groups))]
    return groups, labels


def _seating(labels: list, groups: list[list[str]]) -> list[dict]:
    """Who sits at which card table, for the contents page.

    Names are joined by a middle dot: a list through Babel would bring Korean's formal 및.
    """
    return [{"label": label, "names": " · ".join(group)} for label, group in zip(labels, groups)]


def _tonk_parts(edition, tr, so: SheetOptions, names: list[str]):
    groups, labels = _card_tables(edition, tr, names, edition.values["max_players"], edition.values["min_players"])
    n = len(groups)
    ledgers = [kit_html.ledger(edition, tr, so, labels[i], g, LEDGER_HANDS) for i, g in enumerate(groups)]
    parts = [
        _part("payout-sheets", "Tonk payouts", [sheet_html.payout_sheet(edition, tr, so)] * n, n, n),
        _card_part(edition, tr, so, n),
        _part("ledgers", "Tonk money ledger", ledgers, n, n),
    ]
    return parts, _seating(labels, groups), False, True


def _stop_the_bus_parts(edition, tr, so: SheetOptions, names: list[str]):
    groups, labels = _card_tables(edition, tr, names, edition.values["max_players"], edition.values["min_players"])
    n = len(groups)
    trackers = [kit_html.token_tracker(edition, tr, labels[i], g) for i, g in enumerate(groups)]
    parts = [
        _part("hand-rankings", "Stop the Bus: hand ranking", [sheet_html.hand_ranking(edition, tr, so)] * n, n, n),
        _card_part(edition, tr, so, n),
        _part("token-trackers", "Stop the Bus token tracker", trackers, n, n),
    ]
    return parts, _seating(labels, groups), False, True


PARTS = {"bunco": _bunco_parts, "tonk": _tonk_parts, "stop-the-bus": _stop_the_bus_parts}


@dataclass(frozen=True)
class KitDocument:
    """A kit's HTML, checked and rendered, before it becomes a PDF."""

    html: str
    parts: list[dict]
    locale: str
    fonts: tuple[str, ...]
    paper: str


def kit_document(opts: KitOptions) -> KitDocument:
    """Check everything, then render the kit's HTML (nothing is written)."""
    if opts.game not in GAMES:
        raise _bad("kit", f"unknown game '{opts.game}' (known: {', '.join(GAMES)})")
    check_locales((opts.locale,))
    kit_folder(opts.out)
    opts.sheets.validate()
    if opts.sheets.per_page not in (2, 4):
        raise _bad("--per-page", f"a kit prints 2 or 4 tally sheets a page, got {opts.sheets.per_page}")
    unknown = sorted(set(opts.house_rules) - {opts.game})
    if unknown:
        raise InputError(Problem("--rule", None, f"a {opts.game} kit takes only {opts.game} house rules, "
                                                 f"got '{unknown[0]}'"))
    loaded = load_model(opts.game)
    problems = input_problems(loaded, standard_values(loaded.model))
    if problems:
        raise InputError(problems)
    edition = make_edition(loaded, opts.house_rules.get(opts.game, {}))
    tr = load_translator(opts.locale, (opts.game, COMMON_DOMAIN))
    paper = opts.paper or tr.config.paper
    if paper not in ("a4", "letter"):
        raise _bad("--paper", f"unknown paper '{paper}' (known: a4, letter)")
    # The group's name is printed too: it must be drawable like the players' names.
    group = [Player(opts.sheets.group, "--group")] if opts.sheets.group else []
    check_glyphs(list(opts.players) + group, tr.code, tr.config.fonts)
    names = [p.name for p in opts.players]
    parts, tables, ghost, show_tables = PARTS[opts.game](edition, tr, opts.sheets, names)
    html = kit_html.kit_document(edition, tr, opts.sheets, parts, names, tables, ghost, show_tables)
    if opts.strict:
        problems = fallback_problems({tr.code: tr})
        if problems:
            raise CheckFailed(problems)
    return KitDocument(html, parts, tr.code, tr.config.fonts, paper)


def make_kit(opts: KitOptions) -> Kit:
    """The kit's HTML and its PDF, in memory; the PDF must have the pages the contents promise."""
    from generator.fonts.pdf import print_css
    from generator.render.pdf import RenderError, html_to_pdf
    from generator.render.script import for_print

    doc = kit_document(opts)
    data, pages = html_to_pdf(for_print(doc.html, doc.locale), doc.paper, f"kit-{opts.game}",
                              print_css(doc.fonts, [doc.html]))
    planned = 1 + sum(p["pages"] for p in doc.parts)
    if pages != planned:  # the contents page would give wrong page numbers
        raise RenderError(f"kit: the contents promise {planned} pages but the PDF has {pages}")
    stem = f"{opts.game}-{doc.locale}"
    files = {f"{stem}.html": doc.html.encode("utf-8"), f"{stem}-{doc.paper}.pdf": data}
    return Kit(files, doc.parts, pages)


def kit_folder(out: Path | None) -> Path:
    """Where the kit goes: --out, or kit/ in the output folder; checked like a build's --out."""
    from generator.output.folder import check_kit_target
    from generator.core.paths import default_output

    default = default_output() / "kit"
    return check_kit_target(default if out is None else out, default)


def write_kit(out: Path, files: dict[str, bytes]) -> list[Path]:
    """Write the kit's files: only its own two files are added or replaced, under the folder's lock."""
    from generator.output.folder import write_kit_files

    return write_kit_files(out, files)

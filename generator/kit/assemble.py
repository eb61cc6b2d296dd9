"""`rulesheets kit GAME`: one print-ordered PDF (and its HTML) with everything a game night needs.

Every sheet in a kit is rendered by the same renderers as the sheets of a build, from the game's
edition (rules, house rules, engine numbers) and the locale's catalogs; the kit only chooses how
many of each, prints the players' names on them and puts them in print order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from generator.core.registry import GAMES
from generator.edition.editions import make_edition
from generator.core.errors import CheckFailed, InputError, Problem
from generator.model.examples import input_problems
from generator.i18n.translate import COMMON_DOMAIN, check_locales, fallback_problems, load_translator
from generator.model.loader import load_model, standard_values
from generator.kit.players import Player, check_glyphs
from generator.render import kit as kit_html
from generator.render.html import PAGE_COUNTER
from generator.edition.sheets import SheetOptions

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
    #: The output folder whose kit/ is the default (the project file's `out`); None: the usual output/.
    output_root: Path | None = None
    #: A print shop's PDF (--press): bleed, crop marks, PDF/X-4.
    press: bool = False


@dataclass(frozen=True)
class Kit:
    """A kit made in memory: its files by name, and what the contents page promises."""

    files: dict[str, bytes]
    parts: list[dict]
    pages: int


def _bad(option: str, message: str) -> InputError:
    return InputError(Problem(option, None, message))


@dataclass(frozen=True)
class KitDocument:
    """A kit's HTML, checked and rendered, before it becomes a PDF."""

    html: str
    parts: list[dict]
    locale: str
    fonts: tuple[str, ...]
    paper: str
    #: The counter style of page numbers in the locale's digits (decimal, devanagari, bengali).
    page_counter: str = "decimal"


def kit_document(opts: KitOptions) -> KitDocument:
    """Check everything, then render the kit's HTML (nothing is written)."""
    if opts.game not in GAMES:
        raise _bad("kit", f"unknown game '{opts.game}' (known: {', '.join(GAMES)})")
    game_parts = GAMES[opts.game].kit_parts()
    if game_parts is None:
        with_kits = ", ".join(g for g, game in GAMES.items() if game.kit is not None)
        raise _bad("kit", f"{opts.game} has no game-night kit (games with one: {with_kits})")
    check_locales((opts.locale,))
    kit_folder(opts.out, opts.output_root)
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
    parts, tables, ghost, show_tables = game_parts(edition, tr, opts.sheets, names)
    html = kit_html.kit_document(edition, tr, opts.sheets, parts, names, tables, ghost, show_tables)
    if opts.strict:
        problems = fallback_problems({tr.code: tr})
        if problems:
            raise CheckFailed(problems)
    return KitDocument(html, parts, tr.code, tr.config.fonts, paper, PAGE_COUNTER[tr.config.digits])


def make_kit(opts: KitOptions) -> Kit:
    """The kit's HTML and its PDF, in memory; the PDF must have the pages the contents promise."""
    from generator.fonts.pdf import print_css
    from generator.render.pdf import RenderError, anchor_pages, html_to_pdf
    from generator.render.script import for_print

    doc = kit_document(opts)
    laid_out: dict[str, int] = {}
    data, pages = html_to_pdf(for_print(doc.html, doc.locale), doc.paper, f"kit-{opts.game}",
                              print_css(doc.fonts, [doc.html]) + "\n" + _contents_css(doc.page_counter),
                              inspect=lambda document: laid_out.update(anchor_pages(document)), for_press=opts.press)
    # The contents page printed target-counter()s: the pages of the layout itself. Each part's page
    # is kept with it, for the report and the tests.
    parts = [{**p, "first_page": laid_out.get(p["id"])} for p in doc.parts]
    missing = [p["id"] for p in parts if p["first_page"] is None]
    if missing:  # a part without its anchor would print no page number
        raise RenderError(f"kit: the part '{missing[0]}' is not in the laid-out kit")
    # Every page belongs to the part its contents line names: a part that runs onto more pages than
    # planned (a table's last row spilled onto a page of its own) would leave pages the contents do not list.
    ends = [p["first_page"] for p in parts[1:]] + [pages + 1]
    for p, end in zip(parts, ends):
        if end - p["first_page"] != p["pages"]:
            raise RenderError(f"kit-{opts.game}: the part '{p['id']}' takes {end - p['first_page']} pages from "
                              f"page {p['first_page']}, but the contents page plans {p['pages']}")
    stem = f"{opts.game}-{doc.locale}"
    files = {f"{stem}.html": doc.html.encode("utf-8"), f"{stem}-{doc.paper}.pdf": data}
    return Kit(files, parts, pages)


def _contents_css(counter: str) -> str:
    """The contents page's page numbers, read from the layout (WeasyPrint only: a browser paginates
    otherwise, so the HTML keeps the planned numbers)."""
    return (".kit-list a.page-ref .planned { display: none; }\n"
            f".kit-list a.page-ref::after {{ content: target-counter(attr(href), page, {counter}); }}")


def kit_folder(out: Path | None, output_root: Path | None = None) -> Path:
    """Where the kit goes: --out, or kit/ in the output folder; checked like a build's --out.

    `output_root`: the output folder (the project file's `out`); None: the usual output/.
    """
    from generator.output.folder import KIT_FOLDER, check_kit_target
    from generator.core.paths import default_output

    default = (output_root or default_output()) / KIT_FOLDER
    return check_kit_target(default if out is None else out, default)


def write_kit(out: Path, files: dict[str, bytes], output_root: Path | None = None) -> list[Path]:
    """Write the kit's files: only its own files are added or replaced, under the output folder's lock."""
    from generator.output.folder import KIT_FOLDER, kit_root, write_kit_files
    from generator.core.paths import default_output

    return write_kit_files(out, files, kit_root(out, (output_root or default_output()) / KIT_FOLDER))

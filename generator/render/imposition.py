"""Imposition: pages laid out at half size put two to a side of a landscape sheet (pikepdf).

A booklet is a document laid out at A5 (half-letter on Letter) whose pages are placed in
saddle-stitch order, two to a side of an A4 (Letter) landscape sheet, padded with blank pages
to a multiple of four: printed double-sided, flipped on the short edge, the stack folded in the
middle reads in order. A card sheet puts two copies of a one-page card on one sheet, with cut
marks on the line between them.

Pages are placed at their own size, never scaled: the text keeps the size it was laid out at.
Each page becomes a form XObject, so its text stays text (pdftotext and search still find it).

The document's outline is kept, each bookmark pointing at the sheet side (and the spot on it) where
its page landed; so are its title and language. Its tag structure is not: a form XObject's marked
content no longer belongs to the source's structure tree, and a sheet side holds two pages in
imposition order (page 8 beside page 1), not reading order. An imposition is for the press, so it
claims no PDF/UA conformance (no pdfuaid in its metadata, no /MarkInfo); the rulebook PDF, built
in every run that builds a booklet, is the accessible edition.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from generator.core.errors import RulesheetsError

MM = 72 / 25.4
#: The sheet each paper is printed on (landscape, in pt), and the half-size page laid out for it.
SHEETS = {"a4": (297 * MM, 210 * MM), "letter": (11 * 72, 8.5 * 72)}
HALF_PAPER = {"a4": "a5", "letter": "half-letter"}
#: Cut marks: from this far inside the sheet's edge, this long. Home printers leave up to 6.35 mm (a quarter
#: inch) unprinted at the edges; 7 mm is past every such dead zone, and the marks end before the text.
MARK_FROM, MARK_LENGTH = 7 * MM, 6 * MM


#: The kinds made by imposition: print files, not accessible editions (no PDF/UA claim).
IMPOSED_KINDS = ("booklet", "card-sheet")

class ImpositionError(RulesheetsError):
    """A document cannot be imposed as asked (a card longer than one page, a page of the wrong size)."""

    exit_code = 1


@dataclass(frozen=True)
class Side:
    """One side of a sheet: the 1-based page numbers placed on its left and right half (None: blank)."""

    left: int | None
    right: int | None


def saddle_stitch(pages: int) -> list[Side]:
    """The sides of a saddle-stitched booklet of `pages` pages, front then back of each sheet, outer sheet first.

    The page count is padded to a multiple of four; the padding pages (after the last page) are blank.
    """
    if pages < 1:
        raise ValueError("a booklet needs at least one page")
    total = -(-pages // 4) * 4
    shown = lambda n: n if n <= pages else None  # noqa: E731
    sides = []
    for sheet in range(total // 4):
        outer, inner = 2 * sheet + 1, total - 2 * sheet
        sides.append(Side(shown(inner), shown(outer)))  # front: last page left, first right
        sides.append(Side(shown(outer + 1), shown(inner - 1)))  # back, seen after turning over the short edge
    return sides


def booklet(pdf: bytes, paper: str, name: str) -> tuple[bytes, int]:
    """`pdf`, laid out at the half size of `paper`, imposed as a booklet; returns the PDF and its sheet sides."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as src:
        sides = saddle_stitch(len(src.pages))
        _check_half(src, paper, name)
        out = _new(src)
        landed = {}
        for index, side in enumerate(sides):
            page = _sheet_page(out, paper)
            for slot, number in enumerate((side.left, side.right)):
                if number is not None:
                    landed[number - 1] = (index, _place(out, page, src.pages[number - 1], slot, paper))
        _copy_outline(src, out, landed)
        _duplex(out, short_edge=True)
        return _save(out), len(sides)


def card_sheet(pdf: bytes, paper: str, name: str) -> tuple[bytes, int]:
    """A one-page card (laid out at the half size of `paper`) twice on one sheet, with cut marks between."""
    import pikepdf

    with pikepdf.open(io.BytesIO(pdf)) as src:
        if len(src.pages) != 1:
            raise ImpositionError(f"{name}: the card needs {len(src.pages)} pages at "
                                  f"{HALF_PAPER[paper]} size; a card sheet takes a one-page card")
        _check_half(src, paper, name)
        out = _new(src)
        page = _sheet_page(out, paper)
        offsets = [_place(out, page, src.pages[0], slot, paper) for slot in (0, 1)]
        _copy_outline(src, out, {0: (0, offsets[0])})  # the bookmarks lead to the left card
        page.contents_add(_cut_marks(paper))
        _duplex(out, short_edge=False)
        return _save(out), 1


def _new(src):
    """An empty PDF with the source's title, author, language and metadata."""
    import pikepdf

    out = pikepdf.new()
    for key in ("/Title", "/Author", "/Subject", "/Keywords", "/Creator", "/Producer", "/CreationDate"):
        if key in src.docinfo:
            out.docinfo[key] = pikepdf.String(str(src.docinfo[key]))
    if "/Lang" in src.Root:
        out.Root.Lang = pikepdf.String(str(src.Root.Lang))
    # The title bar shows the document's title, as in every other PDF of the build.
    out.Root.ViewerPreferences = pikepdf.Dictionary(DisplayDocTitle=True)
    return out


def _check_half(src, paper: str, name: str) -> None:
    """Every page must fit half the sheet: placed unscaled, a larger one would be cut off."""
    width, height = SHEETS[paper]
    for number, page in enumerate(src.pages, 1):
        box = [float(v) for v in page.mediabox]
        w, h = box[2] - box[0], box[3] - box[1]
        if w > width / 2 + 0.5 or h > height + 0.5:
            raise ImpositionError(f"{name}: page {number} is {w / MM:.0f} x {h / MM:.0f} mm, larger than half "
                                  f"a {paper} sheet")


def _sheet_page(out, paper: str):
    import pikepdf

    width, height = SHEETS[paper]
    out.add_blank_page(page_size=(width, height))
    page = out.pages[-1]
    page.obj.MediaBox = pikepdf.Array([0, 0, round(width, 3), round(height, 3)])
    return page


def _place(out, page, source, slot: int, paper: str) -> tuple[float, float]:
    """`source` at its own size, centred in the left (slot 0) or right (slot 1) half of `page`; returns the
    offset that takes a point of `source` to the sheet."""
    import pikepdf

    width, height = SHEETS[paper]
    box = [float(v) for v in source.mediabox]
    w, h = box[2] - box[0], box[3] - box[1]
    x = slot * width / 2 + (width / 2 - w) / 2 - box[0]
    y = (height - h) / 2 - box[1]
    form = out.copy_foreign(source.as_form_xobject())
    name = page.add_resource(form, pikepdf.Name.XObject, prefix="Pg")
    page.contents_add(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {name} Do Q\n".encode())
    return round(x, 3), round(y, 3)


def _copy_outline(src, out, landed: dict[int, tuple[int, tuple[float, float]]]) -> None:
    """The source's bookmarks, each pointing at the side where its page landed (`landed`: source page index ->
    (side index, offset)), at the same spot on the page; a bookmark whose page is not placed is left out."""
    import pikepdf

    pages = {src.pages[i].objgen: i for i in range(len(src.pages))}

    def target(item):
        dest = item.destination
        if dest is None and item.action is not None and item.action.get("/S") == pikepdf.Name.GoTo:
            dest = item.action.get("/D")
        if isinstance(dest, (pikepdf.String, pikepdf.Name, str)):
            dest = _named_destination(src, str(dest))
        if not isinstance(dest, pikepdf.Array) or len(dest) < 2 or not isinstance(dest[0], pikepdf.Dictionary):
            return None
        found = landed.get(pages.get(dest[0].objgen))
        if found is None:
            return None
        side, (dx, dy) = found
        spot = [pikepdf.Name.XYZ, None, None, 0]
        if dest[1] == pikepdf.Name.XYZ and len(dest) >= 4:
            spot[1] = None if dest[2] is None else float(dest[2]) + dx
            spot[2] = None if dest[3] is None else float(dest[3]) + dy
        return pikepdf.Array([out.pages[side].obj, *spot])

    def copy(items, into) -> None:
        for item in items:
            dest = target(item)
            if dest is None:
                continue
            new = pikepdf.OutlineItem(str(item.title))
            new.destination = dest
            new.is_closed = item.is_closed
            into.append(new)
            copy(item.children, new.children)

    with src.open_outline() as outline_in, out.open_outline() as outline_out:
        copy(outline_in.root, outline_out.root)


def _named_destination(src, name: str):
    """A named destination's explicit array (PDF 1.2+ /Names /Dests tree, or the older /Dests dictionary)."""
    import pikepdf

    if "/Names" in src.Root and "/Dests" in src.Root.Names:
        dest = pikepdf.NameTree(src.Root.Names.Dests).get(name)
    else:
        dest = src.Root.get("/Dests", {}).get("/" + name)
    return dest.get("/D") if isinstance(dest, pikepdf.Dictionary) else dest


def _cut_marks(paper: str) -> bytes:
    """Thin black marks at both ends of the line between the two cards, outside their text."""
    width, height = SHEETS[paper]
    x = width / 2
    lines = []
    for start, end in ((MARK_FROM, MARK_FROM + MARK_LENGTH), (height - MARK_FROM, height - MARK_FROM - MARK_LENGTH)):
        lines.append(f"{x:.3f} {start:.3f} m {x:.3f} {end:.3f} l S")
    return ("q 0 G 0.5 w 0 J " + " ".join(lines) + " Q\n").encode()


def _duplex(out, short_edge: bool) -> None:
    """The print dialog's defaults: actual size (never 'fit to page'), and how the sheet turns over."""
    import pikepdf

    prefs = out.Root.ViewerPreferences
    prefs.PrintScaling = pikepdf.Name("/None")
    prefs.Duplex = pikepdf.Name.DuplexFlipShortEdge if short_edge else pikepdf.Name.Simplex


def _save(out) -> bytes:
    import pikepdf

    buffer = io.BytesIO()
    # The same input gives the same bytes (the /ID from the content, no timestamps): manifest hashes are stable.
    out.save(buffer, deterministic_id=True, compress_streams=True,
             object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return buffer.getvalue()


def make_booklet(html: str, paper: str, name: str, print_css: str, fit_start: float | None = None,
                 for_press: bool = False) -> tuple[bytes, int]:
    """The document laid out at the half size of `paper`, then imposed as a booklet."""
    from generator.render.pdf import html_to_pdf

    data, _pages = html_to_pdf(html, HALF_PAPER[paper], name, print_css)
    return _pressed(booklet(data, paper, name), for_press)


def _pressed(result: tuple[bytes, int], for_press: bool) -> tuple[bytes, int]:
    """An imposed sheet, as a print shop's file when asked (render/press.py)."""
    if not for_press:
        return result
    from generator.render import press

    return press.finish_sheet(result[0]), result[1]


def make_card_sheet(html: str, paper: str, name: str, print_css: str, fit_start: float | None = None,
                    for_press: bool = False) -> tuple[bytes, int]:
    """The card laid out at the half size of `paper` in the largest type that keeps it to one page, twice on a sheet.

    The type is the card's own fitting (render/fit.py), bounded, at the half size: a card sheet sets
    no size of its own (one here once beat the fitting's, which then grew the type without end).
    """
    from generator.render.pdf import html_to_pdf

    data, pages = html_to_pdf(html, HALF_PAPER[paper], name, print_css, fit_start=fit_start)
    if pages != 1:
        raise ImpositionError(f"{name}: the card needs {pages} pages at {HALF_PAPER[paper]} size even in "
                              f"its smallest type; a card sheet takes a one-page card")
    return _pressed(card_sheet(data, paper, name), for_press)

"""Imposition: pages laid out at half size put two to a side of a landscape sheet (pikepdf).

A booklet is a document laid out at A5 (half-letter on Letter) whose pages are placed in
saddle-stitch order, two to a side of an A4 (Letter) landscape sheet, padded with blank pages
to a multiple of four: printed double-sided, flipped on the short edge, the stack folded in the
middle reads in order. A card sheet puts two copies of a one-page card on one sheet, with cut
marks on the line between them.

Pages are placed at their own size, never scaled: the text keeps the size it was laid out at.
Each page becomes a form XObject, so its text stays text (pdftotext and search still find it).
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from generator.core.errors import RulesheetsError

MM = 72 / 25.4
#: The sheet each paper is printed on (landscape, in pt), and the half-size page laid out for it.
SHEETS = {"a4": (297 * MM, 210 * MM), "letter": (11 * 72, 8.5 * 72)}
HALF_PAPER = {"a4": "a5", "letter": "half-letter"}
#: Cut marks: from this far inside the sheet's edge (printers leave 3 to 5 mm white), this long.
MARK_FROM, MARK_LENGTH = 4 * MM, 7 * MM


#: Type sizes tried for a card, largest first, until it fits one half-size page (a house-rules box adds lines).
CARD_TYPE_PT = (12, 11, 10, 9)


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
        for side in sides:
            page = _sheet_page(out, paper)
            for slot, number in enumerate((side.left, side.right)):
                if number is not None:
                    _place(out, page, src.pages[number - 1], slot, paper)
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
        for slot in (0, 1):
            _place(out, page, src.pages[0], slot, paper)
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


def _place(out, page, source, slot: int, paper: str) -> None:
    """`source` at its own size, centred in the left (slot 0) or right (slot 1) half of `page`."""
    import pikepdf

    width, height = SHEETS[paper]
    box = [float(v) for v in source.mediabox]
    w, h = box[2] - box[0], box[3] - box[1]
    x = slot * width / 2 + (width / 2 - w) / 2 - box[0]
    y = (height - h) / 2 - box[1]
    form = out.copy_foreign(source.as_form_xobject())
    name = page.add_resource(form, pikepdf.Name.XObject, prefix="Pg")
    page.contents_add(f"q 1 0 0 1 {x:.3f} {y:.3f} cm {name} Do Q\n".encode())


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


def make_booklet(html: str, paper: str, name: str, print_css: str) -> tuple[bytes, int]:
    """The document laid out at the half size of `paper`, then imposed as a booklet."""
    from generator.render.pdf import html_to_pdf

    data, _pages = html_to_pdf(html, HALF_PAPER[paper], name, print_css)
    return booklet(data, paper, name)


def make_card_sheet(html: str, paper: str, name: str, print_css: str) -> tuple[bytes, int]:
    """The card laid out at the half size of `paper` in the largest type that keeps it to one page, twice on a sheet.

    !important: the document's own stylesheet comes after the print CSS.
    """
    from generator.render.pdf import html_to_pdf

    for size in CARD_TYPE_PT:
        data, pages = html_to_pdf(html, HALF_PAPER[paper], name,
                                  f"{print_css}\nbody.sheet {{ font-size: {size}pt !important; }}")
        if pages == 1:
            return card_sheet(data, paper, name)
    raise ImpositionError(f"{name}: the card needs {pages} pages at {HALF_PAPER[paper]} size even in "
                          f"{CARD_TYPE_PT[-1]} pt type; a card sheet takes a one-page card")

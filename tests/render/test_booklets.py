"""Booklets and card sheets (`--kinds booklet card-sheet`): imposition order, paper, padding, text, type size, cut marks."""

from __future__ import annotations

import io
import re
import subprocess
from collections import Counter
from pathlib import Path

import pikepdf
import pymupdf
import pytest

from generator.core.errors import InputError
from generator.pipeline.build import DEFAULT_KINDS, KINDS, Options, validate_options
from generator.render.imposition import ImpositionError, booklet, card_sheet, make_card_sheet, saddle_stitch

from tests.conftest import ROOT, manifest, run_cli, shared

MM = 72 / 25.4
A5, HALF_LETTER = (148 * MM, 210 * MM), (5.5 * 72, 8.5 * 72)
#: Landscape sheets in pt: A4 and US Letter.
SHEET = {"a4": (297 * MM, 210 * MM), "letter": (11 * 72, 8.5 * 72)}
HALF = {"a4": A5, "letter": HALF_LETTER}


# --- the order of the pages, from small documents made here ------------------------------------

def numbered_pdf(pages: int, size: tuple[float, float]) -> bytes:
    """A PDF whose page k shows only the word `Pk` (Helvetica), at `size`."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1,
                                                BaseFont=pikepdf.Name.Helvetica))
    for k in range(1, pages + 1):
        pdf.add_blank_page(page_size=size)
        page = pdf.pages[-1]
        page.obj.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
        page.obj.Contents = pdf.make_stream(f"BT /F1 24 Tf 60 300 Td (P{k}) Tj ET".encode())
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


def half_text(pdf: Path, side: int, slot: int, paper: str) -> str:
    """pdftotext of the left (slot 0) or right (slot 1) half of one side (1-based)."""
    width, height = SHEET[paper]
    x = int(slot * width / 2)
    out = subprocess.run(["pdftotext", "-f", str(side), "-l", str(side), "-x", str(x), "-y", "0",
                          "-W", str(int(width / 2)), "-H", str(int(height)), str(pdf), "-"],
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def folded_reading_order(sides: list[tuple[str, str]]) -> list[str]:
    """Read a printed booklet: sides come as (front, back) of each sheet, outer sheet first; the
    stack is folded in the middle. Going in, each sheet shows its front's right half, then its back's
    left half; coming out again (inner sheet first), its back's right half, then its front's left half."""
    sheets = [(sides[i], sides[i + 1]) for i in range(0, len(sides), 2)]
    first = [page for front, back in sheets for page in (front[1], back[0])]
    second = [page for front, back in reversed(sheets) for page in (back[1], front[0])]
    return first + second


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("pages", [1, 2, 3, 4, 5, 6, 7, 8, 9, 12])
def test_booklet_reads_in_order_when_printed_and_folded(tmp_path, pages, paper):
    data, sides = booklet(numbered_pdf(pages, HALF[paper]), paper, "test")
    padded = -(-pages // 4) * 4
    assert sides == padded // 2  # two pages a side
    path = tmp_path / "booklet.pdf"
    path.write_bytes(data)
    placed = [(half_text(path, s, 0, paper), half_text(path, s, 1, paper)) for s in range(1, sides + 1)]
    # Every page once, in reading order; the padding is blank and comes after the last page.
    assert folded_reading_order(placed) == [f"P{k}" for k in range(1, pages + 1)] + [""] * (padded - pages)


@pytest.mark.parametrize("pages", [4, 5, 6, 8])
def test_saddle_stitch_sides(pages):
    """As numbers: read folded, the sides give 1..pages then blanks; the two pages of a side add up to
    the padded count + 1 (the outer sheet holds the first and the last pages), even pages on the left."""
    padded = -(-pages // 4) * 4
    sides = saddle_stitch(pages)
    assert len(sides) == padded // 2
    assert folded_reading_order([(s.left, s.right) for s in sides]) == \
        list(range(1, pages + 1)) + [None] * (padded - pages)
    for side in sides:
        if None not in (side.left, side.right):
            assert side.left + side.right == padded + 1
        if side.left is not None:
            assert side.left % 2 == 0


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_size_orientation_and_print_settings(paper):
    data, _ = booklet(numbered_pdf(5, HALF[paper]), paper, "test")
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            x0, y0, x1, y1 = (float(v) for v in page.mediabox)
            assert (x1 - x0, y1 - y0) == pytest.approx(SHEET[paper], abs=0.5)
            assert x1 - x0 > y1 - y0  # landscape
        prefs = pdf.Root.ViewerPreferences
        assert prefs.Duplex == pikepdf.Name.DuplexFlipShortEdge
        assert prefs.PrintScaling == pikepdf.Name("/None")


def test_a_page_larger_than_half_the_sheet_is_refused():
    with pytest.raises(ImpositionError, match=r"^doc: page 1 is 210 x 297 mm, larger than half a a4 sheet$"):
        booklet(numbered_pdf(2, (210 * MM, 297 * MM)), "a4", "doc")


def test_a_card_of_two_pages_is_refused():
    with pytest.raises(ImpositionError, match=r"^en/x/card-sheet-a4.pdf: the card needs 2 pages"):
        card_sheet(numbered_pdf(2, A5), "a4", "en/x/card-sheet-a4.pdf")


def card_html(lines: int) -> str:
    body = "".join(f"<p style='margin:0'>Line {k} of the card</p>" for k in range(lines))
    return (f"<!DOCTYPE html><html lang='en'><head><title>Card</title><style>html {{ line-height: 1.45; }} "
            f".quick-reference {{ font-size: 12pt; }}</style></head><body class='sheet quick-reference'>"
            f'<main data-fit="page">{body}</main></body></html>')


CARD_CSS = (ROOT / "templates" / "css" / "card-sheet.css").read_text(encoding="utf-8")


def test_a_long_card_gets_smaller_type_to_stay_one_page(tmp_path):
    """36 lines do not fit an A5 card in 12 pt type: the card comes out in a smaller size, on one page;
    10 lines get the largest type that fits (render/fit.py), never less than the card's own 12 pt."""
    data, pages = make_card_sheet(card_html(36), "a4", "card", CARD_CSS)
    (tmp_path / "card.pdf").write_bytes(data)
    assert pages == 1
    assert 9 <= body_size(tmp_path / "card.pdf") < 12
    data, _ = make_card_sheet(card_html(10), "a4", "card", CARD_CSS)
    (tmp_path / "short.pdf").write_bytes(data)
    assert body_size(tmp_path / "short.pdf") > 12


def test_a_card_too_long_even_in_9_pt_is_one_line_error():
    with pytest.raises(ImpositionError) as exc:
        make_card_sheet(card_html(60), "letter", "en/x/card-sheet-letter.pdf", CARD_CSS)
    assert str(exc.value) == ("en/x/card-sheet-letter.pdf: the card needs 2 pages at half-letter size even in "
                              "its smallest type; a card sheet takes a one-page card")


# --- the kinds on the command line ------------------------------------------------------------------

def test_booklets_and_card_sheets_are_opt_in():
    assert {"booklet", "card-sheet"} <= set(KINDS)
    assert not {"booklet", "card-sheet"} & set(DEFAULT_KINDS)
    assert Options().kinds == DEFAULT_KINDS
    assert KINDS["booklet"] == KINDS["rulebook"]
    assert KINDS["card-sheet"] == KINDS["quick-reference"]


def test_booklet_without_pdf_is_one_line_error():
    with pytest.raises(InputError) as exc:
        validate_options(Options(kinds=("booklet", "card-sheet"), formats=("html",), locales=("en",)))
    assert str(exc.value.problems[0]) == ("command line: --kinds booklet card-sheet: only made as PDF, "
                                          "but --formats is html")


# --- real booklets and card sheets, built by the CLI -------------------------------------------------

LOCALES = ("en", "ko")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Tonk in English and Korean: rulebook, booklet, card sheet, on A4 and Letter (one CLI build)."""
    def make(folder: Path) -> None:
        result = run_cli(ROOT, "build", "--games", "tonk", "--locales", *LOCALES, "--kinds", "rulebook",
                         "booklet", "card-sheet", "--out", str(folder / "out"))
        assert result.returncode == 0, result.stderr
    return shared(tmp_path_factory, "booklets", make) / "out"


def entries(out: Path, kind: str) -> list[dict]:
    return [e for e in manifest(out) if e["kind"] == kind]


def test_manifest_lists_booklets_and_card_sheets(built):
    for kind in ("booklet", "card-sheet"):
        found = entries(built, kind)
        assert {(e["locale"], e["paper"]) for e in found} == {(c, p) for c in LOCALES for p in SHEET}
        assert all(e["format"] == "pdf" for e in found)  # no HTML of its own
        for e in found:
            with pikepdf.open(built / e["path"]) as pdf:
                assert len(pdf.pages) == e["pages"]
                # The title bar and screen readers get the document's title and language, as for any PDF.
                assert str(pdf.docinfo["/Title"]) and str(pdf.docinfo["/Author"]) == "rulesheets"
                assert str(pdf.Root.Lang) == e["locale"]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_real_booklet_order_paper_and_padding(built, paper):
    """Read folded, the booklet's halves show the page numbers printed on its A5 pages ("3 / 12") in
    order, then blank halves up to a multiple of four; every side is the landscape sheet."""
    for code in LOCALES:
        e = next(e for e in entries(built, "booklet") if e["locale"] == code and e["paper"] == paper)
        path = built / e["path"]
        for page in pymupdf.open(path):
            assert (page.rect.width, page.rect.height) == pytest.approx(SHEET[paper], abs=0.5)
        halves = [(half_text(path, s, 0, paper), half_text(path, s, 1, paper)) for s in range(1, e["pages"] + 1)]
        numbers = [re.findall(r"(\d+) / (\d+)", text)[-1] if text else None
                   for text in folded_reading_order(halves)]
        total = int(numbers[0][1])
        padded = -(-total // 4) * 4
        assert e["pages"] == padded // 2
        assert numbers == [(str(k), str(total)) for k in range(1, total + 1)] + [None] * (padded - total)


def body_size(path: Path) -> float:
    """The type size (pt, as printed: every transform applied) that carries the most characters."""
    sizes: Counter = Counter()
    for page in pymupdf.open(path):
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                for span in line["spans"]:
                    sizes[round(span["size"], 1)] += len(span["text"].strip())
    return sizes.most_common(1)[0][0]


def test_body_text_is_at_least_9_pt(built, tmp_path):
    for e in entries(built, "booklet"):
        assert body_size(built / e["path"]) >= 9, e["path"]
    # The measure sees scaling: an A4 page shrunk onto half a sheet (imposed by hand) falls below 9 pt.
    rulebook = next(e for e in entries(built, "rulebook") if e["locale"] == "en" and e["paper"] == "a4")
    with pikepdf.open(built / rulebook["path"]) as src:
        out = pikepdf.new()
        out.add_blank_page(page_size=SHEET["a4"])
        out.pages[0].add_overlay(out.copy_foreign(src.pages[1].as_form_xobject()),
                                 pikepdf.Rectangle(0, 0, SHEET["a4"][0] / 2, SHEET["a4"][1]))
        out.save(tmp_path / "by-hand.pdf")
    assert body_size(tmp_path / "by-hand.pdf") < 8


def words(path: Path) -> Counter:
    text = subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout
    return Counter(w for w in text.split() if any(c.isalpha() for c in w))


def test_booklet_text_is_extractable(built):
    """Every word of the rulebook is in the booklet's text, as often (the page furniture aside)."""
    for code in LOCALES:
        book = next(e for e in entries(built, "rulebook") if e["locale"] == code and e["paper"] == "a4")
        booklet_entry = next(e for e in entries(built, "booklet") if e["locale"] == code and e["paper"] == "a4")
        expected, found = words(built / book["path"]), words(built / booklet_entry["path"])
        assert sum(expected.values()) > 500
        missing = expected - found
        # The running header (the game's name) is on each page, and A5 has more pages than A4.
        assert not missing, (code, list(missing.items())[:10])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_card_sheet_is_one_page_two_cards_and_cut_marks(built, paper):
    for e in [e for e in entries(built, "card-sheet") if e["paper"] == paper]:
        doc = pymupdf.open(built / e["path"])
        assert len(doc) == 1 and e["pages"] == 1
        page = doc[0]
        width, height = SHEET[paper]
        assert (page.rect.width, page.rect.height) == pytest.approx((width, height), abs=0.5)
        # Two cards: the same text in each half, and each half at least A5 / half-letter.
        left = page.get_text(clip=pymupdf.Rect(0, 0, width / 2, height)).split()
        right = page.get_text(clip=pymupdf.Rect(width / 2, 0, width, height)).split()
        assert len(left) > 40 and left == right
        assert width / 2 >= HALF[paper][0] - 0.5 and height >= HALF[paper][1] - 0.5
        # Cut marks: vertical strokes on the line between the cards, at the top and at the bottom edge.
        marks = [item for d in page.get_drawings() for item in d["items"]
                 if item[0] == "l" and abs(item[1].x - width / 2) < 0.5 and abs(item[2].x - width / 2) < 0.5]
        ys = sorted(min(p1.y, p2.y) for _, p1, p2 in marks)
        assert len(marks) == 2 and ys[0] < 15 * MM and ys[-1] > height - 15 * MM, marks
        # No text on the cut line.
        assert not page.get_text(clip=pymupdf.Rect(width / 2 - 2, 0, width / 2 + 2, height)).strip()


def test_site_lists_booklets_and_card_sheets_that_were_built(built):
    page = (built / "site" / "en" / "tonk" / "index.html").read_text(encoding="utf-8")
    assert "booklet-a4.pdf" in page and "card-sheet-letter.pdf" in page
    assert "Rulebook as a booklet" in page


def test_site_lists_no_booklet_when_none_was_built():
    from generator.site.builder import _downloads

    class Config:
        paper = "a4"

    class Tr:
        config = Config()

    rulebook = {"game": "tonk", "locale": "en", "kind": "rulebook", "format": "pdf", "paper": "a4",
                "path": "en/tonk/rulebook-a4.pdf", "pages": 12}
    found = _downloads([rulebook], {}, {"en": Tr()}, {})
    assert [d.kind for d in found[("en", "tonk")]] == ["rulebook"]
    with_booklet = _downloads([rulebook, {**rulebook, "kind": "booklet", "path": "en/tonk/booklet-a4.pdf", "pages": 6}],
                              {}, {"en": Tr()}, {})
    assert [d.kind for d in with_booklet[("en", "tonk")]] == ["rulebook", "booklet"]

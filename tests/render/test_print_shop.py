"""The print shop's command, cell by cell (issue 38): every kind builds, within bounds, and draws in every reader.

`make test` builds the cells that hung or failed on 5 December (conftest.PRINT_SHOP_CELLS: card sheets of
three games in five locales on A4, Letter Bunco booklets in en and fr) and draws one PDF per script in
MuPDF, PDFium and poppler. `make test-full` builds every game, locale and paper of both kinds and draws
every PDF of it, of a full build and of the kits (tests/artifacts/test_pdf_drawing.py).
"""

from __future__ import annotations

import json

import pikepdf

from generator.dev import drawing


def _entries(out):
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_the_card_sheets_that_never_finished_build_within_bounds(print_shop_build):
    cards = _entries(print_shop_build[0])
    assert len(cards) == 15 and {e["kind"] for e in cards} == {"card-sheet"}
    for e in cards:
        with pikepdf.open(print_shop_build[0] / e["path"]) as pdf:
            assert len(pdf.pages) == 1, e["path"]
            # Two copies of the card on one landscape sheet: the card's own page drawn twice.
            assert len(pdf.pages[0].Resources.XObject) >= 1, e["path"]


def test_letter_bunco_booklets_pass_the_gate(print_shop_build):
    booklets = _entries(print_shop_build[1])
    assert sorted(e["path"] for e in booklets) == ["en/bunco/booklet-letter.pdf", "fr/bunco/booklet-letter.pdf"]
    assert all(e["pages"] % 2 == 0 for e in booklets)


def test_one_pdf_per_script_draws_alike_in_mupdf_pdfium_and_poppler(print_shop_build):
    """Latin, Hangul, Devanagari and Bengali, each on a card sheet; and a booklet (every PDF: make test-full)."""
    out = print_shop_build[0]
    pdfs = [out / f"{loc}/call-break/card-sheet-a4.pdf" for loc in ("en", "ko", "hi", "bn")]
    pdfs.append(print_shop_build[1] / "fr/bunco/booklet-letter.pdf")
    assert drawing.problems(pdfs) == []


def test_the_drawing_check_sees_a_face_that_mupdf_cannot_draw(tmp_path, monkeypatch):
    """Planted: the Korean cut as it was before 5 December (CIDs kept from the collection). MuPDF draws
    no Hangul from it, and the check says so, by MuPDF's message and by the page's ink."""
    from generator.fonts import pdf as pdf_fonts
    from generator.fonts import subset
    from generator.render import pdf as render_pdf
    from generator.render.pdf import html_to_pdf

    monkeypatch.setitem(subset.MAKERS, "otf", subset.cut)
    monkeypatch.setattr(subset, "CACHE_VERSION", "planted-cid-cut")
    # Characters of this test only: a cut (and a family name) no other document of this process has used.
    text = "카드 뒤집기 검사: 글자가 그려지나요? 흑백 점검표 꿹"
    html = f'<!DOCTYPE html><html lang="ko"><head><title>t</title></head><body><h1>{text}</h1><p>{text * 8}</p></body></html>'
    css = pdf_fonts.print_css(("Noto Sans CJK KR",), [html], cache_dir=tmp_path)
    monkeypatch.setattr(render_pdf, "ALLOWED_ROOTS", (tmp_path, *render_pdf.ALLOWED_ROOTS))  # the cut lives here
    data, _ = html_to_pdf(html, "a4", "planted", css)
    pdf = tmp_path / "planted.pdf"
    pdf.write_bytes(data)
    found = drawing.problems([pdf])
    assert any("MuPDF" in line for line in found), found
    assert any("different ink" in line for line in found), found

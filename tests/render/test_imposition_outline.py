"""Booklets and card sheets keep the outline (each bookmark on the sheet side where its page landed), the title
and the language; as print impositions they claim no PDF/UA (issue 32)."""

from __future__ import annotations

import io
import json
import re

import pikepdf
import pytest

from generator.render.imposition import SHEETS, booklet, card_sheet, saddle_stitch
from generator.render.pdf import html_to_pdf

PAGES = 5
CHAPTER = "অধ্যায় {}"
HTML = ('<!DOCTYPE html><html lang="bn"><head><meta charset="utf-8"><title>বাঙ্কো</title></head><body>'
        + "".join(f'<h1 style="break-before: page">{CHAPTER.format(i)}</h1><p>{i}</p><h2>অংশ {i}</h2><p>আরও</p>'
                  for i in range(1, PAGES + 1)) + "</body></html>")
CARD = ('<!DOCTYPE html><html lang="ko"><head><meta charset="utf-8"><title>통크</title></head><body>'
        '<h1>한눈에 보는 규칙</h1><p>카드</p></body></html>')


@pytest.fixture(scope="module")
def source() -> bytes:
    data, pages = html_to_pdf(HTML, "a5", "test", "")
    assert pages == PAGES
    return data


def _bookmarks(pdf: pikepdf.Pdf) -> list[tuple[str, int, float, list[str]]]:
    with pdf.open_outline() as outline:
        return [(o.title, pdf.pages.index(pikepdf.Page(o.destination[0])), float(o.destination[2]),
                 [c.title for c in o.children]) for o in outline.root]


def test_booklet_bookmarks_lead_to_the_side_and_half_where_each_page_landed(source):
    data, sides = booklet(source, "a4", "test")
    pdf = pikepdf.open(io.BytesIO(data))
    where = {n: (i, slot) for i, s in enumerate(saddle_stitch(PAGES)) for slot, n in enumerate((s.left, s.right)) if n}
    found = _bookmarks(pdf)
    assert [t for t, *_ in found] == [CHAPTER.format(i) for i in range(1, PAGES + 1)]
    half = SHEETS["a4"][0] / 2
    for number, (title, side, x, children) in enumerate(found, 1):
        assert side == where[number][0], (title, side)
        assert int(x // half) == where[number][1], (title, x)  # in the half the page was placed on
        assert children == [f"অংশ {number}"]
    assert where[1] == (0, 1) and where[2] == (1, 0)  # page 1 on the first side's right, page 2 on the back's left


def test_card_sheet_bookmarks_lead_to_the_left_card():
    data, _ = html_to_pdf(CARD, "half-letter", "card", "")
    pdf = pikepdf.open(io.BytesIO(card_sheet(data, "letter", "card")[0]))
    [(title, side, x, _)] = _bookmarks(pdf)
    assert (title, side) == ("한눈에 보는 규칙", 0) and x < SHEETS["letter"][0] / 2


@pytest.mark.parametrize("kind", ["booklet", "card-sheet"])
def test_title_and_language_kept_and_no_pdf_ua_claimed(source, kind):
    if kind == "booklet":
        data, title, lang = booklet(source, "a4", "t")[0], "বাঙ্কো", "bn"
    else:
        data, title, lang = card_sheet(html_to_pdf(CARD, "a5", "card", "")[0], "a4", "t")[0], "통크", "ko"
    pdf = pikepdf.open(io.BytesIO(data))
    assert (str(pdf.docinfo["/Title"]), str(pdf.Root.Lang)) == (title, lang)
    assert pdf.Root.ViewerPreferences.DisplayDocTitle
    # Not tagged, and saying so: no structure tree, no /MarkInfo, no pdfuaid in any metadata.
    assert "/StructTreeRoot" not in pdf.Root and "/MarkInfo" not in pdf.Root
    xmp = pdf.Root.Metadata.read_bytes().decode() if "/Metadata" in pdf.Root else ""
    assert "pdfuaid" not in xmp


def test_the_source_was_tagged_and_claimed_pdf_ua(source):
    """What the imposition leaves behind on purpose: the rulebook PDF itself is the accessible edition."""
    pdf = pikepdf.open(io.BytesIO(source))
    assert "/StructTreeRoot" in pdf.Root
    assert re.search(r"pdfuaid:part", pdf.Root.Metadata.read_bytes().decode())


def test_uacheck_leaves_out_the_impositions_the_manifest_lists(tmp_path, source, capsys):
    from generator.dev import uacheck

    (tmp_path / "bn" / "bunco").mkdir(parents=True)
    (tmp_path / "bn" / "bunco" / "booklet-a4.pdf").write_bytes(booklet(source, "a4", "t")[0])
    (tmp_path / "manifest.json").write_text(json.dumps(
        [{"game": "bunco", "locale": "bn", "kind": "booklet", "format": "pdf", "paper": "a4",
          "path": "bn/bunco/booklet-a4.pdf"}]), encoding="utf-8")
    assert uacheck.problems(tmp_path / "bn" / "bunco" / "booklet-a4.pdf")  # it would fail: it claims nothing
    assert uacheck.main([str(tmp_path)]) == 0
    assert "1 print impositions left out" in capsys.readouterr().out

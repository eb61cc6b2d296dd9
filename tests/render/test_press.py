"""`--press`: every kind as a print shop's file, tested with pikepdf (issue 38).

A page: a TrimBox at the paper's size, a BleedBox 3 mm beyond it on every side, crop marks drawn
outside the bleed; the file: PDF/X-4 in its XMP, an /OutputIntents entry (GTS_PDFX) with a
four-component ICC profile. The same input gives the same bytes. Checked on a card (WeasyPrint's
marks) and on a card sheet (imposed: the marks and intent are added to the sheet), built through the
command line and through the project file.
"""

from __future__ import annotations

import hashlib
import json

import pikepdf
import pytest

from generator.render import press
from tests.conftest import run_main

MM = 72 / 25.4
SHEETS = {"a4": (210, 297), "letter": (215.9, 279.4)}


def _mm(box) -> list[float]:
    return [round(float(v) / MM, 1) for v in box]


def _check_press_file(path, paper: str, landscape: bool = False) -> None:
    width, height = SHEETS[paper][::-1] if landscape else SHEETS[paper]
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            trim, bleed, media = _mm(page.obj.TrimBox), _mm(page.obj.BleedBox), _mm(page.obj.MediaBox)
            assert round(trim[2] - trim[0], 0) == round(width, 0) and round(trim[3] - trim[1], 0) == round(height, 0)
            assert [round(b - t, 1) for b, t in zip(bleed, trim)] == [-3.0, -3.0, 3.0, 3.0], (trim, bleed)
            assert media[0] <= bleed[0] and media[1] <= bleed[1] and media[2] >= bleed[2] and media[3] >= bleed[3]
        assert _corner_ink(path) == [True] * 4 * len(pdf.pages)  # crop marks at every corner, outside the trim
        intent, = pdf.Root.OutputIntents
        assert intent.S == "/GTS_PDFX" and intent.DestOutputProfile.N == 4
        assert intent.DestOutputProfile.read_bytes() == press.PROFILE.read_bytes()
        assert pdf.open_metadata().get("pdfxid:GTS_PDFXVersion") == "PDF/X-4"
        assert pdf.pdf_version >= "1.6"


def _corner_ink(path) -> list[bool]:
    """Whether MuPDF draws ink in each corner outside the trim box (where only crop marks are), per page."""
    import pymupdf

    zoom, found = 3, []
    with pymupdf.open(path) as doc, pikepdf.open(path) as pdf:
        for page, obj in zip(doc, pdf.pages):
            mx0, my0, mx1, my1 = (float(v) for v in obj.obj.MediaBox)
            tx0, ty0, tx1, ty1 = (float(v) for v in obj.obj.TrimBox)
            pix = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom), colorspace=pymupdf.csGRAY, alpha=False)
            samples, width = pix.samples, pix.width

            def dark(x0, x1, y0, y1):  # PDF coordinates (y up) to pixel rows (y down, from the media box's top)
                cols = slice(int((x0 - mx0) * zoom), int((x1 - mx0) * zoom))
                rows = range(int((my1 - y1) * zoom), int((my1 - y0) * zoom))
                return any(min(samples[r * width:(r + 1) * width][cols] or b"\xff") < 128 for r in rows)

            # Each corner's region reaches 1 pt into the trim: a crop mark runs along the trim's edge line.
            found += [dark(mx0, tx0 + 1, ty1 - 1, my1), dark(tx1 - 1, mx1, ty1 - 1, my1),
                      dark(mx0, tx0 + 1, my0, ty0 + 1), dark(tx1 - 1, mx1, my0, ty0 + 1)]
    return found


@pytest.fixture(scope="module")
def pressed(tmp_path_factory):
    out = tmp_path_factory.mktemp("press") / "out"
    args = ["build", "--games", "bunco", "--locales", "hi", "--papers", "letter", "--formats", "pdf",
            "--kinds", "quick-reference", "card-sheet", "--press", "--jobs", "1", "--out", str(out)]
    result = run_main(*args)
    assert result.returncode == 0, result.stderr
    return out


def test_a_card_is_a_press_file(pressed):
    _check_press_file(pressed / "hi/bunco/quick-reference-letter.pdf", "letter")


def test_a_card_sheet_is_a_press_file_with_its_cut_marks(pressed):
    _check_press_file(pressed / "hi/bunco/card-sheet-letter.pdf", "letter", landscape=True)


def test_press_files_are_the_same_bytes_every_time(pressed, tmp_path):
    again = tmp_path / "again"
    result = run_main("build", "--games", "bunco", "--locales", "hi", "--papers", "letter", "--formats", "pdf",
                      "--kinds", "quick-reference", "--press", "--jobs", "1", "--out", str(again))
    assert result.returncode == 0, result.stderr
    first = json.loads((pressed / "manifest.json").read_text())
    second = json.loads((again / "manifest.json").read_text())
    digest = {e["path"]: e["sha256"] for e in first}
    assert [digest[e["path"]] == e["sha256"] for e in second] == [True]


def test_the_project_file_asks_for_press_files_and_without_it_pdfs_stay_pdf_ua(tmp_path):
    (tmp_path / "rulesheets.toml").write_text("press = true\n", encoding="utf-8")
    args = ("build", "--games", "tonk", "--locales", "en", "--papers", "a4", "--formats", "pdf",
            "--kinds", "quick-reference", "--jobs", "1")
    result = run_main(*args, "--out", str(tmp_path / "p"), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    _check_press_file(tmp_path / "p/en/tonk/quick-reference-a4.pdf", "a4")
    plain = tmp_path / "plain"
    result = run_main(*args, "--out", str(plain))
    assert result.returncode == 0, result.stderr
    with pikepdf.open(plain / "en/tonk/quick-reference-a4.pdf") as pdf:
        page = pdf.pages[0].obj
        assert "/OutputIntents" not in pdf.Root and list(page.get("/TrimBox", page.MediaBox)) == list(page.MediaBox)
        assert pdf.open_metadata().get("pdfuaid:part") == "1"


def test_the_xmp_ids_are_made_from_the_content():
    a = b"x xmp.did:11111111-2222-3333-4444-555555555555 y /ID [(rulesheets) (0123456789abcdef0123456789abcdef)]"
    b = a.replace(b"11111111", b"99999999").replace(b"0123456789ab", b"ba9876543210")
    assert press.fixed_ids(a) == press.fixed_ids(b) and len(press.fixed_ids(a)) == len(a)
    assert press.fixed_ids(a) != press.fixed_ids(a.replace(b" y ", b" z "))
    assert hashlib.sha256(press.fixed_ids(a)).hexdigest() != hashlib.sha256(a).hexdigest()

"""Every PDF drawn alike by MuPDF, PDFium and poppler (issue 38), for `make test-full`.

`make test` draws one PDF per script (tests/render/test_print_shop.py); here every PDF of a full build,
of the print shop's build (booklets and card sheets of every game, locale and paper) and of a Bunco and
a Tonk kit in every locale is drawn by the three readers: no glyph MuPDF cannot draw, and each page's
ink within the tolerance of generator/dev/drawing.py.
"""

from __future__ import annotations

import pytest

from generator.dev import drawing
from generator.i18n.translate import discover_locales

from tests.conftest import manifest

pytestmark = pytest.mark.full


def _pdfs(out):
    return [out / e["path"] for e in manifest(out) if e["format"] == "pdf"]


def test_every_pdf_of_a_full_build_draws_alike_in_three_readers(full_build):
    pdfs = _pdfs(full_build)
    assert len(pdfs) >= 204
    assert drawing.problems(pdfs) == []


def test_every_booklet_and_card_sheet_builds_and_draws_alike(imposed_build):
    """`rulesheets build --kinds booklet card-sheet` over every game, locale and paper exited 0 (the fixture)."""
    entries = manifest(imposed_build)
    locales = discover_locales()
    assert {(e["kind"], e["locale"], e["paper"]) for e in entries} == {
        (k, loc, p) for k in ("booklet", "card-sheet") for loc in locales for p in ("a4", "letter")}
    assert drawing.problems(_pdfs(imposed_build)) == []


def test_every_kit_draws_alike(kit_build):
    kits = sorted(kit_build.glob("kit/*.pdf"))
    assert len(kits) >= 2 * len(discover_locales())
    assert drawing.problems(kits) == []

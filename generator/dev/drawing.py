"""Every PDF drawn by the three readers people use: MuPDF, PDFium and poppler, compared by ink.

Text extraction can be whole while a viewer draws nothing: the Korean cut faces were blank in MuPDF
(SumatraPDF, zathura, KOReader) and fine in the other two, with all the text extractable. So each
page is drawn by each reader, in grey at a low resolution, and its ink (the mean darkness of its
pixels, 0 white to 1 black) is compared. MuPDF's own complaints about glyphs it cannot draw are
collected too.

Why the tolerance (INK_RELATIVE, INK_ABSOLUTE): the three readers anti-alias and place glyphs
differently, and MuPDF draws hairlines (table rules, card outlines) lighter: at 72 dpi a page's ink
differs between them by at most 13.1 % of itself (measured over the booklets and card sheets of every
game and locale, 152 pages; a Stop the Bus page of card pictures is the worst), against 27 % at 36 dpi.
Faces that do not draw take far more: the Korean booklets before the cut was fixed lost 92 to 99 % of
a page's ink in MuPDF. 20 % of the page's ink, plus a floor for nearly empty pages, sits between the
two; a single glyph that fails is caught by MuPDF's own message instead.
"""

from __future__ import annotations

import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

ENGINES = ("mupdf", "pdfium", "poppler")
#: Pixels per inch of the drawings: hairlines and 7 pt text leave comparable ink in all three.
DPI = 72
INK_RELATIVE = 0.20
INK_ABSOLUTE = 0.002
#: What MuPDF says when a glyph does not draw (FreeType's words, and its own).
GLYPH_ERRORS = ("cannot render glyph", "FT_Load_Glyph", "FT_Set_Char_Size", "notdef")


@dataclass(frozen=True)
class Drawn:
    path: Path
    #: Ink of each page, per engine.
    ink: dict[str, list[float]]
    #: What MuPDF logged about glyphs while drawing.
    glyph_errors: list[str]

    def problems(self) -> list[str]:
        out = [f"{self.path}: MuPDF: {line}" for line in self.glyph_errors[:3]]
        counts = {engine: len(pages) for engine, pages in self.ink.items()}
        if len(set(counts.values())) != 1:
            return out + [f"{self.path}: page counts differ between readers: {counts}"]
        for number, inks in enumerate(zip(*self.ink.values()), 1):
            most, least = max(inks), min(inks)
            if most - least > INK_RELATIVE * most + INK_ABSOLUTE:
                shown = ", ".join(f"{e} {i:.4f}" for e, i in zip(self.ink, inks))
                out.append(f"{self.path}: page {number}: the readers draw different ink ({shown})")
        return out


def _mean_darkness(samples: bytes) -> float:
    return 1.0 - sum(samples) / (255.0 * len(samples)) if samples else 0.0


def _mupdf(path: Path) -> tuple[list[float], list[str]]:
    import pymupdf

    pymupdf.TOOLS.mupdf_display_errors(False)
    pymupdf.TOOLS.mupdf_display_warnings(False)
    pymupdf.TOOLS.reset_mupdf_warnings()
    inks = []
    with pymupdf.open(path) as doc:
        for page in doc:
            pix = page.get_pixmap(dpi=DPI, colorspace=pymupdf.csGRAY, alpha=False)
            inks.append(_mean_darkness(pix.samples))
    log = pymupdf.TOOLS.mupdf_warnings()
    errors = [line for line in log.splitlines() if any(e.lower() in line.lower() for e in GLYPH_ERRORS)]
    return inks, errors


def _pdfium(path: Path) -> list[float]:
    import pypdfium2 as pdfium

    inks = []
    doc = pdfium.PdfDocument(str(path))
    try:
        for i in range(len(doc)):
            page = doc[i]
            bitmap = page.render(scale=DPI / 72, grayscale=True)
            width, height, stride = bitmap.width, bitmap.height, bitmap.stride
            raw = bytes(bitmap.buffer)
            samples = b"".join(raw[row * stride: row * stride + width] for row in range(height))
            inks.append(_mean_darkness(samples))
            bitmap.close()
            page.close()
    finally:
        doc.close()
    return inks


def _poppler(path: Path) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(["pdftoppm", "-r", str(DPI), "-gray", str(path), f"{tmp}/p"], check=True,
                       capture_output=True)
        return [_mean_darkness(_pgm_samples(p)) for p in sorted(Path(tmp).glob("p-*.pgm"),
                                                                  key=lambda p: int(p.stem.split("-")[-1]))]


def _pgm_samples(path: Path) -> bytes:
    data = path.read_bytes()
    # P5\n<width> <height>\n<max>\n<bytes>: the header is three whitespace-separated tokens after the magic.
    fields, pos = [], 2
    while len(fields) < 3:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(int(data[start:pos]))
    width, height, _ = fields
    return data[pos + 1: pos + 1 + width * height]


def draw(path: Path) -> Drawn:
    mupdf, errors = _mupdf(path)
    return Drawn(path, {"mupdf": mupdf, "pdfium": _pdfium(path), "poppler": _poppler(path)}, errors)


def problems(paths) -> list[str]:
    return [line for path in paths for line in draw(Path(path)).problems()]


if __name__ == "__main__":  # python -m generator.dev.drawing FILE.pdf ...: each page's ink in each reader
    import sys

    for arg in sys.argv[1:]:
        drawn = draw(Path(arg))
        for number, inks in enumerate(zip(*drawn.ink.values()), 1):
            spread = (max(inks) - min(inks)) / max(inks) if max(inks) else 0.0
            print(f"{arg} p{number}: " + " ".join(f"{e}={i:.4f}" for e, i in zip(drawn.ink, inks))
                  + f" spread {spread:.1%}")
        for line in drawn.problems():
            print(line)

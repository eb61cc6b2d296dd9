"""Text fidelity of a PDF: how many words of its HTML twin come back when a PDF engine extracts its text.

A word is a run of letters, marks and digits of the HTML's visible text. Two figures per document:

- found: the extracted text holds the word once whitespace is removed (a space put inside a word is
  forgiven, a wrong, doubled or reordered letter is not);
- whole: the extracted text, cut into words the same way, holds the word itself: no space inside it,
  nothing glued to it. This is what search, copy and a screen reader need.

Both sides are NFKC normalised and case-folded (print CSS capitalises labels), and format characters
(joiners, soft hyphens) are dropped; a word hyphenated at a line end is joined again. Three readers:
poppler (pdftotext), PDFium (Chrome's PDF engine, pypdfium2) and MuPDF (SumatraPDF, Zathura, PyMuPDF).
Used by tests (which fail under 99.9 % found or 99.5 % whole) and printed by `make bench` and
`python -m generator.dev.fidelity OUT` (scripts/fidelity.py), which covers a build's kits too.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

ENGINES = ("poppler", "pdfium", "mupdf")
#: Elements whose text is not drawn as text: metadata, styles, and SVG pictures (their <title> is alt text).
_HIDDEN = {"head", "title", "style", "script", "template", "svg"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Visible(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.hidden = 0
        self.stack: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in _VOID:
            self.stack.append(tag)
            self.hidden += tag in _HIDDEN

    def handle_endtag(self, tag):
        while self.stack:
            name = self.stack.pop()
            self.hidden -= name in _HIDDEN
            if name == tag:
                break

    def handle_data(self, data):
        if not self.hidden:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The text a reader sees on the page (block boundaries become spaces)."""
    parser = _Visible()
    parser.feed(html)
    parser.close()
    return " ".join(parser.parts)


def _normal(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def words(text: str) -> list[str]:
    """Runs of letters, marks and digits: Devanagari vowel signs and viramas stay inside their word."""
    out, word = [], []
    for ch in _normal(text):
        if unicodedata.category(ch)[0] in "LMN":
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


def _joined(extracted: str) -> str:
    """Extracted text, normalised, with words hyphenated at a line end ("exam-\nple") joined again."""
    return re.sub(r"[-\u2010\u00ad][^\S\n]*\n\s*", "", _normal(extracted))


def score(expected: list[str], extracted: str) -> tuple[int, int, int, list[str]]:
    """(found, whole, total, missing words): each word counted as often as the HTML has it."""
    text = _joined(extracted)
    blob = re.sub(r"\s+", "", text)
    tokens = Counter(words(text))
    found = whole = 0
    missing = []
    for word, count in Counter(expected).items():
        hits = min(count, blob.count(word))
        found += hits
        whole += min(count, tokens[word])
        if hits < count:
            missing.append(word)
    return found, whole, len(expected), missing


def extract(pdf: Path, engine: str) -> str:
    """All text of a PDF as one engine reads it: poppler's pdftotext, PDFium (Chrome's PDF engine) or MuPDF."""
    if engine == "poppler":
        if not shutil.which("pdftotext"):
            raise RuntimeError("pdftotext (poppler-utils) is not installed")
        return subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
    if engine == "pdfium":
        import pypdfium2 as pdfium

        doc = pdfium.PdfDocument(str(pdf))
        try:
            texts = []
            for page in doc:
                textpage = page.get_textpage()
                texts.append(textpage.get_text_range())
                textpage.close()
                page.close()
            return "\n".join(texts)
        finally:
            doc.close()
    if engine == "mupdf":
        import pymupdf

        with pymupdf.open(str(pdf)) as doc:
            return "\n".join(page.get_text() for page in doc)
    raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")


@dataclass(frozen=True)
class Fidelity:
    """Words of HTML twins found (and found whole) in the PDFs' extracted text, summed over some documents."""

    found: int
    total: int
    #: A few words that did not come back, for the failure message.
    missing: tuple[str, ...] = ()
    whole: int = 0
    #: A few documents whose words did not all come back whole.
    split_in: tuple[str, ...] = ()

    @property
    def percent(self) -> float:
        return 100.0 * self.found / self.total if self.total else 100.0

    @property
    def percent_whole(self) -> float:
        return 100.0 * self.whole / self.total if self.total else 100.0

    def __add__(self, other: Fidelity) -> Fidelity:
        return Fidelity(self.found + other.found, self.total + other.total, (self.missing + other.missing)[:12],
                        self.whole + other.whole, (self.split_in + other.split_in)[:12])


def pdf_fidelity(pdf: Path, html: str, engine: str = "poppler") -> Fidelity:
    found, whole, total, missing = score(words(visible_text(html)), extract(pdf, engine))
    return Fidelity(found, total, tuple(missing[:12]), whole, (pdf.name,) if whole < total else ())


def twins(out: Path, entries: list[dict], kits: bool = True) -> list[tuple[str, Path, Path]]:
    """(locale, PDF, its HTML twin) for every PDF of a build's manifest and, with `kits`, of its kit/ folder
    (`GAME-LANG-PAPER.pdf` beside `GAME-LANG.html`)."""
    html = {(e["game"], e["locale"], e["kind"], e.get("table")): e for e in entries if e["format"] == "html"}
    pairs = []
    for e in entries:
        if e["format"] == "pdf":
            twin = html[(e["game"], e["locale"], e["kind"], e.get("table"))]
            pairs.append((e["locale"], out / e["path"], out / twin["path"]))
    if kits and (out / "kit").is_dir():
        for pdf in sorted((out / "kit").glob("*.pdf")):
            stem, _, _paper = pdf.stem.rpartition("-")
            page = pdf.with_name(stem + ".html")
            if page.is_file():
                pairs.append((stem.rpartition("-")[2], pdf, page))
    return pairs


def by_locale(out: Path, entries: list[dict], engine: str = "poppler",
              html_for=None, kits: bool = True) -> dict[str, Fidelity]:
    """Fidelity per locale over every PDF of a build's manifest (and its kits), each against its HTML twin.

    `html_for(entry)` gives the twin's HTML of a manifest entry; by default the build's own HTML
    artifact beside it (a different `html_for` leaves the kits out).
    """
    result: dict[str, Fidelity] = {}
    if html_for:
        index = {(e["game"], e["locale"], e["kind"], e.get("table")): e for e in entries if e["format"] == "html"}
        docs = [(e["locale"], out / e["path"], html_for(index[(e["game"], e["locale"], e["kind"], e.get("table"))]))
                for e in entries if e["format"] == "pdf"]
    else:
        docs = [(loc, pdf, page.read_text(encoding="utf-8")) for loc, pdf, page in twins(out, entries, kits)]
    for locale, pdf, html in docs:
        f = pdf_fidelity(pdf, html, engine)
        result[locale] = result.get(locale, Fidelity(0, 0)) + f
    return result


def table(out: Path, engines=ENGINES, kits: bool = True) -> str:
    """A Markdown table: per locale, for each reader, the words found and the words found whole."""
    import json

    entries = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    scores = {engine: by_locale(out, entries, engine, kits=kits) for engine in engines}
    locales = sorted({loc for s in scores.values() for loc in s})
    lines = ["| locale | " + " | ".join(f"{e} found | {e} whole" for e in engines) + " |",
             "|---|" + "---|---|" * len(engines)]
    for loc in locales:
        cells = [f"{scores[e][loc].percent:.2f} % | {scores[e][loc].percent_whole:.2f} %" for e in engines]
        lines.append(f"| {loc} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m generator.dev.fidelity",
                                     description="Words of each HTML twin found in its PDF's text, per locale and reader.")
    parser.add_argument("out", type=Path, help="a build's output folder (with manifest.json; kit/ is read too)")
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"comma-separated, of {', '.join(ENGINES)}")
    parser.add_argument("--no-kits", action="store_true", help="leave out the kits in OUT/kit/")
    args = parser.parse_args(argv)
    if not (args.out / "manifest.json").is_file():
        parser.exit(2, f"{args.out}: no manifest.json here; give a build's output folder\n")
    engines = [e for e in args.engines.split(",") if e]
    unknown = [e for e in engines if e not in ENGINES]
    if unknown:
        parser.exit(2, f"--engines: unknown reader {unknown[0]!r} (known: {', '.join(ENGINES)})\n")
    print(table(args.out, engines, kits=not args.no_kits))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

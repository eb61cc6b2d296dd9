"""Text fidelity of a PDF: how many words of its HTML twin come back when a PDF engine extracts its text.

A word is a run of letters, marks and digits of the HTML's visible text. It counts as found when the
extracted text holds it once whitespace is removed (extractors put spaces inside Indic words when
clusters sit apart; that is forgiven, a wrong or reordered letter is not). Both sides are NFKC
normalised and case-folded (print CSS capitalises labels), and format characters (joiners, soft
hyphens) are dropped. Used by tests (which fail under 99.9 %) and printed by `make bench`.
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

ENGINES = ("poppler", "pdfium")
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


def score(expected: list[str], extracted: str) -> tuple[int, int, list[str]]:
    """(found, total, missing words): each word counted as often as the HTML has it."""
    # A word broken at a line end by hyphenation comes back as "exam-\nple".
    blob = re.sub(r"\s+", "", re.sub(r"[-\u2010\u00ad]\s*\n", "", _normal(extracted)))
    found, missing = 0, []
    for word, count in Counter(expected).items():
        hits = min(count, blob.count(word))
        found += hits
        if hits < count:
            missing.append(word)
    return found, len(expected), missing


def extract(pdf: Path, engine: str) -> str:
    """All text of a PDF as one engine reads it: poppler's pdftotext, or PDFium (Chrome's PDF engine)."""
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
    raise ValueError(f"unknown engine {engine!r} (known: {', '.join(ENGINES)})")


@dataclass(frozen=True)
class Fidelity:
    """Words of HTML twins found in the PDFs' extracted text, summed over some documents."""

    found: int
    total: int
    #: A few words that did not come back, for the failure message.
    missing: tuple[str, ...] = ()

    @property
    def percent(self) -> float:
        return 100.0 * self.found / self.total if self.total else 100.0

    def __add__(self, other: Fidelity) -> Fidelity:
        return Fidelity(self.found + other.found, self.total + other.total, (self.missing + other.missing)[:12])


def pdf_fidelity(pdf: Path, html: str, engine: str = "poppler") -> Fidelity:
    found, total, missing = score(words(visible_text(html)), extract(pdf, engine))
    return Fidelity(found, total, tuple(missing[:12]))


def by_locale(out: Path, entries: list[dict], engine: str = "poppler",
              html_for=None) -> dict[str, Fidelity]:
    """Fidelity per locale over every PDF of a build's manifest, each against its HTML twin.

    `html_for(entry)` gives the twin's HTML; by default the build's own HTML artifact beside it.
    """
    twins = {(e["game"], e["locale"], e["kind"], e.get("table")): e for e in entries if e["format"] == "html"}
    result: dict[str, Fidelity] = {}
    for e in entries:
        if e["format"] != "pdf":
            continue
        twin = twins[(e["game"], e["locale"], e["kind"], e.get("table"))]
        html = html_for(twin) if html_for else (out / twin["path"]).read_text(encoding="utf-8")
        f = pdf_fidelity(out / e["path"], html, engine)
        result[e["locale"]] = result.get(e["locale"], Fidelity(0, 0)) + f
    return result

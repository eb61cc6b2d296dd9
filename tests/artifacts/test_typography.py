"""Typography by machine, over every built HTML artifact and the text of every PDF (pdftotext): French
no-break spaces, native digits and dandas in Bengali and Nepali, no doubled spaces, Korean counters."""

from __future__ import annotations

import re
from functools import cache
import tomllib
from pathlib import Path

import pytest

from tests.builtdocs import PDF_CARD_FACE, blocks, documents, pdf_text
from tests.conftest import ROOT

NBSP, NNBSP = "\u00a0", "\u202f"
#: The letters of each Indic script (its digits left out: "১. ট্রেল" numbers a list).
INDIC = {"hi": "\u0900-\u0965\u0970-\u097f", "ne": "\u0900-\u0965\u0970-\u097f", "bn": "\u0980-\u09e5\u09f0-\u09ff"}
NATIVE_DIGITS = ("bn", "ne")
#: Abbreviations that end in a full stop in running text: the Nepali rupee.
ABBREVIATIONS = ("रु.",)


@cache
def _korean_counter_space() -> re.Pattern:
    """A number, a space, then one of the glossary's counters (개, 명, ...): Korean writes them together."""
    with (ROOT / "locales" / "ko" / "glossary.toml").open("rb") as fh:
        counters = tomllib.load(fh)["typography"]["counters"]
    alternatives = "|".join(map(re.escape, sorted(counters, key=len, reverse=True)))
    return re.compile(rf"[0-9][ \u00a0\u202f]+(?:{alternatives})(?![코돈])")


def html_problems(lang: str, html: str) -> list[str]:
    found = []
    for block in blocks(html, drop_cards=False):
        found += [f"doubled space: {m.group(0)!r}" for m in re.finditer(r".{0,20}[ \u00a0\u202f]{2}.{0,20}", block)]
    for block in blocks(html):
        found += line_problems(lang, block)
        if lang in INDIC and re.search("।", block) and not re.search(r"[।?!:;)”’»]$", block):
            found.append(f"no danda at the end: {block[-40:]!r}")
    return found


def line_problems(lang: str, line: str) -> list[str]:
    """Faults any text of the language shows, in HTML or PDF: punctuation spacing, digits, full stops."""
    found = []
    if lang == "fr":
        found += [f"plain space before {m.group(1)!r}: {m.group(0)!r}"
                  for m in re.finditer(r".{0,20} ([:;!?]).{0,10}", line)]
        found += [f"no space before {m.group(1)!r}: {m.group(0)!r}"
                  for m in re.finditer(r".{0,20}[^\s\u00a0\u202f\d]([;!?]|:(?=\s)).{0,10}", line)
                  if not re.search(r"https?:|&\w+;", m.group(0))]
        found += [f"« without a no-break space: {m.group(0)!r}" for m in re.finditer(r"«[^\u00a0\u202f].{0,20}", line)]
        found += [f"» without a no-break space: {m.group(0)!r}" for m in re.finditer(r".{0,20}[^\u00a0\u202f]»", line)]
    if lang in NATIVE_DIGITS:
        found += [f"Latin digit: {m.group(0)!r}" for m in re.finditer(r".{0,20}[0-9].{0,20}", line)]
    if lang in INDIC:
        letters = INDIC[lang]
        for m in re.finditer(rf"\S*[{letters}]\.(?=\s|$|[”’)])", line):
            if not m.group(0).endswith(ABBREVIATIONS):
                found.append(f"full stop, not a danda: {line[max(0, m.start() - 20):m.end() + 5]!r}")
    if lang == "ko":
        found += [f"space between a number and its counter: {m.group(0)!r}"
                  for m in _korean_counter_space().finditer(line)]
    return found


def pdf_problems(lang: str, text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        line = PDF_CARD_FACE.sub(" ", line) if lang in NATIVE_DIGITS else line
        if lang == "fr":
            # pdftotext reads a no-break space as a space: what shows is a line broken where it must not be.
            if re.match(r"\s*[:;!?»]", line) or re.search(r"«\s*$", line):
                found.append(f"line broken at a no-break space: {line!r}")
            found += [p for p in line_problems(lang, line) if not p.startswith(("plain space", "«", "»"))]
        else:
            found += line_problems(lang, line)
    return found


TRANSLATED = sorted(p.parent.name for p in (ROOT / "locales").glob("*/glossary.toml"))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_html_typography(html_build, lang):
    docs = [d for d in documents(html_build) if d.lang == lang]
    assert len(docs) > 15
    found = [f"{d.name}: {p}" for d in docs for p in html_problems(lang, d.path.read_text(encoding="utf-8"))]
    assert not found


@pytest.mark.parametrize("lang", TRANSLATED)
def test_pdf_typography(pdf_build, kit_build, lang):
    pdfs = sorted((pdf_build / lang).rglob("*.pdf")) + sorted((kit_build / "kit").glob(f"*-{lang}-*.pdf"))
    assert len(pdfs) > 10
    found = [f"{p.name}: {problem}" for p in pdfs for problem in pdf_problems(lang, pdf_text(p))]
    assert not found


@pytest.mark.parametrize("lang,good,bad", [
    ("fr", f"Mise{NBSP}: 1 €. Criez-le{NNBSP}! dites «{NBSP}Arrêtez le bus{NNBSP}!{NBSP}»",
     "Mise : 1 €. Criez-le ! dites « Arrêtez le bus ! »"),
    ("bn", "<p>বাজি: ৳১০। <span class=\"card spades\">K<span class=\"suit\">♠</span></span></span></p>",
     "<p>বাজি: ৳10। <span class=\"card spades\">K<span class=\"suit\">♠</span></span></span></p>"),
    ("ne", "<p>बाजी त्यहीँ सकिन्छ। दाउ: रु. १०।</p>", "<p>बाजी त्यहीँ सकिन्छ. दाउ: रु. १०।</p>"),
    ("hi", "<p>इक्का सिर्फ़ छोटा है। फिर फेंकिए।</p>", "<p>इक्का सिर्फ़ छोटा है। फिर फेंकिए</p>"),
    ("ko", "<li>모두 토큰 3개로 시작해요.</li>", "<li>모두 토큰 3 개로 시작해요.</li>"),
    ("ko", "<li>토큰 1개를  잃어요.</li>", "<li>토큰 1개를  잃어요.</li>"),
])
def test_a_planted_mistake_is_found(lang, good, bad):
    """Each rule fails on the mistake it is there for (the last case: a doubled space, both sides)."""
    if good != bad:
        assert not html_problems(lang, f"<p>{good}</p>" if not good.startswith("<") else good)
    assert html_problems(lang, f"<p>{bad}</p>" if not bad.startswith("<") else bad)


def test_a_french_line_broken_before_a_colon_is_found():
    assert pdf_problems("fr", "Mise\n: 1 €") and not pdf_problems("fr", "Mise : 1 €")

"""The site's search index: each rulebook section's words, per locale, as a script that also opens from disk."""

from __future__ import annotations

import json
import re
from typing import Callable

from generator.core.htmlscan import FastHTMLParser

#: Elements whose text is chrome, not rules (heading anchors, back-to-contents links).
SKIP_ATTR = "data-nosearch"
#: Elements whose end separates words (blocks, table cells, drawn cards).
BLOCKS = {"p", "li", "td", "th", "tr", "h2", "h3", "h4", "div", "figcaption", "dt", "dd", "blockquote"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


class _Sections(FastHTMLParser):
    """The game's name, its tagline and every <section id> of <main>: (id, title, text)."""

    def __init__(self) -> None:
        self.name = self.tagline = ""
        #: [id, title parts, text parts] of each section.
        self.sections: list[list] = []
        self._stack: list[tuple[str, bool, bool]] = []  # (tag, skipped, separates words)
        self._skipped = 0  # open elements whose text is left out
        self._in_section = 0  # open <section> elements
        self._into: str | None = None  # "name", "tagline", "title" or "text"

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in VOID:
            return
        classes = (a.get("class") or "").split()
        # The print section lists PDFs, not rules.
        skipped = SKIP_ATTR in a or "visually-hidden" in classes or (tag == "section" and a.get("id") == "print")
        self._stack.append((tag, skipped, tag in BLOCKS or "card" in classes))
        self._skipped += skipped
        self._in_section += tag == "section"
        if tag == "section" and a.get("id") and a.get("id") != "print":
            self.sections.append([a["id"], [], []])
        elif tag == "h1":
            self._into = "name"
        elif tag == "p" and "tagline" in classes and not self.sections:
            self._into = "tagline"
        elif tag == "h2" and self.sections and not self.sections[-1][1]:
            self._into = "title"

    def handle_endtag(self, tag):
        while self._stack:
            open_tag, skipped, separates = self._stack.pop()
            self._skipped -= skipped
            self._in_section -= open_tag == "section"
            if separates and self.sections:
                self.sections[-1][2].append(" ")
            if open_tag == tag:
                break
        if tag in ("h1", "h2", "p"):
            self._into = None if self._into in ("name", "tagline", "title") else self._into

    def handle_data(self, data):
        if self._skipped:
            return
        if self._into == "name":
            self.name += data
        elif self._into == "tagline":
            self.tagline += data
        elif self.sections and self._in_section:
            self.sections[-1][1 if self._into == "title" else 2].append(data)


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def page_entries(path: str, html: str) -> list[list[str]]:
    """[href, game name, section id ("" for the top of the page), title, text] for one rulebook page."""
    p = _Sections()
    p.feed(html)
    name = _squash(p.name)
    out = [[path, name, "", name, _squash(p.tagline)]]
    for sid, title, text in p.sections:
        out.append([path, name, sid, _squash("".join(title)), _squash("".join(text))])
    return out


def search_script(entries: list[list[str]], count_text: Callable[[int], str]) -> str:
    """search/<code>.js: a call to rulesheetsSearch(...) that site.js defines, from the rulebook pages' page_entries.

    A script, not JSON: a page opened from disk may load scripts but not fetch files. Every section
    goes in whole (a few dozen kB per language), so site.js can match any substring: Korean particles
    (주사위를 finds 주사위) and Indic inflections need no word list or stemmer.
    """
    counts = [count_text(n) for n in range(1, len(entries) + 1)]
    data = json.dumps({"entries": entries, "counts": counts}, ensure_ascii=False, separators=(",", ":"))
    # "</" cannot end a script that is only ever loaded by src, but keep the file safe to inline anyway.
    return "rulesheetsSearch(" + data.replace("</", "<\\/") + ");\n"

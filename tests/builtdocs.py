"""The artifacts of a CLI build as a reader sees them: each HTML file's text, its language, game and English twin."""

from __future__ import annotations

import html as htmllib
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from generator import GAMES  # every registered game, so a plugged-in game's pages carry its id

#: A drawn card: `<span class="card …">` around a rank and a suit span; its Latin rank is the card's face.
CARD_FACE = re.compile(r'<span class="card [^"]*"[^>]*>.*?</span></span>', re.S)
#: A card face as pdftotext reads it: "10♦", "K♠".
PDF_CARD_FACE = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
#: Block elements: a sentence never runs across their boundaries.
_BLOCK_END = re.compile(r"</(p|li|h[1-6]|td|th|dt|dd|caption|figcaption|title|div|section|summary|label|button|option)>")


@dataclass(frozen=True)
class Doc:
    path: Path
    lang: str
    game: str | None
    twin: Path | None  # the same artifact in English

    @property
    def name(self) -> str:
        return "/".join(self.path.parts[-3:])


def documents(out: Path) -> list[Doc]:
    """Every translated HTML artifact of a build: locale folders, the locale's site pages and the kits."""
    docs = []
    for path in sorted(out.rglob("*.html")):
        rel = path.relative_to(out).parts
        if rel[0] == "kit":
            m = re.fullmatch(r"(.+)-([A-Za-z-]+?)\.html", rel[1])
            if not m or m.group(2) == "en":
                continue
            game, lang = m.group(1), m.group(2)
            twin = path.with_name(f"{game}-en.html")
        elif rel[0] == "site":
            if len(rel) < 3 or rel[1] == "en":
                continue  # the chooser and 404 speak every language at once
            lang, game = rel[1], (rel[2] if rel[2] in GAMES else None)
            twin = out.joinpath("site", "en", *rel[2:])
        else:
            if rel[0] == "en":
                continue
            lang, game = rel[0], (rel[1] if rel[1] in GAMES else None)
            twin = out.joinpath("en", *rel[1:])
        docs.append(Doc(path, lang, game, twin if twin.exists() else None))
    return docs


def blocks(html: str, *, drop_cards: bool = True) -> list[str]:
    """The text of each block (paragraph, list item, cell, heading, title), card faces removed, spaces as written."""
    html = re.sub(r"<(style|script)\b.*?</\1>", " ", html, flags=re.S)
    html = re.sub(r"<head\b.*?<title>", "<title>", html, flags=re.S)  # keep the title, not the meta tags
    if drop_cards:
        html = CARD_FACE.sub(" ", html)
    html = _BLOCK_END.sub("\n\n", html)
    html = re.sub(r"<br\s*/?>", "\n", html)
    text = htmllib.unescape(re.sub(r"<[^>]+>", "", html))
    # Newlines and indentation come from the template's layout, not from the translation.
    return [b for b in (re.sub(r"[ \t]*\n[ \t]*", " ", b).strip() for b in text.split("\n\n")) if b]


def text(path: Path, *, drop_cards: bool = True) -> str:
    return " ".join(re.sub(r"\s+", " ", b) for b in blocks(path.read_text(encoding="utf-8"), drop_cards=drop_cards))


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout

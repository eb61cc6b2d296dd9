"""Self-hosted web fonts for the static site: WOFF2 subsets of the Noto files the PDFs use, one set per locale."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

from .errors import CheckFailed, Problem

#: Every subset carries this head.modified (2026-01-01 in seconds since 1904): without it fontTools
#: would stamp the build time and two builds would differ byte for byte.
FIXED_TIMESTAMP = 3849984000
#: The limit the issue sets for one locale's fonts; bold faces are added only while they fit.
BUDGET = 150_000
#: Always in a subset, whatever the pages hold: numbers and Latin words arrive with later edits.
BASIC = frozenset(chr(c) for c in range(0x20, 0x7F))
WEIGHTS = {400: "", 700: ":bold"}
#: Name records kept: the usual ones plus 13/14 (licence text and URL), which the OFL wants to travel with the font.
NAME_IDS = (0, 1, 2, 3, 4, 5, 6, 13, 14)
_SKIP_TEXT = {"head", "title", "style", "script", "template"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class FontFile:
    """One installed face: the file fontconfig picks for a family and weight (index into a .ttc)."""

    family: str
    weight: int
    path: Path
    index: int


@dataclass(frozen=True)
class WebFont:
    """One WOFF2 subset in a page set's font folder."""

    family: str
    weight: int
    filename: str
    chars: frozenset[str]
    data: bytes


def find_font(family: str, weight: int = 400) -> FontFile | None:
    """The file fontconfig uses for family at weight, or None when it would substitute another family."""
    if not shutil.which("fc-match"):
        return None
    out = subprocess.run(["fc-match", "-f", "%{file}\n%{index}\n%{family}\n%{weight}",
                          f"{family}{WEIGHTS[weight]}"], capture_output=True, text=True, check=False).stdout
    lines = out.split("\n")
    if len(lines) < 4 or family not in [f.strip() for f in lines[2].split(",")]:
        return None
    # fontconfig weights: 80 regular, 200 bold. A family without a bold file answers with its regular one.
    if weight == 700 and int(float(lines[3] or 0)) < 200:
        return None
    return FontFile(family, weight, Path(lines[0]), int(lines[1] or 0))


@lru_cache(maxsize=None)
def cmap(font: FontFile) -> frozenset[str]:
    """Characters the face has glyphs for (cached: the CJK collection takes a second to read)."""
    with TTFont(font.path, fontNumber=font.index, lazy=True) as tt:
        return frozenset(chr(c) for c in tt.getBestCmap())


class _TextByStack(HTMLParser):
    """Rendered text of a page, grouped by the font stack the stylesheet gives it.

    The stack follows the nearest `lang` (site.css has one `:lang()` rule per locale) unless a class
    names its own fonts (`.card .suit` is drawn in DejaVu Sans).
    """

    def __init__(self, stacks: dict[str, tuple[str, ...]], class_fonts: dict[str, tuple[str, ...]]):
        super().__init__(convert_charrefs=True)
        self.stacks, self.class_fonts = stacks, class_fonts
        self.open: list[tuple[str, tuple[str, ...] | None]] = []
        self.text: dict[tuple[str, ...], set[str]] = {}
        self.skip = 0

    def _stack(self) -> tuple[str, ...] | None:
        for _tag, stack in reversed(self.open):
            if stack is not None:
                return stack
        return None

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        a = dict(attrs)
        stack = self.stacks.get(a.get("lang") or "")
        for cls in (a.get("class") or "").split():
            stack = self.class_fonts.get(cls, stack)
        self.open.append((tag, stack))
        self.skip += tag in _SKIP_TEXT

    def handle_endtag(self, tag):
        while self.open:
            name, _ = self.open.pop()
            self.skip -= name in _SKIP_TEXT
            if name == tag:
                break

    def handle_data(self, data):
        stack = self._stack()
        if not self.skip and stack is not None and data.strip():
            self.text.setdefault(stack, set()).update(data)


def text_by_stack(html: str, stacks: dict[str, tuple[str, ...]],
                  class_fonts: dict[str, tuple[str, ...]]) -> dict[tuple[str, ...], set[str]]:
    parser = _TextByStack(stacks, class_fonts)
    parser.feed(html)
    parser.close()
    return parser.text


def assign(text: dict[tuple[str, ...], set[str]], where: str) -> dict[str, set[str]]:
    """Give each character to the first family of its stack that has it, as a browser's fallback does.

    A visible character no family has would show as a box, so it fails the build, naming it.
    """
    by_family: dict[str, set[str]] = {}
    missing = set()
    for stack, chars in sorted(text.items()):
        faces = [(family, find_font(family)) for family in stack]
        for ch in sorted(chars):
            if ch in "\n\r\t":
                continue
            family = next((f for f, face in faces if face is not None and ch in cmap(face)), None)
            if family is None:
                missing.add(ch)
            else:
                by_family.setdefault(family, set()).add(ch)
    # Controls and joiners a font lacks are not drawn at all, so they cannot become boxes.
    visible = sorted(ch for ch in missing if not re.match(r"[\u200b-\u200f\u2060\ufeff]", ch))
    if visible:
        chars = " ".join(f"U+{ord(c):04X}" for c in visible)
        raise CheckFailed(Problem(where, None, f"no installed font has a glyph for {chars} (stacks {sorted(text)})"))
    return by_family


def subset_woff2(font: FontFile, chars: frozenset[str]) -> bytes:
    """A WOFF2 subset holding chars, with every layout feature that shapes them kept."""
    opts = subset.Options()
    opts.flavor = "woff2"
    # Hints matter little on screens at text sizes and cost a third of the bytes; desubroutinized
    # CFF (the CJK face) compresses better under Brotli.
    opts.hinting = False
    opts.desubroutinize = True
    opts.name_IDs = list(NAME_IDS)
    # '*' keeps locl (Nepali digit and letter forms under lang="ne") and every Indic shaping feature.
    opts.layout_features = ["*"]
    opts.notdef_outline = True
    with TTFont(font.path, fontNumber=font.index, recalcTimestamp=False, lazy=False) as tt:
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=sorted(ord(c) for c in chars))
        sub.subset(tt)
        tt["head"].modified = FIXED_TIMESTAMP
        tt.flavor = "woff2"
        buf = io.BytesIO()
        tt.save(buf, reorderTables=True)
    return buf.getvalue()


def slug(family: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", family.lower()).strip("-")


def build_set(name: str, pages: list[str], stacks: dict[str, tuple[str, ...]], main_lang: str,
              class_fonts: dict[str, tuple[str, ...]], extra: str = "") -> list[WebFont]:
    """The subsets one page set needs: regular faces always, bold faces while the set stays in BUDGET."""
    text: dict[tuple[str, ...], set[str]] = {}
    for html in pages:
        for stack, chars in text_by_stack(html, stacks, class_fonts).items():
            text.setdefault(stack, set()).update(chars)
    text.setdefault(stacks[main_lang], set()).update(BASIC | set(extra))
    by_family = assign(text, f"site/fonts/{name}")
    fonts = []
    for family, chars in sorted(by_family.items()):
        face = find_font(family)
        data = subset_woff2(face, frozenset(chars))
        fonts.append(WebFont(family, 400, f"{name}-{slug(family)}-400.woff2", frozenset(chars), data))
    total = sum(len(f.data) for f in fonts)
    # Cheapest first: Latin bold costs a few KB, a bold Hangul face as much as the regular one.
    for regular in sorted(fonts, key=lambda f: (len(f.data), f.family)):
        face = find_font(regular.family, 700)
        if face is None:
            continue  # the browser synthesises bold from the regular face
        data = subset_woff2(face, regular.chars)
        if total + len(data) < BUDGET:
            total += len(data)
            fonts.append(WebFont(regular.family, 700, f"{name}-{slug(regular.family)}-700.woff2", regular.chars, data))
    return sorted(fonts, key=lambda f: (f.family, f.weight))


def unicode_range(chars: frozenset[str]) -> str:
    """`U+20-7E, U+A0, ...`: the browser then fetches a face only for pages that use one of its characters."""
    points = sorted(ord(c) for c in chars)
    ranges, start = [], None
    for i, p in enumerate(points):
        if start is None:
            start = p
        if i + 1 == len(points) or points[i + 1] != p + 1:
            ranges.append(f"U+{start:X}" if start == p else f"U+{start:X}-{p:X}")
            start = None
    return ", ".join(ranges)


def font_face_css(fonts: list[WebFont]) -> str:
    """One @font-face per subset, with font-display: swap so text shows at once in a fallback face."""
    out = ["/* Subsets of Noto (SIL Open Font License 1.1) and DejaVu fonts, made by rulesheets. */"]
    for f in fonts:
        out.append(
            f'@font-face {{ font-family: "{f.family}"; font-style: normal; font-weight: {f.weight}; '
            f'font-display: swap; src: url("{f.filename}") format("woff2"); unicode-range: {unicode_range(f.chars)}; }}')
    return "\n".join(out) + "\n"

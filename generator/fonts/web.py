"""Self-hosted web fonts for the static site: WOFF2 subsets of the Noto files the PDFs use, one set per locale."""

from __future__ import annotations

import hashlib
import re
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from generator.core import lifecycle
from generator.core.errors import CheckFailed, Problem
from generator.core.htmlscan import FastHTMLParser
from generator.fonts import subset
from generator.fonts.choice import WEIGHTS, FontFile, cmap, find_font

#: The limit the issue sets for one locale's fonts; bold faces are added only while they fit.
BUDGET = 150_000
#: Cut web fonts live beside the PDF cuts, by content key.
CACHE_DIR = subset.CACHE_DIR
#: Always in a subset, whatever the pages hold: numbers and Latin words arrive with later edits.
BASIC = frozenset(chr(c) for c in range(0x20, 0x7F))
_SKIP_TEXT = {"head", "title", "style", "script", "template"}
_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@dataclass(frozen=True)
class WebFont:
    """One WOFF2 subset in a page set's font folder."""

    family: str
    weight: int
    filename: str
    chars: frozenset[str]
    data: bytes


class _TextByStack(FastHTMLParser):
    """Rendered text of a page, grouped by the font stack the stylesheet gives it.

    The stack follows the nearest `lang` (style.css has one `:lang()` rule per locale) unless a class
    names its own fonts (`.card .suit` is drawn in DejaVu Sans).
    """

    def __init__(self, stacks: dict[str, tuple[str, ...]], class_fonts: dict[str, tuple[str, ...]]):
        self.stacks, self.class_fonts = stacks, class_fonts
        #: Open elements with the stack their text is drawn in (their own, else the nearest ancestor's).
        self.open: list[tuple[str, tuple[str, ...] | None]] = []
        self.text: dict[tuple[str, ...], set[str]] = {}
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            return
        a = dict(attrs)
        stack = self.stacks.get(a.get("lang") or "")
        for cls in (a.get("class") or "").split():
            stack = self.class_fonts.get(cls, stack)
        if stack is None and self.open:
            stack = self.open[-1][1]
        self.open.append((tag, stack))
        self.skip += tag in _SKIP_TEXT

    def handle_endtag(self, tag):
        while self.open:
            name, _ = self.open.pop()
            self.skip -= name in _SKIP_TEXT
            if name == tag:
                break

    def handle_data(self, data):
        stack = self.open[-1][1] if self.open else None
        if not self.skip and stack is not None and data.strip():
            chars = self.text.get(stack)
            if chars is None:
                chars = self.text[stack] = set()
            chars.update(data)


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
        # One short line even when a whole script is missing (a font not installed): the first few, and a count.
        chars = " ".join(f"U+{ord(c):04X}" for c in visible[:5]) + (f" and {len(visible) - 5} more" if len(visible) > 5 else "")
        families = sorted({f for stack in text for f in stack})
        raise CheckFailed(Problem(where, None, f"no installed font has a glyph for {chars} (fonts: {', '.join(families)})"))
    return by_family


def slug(family: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", family.lower()).strip("-")


def _filename(family: str, weight: int, data: bytes) -> str:
    """Named by content: page sets that need the same subset share one file (and one download)."""
    return f"{slug(family)}-{weight}-{hashlib.sha256(data).hexdigest()[:10]}.woff2"


def subset_woff2(face: FontFile, chars: frozenset[str]) -> bytes:
    """One WOFF2 subset straight from the installed file, without the cache."""
    return subset.woff2(face, chars)


def _woff2_file(face: FontFile, chars: frozenset[str], cache_dir: Path | None) -> bytes:
    """A WOFF2 subset of one face (one worker's job), through the cache."""
    made = subset.cached(face, chars, "woff2", cache_dir)
    return made.read_bytes() if isinstance(made, Path) else made


class Subsets:
    """Every regular and bold subset the page sets could use, by (family, weight, chars); the site's workers.

    Each page set's subsets are cut in `jobs` worker processes as soon as its plan is added, while
    the caller goes on making the next set's pages; `done` waits for them. Subsets come from the
    cache when the same face was cut to the same characters before (a rebuild where only some text
    changed), and one subset that several sets need (a few Bengali digits) is cut once.
    """

    def __init__(self, jobs: int = 1, cache_dir: Path | None = None):
        self.cache_dir = cache_dir
        # Imported before the workers start, so each forked worker has the WOFF2 writer without importing it.
        from generator.patches import woff2pack  # noqa: F401

        self.pool = lifecycle.pool(jobs) if jobs > 1 else None
        self.made: dict[tuple[str, int, frozenset[str]], Future] = {}

    def __enter__(self) -> Subsets:
        return self

    def __exit__(self, kind, exc, tb) -> None:
        if self.pool is not None:
            if kind is None:
                self.pool.shutdown(cancel_futures=True)
            else:  # failed or stopped: the workers are killed, not awaited
                lifecycle.kill_pool(self.pool)

    def submit(self, fn, *args) -> Future:
        """Any other job of the site stage, in the same workers (or here, without a pool)."""
        if self.pool is not None:
            return self.pool.submit(fn, *args)
        future = Future()
        future.set_result(fn(*args))
        return future

    def add(self, plan: dict[str, frozenset[str]]) -> None:
        """Start cutting one page set's subsets."""
        faces = [(face, chars) for family, chars in plan.items() for weight in WEIGHTS
                 for face in [find_font(family, weight)] if face is not None]
        # Biggest first (the CJK faces), so no worker is left alone with one at the end.
        for face, chars in sorted(faces, key=lambda job: -len(job[1])):
            key = (face.family, face.weight, chars)
            if key in self.made:
                continue
            if self.pool is None:
                self.made[key] = Future()
                self.made[key].set_result(_woff2_file(face, chars, self.cache_dir))
            else:
                self.made[key] = self.pool.submit(_woff2_file, face, chars, self.cache_dir)

    def done(self) -> dict[tuple[str, int, frozenset[str]], bytes]:
        return {key: made.result() for key, made in self.made.items()}


def prune_cache(subsets: dict[tuple[str, int, frozenset[str]], bytes], cache_dir: Path | None) -> None:
    """Forget cached web subsets this build did not use (called after a build of every locale).

    Only .woff2 files: the PDF cuts in the same folder belong to the PDFs.
    """
    if cache_dir is None or not cache_dir.is_dir():
        return
    keep = {f"{subset.cache_key(find_font(family, weight), chars, 'woff2')[:32]}.woff2"
            for family, weight, chars in subsets}
    for path in cache_dir.glob("*.woff2*"):  # with their .sha256 check files
        if path.name.removesuffix(".sha256") not in keep:
            path.unlink(missing_ok=True)


def plan_set(name: str, pages: list[dict[tuple[str, ...], set[str]]], stacks: dict[str, tuple[str, ...]],
             main_lang: str, extra: str = "") -> dict[str, frozenset[str]]:
    """Which characters of one page set each family must draw, as the browser's fallback will pick them.

    `pages` holds each page's text_by_stack.
    """
    text: dict[tuple[str, ...], set[str]] = {}
    for page in pages:
        for stack, chars in page.items():
            # `text-transform: uppercase` (kickers, labels) draws capitals the text itself lacks: è -> È.
            text.setdefault(stack, set()).update(chars, *(c.upper() for c in chars))
    text.setdefault(stacks[main_lang], set()).update(BASIC | set(extra))
    # What the shaper needs besides the text: the decompositions it normalises to (ৌ -> ে + ৗ), where the face has them.
    return {family: frozenset(c for c in subset.decompositions(chars) if c in chars or c in cmap(find_font(family)))
            for family, chars in assign(text, f"site/fonts/{name}").items()}


def choose_faces(plan: dict[str, frozenset[str]], subsets: dict) -> list[WebFont]:
    """One page set's faces: regular always, bold while the set stays within BUDGET."""
    fonts = [WebFont(family, 400, _filename(family, 400, data), chars, data)
             for family, chars in sorted(plan.items()) for data in [subsets[(family, 400, chars)]]]
    total = sum(len(f.data) for f in fonts)
    # Cheapest first: Latin bold costs a few KB, a bold Hangul face as much as the regular one.
    for regular in sorted(fonts, key=lambda f: (len(f.data), f.family)):
        data = subsets.get((regular.family, 700, regular.chars))
        if data is None or not regular.chars <= cmap(find_font(regular.family, 700)):
            continue  # no (complete) bold file: the browser synthesises bold from the regular face
        if total + len(data) < BUDGET:
            total += len(data)
            fonts.append(WebFont(regular.family, 700, _filename(regular.family, 700, data), regular.chars, data))
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


def font_face_css(fonts: list[WebFont], block: str | None = None) -> str:
    """One @font-face per subset, with font-display: swap so text shows at once in a fallback face.

    Except the `block` family: the set's own script, which no local face can stand in for (fallback.needs_wait).
    Its pages wait for it with a script; without scripts, block keeps its text invisible (up to 3 s) rather
    than drawn as boxes of the wrong width that then re-wrap.

    Each Latin-drawing subset also gets its metric-matched fallbacks (generator.fonts.fallback), over the
    same characters: the text first drawn in a local font takes the room the web font will take.
    """
    from generator.fonts.fallback import fallback_face_css

    out = ["/* Subsets of Noto (SIL Open Font License 1.1) and DejaVu fonts, made by rulesheets. */"]
    fallbacks = []
    for f in fonts:
        out.append(
            f'@font-face {{ font-family: "{f.family}"; font-style: normal; font-weight: {f.weight}; '
            f'font-display: {"block" if f.family == block else "swap"}; src: url("{f.filename}") format("woff2"); unicode-range: {unicode_range(f.chars)}; }}')
        fallbacks += fallback_face_css(f.family, f.weight, unicode_range(f.chars))
    if fallbacks:
        out.append("/* Local faces sized to the web fonts' metrics, drawn until they arrive (no layout shift). */")
    return "\n".join(out + fallbacks) + "\n"


def set_bytes(site: Path) -> dict[str, int]:
    """Bytes of web fonts each page set's fonts/<set>.css names (for `make bench` and the budget test)."""
    out = {}
    for css in sorted((site / "fonts").glob("*.css")):
        names = set(re.findall(r'url\("([^"]+)"\)', css.read_text(encoding="utf-8")))
        out[css.stem] = sum((css.parent / n).stat().st_size for n in names)
    return out

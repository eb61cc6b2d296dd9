"""Cut CJK fonts down before WeasyPrint sees them: smaller, faster Korean PDFs.

WeasyPrint keeps every glyph id up to the highest one a document uses. Hangul sits high in the
65,000-glyph Noto Sans CJK collection, so each Korean PDF carried about 780 KB of font (160 KB
compressed) per weight, and loading the collection made Korean pages three times slower than French.
A font cut to the characters of the locale's documents (a few hundred glyphs) avoids both.
"""

from __future__ import annotations

import os
from pathlib import Path

from .. import PROJECT_DIR
from .. import webfonts

#: Families worth cutting down (collections with tens of thousands of glyphs).
LARGE_FAMILIES = ("Noto Sans CJK KR",)
CACHE_DIR = PROJECT_DIR / ".cache" / "pdf-fonts"


def _cut(face: webfonts.FontFile, chars: frozenset[str], cache_dir: Path) -> Path:
    """The face cut to `chars`, as an OpenType file in the cache (deterministic bytes)."""
    path = cache_dir / f"{webfonts._cache_key(face, chars)[:24]}.otf"
    if not path.exists():
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(webfonts._subset(face.path, face.index, chars, None))
        tmp.replace(path)
    return path


def print_css(fonts: tuple[str, ...], texts: list[str], cache_dir: Path = CACHE_DIR) -> str:
    """Extra CSS for the PDFs of one locale: its large fonts replaced by cuts of themselves.

    Returns "" when the locale uses no large font. The cut's file name is its content key, so
    the CSS (and with it each PDF's cache key) changes exactly when the characters do.
    """
    large = [f for f in fonts if f in LARGE_FAMILIES]
    if not large:
        return ""
    chars = frozenset("".join(texts)) | frozenset(chr(c) for c in range(0x20, 0x7F))
    rules, stack = [], []
    for family in large:
        alias = f"rulesheets {family}"
        for weight in (400, 700):
            face = webfonts.find_font(family, weight)
            if face is None:
                continue
            chars_here = chars & webfonts.cmap(face)
            path = _cut(face, frozenset(chars_here), cache_dir)
            rules.append(f'@font-face {{ font-family: "{alias}"; font-weight: {weight}; src: url("{path.as_uri()}"); }}')
        stack.append(f'"{alias}"')
    families = ", ".join(stack + [f'"{f}"' for f in fonts] + ["sans-serif"])
    rules.append(f"html, html * {{ font-family: {families} !important; }}")
    # Passed to WeasyPrint as a user stylesheet: only !important wins over the document's own rules.
    margin = f"font-family: {families} !important;"
    rules.append(f"@page {{ @top-left {{ {margin} }} @bottom-center {{ {margin} }} }}")
    return "\n".join(rules)

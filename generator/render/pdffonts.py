"""Cut CJK fonts down before WeasyPrint sees them: smaller, faster Korean PDFs.

WeasyPrint keeps every glyph id up to the highest one a document uses. Hangul sits high in the
65,000-glyph Noto Sans CJK collection, so each Korean PDF carried about 780 KB of font (160 KB
compressed) per weight, and loading the collection made Korean pages three times slower than French.
A font cut to the characters of the locale's documents (a few hundred glyphs) avoids both.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from .. import cache
from ..paths import CACHE_DIR as _CACHE
from .. import webfonts

#: Families worth cutting down (collections with tens of thousands of glyphs).
LARGE_FAMILIES = ("Noto Sans CJK KR",)
CACHE_DIR = _CACHE / "pdf-fonts"


def _subset(face: webfonts.FontFile, chars: frozenset[str]) -> bytes:
    """HarfBuzz's subsetter: about 10 ms for the CJK collection where fontTools takes over a second.

    It keeps the source's timestamps and every layout feature, so the bytes depend only on the font
    file and the characters.
    """
    import uharfbuzz as hb

    source = hb.Face(hb.Blob.from_file_path(str(face.path)), face.index)
    request = hb.SubsetInput()
    for char in sorted(chars):
        request.unicode_set.add(ord(char))
    request.flags = hb.SubsetFlags.DESUBROUTINIZE | hb.SubsetFlags.NO_HINTING | hb.SubsetFlags.NOTDEF_OUTLINE
    return hb.subset(source, request).blob.data


def _cut(face: webfonts.FontFile, chars: frozenset[str], cache_dir: Path) -> Path:
    """The face cut to `chars`, as an OpenType file in the cache (deterministic bytes)."""
    import uharfbuzz as hb

    key = hashlib.sha256(f"{hb.__version__}\n{webfonts._cache_key(face, chars)}".encode()).hexdigest()
    path = cache_dir / f"{key[:24]}.otf"
    if cache.read_checked(path) is None:  # missing, truncated or corrupted: cut again
        cache.write_checked(path, _subset(face, chars))
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
            path = _cut(face, chars, cache_dir)  # characters the face lacks are simply not kept
            rules.append(f'@font-face {{ font-family: "{alias}"; font-weight: {weight}; src: url("{path.as_uri()}"); }}')
        stack.append(f'"{alias}"')
    families = ", ".join(stack + [f'"{f}"' for f in fonts] + ["sans-serif"])
    rules.append(f"html, html * {{ font-family: {families} !important; }}")
    # Passed to WeasyPrint as a user stylesheet: only !important wins over the document's own rules.
    margin = f"font-family: {families} !important;"
    rules.append(f"@page {{ @top-left {{ {margin} }} @bottom-center {{ {margin} }} }}")
    return "\n".join(rules)

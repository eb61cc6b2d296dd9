"""Cut CJK fonts down before WeasyPrint sees them: smaller, faster Korean PDFs.

WeasyPrint keeps every glyph id up to the highest one a document uses. Hangul sits high in the
65,000-glyph Noto Sans CJK collection, so each Korean PDF carried about 780 KB of font (160 KB
compressed) per weight, and loading the collection made Korean pages three times slower than French.
A font cut to the characters of the locale's documents (a few hundred glyphs) avoids both.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from generator.core.paths import TEMPLATES_DIR
from generator.fonts import subset
from generator.fonts.choice import find_font

#: Families worth cutting down (collections with tens of thousands of glyphs).
LARGE_FAMILIES = ("Noto Sans CJK KR",)
#: The print CSS names its cuts relative to the documents' base URL (the templates folder), so the
#: CSS, and with it each PDF's cache key, does not depend on where the checkout lives.
BASE_DIR = TEMPLATES_DIR


def print_css(fonts: tuple[str, ...], texts: list[str], cache_dir: Path = subset.CACHE_DIR) -> str:
    """Extra CSS for the PDFs of one locale: its large fonts replaced by cuts of themselves.

    Returns "" when the locale uses no large font. The cut's file name is its content key, so
    the CSS changes exactly when the characters do.
    """
    large = [f for f in fonts if f in LARGE_FAMILIES]
    if not large:
        return ""
    chars = subset.decompositions(frozenset("".join(texts)) | frozenset(chr(c) for c in range(0x20, 0x7F)))
    rules, stack = [], []
    # One family name per cut: WeasyPrint's font configuration lives as long as the process (a kit,
    # `serve`, a worker rendering many documents) and, given a name twice, keeps drawing with the
    # first cut it was given, which lacks the characters of the documents that came after.
    cut_id = hashlib.sha256("".join(sorted(chars)).encode("utf-8")).hexdigest()[:12]
    for family in large:
        alias = f"rulesheets {family} {cut_id}"
        for weight in (400, 700):
            face = find_font(family, weight)
            if face is None:
                continue
            path = subset.cached(face, chars, "otf", cache_dir)
            url = Path(os.path.relpath(path, BASE_DIR)).as_posix()
            rules.append(f'@font-face {{ font-family: "{alias}"; font-weight: {weight}; src: url("{url}"); }}')
        stack.append(f'"{alias}"')
    families = ", ".join(stack + [f'"{f}"' for f in fonts] + ["sans-serif"])
    rules.append(f"html, html * {{ font-family: {families} !important; }}")
    # Passed to WeasyPrint as a user stylesheet: only !important wins over the document's own rules.
    margin = f"font-family: {families} !important;"
    rules.append(f"@page {{ @top-left {{ {margin} }} @bottom-center {{ {margin} }} }}")
    return "\n".join(rules)

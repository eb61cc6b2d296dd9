"""Characters a document was drawn with no glyph for, found from the fonts themselves.

While WeasyPrint draws a document, each font it draws with records the text of every glyph it
used (`Font.to_unicode`, the source of the PDF's ToUnicode map; a character the shaper found no
glyph for gets a glyph number of its own there). A character of that text the font's cmap (read
with fontTools from the face WeasyPrint loaded) cannot map to a glyph was drawn as .notdef, an
empty box. The check reads the fonts, not the wording of WeasyPrint's log messages.

Two things the shaper does without a glyph of their own are not missing: characters drawn by
others (a precomposed letter or vowel sign HarfBuzz decomposes to ones the font has, like Bengali
U+09CC into U+09C7 U+09D7) and characters that need no glyph (controls, joiners, soft hyphens,
variation selectors; spaces HarfBuzz draws as a wider or narrower U+0020 when the font lacks them).
"""

from __future__ import annotations

import hashlib
import io
import unicodedata

#: The code points each face's cmap maps, by the digest of the face's bytes, for this process. (Neither
#: WeasyPrint's hash of the font's description nor the glyph count tells two cuts of one face apart:
#: cuts keep the glyph ids, so a Korean cut for one document would stand for another's.)
_cmaps: dict[tuple[bytes, int], frozenset[int]] = {}
#: General categories that are drawn without a glyph of their own (Cc, Cf) or with U+0020's (Zs, Zl, Zp).
_NO_GLYPH = {"Cc", "Cf", "Zl", "Zp"}
_SPACES = {"Zs"}


def code_points(font) -> frozenset[int]:
    """The code points the cmap of a WeasyPrint `Font` maps to a glyph (fontTools, on the face as loaded)."""
    from weasyprint.text.fonts import get_hb_object_data

    # The face as loaded: by the time the PDF is written, file_content holds only the glyphs used.
    data = get_hb_object_data(font.hb_face)
    key = (hashlib.blake2b(data, digest_size=16).digest(), font.index)
    found = _cmaps.get(key)
    if found is None:
        from fontTools.ttLib import TTFont

        with TTFont(io.BytesIO(data), fontNumber=font.index, lazy=True) as face:
            cmap = face["cmap"].getBestCmap() if "cmap" in face else None
        found = _cmaps[key] = frozenset(cmap or ())
    return found


def drawable(char: str, code_points: frozenset[int]) -> bool:
    """Whether a font with a cmap of `code_points` draws `char` (itself, by its decomposition, or needing none)."""
    if ord(char) in code_points:
        return True
    category = unicodedata.category(char)
    if category in _NO_GLYPH or (category == "Mn" and unicodedata.name(char, "").startswith("VARIATION SELECTOR")):
        return True
    if category in _SPACES:
        return 0x20 in code_points
    decomposed = unicodedata.normalize("NFD", char)
    return decomposed != char and all(drawable(c, code_points) for c in decomposed)


def missing_characters(document) -> set[str]:
    """The characters a drawn WeasyPrint document (after `write_pdf`) has no glyph for in the font drawing them."""
    missing: set[str] = set()
    for font in document.fonts.values():
        chars = set("".join(font.to_unicode.values()))
        if chars:
            points = code_points(font)
            missing.update(c for c in chars if not drawable(c, points))
    return missing


def describe(chars: set[str], limit: int = 5) -> str:
    """`"ꙮ" (U+A66E), ...`: the first `limit` characters, in code point order."""
    return ", ".join(f'"{c}" (U+{ord(c):04X})' for c in sorted(chars)[:limit])

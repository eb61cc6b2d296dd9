"""WOFF2 packing of cut faces: fontTools' writer, with two changes it has no options for.

Brotli packs at BROTLI_QUALITY instead of 11, and the glyf transform encodes each simple glyph
straight from its TrueType bytes. A TrueType outline already stores each point as a move from the
last one, which is what WOFF2's triplets encode (WOFF2 5.2), so the glyph is never expanded into
fontTools' absolute coordinates and back: one loop reads the flags and moves and writes the
triplets. The same glyph comes in many subsets of one build (the Latin letters of every page set,
the Devanagari shared by Hindi and Nepali), so each glyph's encoding is also kept, by its bytes,
for the rest of the process. The encoding is the specification's and fontTools' own: tests compare
the bytes of both writers; only the time differs (about a fifth of fontTools' for a cold site).

Both changes mirror fontTools 4.68.0's writer (its module globals `brotli` and `WOFF2GlyfTable`, and
the streams of `WOFF2GlyfTable`), hold only while `pack` runs, and are left out with any other
fontTools (patches/versions.py): the fonts are then fontTools' own, at quality 11.
"""

from __future__ import annotations

import io
import struct
from contextlib import contextmanager

from fontTools.ttLib import TTFont
from fontTools.ttLib import woff2 as writer

from generator.patches import WOFF2_BROTLI, WOFF2_GLYF, skipped
from generator.patches.versions import supported

#: fontTools packs at 11. Qualities 10 and 11 search for the best parse (Zopfli-like) and take most of
#: a cold site stage; 9 and below use brotli's fast matchers. Measured on the 36 subsets of a full site
#: (CPU seconds for brotli and the glyf transform together): 11 about 4.4 s, 10 3.2 s / 490 KB,
#: 9 2.2 s / 513 KB, 8 1.5 s / 520 KB, 7 no faster than 8. 8 costs 6 % more bytes than 10 for
#: half the time; every page set stays far inside its 150 KB (the Korean one, the largest, ~140 KB).
BROTLI_QUALITY = 8
#: What fontTools' writer packs at by itself.
FONTTOOLS_QUALITY = 11


def _in_use() -> frozenset[str]:
    """The changes `pack` makes: none with another fontTools, none left out for a measurement."""
    return frozenset({WOFF2_BROTLI, WOFF2_GLYF} - skipped()) if supported("fonttools") else frozenset()


def brotli_quality() -> int:
    """The Brotli quality `pack` writes at (part of a web font's cache key)."""
    return BROTLI_QUALITY if WOFF2_BROTLI in _in_use() else FONTTOOLS_QUALITY


class _Brotli:
    """The brotli module as the WOFF2 writer calls it, packing at BROTLI_QUALITY."""

    def __init__(self, module):
        self.module, self.MODE_FONT, self.MODE_TEXT = module, module.MODE_FONT, module.MODE_TEXT

    def compress(self, data: bytes, **options) -> bytes:
        return self.module.compress(data, **options, quality=BROTLI_QUALITY)


#: Each simple glyph's WOFF2 encoding by its TrueType bytes (see _encode_simple), for this process.
_ENCODED: dict[bytes, tuple] = {}
#: Kept for at most this many glyphs (a full site has about five thousand).
ENCODED_KEPT = 50_000
_FLAG_ON_CURVE, _X_SHORT, _Y_SHORT, _REPEAT, _X_SAME, _Y_SAME = 0x01, 0x02, 0x04, 0x08, 0x10, 0x20
_FLAG_OVERLAP_SIMPLE, _FLAG_CUBIC = 0x40, 0x80


def _encode_simple(data: bytes) -> tuple | None:
    """A simple glyph's parts of the transformed glyf table, from its TrueType bytes (OpenType glyf).

    Returns (nContour, nPoints, flags, glyph stream, instructions, overlap bit, bbox or None when
    the points give it), or None for a glyph fontTools refuses to transform (cubic curves).
    """
    n_contours, x_min, y_min, x_max, y_max = struct.unpack_from(">hhhhh", data)
    ends = struct.unpack_from(f">{n_contours}H", data, 10)
    pos = 10 + 2 * n_contours
    (n_instructions,) = struct.unpack_from(">H", data, pos)
    pos += 2
    instructions = data[pos:pos + n_instructions]
    pos += n_instructions
    n_points = ends[-1] + 1 if ends else 0
    flags = bytearray()
    while len(flags) < n_points:
        flag = data[pos]
        pos += 1
        if flag & _REPEAT:
            flags += bytes((flag,)) * (data[pos] + 1)
            pos += 1
        else:
            flags.append(flag)
    del flags[n_points:]
    dxs = []
    for flag in flags:
        if flag & _X_SHORT:
            dxs.append(data[pos] if flag & _X_SAME else -data[pos])
            pos += 1
        elif flag & _X_SAME:
            dxs.append(0)
        else:
            dxs.append(int.from_bytes(data[pos:pos + 2], "big", signed=True))
            pos += 2
    out_flags, triplets = bytearray(), bytearray()
    x = y = 0
    xs_min = ys_min = 1 << 20
    xs_max = ys_max = -(1 << 20)
    cubic = False
    for flag, dx in zip(flags, dxs):
        if flag & _Y_SHORT:
            dy = data[pos] if flag & _Y_SAME else -data[pos]
            pos += 1
        elif flag & _Y_SAME:
            dy = 0
        else:
            dy = int.from_bytes(data[pos:pos + 2], "big", signed=True)
            pos += 2
        cubic |= bool(flag & _FLAG_CUBIC)
        x += dx
        y += dy
        xs_min, xs_max, ys_min, ys_max = min(xs_min, x), max(xs_max, x), min(ys_min, y), max(ys_max, y)
        off_curve = 0 if flag & _FLAG_ON_CURVE else 128
        ax, ay = abs(dx), abs(dy)
        signs = (dx >= 0) + 2 * (dy >= 0)
        if dx == 0 and ay < 1280:
            out_flags.append(off_curve + ((ay & 0xF00) >> 7) + (dy >= 0))
            triplets.append(ay & 0xFF)
        elif dy == 0 and ax < 1280:
            out_flags.append(off_curve + 10 + ((ax & 0xF00) >> 7) + (dx >= 0))
            triplets.append(ax & 0xFF)
        elif ax < 65 and ay < 65:
            out_flags.append(off_curve + 20 + ((ax - 1) & 0x30) + (((ay - 1) & 0x30) >> 2) + signs)
            triplets.append((((ax - 1) & 0xF) << 4) | ((ay - 1) & 0xF))
        elif ax < 769 and ay < 769:
            out_flags.append(off_curve + 84 + 12 * (((ax - 1) & 0x300) >> 8) + (((ay - 1) & 0x300) >> 6) + signs)
            triplets += bytes(((ax - 1) & 0xFF, (ay - 1) & 0xFF))
        elif ax < 4096 and ay < 4096:
            out_flags.append(off_curve + 120 + signs)
            triplets += bytes((ax >> 4, ((ax & 0xF) << 4) | (ay >> 8), ay & 0xFF))
        else:
            out_flags.append(off_curve + 124 + signs)
            triplets += bytes((ax >> 8, ax & 0xFF, ay >> 8, ay & 0xFF))
    if cubic:
        return None
    n_points_stream = b"".join(writer.pack255UShort(end - last) for end, last in zip(ends, (-1,) + ends[:-1]))
    glyph_stream = bytes(triplets) + writer.pack255UShort(n_instructions)
    overlap = bool(flags and flags[0] & _FLAG_OVERLAP_SIMPLE)
    bbox = (x_min, y_min, x_max, y_max)
    given = bbox == (xs_min, ys_min, xs_max, ys_max) if n_points else False
    return (struct.pack(">h", n_contours), n_points_stream, bytes(out_flags), glyph_stream, instructions, overlap,
            None if given else struct.pack(">hhhh", *bbox))


class _GlyfTable(writer.WOFF2GlyfTable):
    """The transformed glyf table: simple glyphs encoded from their bytes (_encode_simple), the rest by fontTools."""

    def _encodeGlyph(self, glyphID):
        glyph = self.glyphs[self.getGlyphName(glyphID)]
        data = getattr(glyph, "data", None)  # not expanded yet: the glyph's TrueType bytes
        if not data or len(data) < 12 or struct.unpack_from(">h", data)[0] <= 0:  # empty, or a composite
            return super()._encodeGlyph(glyphID)
        encoded = _ENCODED.get(data)
        if encoded is None:
            encoded = _encode_simple(data)
            if encoded is None:
                raise NotImplementedError  # as fontTools does for cubic outlines: the table stays untransformed
            if len(_ENCODED) >= ENCODED_KEPT:
                _ENCODED.clear()
            _ENCODED[data] = encoded
        n_contour, n_points, flags, glyph_stream, instructions, overlap, bbox = encoded
        self.nContourStream += n_contour
        self.nPointsStream += n_points
        self.flagStream += flags
        self.glyphStream += glyph_stream
        self.instructionStream += instructions
        if overlap:
            self.overlapSimpleBitmap[glyphID >> 3] |= 0x80 >> (glyphID & 7)
        if bbox is not None:
            self.bboxBitmap[glyphID >> 3] |= 0x80 >> (glyphID & 7)
            self.bboxStream += bbox


@contextmanager
def _writer():
    """fontTools' WOFF2 writer with _Brotli and _GlyfTable in place (it looks both up as module globals)."""
    in_use = _in_use()
    saved = writer.brotli, writer.WOFF2GlyfTable
    if WOFF2_BROTLI in in_use:
        writer.brotli = _Brotli(writer.brotli)
    if WOFF2_GLYF in in_use:
        writer.WOFF2GlyfTable = _GlyfTable
    try:
        yield
    finally:
        writer.brotli, writer.WOFF2GlyfTable = saved


def pack(font: bytes, modified: int) -> bytes:
    """An OpenType font as WOFF2, with head.modified set."""
    with TTFont(io.BytesIO(font), recalcTimestamp=False) as tt:
        tt["head"].modified = modified
        tt.flavor = "woff2"
        buf = io.BytesIO()
        with _writer():
            tt.save(buf)
    return buf.getvalue()

"""WOFF2 packing of cut faces: fontTools' writer, with two changes it has no options for.

Brotli packs at BROTLI_QUALITY instead of 11, and the glyf transform encodes each glyph's points
in one loop over the raw coordinates instead of fontTools' tuple-per-point path. The encoding is
the WOFF2 specification's (the same bytes as fontTools writes: tests compare the two); only the
time differs, about half of a Bengali subset's.
"""

from __future__ import annotations

import io
from contextlib import contextmanager

from fontTools.misc import sstruct
from fontTools.ttLib import TTFont
from fontTools.ttLib import woff2 as writer
from fontTools.ttLib.tables import _g_l_y_f

#: fontTools packs at 11. Qualities 10 and 11 search for the best parse (Zopfli-like) and take most of
#: a cold site stage; 9 and below use brotli's fast matchers. Measured on the 36 subsets of a full site
#: (CPU seconds for brotli and the glyf transform together): 11 about 4.4 s, 10 3.2 s / 490 KB,
#: 9 2.2 s / 513 KB, 8 1.5 s / 520 KB, 7 no faster than 8. 8 costs 6 % more bytes than 10 for
#: half the time; every page set stays far inside its 150 KB (the Korean one, the largest, ~140 KB).
BROTLI_QUALITY = 8


class _Brotli:
    """The brotli module as the WOFF2 writer calls it, packing at BROTLI_QUALITY."""

    def __init__(self, module):
        self.module, self.MODE_FONT, self.MODE_TEXT = module, module.MODE_FONT, module.MODE_TEXT

    def compress(self, data: bytes, **options) -> bytes:
        return self.module.compress(data, **options, quality=BROTLI_QUALITY)


class _GlyfTable(writer.WOFF2GlyfTable):
    """The transformed glyf table, its two per-point steps written for speed."""

    def _encodeBBox(self, glyphID, glyph):
        """The bounding box, left out when the points give it (integer points: no rounding needed)."""
        if not glyph.isComposite():
            points = glyph.coordinates.array
            xs, ys = points[0::2], points[1::2]
            if (glyph.xMin, glyph.yMin, glyph.xMax, glyph.yMax) == (min(xs), min(ys), max(xs), max(ys)):
                return
        self.bboxBitmap[glyphID >> 3] |= 0x80 >> (glyphID & 7)
        self.bboxStream += sstruct.pack(writer.bboxFormat, glyph)

    def _encodeTriplets(self, glyph):
        """Each point's move from the last as a flag byte and one to four bytes (WOFF2 5.2, "triplet encoding")."""
        points = glyph.coordinates.array
        flags, triplets = bytearray(), bytearray()
        last_x = last_y = 0
        for i, flag in enumerate(glyph.flags):
            x, y = int(points[2 * i]), int(points[2 * i + 1])
            dx, dy, last_x, last_y = x - last_x, y - last_y, x, y
            off_curve = 0 if flag & _g_l_y_f.flagOnCurve else 128
            ax, ay = abs(dx), abs(dy)
            signs = (dx >= 0) + 2 * (dy >= 0)
            if dx == 0 and ay < 1280:
                flags.append(off_curve + ((ay & 0xF00) >> 7) + (dy >= 0))
                triplets.append(ay & 0xFF)
            elif dy == 0 and ax < 1280:
                flags.append(off_curve + 10 + ((ax & 0xF00) >> 7) + (dx >= 0))
                triplets.append(ax & 0xFF)
            elif ax < 65 and ay < 65:
                flags.append(off_curve + 20 + ((ax - 1) & 0x30) + (((ay - 1) & 0x30) >> 2) + signs)
                triplets.append((((ax - 1) & 0xF) << 4) | ((ay - 1) & 0xF))
            elif ax < 769 and ay < 769:
                flags.append(off_curve + 84 + 12 * (((ax - 1) & 0x300) >> 8) + (((ay - 1) & 0x300) >> 6) + signs)
                triplets += bytes(((ax - 1) & 0xFF, (ay - 1) & 0xFF))
            elif ax < 4096 and ay < 4096:
                flags.append(off_curve + 120 + signs)
                triplets += bytes((ax >> 4, ((ax & 0xF) << 4) | (ay >> 8), ay & 0xFF))
            else:
                flags.append(off_curve + 124 + signs)
                triplets += bytes((ax >> 8, ax & 0xFF, ay >> 8, ay & 0xFF))
        self.flagStream += bytes(flags)
        self.glyphStream += bytes(triplets)


@contextmanager
def _writer():
    """fontTools' WOFF2 writer with _Brotli and _GlyfTable in place (it looks both up as module globals)."""
    saved = writer.brotli, writer.WOFF2GlyfTable
    writer.brotli, writer.WOFF2GlyfTable = _Brotli(writer.brotli), _GlyfTable
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

"""ActualText for glyph clusters whose glyphs cannot say their own text (WeasyPrint 70 text drawing, patched).

Why: a PDF maps each glyph id to one Unicode string (the font's ToUnicode CMap). WeasyPrint 70
(`weasyprint/draw/text.py`) maps a glyph to the text of the first cluster it is seen in. That is
right for Latin and Hangul, but Indic shaping breaks it twice:

- a cluster of several glyphs (a pre-base vowel sign drawn before its consonant, a conjunct drawn
  as half-form plus full form) gives its whole text to one glyph and nothing to the others, so the
  extracted text is reordered or lost ("টেবিল" comes back as "ট বি ল");
- a glyph then keeps that first text everywhere else it appears ("নম্বর" becomes "নিম্বর").

No ToUnicode map can express either. The PDF answer (ISO 32000-1, 14.9.4) is marked content with
an /ActualText property around the glyphs: `/Span <</ActualText <FEFF...>>> BDC ... EMC`. This
module draws a line exactly as WeasyPrint does and wraps each cluster whose glyphs do not map back
to exactly its text in such a span. Clusters that map back are written as before, so Latin text
costs nothing; the ToUnicode map stays as the fallback for readers that ignore ActualText. That map
is made a little better too: a glyph first seen in a cluster of several glyphs says the one letter
the font's cmap draws with it, where there is one (PDFium ignores a span whose text it cannot
relate to the glyphs, and reads a glyph mapped to nothing as its glyph number). Measured on the
rulebooks: Hindi, Nepali and Bengali words found in extracted text went from 50-86 % to 100 %
with poppler and PDFium, for a few per cent more bytes.

`install()` replaces `weasyprint.draw.text.draw_first_line` (also used for SVG text). Lines drawn
with an ellipsis, and lines in colour (emoji) fonts, are left to WeasyPrint's own function.
The patch is tied to WeasyPrint 70.0 (patches/versions.py): with any other version, importing this
module refuses in one line (exit 2 from the command line), because the loop below mirrors that
version's drawing code. Written so it could be offered upstream as a change to
`draw_first_line` itself.
"""

from __future__ import annotations

import codecs
import struct

from generator.patches.versions import PINNED, UnsupportedVersion, require_weasyprint

SUPPORTED_WEASYPRINT = PINNED["weasyprint"]
require_weasyprint()  # the loop below mirrors that version's drawing code: any other refuses, in one line

import pydyf  # noqa: E402  (after the version guard on purpose)
from weasyprint.draw import text as _text  # noqa: E402
from weasyprint.logger import LOGGER  # noqa: E402
from weasyprint.text.ffi import FROM_UNITS, ffi, pango  # noqa: E402

_original_draw_first_line = _text.draw_first_line
_EMPTY, _UNKNOWN = pango.PANGO_GLYPH_EMPTY, pango.PANGO_GLYPH_UNKNOWN_FLAG
#: PangoGlyphInfo as WeasyPrint declares it: glyph (guint), geometry (three gint), attr (a guint of bit fields).
_GLYPH_INFO = struct.Struct("=Iiii4x")
if _GLYPH_INFO.size != ffi.sizeof("PangoGlyphInfo"):
    raise UnsupportedVersion(f"PangoGlyphInfo takes {ffi.sizeof('PangoGlyphInfo')} bytes in weasyprint.text.ffi, "
                             f"not {_GLYPH_INFO.size}: update generator/patches/actualtext.py's _GLYPH_INFO")


def actual_text(text: str) -> bytes:
    """A PDF text string as UTF-16BE with a byte order mark, hex-encoded: safe for any text."""
    return b"<" + (codecs.BOM_UTF16_BE + text.encode("utf-16-be")).hex().upper().encode() + b">"


def _clusters(clusters, num_glyphs: int, length: int, rtl: bool):
    """(first glyph, end glyph, first byte, end byte) of each cluster of one glyph item, in drawing order."""
    start = 0
    while start < num_glyphs:
        end = start + 1
        while end < num_glyphs and clusters[end] == clusters[start]:
            end += 1
        if rtl:
            byte_end = length if start == 0 else clusters[start - 1]
        else:
            byte_end = length if end == num_glyphs else clusters[end]
        yield start, end, clusters[start], byte_end
        start = end


def _glyph_text(font, glyph_id: int, text: str, last: bool, alone: bool) -> str:
    """The ToUnicode text of a glyph first seen in a cluster with `text`.

    WeasyPrint gives a cluster's text to its last glyph and "" to the others. In a cluster of several
    glyphs we first look for the one character of the text the font's cmap draws with this glyph
    (the vowel sign drawn before its consonant, the consonant itself): the fallback map then holds
    single letters, which is what PDFium needs to accept an ActualText span at all.
    """
    if not alone:
        nominal = getattr(font, "_rulesheets_nominal", None)
        if nominal is None:
            import uharfbuzz as hb

            nominal = font._rulesheets_nominal = hb.Font(hb.Face(font.file_content, font.index)).get_nominal_glyph
        chars = [ch for ch in dict.fromkeys(text) if nominal(ord(ch)) == glyph_id]
        if len(chars) == 1:
            return chars[0]
    return text if last else ""


def _line_fonts(stream, runs) -> dict:
    """The PDF font and size of each Pango font of the line (added to the stream once per line)."""
    fonts = {}
    run = runs
    while run != ffi.NULL:
        pango_font = run.data.item.analysis.font
        if pango_font not in fonts:
            fonts[pango_font] = stream.add_font(pango_font)
        run = run.next
    return fonts


def draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix):
    """WeasyPrint 70's `draw_first_line`, with /ActualText spans around clusters whose glyphs lose their text."""
    if text_overflow == "ellipsis" or block_ellipsis != "none":
        return _original_draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix)
    if not textbox.text.strip() or textbox.style["font_size"] < 1e-6:
        return []
    layout = textbox.pango_layout
    pango.pango_layout_set_single_paragraph_mode(layout.layout, True)
    first_line, _index = layout.get_first_line()
    fonts = _line_fonts(stream, first_line.runs[0])
    if any(font.svg or font.png or font.colr for font, _size in fonts.values()):
        return _original_draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix)

    stream.set_text_matrix(*matrix.values)
    utf8_text = layout.text.encode()
    previous_pango_font = None
    pieces = _TJ(stream)
    show = pieces.show

    run = first_line.runs[0]
    while run != ffi.NULL:
        glyph_item = run.data
        run = run.next
        glyph_string = glyph_item.glyphs
        num_glyphs = glyph_string.num_glyphs
        pango_font = glyph_item.item.analysis.font
        if pango_font != previous_pango_font:
            previous_pango_font = pango_font
            font, font_size = fonts[pango_font]
            # Workaround for https://gitlab.gnome.org/GNOME/pango/-/issues/530 (as WeasyPrint does).
            if pango.pango_version() < 14802:
                font_size = textbox.style["font_size"]
            show()
            stream.set_font_size(font.hash, 1 if font.bitmap else font_size)
        code = "02x" if font.bitmap else "04x"
        offset = glyph_item.item.offset
        rtl = bool(glyph_item.item.analysis.level % 2)
        # (glyph, width, x offset, y offset) of each glyph, read from C in one go
        infos = list(_GLYPH_INFO.iter_unpack(ffi.buffer(glyph_string.glyphs, num_glyphs * _GLYPH_INFO.size)))
        clusters = ffi.unpack(glyph_string.log_clusters, num_glyphs)
        for first, end, t1, t2 in _clusters(clusters, num_glyphs, glyph_item.item.length, rtl):
            text = utf8_text[offset + t1:offset + t2].decode()
            glyph_ids = []
            for i in range(first, end):
                glyph_id = infos[i][0]
                if glyph_id == _EMPTY or glyph_id & _UNKNOWN:
                    continue
                if glyph_id not in font.to_unicode:
                    font.to_unicode[glyph_id] = _glyph_text(font, glyph_id, text, last=i == end - 1,
                                                            alone=end - first == 1)
                glyph_ids.append(glyph_id)
            mapped = [font.to_unicode[g] for g in glyph_ids]
            # PDFium reads a glyph mapped to "" as its glyph number ("=" for glyph 0x3d): wrap those too.
            wrap = bool(glyph_ids) and ("".join(mapped) != text or "" in mapped)
            if wrap:
                show()
                stream.begin_marked_content("Span", pydyf.Dictionary({"ActualText": actual_text(text)}))
            for i in range(first, end):
                _draw_glyph(stream, font, font_size, pango_font, infos[i], pieces, code)
            if wrap:
                show()
                stream.end_marked_content()
    show()
    return []


class _TJ(list):
    """The glyph codes (str) and position adjustments (float) of the TJ array being written."""

    def __init__(self, stream):
        super().__init__()
        self.stream = stream

    def show(self) -> None:
        """Write the array as WeasyPrint does (neighbouring glyphs share one hex string), then start anew."""
        if not self:
            return
        out, hex_open = [], False
        for item in self:
            if isinstance(item, str):
                out.append(item if hex_open else "<" + item)
                hex_open = True
            else:
                out.append(f">{item}" if hex_open else f" {item}")  # two numbers need a space between
                hex_open = False
        self.stream.show_text("".join(out) + (">" if hex_open else ""))
        self.clear()


def _draw_glyph(stream, font, font_size, pango_font, glyph_info: tuple, pieces: _TJ, code: str) -> None:
    """One glyph, (glyph, width, x offset, y offset), into the TJ being written (a separate TJ when it
    is raised), as WeasyPrint 70 does; `code` is the format of its number (two or four hex digits)."""
    glyph_id, width, x_offset, y_offset = glyph_info
    if glyph_id == _EMPTY:
        pieces.append(-width / font_size)
        return
    if glyph_id & _UNKNOWN:
        codepoint = glyph_id - _UNKNOWN
        LOGGER.warning(
            '.notdef glyph rendered for Unicode string unsupported by fonts: "%s" (U+%04X)', chr(codepoint), codepoint)
        glyph_id = font.get_unused_glyph_id(codepoint)
        font.widths[glyph_id] = round(width * 1000 * FROM_UNITS / font_size)
        if 0 not in font.widths:
            font.widths[0] = font.widths[glyph_id]
        font.to_unicode.setdefault(glyph_id, chr(codepoint))
    x_offset /= font_size
    rise = y_offset / 1000
    if rise:
        pieces.show()
        stream.set_text_rise(-rise)
        stream.show_text((f"{-x_offset}" if x_offset else "") + "<" + format(glyph_id, code) + ">")
        stream.set_text_rise(0)
    else:
        if x_offset:
            pieces.append(-x_offset)
        pieces.append(format(glyph_id, code))
    if glyph_id in font.widths:
        logical_width = font.widths[glyph_id]
    else:
        pango.pango_font_get_glyph_extents(pango_font, glyph_id, stream.ink_rect, stream.logical_rect)
        logical_width = font.widths[glyph_id] = round(stream.logical_rect.width * 1000 * FROM_UNITS / font_size)
    kerning = logical_width + x_offset - width * 1000 * FROM_UNITS / font_size
    if int(kerning):  # WeasyPrint also writes the zeros; they move nothing
        pieces.append(int(kerning))


def install() -> None:
    """Draw every following WeasyPrint line through `draw_first_line` above (idempotent)."""
    _text.draw_first_line = draw_first_line

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
module draws a line exactly as WeasyPrint does and wraps each *word* that needs it in such a span:
a word with a cluster whose glyphs do not map back to exactly its text, or with a gap between two
of its glyphs that a reader could take for a space (letter-spacing, a virama or nukta placed back
over its base, Korean word joiners). One span per word, never per cluster: Pango cuts some
syllables into two clusters (ম + ো), and a span around half a syllable made MuPDF repeat letters
("খেললোয়াড়"); poppler and PDFium put spaces where spans met ("टे बल"). The span's text is the word
and the space after it, while the space glyph itself is drawn after the span: MuPDF matches a
span's last glyphs against the end of its text and, counting UTF-8 bytes as characters, repeats
the matched end of any non-Latin word ("खिलाड़ी ड़ी"); a text ending in a space its glyphs do not
end with never matches. The joiners print puts between Korean letters are left out of the text.
Words that map back and have no gap are written as before, so most Latin text costs nothing; the
ToUnicode map stays as the fallback for readers that ignore ActualText. That map
is made a little better too: a glyph first seen in a cluster of several glyphs says the one letter
the font's cmap draws with it, where there is one (PDFium ignores a span whose text it cannot
relate to the glyphs, and reads a glyph mapped to nothing as its glyph number). README, "Text
fidelity", has the figures in poppler, PDFium and MuPDF.

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
import unicodedata

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


#: A move to the right inside a word, in thousandths of an em, from which a reader may see a space
#: there: poppler breaks words at a gap of a tenth of the font size, PDFium and MuPDF at less. A word
#: with a larger gap (letter-spacing, a mark placed back over its base, a Korean word joiner) is drawn
#: in an ActualText span of its own.
GAP = 30


#: Characters of the layout text that are not the document's text: the word joiners print puts between
#: Korean letters (render/script.py) and soft hyphens. MuPDF reads a joiner as punctuation and puts a
#: space after it where letters are spaced apart.
_NOT_TEXT = str.maketrans("", "", "\u2060\u00ad")


class _Cluster:
    """One cluster of a line: its text, its glyphs, and whether its glyphs say its text."""

    __slots__ = ("run", "text", "infos", "lost")

    def __init__(self, run, text, infos, lost):
        self.run, self.text, self.infos, self.lost = run, text, infos, lost


def _words(clusters: list[_Cluster]):
    """The line cut into words, each with the space (or spaces) that follow it."""
    word = []
    for cluster in clusters:
        if word and not cluster.text.isspace() and word[-1].text[-1:].isspace():
            yield word
            word = []
        word.append(cluster)
    if word:
        yield word


def _pdf_width(font, font_size, pango_font, glyph_id, stream) -> int:
    """The glyph's advance in the PDF font's /W (thousandths of an em), as WeasyPrint 70 computes it."""
    if glyph_id not in font.widths:
        pango.pango_font_get_glyph_extents(pango_font, glyph_id, stream.ink_rect, stream.logical_rect)
        font.widths[glyph_id] = round(stream.logical_rect.width * 1000 * FROM_UNITS / font_size)
    return font.widths[glyph_id]


def _has_gap(word: list[_Cluster], stream) -> bool:
    """Whether a reader would see a gap between two glyphs of the word (its trailing space aside).

    A glyph drawn at x (its x offset) after its pen position and advancing the pen by its shaped
    width leaves, to a reader who only knows the font's /W width, a gap of
    x(next) - x(this) + shaped width - /W width before the next glyph.
    """
    previous = None  # the right edge of the last glyph, relative to the pen after it
    for cluster in word:
        if cluster.text.isspace():
            break
        font, font_size, pango_font, _code = cluster.run
        for glyph_id, width, x_offset, _y in cluster.infos:
            advance = width * 1000 * FROM_UNITS / font_size
            if glyph_id == _EMPTY:
                if previous is not None:
                    previous -= advance
                continue
            if glyph_id & _UNKNOWN:
                return True  # a .notdef box: its text comes from the span, whatever its width
            x = x_offset / font_size
            if previous is not None and x - previous > GAP:
                return True
            previous = x + _pdf_width(font, font_size, pango_font, glyph_id, stream) - advance
    return False


def _mupdf_items(word: list[_Cluster], stream) -> list[tuple[bool, str, float, float, float]]:
    """The characters MuPDF makes of a word's glyphs: (has a glyph, character, x, advance, font size), x
    and advance in text space from the word's start, as MuPDF reads the TJ arrays this module writes.
    A glyph gives one character per character of its ToUnicode text (the first with the glyph, the
    others as fillers), or U+FFFD when it maps to nothing."""
    items, pen = [], 0.0
    for cluster in word:
        font, font_size, pango_font, _code = cluster.run
        for glyph_id, width, x_offset, _y in cluster.infos:
            if glyph_id == _EMPTY:
                pen += width / font_size / 1000 * font_size
                continue
            if glyph_id & _UNKNOWN:
                return []  # a .notdef box: not modelled
            pdf_width = _pdf_width(font, font_size, pango_font, glyph_id, stream)
            x = x_offset / font_size
            kerning = int(pdf_width + x - width * 1000 * FROM_UNITS / font_size)
            text = font.to_unicode.get(glyph_id) or "\ufffd"
            items.append((True, text[0], pen + x / 1000 * font_size, pdf_width / 1000 * font_size, font_size))
            items += [(False, ch, pen, 0.0, font_size) for ch in text[1:]]
            pen += (x + pdf_width - kerning) / 1000 * font_size
    return items


def _mupdf_breaks_line(items, text: str) -> bool:
    """Whether MuPDF (1.2x, stext-device.c) would start a new line inside a word drawn in a span with
    this ActualText. It gives the text's characters to the glyphs one by one after the longest
    prefix they already read as (and only while the glyph's index is under the count of characters
    left); a combining mark given to a glyph rides on the pen, so the glyph's advance is lost, and a
    glyph more than 0.8 em past the pen starts a new line."""
    start = 0
    while start < len(items) and start < len(text) and items[start][1] == text[start]:
        start += 1
    left = len(text) - start
    pen = None
    for i, (glyph, ch, x, advance, size) in enumerate(items):
        if i >= start:
            if i >= left:
                break  # MuPDF sends the rest of the text at the end of the span, on the pen
            ch = text[i]
        if not glyph or unicodedata.category(ch) == "Mn":
            continue
        if pen is not None and abs(x - pen) / size >= 0.8:
            return True
        pen = x + advance
    return False


def draw_first_line(stream, textbox, text_overflow, block_ellipsis, matrix):
    """WeasyPrint 70's `draw_first_line`, with /ActualText spans around words whose glyphs lose their text."""
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
    clusters = []
    run = first_line.runs[0]
    while run != ffi.NULL:
        glyph_item = run.data
        run = run.next
        glyph_string = glyph_item.glyphs
        num_glyphs = glyph_string.num_glyphs
        pango_font = glyph_item.item.analysis.font
        font, font_size = fonts[pango_font]
        # Workaround for https://gitlab.gnome.org/GNOME/pango/-/issues/530 (as WeasyPrint does).
        if pango.pango_version() < 14802:
            font_size = textbox.style["font_size"]
        state = (font, font_size, pango_font, "02x" if font.bitmap else "04x")
        offset = glyph_item.item.offset
        rtl = bool(glyph_item.item.analysis.level % 2)
        # (glyph, width, x offset, y offset) of each glyph, read from C in one go
        infos = list(_GLYPH_INFO.iter_unpack(ffi.buffer(glyph_string.glyphs, num_glyphs * _GLYPH_INFO.size)))
        log_clusters = ffi.unpack(glyph_string.log_clusters, num_glyphs)
        for first, end, t1, t2 in _clusters(log_clusters, num_glyphs, glyph_item.item.length, rtl):
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
            # PDFium reads a glyph mapped to "" as its glyph number ("=" for glyph 0x3d): those are lost too.
            lost = bool(glyph_ids) and ("".join(mapped) != text or "" in mapped)
            clusters.append(_Cluster(state, text, infos[first:end], lost))

    pieces = _TJ(stream)
    show = pieces.show
    current = None
    for word in _words(clusters):
        # One span per word, never per cluster: readers that place a span's text where its first
        # glyph is (MuPDF) or break words at gaps (poppler, PDFium) get the word whole. The span's
        # text ends with the space after the word, so the next word never runs into it.
        wrap = any(c.lost for c in word) or _has_gap(word, stream)
        body = len(word)
        while body and word[body - 1].text.isspace():
            body -= 1
        for i, cluster in enumerate(word):
            if cluster.run is not current:
                font, font_size, pango_font, code = current = cluster.run
                show()
                stream.set_font_size(font.hash, 1 if font.bitmap else font_size)
            if wrap and i == 0:
                # After the font is set: MuPDF cuts a span that starts with a font change in two lines.
                show()
                text = "".join(c.text for c in word).translate(_NOT_TEXT)
                text = text if body < len(word) else text + " "
                # MuPDF gives the text's characters to the glyphs one by one: where that would start
                # a new line inside the word, a leading space shifts them by one (readers that take
                # the text as a whole only see one more space between words).
                items = _mupdf_items(word[:body], stream)
                if _mupdf_breaks_line(items, text) and not _mupdf_breaks_line(items, " " + text):
                    text = " " + text
                stream.begin_marked_content("Span", pydyf.Dictionary({"ActualText": actual_text(text)}))
            for info in cluster.infos:
                _draw_glyph(stream, font, font_size, pango_font, info, pieces, code)
            if wrap and i == body - 1:
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
    logical_width = _pdf_width(font, font_size, pango_font, glyph_id, stream)
    kerning = logical_width + x_offset - width * 1000 * FROM_UNITS / font_size
    if int(kerning):  # WeasyPrint also writes the zeros; they move nothing
        pieces.append(int(kerning))


def install() -> None:
    """Draw every following WeasyPrint line through `draw_first_line` above (idempotent)."""
    _text.draw_first_line = draw_first_line

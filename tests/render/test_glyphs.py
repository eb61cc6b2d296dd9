"""Missing glyphs are found from the fonts' cmaps (generator/render/glyphs.py), not from WeasyPrint's log."""

from __future__ import annotations

import logging

import pytest

from generator.render import glyphs

LATIN = frozenset(map(ord, "abcde ")) | {0x0301}
BENGALI = frozenset({0x09C7, 0x09D7, 0x0995, 0x20})


@pytest.mark.parametrize(("char", "points", "expected"), [
    ("a", LATIN, True),
    ("f", LATIN, False),
    ("\u00e9", LATIN, True),  # é: e + combining acute, both in the font
    ("\u00e9", LATIN - {0x0301}, False),
    ("\u09cc", BENGALI, True),  # ৌ: HarfBuzz draws U+09C7 U+09D7
    ("\u09cc", BENGALI - {0x09D7}, False),
    ("\u202f", LATIN, True),  # narrow no-break space: drawn as a narrower U+0020
    ("\u202f", frozenset({0x61}), False),
    ("\u200d", frozenset(), True),  # zero width joiner, soft hyphen, a variation selector: no glyph of their own
    ("\u00ad", frozenset(), True),
    ("\ufe0f", frozenset(), True),
    ("\U0001fae8", LATIN, False),
])
def test_drawable(char, points, expected):
    assert glyphs.drawable(char, points) is expected


def test_describe_names_code_points_in_order():
    assert glyphs.describe({"\U0001fae8", "\u0a00", "b"}) == '"b" (U+0062), "\u0a00" (U+0A00), "\U0001fae8" (U+1FAE8)'


HTML = ('<!DOCTYPE html><html lang="fr"><head><title>t</title></head><body>'
        '<p>1\u202f000 points\u00a0; co\u00adop, caf\u00e9 « oui » {extra}</p>'
        '<p lang="bn" style="font-family: \'Noto Sans Bengali\'">কৌশল টেবিল নম্বর ২১</p>'
        '<p lang="hi" style="font-family: \'Noto Sans Devanagari\'">खिलाड़ियों की बारी, आख़िरी पत्ता</p>'
        '<p lang="ko">판돈을 칩 2개로 정하고</p></body></html>')


@pytest.fixture
def silent_weasyprint():
    """WeasyPrint's log switched off: whatever it says about .notdef cannot be what finds the glyph."""
    logger = logging.getLogger("weasyprint")
    logger.disabled = True
    yield
    logger.disabled = False


@pytest.mark.render
def test_a_character_no_font_has_is_refused_without_the_log(silent_weasyprint):
    from generator.render.pdf import RenderError, html_to_pdf

    with pytest.raises(RenderError) as err:
        html_to_pdf(HTML.format(extra="\U0001fae8"), "a4", "shaking-face")
    assert str(err.value) == ('shaking-face: no font has a glyph for "\U0001fae8" (U+1FAE8); '
                              "add a font with it to the locale's fonts")


@pytest.mark.render
def test_latin_indic_and_hangul_text_with_joiners_and_thin_spaces_has_every_glyph(silent_weasyprint):
    from weasyprint import HTML as Document

    from generator.render.pdf import _fonts, html_to_pdf

    data, pages = html_to_pdf(HTML.format(extra="\u2009!"), "a4", "ok")
    assert data.startswith(b"%PDF-") and pages == 1
    doc = Document(string=HTML.format(extra="")).render(font_config=_fonts())
    doc.write_pdf()
    assert glyphs.missing_characters(doc) == set()
    drawn = set("".join("".join(font.to_unicode.values()) for font in doc.fonts.values()))
    assert {"\u09cc", "\u092c", "판", "\u00e9"} <= drawn  # the check did read the text of every script

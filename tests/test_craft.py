"""Page craft: no paragraph of a rulebook ends with a short word alone on its last line (issue 26, item 5).

The rulebook's HTML ties a short last word to the word before with U+00A0 (render/ties.py); the
layout is then read back (render/gate.short_endings). `make test` lays out one rulebook per script on
A4; the sweep over every rulebook, both papers and every locale is `make test-full`. Without the
filter (`tie_last_words` made the identity, as the last test here does) the same rulebooks have
paragraphs ending with "pass.", "है।", "돼요.", "যায়।".
"""

from __future__ import annotations

import re

import pytest

from generator.core.registry import GAMES
from generator.dev.craft import rulebook_endings
from generator.i18n.translate import discover_locales
from generator.render import html as html_module
from generator.render.ties import NO_BREAK, short_word_limit, tie_last_words

#: One rulebook per script (Latin, Hangul, Devanagari, Bengali), each with short last lines before the fix.
REPRESENTATIVE = (("bunco", "en"), ("tonk", "ko"), ("stop-the-bus", "hi"), ("call-break", "bn"))


def body(inner: str) -> str:
    return f"<html><head><title>a b c</title><style>p {{ x: y }}</style></head><body>{inner}</body></html>"


# --- the filter ------------------------------------------------------------------------------------

def test_a_short_last_word_is_tied_to_the_word_before():
    out = tie_last_words(body("<p>Lay down any spreads\nyou can.</p>"), "en")
    assert "<p>Lay down any spreads\nyou\u00a0can.</p>" in out


def test_a_long_last_word_and_a_block_of_two_words_are_left_alone():
    html = body("<p>They keep their scorecards.</p><td>Head table</td><p>Two words.</p>")
    assert tie_last_words(html, "en") == html


def test_only_the_space_changes_and_markup_is_kept():
    html = body('<p>A <em>caught</em> knocker pays <strong>each</strong> <a href="#x">of them</a>.</p>'
                '<td>Asha and Ben <span class="mark">won</span></td>')
    out = tie_last_words(html, "en")
    assert out.count(NO_BREAK) == 2
    assert out.replace(NO_BREAK, " ") == html  # the same bytes but for the tie
    assert '<a href="#x">of\u00a0them</a>.' in out and "Ben\u00a0<span" in out


def test_the_head_and_the_words_of_inline_blocks_are_not_touched():
    card = '<span class="card hearts">7<span class="suit">♥</span></span>'
    html = body(f"<p>Then lay down the {card} 8</p><p>Lay the three {card}</p>")
    assert tie_last_words(html, "en") == html  # never glued to or inside a drawn card
    assert tie_last_words(body("<p>a b c</p>"), "en").startswith("<html><head><title>a b c</title>")


def test_french_no_break_spaces_are_kept_and_count_with_their_word():
    out = tie_last_words(body("<p>Peut-on encore jouer après un tonk\u202f?</p>"), "fr")
    assert "un\u00a0tonk\u202f?" in out


def test_limits_follow_the_script():
    assert short_word_limit("ko") < short_word_limit("en") == short_word_limit("fr")
    # Korean: a word of three syllables is short, of four is not.
    assert NO_BREAK in tie_last_words(body("<p>카드를 한 장 버려야 해요.</p>"), "ko")
    assert NO_BREAK not in tie_last_words(body("<p>카드를 한 장 버리고 시작합니다</p>"), "ko")
    # Hindi: a word and its danda, marks counted as code points.
    assert "सकती\u00a0है।" in tie_last_words(body("<p>यह बाज़ी कभी भी ख़त्म हो सकती है।</p>"), "hi")


def test_a_list_item_ties_its_own_words_not_its_nested_list():
    out = tie_last_words(body("<ul><li>First of all the\n<ul><li>one two three</li></ul></li></ul>"), "en")
    assert "all\u00a0the\n<ul><li>one two\u00a0three</li>" in out


# --- the layout ------------------------------------------------------------------------------------

def _lines(found) -> list[str]:
    return [f.line(f"{code}/{game}/rulebook-{paper}.pdf") for (game, code, paper), items in found.items()
            for f in items]


@pytest.mark.parametrize("game, code", REPRESENTATIVE)
def test_no_paragraph_ends_with_a_short_word_alone(game, code):
    found = rulebook_endings([game], [code], ["a4"])
    assert len(found) == 1
    assert _lines(found) == []


@pytest.mark.full
def test_no_rulebook_paragraph_ends_with_a_short_word_alone_anywhere():
    found = rulebook_endings(list(GAMES), discover_locales(), ["a4", "letter"])
    assert len(found) == len(GAMES) * len(discover_locales()) * 2
    assert _lines(found) == []


def test_without_the_filter_the_same_rulebooks_have_short_last_lines(monkeypatch):
    monkeypatch.setattr(html_module, "tie_last_words", lambda html, lang: html)
    found = rulebook_endings(["bunco"], ["en"], ["a4"])
    lines = _lines(found)
    assert lines, "the measure found nothing without the filter: it cannot fail"
    assert all(re.fullmatch(r"en/bunco/rulebook-a4\.pdf: page \d+: \w+ '.+' ends with the line '\S+' alone", line)
               for line in lines), lines
